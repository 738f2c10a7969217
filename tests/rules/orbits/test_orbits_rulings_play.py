"""Rulings O-9 to O-13 and O-17: transit, deployment, face cards, stances, engagements,
hidden information."""

from __future__ import annotations

import pytest
from orbits_testkit import act, all_pass, at, clear_hands, put, start, texts, where

from bot.errors import InvalidState, RulesError
from bot.rules.orbits import RULESET
from bot.rules.orbits.flow import arrivals


def _transit_game():
    state = start().state
    clear_hands(state)
    for code in ("5H", "6H", "KD"):
        put(state, 1, code, "home:1")
    for code in ("2C", "3C"):  # Bob has cards too, so he is asked (O-D2)
        put(state, 2, code, "home:2")
    return at(state, "transit", 1)


def test_o9_departure_tokens_and_public_counts_only() -> None:
    state = _transit_game()
    out = act(state, 1, type="depart", origin="home:1", cards=["5H", "KD"],
              destination="orbit:3")
    g = out.state.groups[0]
    assert (g.origin, g.destination, g.tokens) == ("home:1", "orbit:3", 6)
    text = texts(out.events, "depart")[0]
    assert text == ("Alice sends 2 face-down cards from Home of Alice to Orbit 3, arriving in "
                    "6 turns (6 tokens).")
    assert "5" not in text.replace("Orbit 3", "") and "K" not in text


def test_o9_arrival_after_tokens_run_out() -> None:
    state = _transit_game()
    state = act(state, 1, type="depart", origin="home:1", cards=["5H"],
                destination="orbit:2").state  # 3 tokens
    for left in (2, 1):
        arrivals(state, [])
        assert state.groups[0].tokens == left and where(state, 1, "5H").group is not None
    events: list = []
    arrivals(state, events)
    card = where(state, 1, "5H")
    assert state.groups == [] and card.group is None and card.area == "orbit:2"
    assert not card.face_up and texts(events, "arrival") == [
        "Alice's 1 face-down card arrives at Orbit 2."]


def test_o9_in_transit_and_face_up_cards_never_depart() -> None:
    state = _transit_game()
    state = act(state, 1, type="depart", origin="home:1", cards=["5H"],
                destination="orbit:1").state
    state = act(state, 2, type="pass").state
    with pytest.raises(RulesError, match="in transit"):
        act(state, 1, type="depart", origin="orbit:1", cards=["5H"], destination="orbit:2")
    with pytest.raises(RulesError, match="face up"):
        act(state, 1, type="depart", origin="home:1", cards=["JS"], destination="orbit:2")
    offered = [o.value for a in RULESET.pending(state)[0].actions if a.type == "depart"
               for f in a.fields if f.name == "cards" for o in f.options]
    assert sorted(offered) == ["6H", "KD"]


def test_o9_phase_ends_when_everyone_passes_in_succession() -> None:
    state = _transit_game()
    state = act(state, 1, type="pass").state
    state = act(state, 2, type="depart", origin="home:2", cards=["2C"],
                destination="orbit:1").state
    assert state.phase == "transit" and state.actor == 1  # the departure reopened the round
    state = act(state, 1, type="pass").state
    assert state.phase == "transit"
    state = act(state, 2, type="pass").state
    assert state.phase == "deployment"


def test_o9_a_seat_with_nothing_to_move_passes_automatically() -> None:
    state = _transit_game()
    clear_hands(state)
    put(state, 1, "5H", "home:1")
    out = act(state, 1, type="pass")  # Bob has no face-down card: he passes (O-D2)
    assert out.state.phase == "deployment"
    assert texts(out.events, "pass")[-1] == "Bob passes (nothing to do)."


def test_o9_not_your_turn() -> None:
    with pytest.raises(InvalidState, match="Alice's turn"):
        act(_transit_game(), 2, type="pass")


def _deploy_game(rp: int = 5):
    state = start().state
    clear_hands(state)
    state.rp = {1: rp, 2: rp}
    return at(state, "deployment", 1)


def test_o10_deploy_costs_one_rp_and_needs_rp() -> None:
    state = _deploy_game()
    put(state, 1, "7H", "orbit:2")
    out = act(state, 1, type="deploy", card="7H", stance="attack")
    assert out.state.rp[1] == 4 and where(out.state, 1, "7H").face_up
    assert texts(out.events, "deploy") == [
        "Alice deploys 7♥ at Orbit 2 and declares ATTACK (1 RP, now 4)."]
    state.rp[1] = 0
    assert [a.type for a in RULESET.pending(state)[0].actions] == ["pass"]
    with pytest.raises(RulesError, match="costs 1 RP"):
        act(state, 1, type="deploy", card="7H", stance="attack")


def test_o10_retreat_flips_all_fleet_there_free() -> None:
    state = _deploy_game()
    for code in ("3D", "4S"):
        put(state, 1, code, "orbit:1", face_up=True, stance="attack")
    put(state, 1, "JD", "orbit:1", face_up=True)
    out = act(state, 1, type="retreat", area="orbit:1")
    s = out.state
    assert s.rp[1] == 5 and not where(s, 1, "3D").face_up and not where(s, 1, "4S").face_up
    assert where(s, 1, "JD").face_up and s.stance(1, "orbit:1") is None
    with pytest.raises(RulesError, match="nothing to retreat"):
        act(at(s, "deployment", 1), 1, type="retreat", area="orbit:1")


