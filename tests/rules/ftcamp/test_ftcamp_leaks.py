"""E-D33 property: no public text and no message to an opponent names a craft before the
battle list does (E-4 scans show classes only, E-10 reveal, E-D16 visibility).

Many seeded random rounds through the real state machine, every choice random and legal
(decoy launches, weasel settings, dispatches, splits, betrayals, picks, chases, reserves)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from ftcamp_testkit import craft, world

from bot.errors import RulesError
from bot.rules.base import Event, Request
from bot.rules.dice import SeededDice
from bot.rules.ftcamp import RULESET
from bot.rules.ftcamp.model import FleetOrder, Group, State

GAMES = 80
HEXES = ("0303", "0304", "0404")


def random_world(rng: random.Random) -> State:
    """2-4 players crowded into three hexes, a patrol wing far away; every kind of kit."""
    players = rng.randint(2, 4)
    alliances = ((1, 3),) if players >= 3 and rng.random() < 0.5 else ()
    groups: list[Group] = []
    for i in range(rng.randint(3, 9)):
        owner = 1 + i % players
        crafts = []
        for j in range(rng.randint(1, 4)):
            crafts.append(craft(
                f"Ship-{i:02d}-{j}", mass=rng.choice([10, 30, 60, 120, 200]),
                thrust=rng.randint(0, 6), stealth=rng.choice([0, 0, 1, 2, 3]),
                sensors=rng.choice([0, 0, 1, 2]), decoys=rng.choice([0, 0, 1, 2]),
                weasel=rng.choice([0, 0, 2]), ecm=rng.random() < 0.2,
                armed=rng.random() < 0.7, command=rng.random() < 0.2,
                ftl="crippled" if rng.random() < 0.1 else "working"))
        order = FleetOrder()
        mates = [g.name for g in groups if g.owner == owner]
        roll = rng.random()
        if roll < 0.25:
            order = FleetOrder(kind="patrol")
        elif roll < 0.35 and mates:
            order = FleetOrder(kind="support", target=rng.choice(mates))
        elif roll < 0.45:
            order = FleetOrder(kind="hold-special", target="maintain")
        groups.append(Group(name=f"G{i}", owner=owner, hex=rng.choice(HEXES), craft=crafts,
                            order=order, lost=rng.random() < 0.1,
                            sector=rng.choice([None, None, "A-1", "C-3"]),
                            diplomat=rng.random() < 0.1))
    for seat in range(1, players + 1):  # a far patrol wing each, to dispatch (E-D12)
        groups.append(Group(name=f"Wing{seat}", owner=seat, hex="0707",
                            craft=[craft(f"Wingship-{seat}", command=True)],
                            order=FleetOrder(kind="patrol")))
    if rng.random() < 0.5:
        groups.append(Group(name="Fort", owner=rng.randint(1, players), hex=HEXES[0],
                            sector="A-1", static="military",
                            craft=[craft("Bastion-9", mass=150, thrust=0, armed=True)]))
    state = world(*groups, players=players, alliances=alliances)
    # Patrol needs a command craft of the owner (E-3); the far wings carry one.
    return state


def random_action(state: State, req: Request, rng: random.Random) -> dict[str, Any]:
    spec = req.actions[0]
    act: dict[str, Any] = {"type": spec.type}
    for f in spec.fields:
        values = [o.value for o in f.options]
        if f.name.startswith("group:"):
            act[f.name] = (req.default or {}).get(f.name, values[0]) \
                if rng.random() < 0.85 else rng.choice(values)
        elif f.max_values == 1:
            act[f.name] = rng.choice(values)
        else:
            act[f.name] = rng.sample(values, rng.randint(f.min_values, f.max_values))
    try:
        RULESET.check(state, req.seat, act)
    except RulesError:  # a split too large for the order drawn: no split
        act = {k: v for k, v in act.items() if not k.startswith("split:")}
    return act


def craft_owners(*states: State) -> dict[str, int]:
    return {c.name: g.owner for s in states for g in s.groups.values() for c in g.craft}


def named(text: str, names: dict[str, int]) -> set[str]:
    return {n for n in names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text)}


class Checker:
    def __init__(self) -> None:
        self.checks = 0

    def public(self, e: Event, before: State, after: State) -> None:
        names = craft_owners(before, after)
        text = e.text + json.dumps(e.data)
        allowed: set[str] = set()
        if e.kind == "battle_list":  # a battle shows what fought (E-13)
            allowed = {n for b in after.results[-1].battles for bg in b.groups
                       for p in bg.parts for n in p}
        self.checks += 1
        assert named(text, names) <= allowed, (e.kind, named(text, names) - allowed, text)
        if e.kind != "battle_list":
            assert "decoy" not in text.lower(), text
        # FTL-crippled craft are the owner's secret too: no public line gives them away
        assert "crippled" not in text.lower() and "lost with crew" not in text, text

    def private(self, seat: int, text: str, before: State, after: State) -> None:
        names = craft_owners(before, after)
        foreign = {n: o for n, o in names.items() if not after.allied(seat, o)}
        self.checks += 1
        assert not named(text, foreign), (seat, named(text, foreign), text)

    def views(self, state: State) -> None:
        names = craft_owners(state)
        public = RULESET.view(state, None)
        public.pop("battles")
        self.checks += 2
        assert not named(json.dumps(public) + RULESET.status(state, None), names)
        for p in state.players:
            mine = RULESET.view(state, p.seat)
            mine.pop("battles")
            self.private(p.seat, json.dumps(mine) + RULESET.status(state, p.seat), state,
                         state)

    def requests(self, state: State, reqs: list[Request]) -> None:
        for r in reqs:
            self.private(r.seat, r.model_dump_json(), state, state)
        # E-D33: a uniform step asks every seat with groups in the hex.
        if state.step in ("special", "engage", "reserves", "patrol") and state.run:
            here = {g.owner for g in state.groups.values() if g.hex == state.run.hex}
            self.checks += 1
            assert {r.seat for r in reqs} == here, (state.step, reqs, here)


def play(seed: int, checker: Checker) -> int:
    """One random round; returns the number of contested hexes played."""
    rng = random.Random(seed)
    state = random_world(rng)
    dice = SeededDice(seed, "leaks")
    for _ in range(400):
        if state.round > 1:
            break
        reqs = RULESET.pending(state)
        checker.requests(state, reqs)
        checker.views(state)
        if reqs[0].kind == "turn":
            req = reqs[0]
            options = [o.value for a in req.actions for o in a.fields[0].options]
            crowded = [o for o in options if o in ("A-1", "A-2", "C-3")] or options
            sector = rng.choice(crowded)
            out = RULESET.act(state, req.seat, {"type": f"place-{sector[0]}",
                                                "sector": sector}, dice)
        else:
            out = RULESET.resolve(state, {r.seat: random_action(state, r, rng) for r in reqs},
                                  dice)
        for e in out.events:
            if e.audience.kind == "public":
                checker.public(e, state, out.state)
            elif e.audience.kind == "seat":
                assert e.audience.seat is not None
                checker.private(e.audience.seat, e.text + json.dumps(e.data), state,
                                out.state)
        state = out.state
    assert state.round == 2
    return len(state.results)


@pytest.mark.slow  # whole random games, seconds
def test_e_d33_no_public_text_or_opponent_message_names_a_hidden_craft() -> None:
    checker = Checker()
    hexes = sum(play(seed, checker) for seed in range(GAMES))
    # The random worlds do fight: most rounds have contested hexes, so the checks bite.
    assert hexes >= GAMES, hexes
    assert checker.checks > 50 * GAMES, checker.checks
    print(f"leak property: {GAMES} games, {hexes} contested hexes, {checker.checks} checks")
