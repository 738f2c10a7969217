"""Orbits' views are built in one pass over the table, the parts every viewer sees alike once
for all the views of a state (issue 17 item 9): the same views and status texts as the scan
per area and seat they replaced, kept here only as the reference (O-17)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from orbits_testkit import seats

from bot.rules.dice import SeededDice
from bot.rules.orbits import RULESET, OrbitsOptions, OrbitsState, scripted_player, views
from bot.rules.orbits import cards as C
from bot.rules.orbits.battle import battle_force
from bot.rules.orbits.state import TableCard
from tests.support.examples import examples


def _sorted(cards: list[TableCard]) -> list[str]:
    return sorted((c.code for c in cards), key=C.sort_key)


def _hidden_part(state: OrbitsState, cards: list[TableCard], viewer: int | None,
                 owner: int) -> dict[str, Any]:
    part: dict[str, Any] = {"count": len(cards)}
    part["known"] = _sorted([c for c in cards if c.known]) if state.options.mark_known_cards \
        else []
    if viewer == owner:
        part["mine"] = _sorted(cards)
    return part


def reference_view(state: OrbitsState, viewer: int | None) -> dict[str, Any]:
    """``build_view`` as it was before issue 9: one scan of the table per area and seat."""
    o = state.options
    seat_view = viewer if viewer in state.seat_numbers() else None
    areas = []
    for area in state.areas():
        stacks = []
        for seat in state.seat_numbers():
            here = [c for c in state.table if c.owner == seat and c.area == area]
            resting_down = [c for c in here if not c.face_up and c.group is None]
            up = [c for c in here if c.face_up]
            if not (resting_down or up):
                continue
            fleet_up = [c for c in up if C.is_fleet(c.code)]
            total, size = battle_force([c.code for c in fleet_up], o.size_class_cap)
            stacks.append({
                "seat": seat,
                "face_up": _sorted(up),
                "stance": state.stance(seat, area) if fleet_up else None,
                "fleet_total": total, "size_class": size,
                "face_down": _hidden_part(state, resting_down, seat_view, seat),
            })
        areas.append({"id": area, "label": state.area_label(area), "stacks": stacks})
    transit = []
    for g in state.groups:
        moving = state.group_cards(g.id)
        transit.append({
            "id": g.id, "seat": g.owner, "origin": g.origin, "destination": g.destination,
            "tokens": g.tokens, "cards": _hidden_part(state, moving, seat_view, g.owner),
        })
    seats_out = [{
        "number": s.number, "name": s.name, "rp": state.rp[s.number],
        "deck": len(state.decks[s.number]), "discarded": len(state.discards[s.number]),
        "battles_won": state.battles_won[s.number],
    } for s in state.seats]
    battle = None
    if state.phase.startswith("battle_") and state.battle_index < len(state.battles):
        b = state.battles[state.battle_index]
        battle = {
            "area": b.area, "sides": b.sides,
            "forces": {str(s): {"cards": b.forces[s],
                                "total": battle_force(b.forces[s], o.size_class_cap)[0],
                                "size_class": battle_force(b.forces[s], o.size_class_cap)[1],
                                "stance": state.stance(s, b.area)}
                       for s in b.sides},
            "result": b.result.model_dump(mode="json") if b.result else None,
        }
    return {
        "ruleset": "orbits", "viewer": seat_view, "turn": state.turn, "phase": state.phase,
        "actor": state.actor if state.phase in ("transit", "deployment") else None,
        "orbits": o.orbits, "target_rp": o.target_rp, "points_label": o.points_label,
        "points_per_value": o.points_per_value, "home_to_home": o.home_to_home,
        "rush_transit": o.rush_transit, "seats": seats_out, "areas": areas,
        "transit": transit, "battle": battle, "winners": list(state.winners),
    }


def reference_status(state: OrbitsState, viewer: int | None) -> str:
    """``status_text`` over the reference view (its table count per seat as it was)."""
    real = views.build_view
    views.build_view = reference_view  # type: ignore[assignment]
    try:
        return views.status_text(state, viewer)
    finally:
        views.build_view = real


def assert_same(state: OrbitsState) -> int:
    """Every viewer's view and status text against the reference; the viewers checked."""
    viewers = [None, 0, *state.seat_numbers(), 99]  # public, GM seat, each seat, a stranger
    expected = [reference_view(state, viewer) for viewer in viewers]
    for viewer, want in zip(viewers, expected, strict=True):
        got = views.build_view(state, viewer)
        assert got == want, viewer
        assert list(got) == list(want)  # the same key order: JSON of a view is the same
        assert views.status_text(state, viewer) == reference_status(state, viewer), viewer
    together = views.build_views(state, viewers)
    assert together == expected
    assert [json.dumps(v) for v in together] == [json.dumps(v) for v in expected]
    shared = [id(x) for v in together for x in _lists(v)]
    assert len(shared) == len(set(shared)), "two views share a list or dict"
    return len(viewers)


def _lists(value: Any) -> list[Any]:
    """Every list and dict inside a view, the view itself included."""
    found: list[Any] = []
    if isinstance(value, dict | list):
        found.append(value)
        for item in value.values() if isinstance(value, dict) else value:
            found += _lists(item)
    return found


def play(seed: int, n: int, options: OrbitsOptions, decisions: int) -> tuple[int, set[str]]:
    """A game by the scripted players, checked after every step; (states, phases seen, and
    "known face down" once a card seen face up by all lay face down)."""
    dice = SeededDice(seed, "engine")
    out = RULESET.start(options, seats(n), dice)
    players = {s: scripted_player(s) for s in range(n + 1)}
    checked, phases = 0, set()
    for _ in range(decisions):
        assert_same(out.state)
        checked += 1
        phases.add(out.state.phase)
        if any(c.known and not c.face_up for c in out.state.table):
            phases.add("known face down")
        if out.finished:
            break
        requests = RULESET.pending(out.state)
        if requests[0].kind == "turn":
            r = requests[0]
            out = RULESET.act(out.state, r.seat, players[r.seat].choose(
                RULESET.view(out.state, r.seat), r, dice), dice)
        else:
            out = RULESET.resolve(out.state, {r.seat: players[r.seat].choose(
                RULESET.view(out.state, r.seat or None), r, dice) for r in requests}, dice)
    return checked, phases


@pytest.mark.parametrize("known", [True, False])
def test_seeded_games_show_the_same_views_at_every_step(known: bool) -> None:
    """Six seats to the end, with transit, battles and known cards face down on the table,
    named in views or not (``mark_known_cards``)."""
    checked, phases = play(3, 6, OrbitsOptions(target_rp=15, mark_known_cards=known), 3000)
    assert checked > 50
    assert {"transit", "deployment", "battle_report", "finished", "known face down"} <= phases


@pytest.mark.slow  # (plays whole random games)
@settings(max_examples=examples(10), deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(2, 6), known=st.booleans(),
       rush=st.booleans(), raid=st.booleans(), orbits=st.integers(1, 4))
def test_random_games_show_the_same_views(seed: int, n: int, known: bool, rush: bool,
                                          raid: bool, orbits: int) -> None:
    options = OrbitsOptions(mark_known_cards=known, rush_transit=rush, raid_colonies=raid,
                            orbits=orbits, target_rp=random.Random(seed).randint(6, 40))
    checked, _ = play(seed, n, options, 200)
    assert checked > 0
