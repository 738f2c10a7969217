"""Issue 10 item 3, the rest of Orbits: a raid not chosen by the deadline defaults to "no
raid" (O-18), which posts nothing (the service's deadline line in the tracker is the public
word on it, nothing more); a linked battle's proposed result taken at the GM's deadline
(O-D19) says so instead of "entered by the GM"."""

from __future__ import annotations

from test_orbits_battles import all_pass, at, clear_hands, put, resolve, start
from test_orbits_war import battle, craft, linked

from bot.campaign import messages
from bot.rules.base import BY_DEFAULT, GM_SEAT
from bot.rules.dice import ScriptedDice
from bot.rules.orbits import RULESET


def test_o18_a_defaulted_raid_posts_nothing_but_the_deadline_line() -> None:
    state = start(raid_colonies=True).state
    clear_hands(state)
    state.rp = {1: 5, 2: 5}
    put(state, 1, "9D", "orbit:1", face_up=True, stance="attack")
    put(state, 2, "2D", "orbit:1", face_up=True, stance="blockade")
    put(state, 2, "QH", "orbit:1", face_up=True)
    state = all_pass(at(state, "deployment", 1)).state
    rep = {"type": "report", "losses_1": "0", "losses_2": "2", "defeated": "2"}
    state = resolve(state, {1: rep, 2: rep}).state
    assert state.phase == "battle_raid"
    (req,) = RULESET.pending(state)
    out = RULESET.resolve_with_defaults(state, {1: dict(req.default or {})}, ScriptedDice(),
                                        frozenset({1}))
    assert not any(e.kind == "raid" for e in out.events)
    assert not any(BY_DEFAULT in e.text for e in out.events)  # nothing more than the line
    # the line the service's tracker shows for it (bot.campaign.steps._resolve_sealed)
    assert messages.default_line("Alice", req) == \
        "Alice missed the deadline: default orders were used."


def test_od19_a_proposed_result_taken_at_the_gms_deadline_says_so() -> None:
    state = linked(battle().state)
    result = {"name": "b", "defeated": ["2"],
              "craft": [craft("1", "intact", 16), craft("2", "destroyed", 72)]}
    out = RULESET.propose_battle(state, f"Orbit 1, turn {state.turn}", result)
    assert out is not None
    (req,) = RULESET.pending(out.state)
    actions = {GM_SEAT: dict(req.default or {})}
    missed = RULESET.resolve_with_defaults(out.state, actions, ScriptedDice(),
                                           frozenset({GM_SEAT}))
    (line,) = [e for e in missed.events if e.kind == "battle_result"]
    assert f"(fought in its thread, the proposed result {BY_DEFAULT})" in line.text
    assert "entered by the GM" not in line.text
    assert line.embed is not None and BY_DEFAULT in line.embed.title
    # the same action given by the GM in time reads as theirs
    given = RULESET.resolve_with_defaults(out.state, actions, ScriptedDice(), frozenset())
    (line,) = [e for e in given.events if e.kind == "battle_result"]
    assert "entered by the GM" in line.text and BY_DEFAULT not in line.text
