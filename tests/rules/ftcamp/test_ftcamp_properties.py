"""Property tests over random single-hex engagements (hypothesis, modest sizes)."""

from __future__ import annotations

import random
from typing import Any

from ftcamp_testkit import HEX, SYS, craft, world
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.base import Event
from bot.rules.dice import SeededDice
from bot.rules.ftcamp import RULESET
from bot.rules.ftcamp.model import FleetOrder, Group, State
from tests.support.examples import examples

PRE_REVEAL_PUBLIC_KINDS = {"round", "fleet_orders", "hex"}


@st.composite
def hexes(draw: Any) -> State:
    where = draw(st.sampled_from([HEX, SYS]))
    players = draw(st.integers(2, 3))
    alliances = tuple(p for p in [(1, 3)] if players == 3 and draw(st.booleans()))
    groups: list[Group] = []
    for i in range(draw(st.integers(2, 6))):
        owner = 1 + i % players if i < players else draw(st.integers(1, players))
        crafts = [craft(f"g{i}c{j}", thrust=draw(st.integers(0, 6)),
                        ftl=draw(st.sampled_from(["working"] * 4 + ["crippled"])))
                  for j in range(draw(st.integers(1, 3)))]
        kinds = ["hold", "hold", "hold-special maintain", "hold-special tug", "support"]
        if where == SYS:
            kinds.append("maintain-orbit")
        kind = draw(st.sampled_from(kinds))
        order = FleetOrder()
        if kind == "support":
            mates = [g.name for g in groups if g.owner == owner and g.static is None]
            if mates:
                order = FleetOrder(kind="support", target=mates[0])
        elif kind != "hold":
            k, _, t = kind.partition(" ")
            order = FleetOrder(kind=k, target=t)  # type: ignore[arg-type]
        groups.append(Group(name=f"G{i}", owner=owner, hex=where, craft=crafts, order=order,
                            lost=draw(st.booleans()), diplomat=draw(st.booleans()),
                            sector=draw(st.sampled_from([None, "A-1", "C-3"]))))
    if len(groups) > 1 and draw(st.booleans()):  # a tug in another group (E-D29)
        towed, tug = draw(st.permutations(groups))[:2]
        tug.craft[0].tug = 50
        towed.tugged_by = tug.name
    for i in range(draw(st.integers(0, 2))):
        groups.append(Group(name=f"S{i}", owner=draw(st.integers(1, players)), hex=where,
                            sector=draw(st.sampled_from(["A-1", "B-2", "C-3"])),
                            static=draw(st.sampled_from(["military", "civilian"])),
                            craft=[craft(f"s{i}", mass=100, armed=draw(st.booleans()))]))
    return world(*groups, players=players, alliances=alliances)


def drive(state: State, rng: random.Random) -> tuple[State, list[Event], dict[int, list[str]]]:
    """Play one round with random legal choices; returns the state, events and secrets."""
    dice = SeededDice(rng.randrange(10**6), "prop")
    events: list[Event] = []
    secrets: dict[int, list[str]] = {}
    for _ in range(200):
        if state.round > 1:
            break
        reqs = RULESET.pending(state)
        if reqs[0].kind == "turn":
            req = reqs[0]
            options = [o.value for a in req.actions for o in a.fields[0].options]
            # Few sectors, so that groups meet often.
            crowded = [o for o in options if o in ("A-1", "A-2", "C-3")] or options
            out = RULESET.act(state, req.seat, {"type": "place",
                                                "sector": rng.choice(crowded)}, dice)
        else:
            actions = {}
            for req in reqs:
                act: dict[str, Any] = {"type": req.actions[0].type}
                for f in req.actions[0].fields:
                    values = [o.value for o in f.options]
                    if f.name.startswith("split:"):
                        continue
                    if f.name.startswith("group:"):
                        name = f.name.split(":", 1)[1]
                        act[f.name] = state.groups[name].order.text() \
                            if state.groups[name].order.text() in values else "hold"
                    elif f.max_values == 1:
                        act[f.name] = rng.choice(values)
                    if f.name.startswith("order:"):
                        secrets.setdefault(req.seat, []).append(act[f.name])
                actions[req.seat] = act
            out = RULESET.resolve(state, actions, dice)
        for e in out.events:
            if e.kind == "scan" and e.audience.kind == "seat":
                secrets.setdefault(e.audience.seat or 0, []).append(e.text)
        state = out.state
        events += out.events
    return state, events, secrets


@settings(max_examples=examples(40), deadline=None)
@given(start=hexes(), seed=st.integers(0, 10**6))
def test_battle_list_places_every_group_exactly_once(start: State, seed: int) -> None:
    movers = {n for n, g in start.groups.items() if g.static is None}
    state, _, _ = drive(start, random.Random(seed))
    assert state.round == 2
    for result in state.results:
        in_battle = [bg.group for b in result.battles for bg in b.groups]
        assert len(in_battle) == len(set(in_battle)), "a group is in two battles"
        locked = [n for names in result.locked.values() for n in names]
        buckets = [set(in_battle) & movers, set(result.escaped), set(locked),
                   set(result.unengaged)]
        seen = [n for b in buckets for n in b]
        assert sorted(seen) == sorted(movers), (buckets, movers)
        for name in result.escaped:  # E-D29: never without a tug that was with it
            tug = start.groups[name].tugged_by
            if tug not in (None, name) and any(c.tug and not c.crippled
                                               for c in start.groups[tug].craft):
                assert tug in result.escaped, (name, tug, result)


@settings(max_examples=examples(40), deadline=None)
@given(start=hexes(), seed=st.integers(0, 10**6))
def test_no_private_scan_or_sealed_order_in_public_before_the_reveal(start: State,
                                                                     seed: int) -> None:
    _, events, secrets = drive(start, random.Random(seed))
    before = []
    for e in events:
        if e.kind == "engage_reveal":
            break
        before.append(e)
    for e in before:
        assert e.audience.kind != "public" or e.kind in PRE_REVEAL_PUBLIC_KINDS
        if e.audience.kind == "public":
            assert "contact(s)" not in e.text
            assert not any(f": {o}" in e.text for s in secrets.values() for o in s
                           if o in ("RT", "SF", "EE") or "+" in o)
    # A scan report line never reaches the channel, before or after the reveal.
    scan_lines = {line for texts in secrets.values() for t in texts
                  for line in t.splitlines()[1:] if "contact(s)" in line}
    for e in events:
        if e.audience.kind == "public":
            assert not any(line in e.text for line in scan_lines)
