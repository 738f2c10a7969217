"""Rulings O-1 to O-8: players, table, distances, decks, card kinds, development, resources,
victory."""

from __future__ import annotations

import pytest
from orbits_testkit import all_pass, at, clear_hands, put, seats, start, texts, where
from pydantic import ValidationError

from bot.errors import InvalidInput
from bot.rules.dice import ScriptedDice
from bot.rules.orbits import RULESET, OrbitsOptions, battle_force, distance
from bot.rules.orbits import cards as C
from bot.rules.orbits.flow import begin_turn


def test_o1_two_to_six_players() -> None:
    for n in (1, 7):
        with pytest.raises(InvalidInput, match="2 to 6"):
            RULESET.start(OrbitsOptions(), seats(n), ScriptedDice())
    out = start(6)
    assert sorted(out.state.rp) == [1, 2, 3, 4, 5, 6]


def test_o1_round_robin_start_of_each_alternation() -> None:
    state = start(3).state
    assert (state.phase, state.actor) == ("transit", 1)
    state = all_pass(state).state
    assert (state.phase, state.actor) == ("deployment", 2)
    state = all_pass(state).state
    assert (state.turn, state.phase, state.actor) == (2, "transit", 3)


def test_o1_opponent_means_any_other_player() -> None:
    state = start(3).state
    put(state, 3, "5H", "home:1", face_up=True, stance="blockade")  # Carol sits at Alice's home
    begin_turn(state, [])
    assert state.rp == {1: 3, 2: 6, 3: 6}


def test_o2_areas_and_orbit_count_option() -> None:
    for bad in (0, 9):
        with pytest.raises(ValidationError):
            OrbitsOptions(orbits=bad)
    view = RULESET.view(start(2, orbits=8).state, None)
    assert [a["id"] for a in view["areas"]] == ["home:1", "home:2"] + [
        f"orbit:{n}" for n in range(1, 9)]
    assert view["areas"][0]["label"] == "Home of Alice"


def test_o3_distances() -> None:
    assert distance(3, "home:1", "orbit:1") == 1
    assert distance(3, "home:1", "orbit:3") == 6  # 1 + 2 + 3
    assert distance(3, "orbit:1", "orbit:3") == 5  # 2 + 3
    assert distance(3, "orbit:3", "orbit:2") == 3
    assert distance(3, "home:1", "home:2") == 1
    assert distance(3, "home:1", "home:2", home_to_home=3) == 3
    with pytest.raises(InvalidInput, match="orbits 1 to 3"):
        distance(3, "home:1", "orbit:4")


def test_o4_setup_faces_up_and_decks_shuffled_by_injected_dice() -> None:
    order = [c for c in C.full_deck() if c not in ("JH", "QH", "KH")][::-1]
    dice = ScriptedDice(shuffles=[order, list(reversed(order))])
    state = RULESET.start(OrbitsOptions(suit="H"), seats(2), dice).state
    for seat in (1, 2):
        up = sorted(c.code for c in state.table if c.owner == seat and c.face_up)
        assert up == ["JH", "KH", "QH"]
        assert all(c.area == f"home:{seat}" for c in state.table if c.owner == seat)
        on_table = [c.code for c in state.table if c.owner == seat]
        assert len(state.decks[seat]) + len(on_table) == 54
    # Alice's deck was shuffled into reverse order: her first draw (O-6) was its first card
    assert where(state, 1, order[0]) is not None
    assert where(state, 2, order[-1]) is not None


def test_o4_deck_order_is_secret() -> None:
    out = start()
    deck_top = out.state.decks[1][:5]
    public = [e for e in out.events if e.audience.kind != "seat"]
    blob = repr([e.model_dump() for e in public]) + repr(RULESET.view(out.state, None)) \
        + RULESET.status(out.state, None) + repr(RULESET.view(out.state, 1))
    assert not any(f"'{c}'" in blob for c in deck_top)


def test_o5_card_kinds_and_values() -> None:
    assert [C.value(c) for c in ("AS", "2H", "10D", "JK1")] == [1, 2, 10, 0]
    assert all(C.is_face(c) for c in ("JS", "QH", "KD"))
    assert all(C.is_fleet(c) for c in ("AS", "10C", "JK2"))
    assert battle_force(["JK1", "JK2", "AS"]) == (1, 3)  # each Joker a suit of its own
    assert C.show("10C") == "10♣" and C.show("JK1") == "Joker" and C.parse("7♥") == "7H"


def test_o6_one_draw_per_full_suit_area_seen_by_drawer_only() -> None:
    out = start()
    state = out.state
    draws = [e for e in out.events if e.kind == "draw"]
    assert [(e.audience.kind, e.audience.seat) for e in draws] == [("seat", 1), ("seat", 2)]
    assert "AS" in draws[0].text or "A♠" in draws[0].text
    assert texts(out.events, "draw_count") == ["Alice draws 1 card at Home of Alice.",
                                               "Bob draws 1 card at Home of Bob."]
    clear_hands(state)
    for code in ("JH", "QH", "KH"):  # a second full suit at home: still one draw there
        put(state, 1, code, "home:1", face_up=True)
    for code in ("JD", "QD", "KD"):  # a full suit in orbit 2 draws there
        put(state, 1, code, "orbit:2", face_up=True)
    begin_turn(state, [])
    down = [c.area for c in state.table if c.owner == 1 and not c.face_up]
    assert sorted(down) == ["home:1", "orbit:2"]


def test_o6_empty_deck_no_draw_and_player_told() -> None:
    state = start().state
    state.decks[1] = []
    events: list = []
    begin_turn(state, events)
    told = [e for e in events if e.kind == "draw_empty"]
    assert told and told[0].audience.seat == 1 and "deck is empty" in told[0].text


def test_o7_resources_except_where_an_opponent_shows_fleet() -> None:
    state = start().state
    put(state, 1, "JD", "orbit:1", face_up=True)
    put(state, 1, "3D", "orbit:1", face_up=True, stance="attack")  # own fleet: no effect
    put(state, 2, "QC", "orbit:2", face_up=True)
    put(state, 1, "4C", "orbit:2", face_up=True, stance="blockade")  # denies Bob's QC
    before = dict(state.rp)
    events: list = []
    begin_turn(state, events)
    assert state.rp[1] - before[1] == 4 and state.rp[2] - before[2] == 3
    assert "Alice +4" in texts(events, "resources")[0]


def test_o8_victory_after_resources_highest_wins_tie_shared() -> None:
    state = start(3, target_rp=10).state
    state.rp = {1: 7, 2: 8, 3: 2}
    events: list = []
    begin_turn(state, events)
    assert state.phase == "finished" and state.winners == [2]
    summary = texts(events, "victory")[0]
    assert "Bob wins" in summary and "Alice: 10 RP" in summary and "battles won" in summary
    assert "cards left" in summary
    state = start(2, target_rp=10).state
    state.rp = {1: 7, 2: 7}
    begin_turn(state, [])
    assert state.winners == [1, 2]


def test_o8_victory_is_reported_as_finished_outcome() -> None:
    state = start(2, target_rp=7).state
    out = all_pass(all_pass(state).state)  # turn 2 resources: 3 -> 6 RP
    assert not out.finished and out.state.rp == {1: 6, 2: 6}
    out = all_pass(all_pass(out.state).state)  # turn 3: 9 RP
    assert out.finished and out.state.winners == [1, 2]
    assert RULESET.pending(out.state) == []


def test_o8_target_option() -> None:
    assert OrbitsOptions().target_rp == 100
    state = at(start(2, target_rp=4).state, "deployment", 1)
    out = all_pass(state)
    assert out.finished