def test_o10_two_passes_end_the_phase() -> None:
    state = _deploy_game()
    put(state, 1, "7H", "orbit:2")
    put(state, 2, "8H", "orbit:2")
    state = act(state, 1, type="pass").state
    assert state.phase == "deployment" and state.actor == 2
    out = act(state, 2, type="pass")
    assert out.state.turn == 2 and out.state.phase == "transit"


def test_o11_face_card_suit_must_match() -> None:
    state = _deploy_game()
    put(state, 2, "JS", "orbit:2", face_up=True)
    put(state, 1, "QH", "orbit:2")
    put(state, 1, "KS", "orbit:2")
    with pytest.raises(RulesError) as err:
        act(state, 1, type="deploy", card="QH")
    assert err.value.message == ("You can't deploy Q♥ at Orbit 2: face cards there are ♠.")
    offered = [o.value for a in RULESET.pending(state)[0].actions if a.type == "deploy"
               for f in a.fields if f.name == "card" for o in f.options]
    assert offered == ["KS"]
    assert where(act(state, 1, type="deploy", card="KS").state, 1, "KS").face_up


def test_o11_no_face_card_where_an_opponent_shows_fleet() -> None:
    state = _deploy_game()
    put(state, 2, "2C", "orbit:1", face_up=True, stance="blockade")
    put(state, 1, "QH", "orbit:1")
    with pytest.raises(RulesError, match="another player has face-up fleet"):
        act(state, 1, type="deploy", card="QH")


def test_o12_fleet_deploy_needs_stance_and_last_one_applies() -> None:
    state = _deploy_game()
    for code in ("3D", "4S", "9C"):
        put(state, 1, code, "orbit:1")
    put(state, 2, "10C", "orbit:1")
    with pytest.raises(RulesError, match="attack or blockade"):
        act(state, 1, type="deploy", card="3D")
    state = act(state, 1, type="deploy", card="3D", stance="attack").state
    state = act(state, 2, type="pass").state
    state = act(state, 1, type="deploy", card="4S", stance="blockade").state
    assert state.stance(1, "orbit:1") == "blockade"


def test_o13_battle_only_when_someone_attacks() -> None:
    state = _deploy_game()
    put(state, 1, "5D", "orbit:1", face_up=True, stance="blockade")
    put(state, 2, "6D", "orbit:1", face_up=True, stance="blockade")
    put(state, 1, "7D", "orbit:2", face_up=True, stance="attack")  # alone: no battle
    out = all_pass(state)
    assert out.state.phase == "transit" and out.state.turn == 2
    assert texts(out.events, "standoff") == [
        "Orbit 1: every side blockades; no battle, and no resources there."]
    state = _deploy_game()
    put(state, 1, "5D", "orbit:1", face_up=True, stance="blockade")
    put(state, 2, "6D", "orbit:1", face_up=True, stance="attack")
    out = all_pass(state)
    assert out.state.phase == "battle_report"
    assert [r.seat for r in RULESET.pending(out.state)] == [1, 2]


def test_o17_public_view_counts_only_own_view_shows_own() -> None:
    state = _deploy_game()
    put(state, 1, "7H", "orbit:2")
    put(state, 1, "8C", "orbit:2", face_up=True, stance="attack")
    state = act(state, 1, type="retreat", area="orbit:2").state  # 8♣ now known
    public = RULESET.view(state, None)
    stack = next(a for a in public["areas"] if a["id"] == "orbit:2")["stacks"][0]
    assert stack["face_down"] == {"count": 2, "known": ["8C"]}
    assert "7H" not in repr(public) and "7H" not in RULESET.status(state, None)
    mine = RULESET.view(state, 1)
    stack = next(a for a in mine["areas"] if a["id"] == "orbit:2")["stacks"][0]
    assert stack["face_down"]["mine"] == ["7H", "8C"]
    assert "7♥" in RULESET.status(state, 1) and "7H" not in repr(RULESET.view(state, 2))


def test_o17_known_marking_option_off() -> None:
    state = start(mark_known_cards=False).state
    clear_hands(state)
    at(state, "deployment", 1)
    put(state, 1, "8C", "orbit:2", face_up=True, stance="attack")
    state = act(state, 1, type="retreat", area="orbit:2").state
    stack = next(a for a in RULESET.view(state, None)["areas"]
                 if a["id"] == "orbit:2")["stacks"][0]
    assert stack["face_down"] == {"count": 1, "known": []}


def test_o17_map_event_after_deployment() -> None:
    out = all_pass(_deploy_game())
    maps = [e for e in out.events if e.kind == "map"]
    assert [(e.audience.kind, e.image.viewer) for e in maps] == [
        ("public", None), ("seat", 1), ("seat", 2)]
    assert maps[0].image.name == "map"
