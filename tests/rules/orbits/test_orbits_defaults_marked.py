"""Discards taken by default at a deadline say so in their public line (issue 10, item 3)."""

from __future__ import annotations

from test_orbits_battles import battle, report, resolve

from bot.rules.base import BY_DEFAULT
from bot.rules.dice import ScriptedDice
from bot.rules.orbits import RULESET


def test_a_defaulted_discard_is_marked_and_a_chosen_one_is_not() -> None:
    state = resolve(battle().state, {1: report(18, 5, "1"), 2: report(18, 5, "1")}).state
    assert state.phase == "battle_discard"
    actions = {r.seat: r.default for r in RULESET.pending(state)}
    out = RULESET.resolve_with_defaults(state, actions, ScriptedDice(), frozenset({2}))
    discards = [e.text for e in out.events if e.kind == "discard"]
    assert discards == ["Alice discards 9♦, 10♦.", f"Bob discards 5♠ ({BY_DEFAULT})."]
    # the defeated side's flip is not a choice: never marked
    assert not any(BY_DEFAULT in e.text for e in out.events if e.kind != "discard")
