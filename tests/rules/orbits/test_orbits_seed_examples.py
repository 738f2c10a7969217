"""The worked examples of the seed document, each as its own case."""

from __future__ import annotations

from orbits_testkit import act, at, clear_hands, put, start, where

from bot.rules.orbits import battle_force, propose_discard


def test_seed_stance_example_last_declaration_applies_to_all() -> None:
    """3♦ attack, 10♣ attack, 4♠ blockade: both of the first player's cards now blockade."""
    state = start().state
    clear_hands(state)
    state.rp = {1: 5, 2: 5}
    put(state, 1, "3D", "orbit:1")
    put(state, 1, "4S", "orbit:1")
    put(state, 2, "10C", "orbit:1")
    put(state, 2, "2C", "orbit:1")
    at(state, "deployment", 1)
    state = act(state, 1, type="deploy", card="3D", stance="attack").state
    state = act(state, 2, type="deploy", card="10C", stance="attack").state
    out = act(state, 1, type="deploy", card="4S", stance="blockade")
    s = out.state
    assert where(s, 1, "3D").face_up and where(s, 1, "4S").face_up
    assert s.stance(1, "orbit:1") == "blockade" and s.stance(2, "orbit:1") == "attack"
    assert out.events[0].text == ("Alice deploys 4♠ at Orbit 1 and declares BLOCKADE (1 RP, now "
                                  "3); all 2 of their fleet cards there now blockade.")


def test_seed_battle_example_total_31_size_class_3() -> None:
    assert battle_force(["2C", "3C", "7H", "9D", "10D"]) == (31, 3)


def test_seed_discard_example_losses_18() -> None:
    assert propose_discard(["2C", "3C", "7H", "9D", "10D"], 18) == ["9D", "10D"]
