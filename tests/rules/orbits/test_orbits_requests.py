"""Requests offer exactly the legal actions within Discord's Select limits (O-D3), and the
scripted players finish games (self-play)."""

from __future__ import annotations

from orbits_testkit import act, at, clear_hands, put, start

from bot.rules.base import Ruleset, ScriptedPlayer
from bot.rules.dice import SeededDice
from bot.rules.orbits import RULESET, help_text, scripted_player
from bot.rules.orbits import cards as C
from bot.rules.orbits.selfplay import play_game


def _big_hand():
    state = start().state
    clear_hands(state)
    state.rp = {1: 50, 2: 50}
    hand = [c for c in C.full_deck() if not C.is_face(c)][:30]  # 30 fleet cards at home
    for code in hand:
        put(state, 1, code, "home:1")
    put(state, 1, "KH", "orbit:2")
    return state, hand


def test_od3_more_than_25_cards_are_offered_per_suit() -> None:
    state, hand = _big_hand()
    req = RULESET.pending(at(state, "transit", 1))[0]
    departs = [a for a in req.actions if a.type == "depart"]
    assert all(len(f.options) <= 25 for a in req.actions for f in a.fields)
    offered = [o.value for a in departs for f in a.fields if f.name == "cards" for o in f.options]
    assert sorted(offered) == sorted(hand + ["KH"])
    assert any(a.label.endswith("♠") for a in departs)
    out = act(state, 1, type="depart", origin="home:1", cards=["AS", "2S"],
              destination="orbit:1")
    assert len(out.state.groups) == 1


def test_od3_deploy_options_split_by_area_then_suit() -> None:
    state, hand = _big_hand()
    req = RULESET.pending(at(state, "deployment", 1))[0]
    deploys = [a for a in req.actions if a.type == "deploy"]
    assert all(len(f.options) <= 25 for a in deploys for f in a.fields)
    cards = [o.value for a in deploys for f in a.fields if f.name == "card" for o in f.options]
    assert sorted(cards) == sorted(hand + ["KH"])


def test_transit_confirm_mentions_tokens_and_arrival() -> None:
    state, _ = _big_hand()
    spec = next(a for a in RULESET.pending(at(state, "transit", 1))[0].actions
                if a.type == "depart")
    assert "Tokens = distance" in spec.confirm and "arrives" in spec.confirm
    dest = next(f for f in spec.fields if f.name == "destination")
    assert "Orbit 3 (6 tokens)" in [o.label for o in dest.options]
    assert RULESET.pending(state)[0].default == {"type": "pass"}


def test_ruleset_protocol_and_help() -> None:
    assert isinstance(RULESET, Ruleset)
    assert isinstance(scripted_player(1), ScriptedPlayer)
    assert (RULESET.min_seats, RULESET.max_seats, RULESET.name) == (2, 6, "orbits")
    assert "Deployment" in help_text and len(help_text) < 2000


def test_scripted_players_reach_victory() -> None:
    for seed in range(3):
        rec = play_game(2, SeededDice(seed, "selfplay"))
        assert rec.finished and rec.state.winners
        assert max(rec.state.rp.values()) >= 100
    rec = play_game(4, SeededDice(9, "selfplay"))
    assert rec.finished
