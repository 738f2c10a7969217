"""Big FTCamp scenarios (hundreds of groups) for the reference and timing checks, and a
driver that plays a round with seeded random legal choices."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bot.rules.base import Event, Outcome, Request
from bot.rules.dice import SeededDice
from bot.rules.ftcamp import RULESET
from bot.rules.ftcamp.build import craft, group, scenario, static, system
from bot.rules.ftcamp.model import Group, State

PLAYERS = ("Terran Union", "Kravak Horde", "Free Colonies", "Sa'Vasku")


def big_state(n_groups: int, seed: int = 1) -> State:
    """``n_groups`` groups of 4 players on a 12 x 10 map, crowded into a few hexes so that
    about a tenth of the hexes are contested; craft carry every kind of kit (E-2)."""
    rng = random.Random(seed)
    hexes = [f"{c:02d}{r:02d}" for c in range(2, 11, 2) for r in range(2, 9, 3)]
    systems = [system(hexes[0], "Tau Ceti", "A-2"), system(hexes[4], "Barnard", "B-4")]
    groups: list[Group] = []
    for i in range(n_groups):
        owner = 1 + i % len(PLAYERS)
        where = rng.choice(hexes) if i % 5 else f"{1 + i % 12:02d}{1 + (i // 12) % 10:02d}"
        crafts = []
        for j in range(rng.randint(1, 6)):
            kit: dict[str, Any] = {"armed": rng.random() < 0.7}
            roll = rng.random()
            if roll < 0.1:
                kit["decoys"] = rng.randint(1, 3)
            elif roll < 0.2:
                kit["weasel"] = rng.randint(1, 3)
            elif roll < 0.3:
                kit["stealth"] = rng.randint(1, 3)
            elif roll < 0.4:
                kit["sensors"] = rng.randint(1, 3)
            elif roll < 0.45:
                kit["ftl"] = "crippled"
            elif roll < 0.5:
                kit["ecm"] = True
            if i == j == 0 or rng.random() < 0.02:
                kit["command"] = True
            if rng.random() < 0.05 and kit.get("ftl") != "crippled":
                kit["tug"] = 100
            crafts.append(craft(f"C{i:03d}x{j}", rng.randint(10, 200), rng.randint(0, 6),
                                **kit))
        order = rng.choice(["hold", "hold", "hold", "hold-special maintain", "patrol",
                            "support"])
        if order == "patrol" and not any(c.command for g in groups if g.owner == owner
                                         for c in g.craft):
            order = "hold"
        mates = [g.name for g in groups if g.owner == owner and g.hex == where]
        if order == "support":
            order = f"support {rng.choice(mates)}" if mates else "hold"
        groups.append(group(f"G{i:03d}", owner, where, *crafts, order=order,
                            lost=rng.random() < 0.05, diplomat=rng.random() < 0.05))
    for g in groups:  # crippled groups towed by a tug of their owner in the hex (E-D29)
        tugs = [t.name for t in groups if t.owner == g.owner and t.hex == g.hex
                and t.name != g.name and any(c.tug for c in t.craft)]
        if tugs and any(c.crippled for c in g.craft):
            g.tugged_by = tugs[0]
    for i, h in enumerate(hexes[:6]):
        groups.append(static(f"Station {i}", 1 + i % len(PLAYERS), h, "A-1",
                             craft(f"Fort {i}", 150, armed=i % 2 == 0)))
    state = scenario("Big", (12, 10), PLAYERS, groups, systems=systems, alliances=[(1, 3)])
    state.step = "orders"  # as start() leaves it
    state.revealed = sorted(g.name for g in state.groups.values() if g.static)
    return state


Hook = Callable[[State, list[Request]], None]


def random_action(req: Request, rng: random.Random,
                  orders: dict[str, str] | None = None) -> dict[str, Any]:
    """A random legal answer to a sealed request (splits left at 'all'); fleet orders keep
    ``orders`` (group -> standing order text) mostly."""
    orders = orders or {}
    spec = req.actions[0]
    act: dict[str, Any] = {"type": spec.type}
    for f in spec.fields:
        values = [o.value for o in f.options]
        if f.name.startswith("group:"):  # keep the standing order when it is legal
            standing = orders.get(f.name.split(":", 1)[1])
            act[f.name] = standing if standing in values else values[0]
            if rng.random() < 0.1:
                act[f.name] = rng.choice(values)
            continue
        if f.name.startswith("split:"):
            continue
        if f.max_values == 1:
            act[f.name] = rng.choice(values)
        else:
            if f.name.startswith("dispatch:"):  # each group answers one interception
                taken = {v for k, vs in act.items() if k.startswith("dispatch:") for v in vs}
                values = [v for v in values if v not in taken]
            act[f.name] = rng.sample(values, rng.randint(min(f.min_values, len(values)),
                                                         len(values)))
    return act


def play_round(state: State, seed: int, hook: Hook | None = None, steps: int = 2000,
               check_input: bool = False) -> tuple[State, list[Event]]:
    """Play until the next round opens, with random legal choices from the requests;
    ``check_input`` asserts that resolve/act leave the state they are given unchanged."""
    rng = random.Random(seed)
    dice = SeededDice(seed, "big")
    events: list[Event] = []
    start = state.round
    for _ in range(steps):
        if state.round > start or state.over:
            break
        reqs = RULESET.pending(state)
        if hook is not None:
            hook(state, reqs)
        out: Outcome
        before = state.model_dump_json() if check_input else ""
        if reqs and reqs[0].kind == "turn":
            req = reqs[0]
            options = [o.value for a in req.actions for o in a.fields[0].options]
            sector = rng.choice(options)
            out = RULESET.act(state, req.seat, {"type": f"place-{sector[0]}",
                                                "sector": sector}, dice)
        else:
            standing = {n: g.order.text() for n, g in state.groups.items()}
            out = RULESET.resolve(state, {r.seat: random_action(r, rng, standing)
                                          for r in reqs}, dice)
        if check_input:
            assert state.model_dump_json() == before, "resolve/act changed its input state"
        state = out.state
        events += out.events
    return state, events
