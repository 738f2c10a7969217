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
            crafts.append(craft(f"C{i:03d}x{j}", rng.randint(10, 200), rng.randint(0, 6),
                                **kit))
        order = rng.choice(["hold", "hold", "hold", "hold-special maintain", "patrol"])
        if order == "patrol" and not any(c.command for g in groups if g.owner == owner
                                         for c in g.craft):
            order = "hold"
        groups.append(group(f"G{i:03d}", owner, where, *crafts, order=order,
                            lost=rng.random() < 0.05, diplomat=rng.random() < 0.05))
    for i, h in enumerate(hexes[:6]):
        groups.append(static(f"Station {i}", 1 + i % len(PLAYERS), h, "A-1",
                             craft(f"Fort {i}", 150, armed=i % 2 == 0)))
    state = scenario("Big", (12, 10), PLAYERS, groups, systems=systems, alliances=[(1, 3)])
    state.step = "orders"  # as start() leaves it
    state.revealed = sorted(g.name for g in state.groups.values() if g.static)
    return state


Hook = Callable[[State, list[Request]], None]


def random_action(req: Request, rng: random.Random) -> dict[str, Any]:
    """A random legal answer to a sealed request (splits left at 'all')."""
    spec = req.actions[0]
    act: dict[str, Any] = {"type": spec.type}
    for f in spec.fields:
        values = [o.value for o in f.options]
        if f.name.startswith("split:") or f.name.startswith("group:"):
            act[f.name] = req.default.get(f.name) if req.default else None
            if act[f.name] is None:
                del act[f.name]
            continue
        if f.max_values == 1:
            act[f.name] = rng.choice(values)
        else:
            act[f.name] = rng.sample(values, rng.randint(f.min_values, f.max_values))
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
            out = RULESET.resolve(state, {r.seat: random_action(r, rng) for r in reqs}, dice)
        if check_input:
            assert state.model_dump_json() == before, "resolve/act changed its input state"
        state = out.state
        events += out.events
    return state, events
