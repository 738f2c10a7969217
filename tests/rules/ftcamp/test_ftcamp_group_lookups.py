"""The group look-ups are built once per set of groups, not once per read (issue 17 item 9):
a later index of the same groups uses them again. Whatever the rules read through them (views,
status, requests, outcomes) is the same as with look-ups built afresh for every read, and each
view is the one the code before issue 17 built (kept here as the reference)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from ftcamp_big import big_state, play_round
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.base import Request
from bot.rules.ftcamp import RULESET, index
from bot.rules.ftcamp.copying import replace_group, working_copy
from bot.rules.ftcamp.core import group_size, real_craft_count
from bot.rules.ftcamp.hooks import gm_view, texts
from bot.rules.ftcamp.model import Group, State
from bot.rules.ftcamp.scan import contacts
from bot.rules.ftcamp.views import sector_view, view_of
from tests.support.examples import examples


def fresh(state: State) -> index.GroupLookups:
    return index.GroupLookups(state, index.groups_key(state))


def same_lookups(a: index.GroupLookups, b: index.GroupLookups) -> bool:
    """Equal by identity of the groups they list, not by their fields."""
    def ids(d: dict[Any, list[Any]]) -> dict[Any, list[int]]:
        return {k: [id(g) for g in v] for k, v in d.items()}
    return ([id(g) for g in a.by_name] == [id(g) for g in b.by_name]
            and ids(a.by_hex) == ids(b.by_hex) and ids(a.by_hex_name) == ids(b.by_hex_name)
            and ids(a.by_owner) == ids(b.by_owner) and a.command == b.command)


def change(state: State, rng: random.Random) -> None:
    """One change as the rules make them (copying.py, fleet.py, special.py, conflicts.py)."""
    names = sorted(state.groups)
    name = rng.choice(names)
    g = state.groups[name]
    kind = rng.randrange(6)
    if kind == 0:  # a move: the hex set in place
        g.hex = rng.choice(sorted({x.hex for x in state.groups.values()}))
    elif kind == 1:  # the craft list grows in place (decoys; here a craft that commands)
        g.craft.extend([c.model_copy(update={"name": c.name + "d", "command": True})
                        for c in g.craft[:1]])
    elif kind == 2:  # craft lost: a new list
        g.craft = g.craft[1:] or g.craft
    elif kind == 3:  # a changed copy put in, a command craft among its craft
        replace_group(state, name, craft=[c.model_copy(update={"command": True})
                                          for c in g.craft])
    elif kind == 4:  # a group gone
        del state.groups[name]
    else:  # a working copy of the whole state
        state.groups = working_copy(state).groups


@settings(max_examples=examples(30), deadline=None)
@given(seed=st.integers(0, 10**6), changes=st.integers(1, 12))
def test_the_look_ups_used_again_are_those_a_fresh_build_gives(seed: int, changes: int) -> None:
    rng = random.Random(seed)
    state = big_state(60, seed=seed % 7)
    with index.frozen(state):  # the look-ups the next index may use again
        pass
    for _ in range(changes):
        change(state, rng)
        with index.frozen(state) as idx:
            assert same_lookups(index.group_lookups(state), fresh(state))
            assert idx.by_hex is index.group_lookups(state).by_hex
    unchanged = index.group_lookups(state)
    with index.frozen(state):  # nothing changed: no new build
        assert index.group_lookups(state) is unchanged


def reference_view(state: State, viewer: int | None) -> dict[str, Any]:
    """``view_of`` as it was before issue 17 item 9 (a scan of the revealed list and an
    alliance check per group), for the views' own test."""
    def visible(g: Group) -> bool:
        if viewer is not None and state.allied(viewer, g.owner):
            return True
        return g.name in state.revealed

    def group_view(g: Group, here: set[str]) -> dict[str, Any]:
        out: dict[str, Any] = {"name": g.name, "owner": g.owner, "hex": g.hex,
                               "static": g.static is not None}
        if viewer is not None and state.allied(viewer, g.owner):
            out.update(craft=[c.name for c in g.craft], size=group_size(
                real_craft_count(g), state.rules.group_sizes), order=g.order.text(),
                sector=g.sector)
        elif viewer is not None and g.hex in here:
            out["contacts"] = contacts(state, viewer, g)
        if g.static is not None:
            out["sector"] = g.sector
        return out

    here = {x.hex for x in state.groups.values() if x.owner == viewer}
    groups = [group_view(g, here) for g in sorted(state.groups.values(), key=lambda x: x.name)
              if visible(g)]
    sector = sector_view(state, state.sector_hex) if state.sector_hex else None
    return {
        "ruleset": "ftcamp", "viewer": viewer, "round": state.round, "step": state.step,
        "name": state.name,
        "players": [{"seat": p.seat, "name": p.name} for p in state.players],
        "map": {"columns": state.map.columns, "rows": state.map.rows,
                "systems": [s.model_dump() for s in state.map.systems]},
        "contested": list(state.contested),
        "current_hex": state.run.hex if state.run else None,
        "groups": groups,
        "sector": sector,
        "battles": [r.model_dump() for r in state.results if r.round == state.round
                    or r.round == state.round - 1],
    }


def reads(state: State, reqs: list[Request]) -> list[Any]:
    """Every read of the state for every viewer: views, status, GM view, texts, requests."""
    seats = [None, *(p.seat for p in state.players)]
    views = [view_of(state, v) for v in seats]
    assert [json.dumps(v) for v in views] == [json.dumps(reference_view(state, v))
                                              for v in seats]
    return [views,
            [RULESET.status(state, v) for v in seats],
            gm_view(state), texts(state, "battles"),
            [r.model_dump() for r in RULESET.pending(state)], [r.model_dump() for r in reqs]]


def play(n_groups: int, rounds: int) -> list[Any]:
    state = big_state(n_groups)
    seen: list[Any] = []
    for r in range(rounds):
        state, events = play_round(state, seed=r,
                                   hook=lambda s, reqs: seen.append(reads(s, reqs)))
        seen.append([e.model_dump() for e in events])
    seen.append(state.model_dump())
    return seen


@pytest.mark.parametrize(("n_groups", "rounds"), [(30, 2), (60, 1)])
def test_seeded_rounds_read_the_same_as_with_look_ups_built_every_time(
    n_groups: int, rounds: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    used_again = play(n_groups, rounds)
    monkeypatch.setattr(index, "group_lookups", fresh)
    assert play(n_groups, rounds) == used_again
    assert len(used_again) > 20
