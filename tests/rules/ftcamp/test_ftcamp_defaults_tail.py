"""The rest of issue 10 item 3 for FTCamp: special acts, chase decisions, reserves and patrol
reserves taken by default at a deadline are marked where their effect is shown (the engage
reveal, the battle list), by seat only (E-D33: these steps ask every seat alike)."""

from __future__ import annotations

from typing import Any

from ftcamp_testkit import group, orders_in, play_hex, settle, world

from bot.rules.base import BY_DEFAULT, Event
from bot.rules.dice import ScriptedDice
from bot.rules.ftcamp import RULESET
from bot.rules.ftcamp.model import Craft, Group, State


def _patrol_world() -> tuple[Group, ...]:
    """As in test_ftcamp_conflicts: P2's patrol group Pick intercepts in the hex; Wing, on
    patrol elsewhere, may be dispatched to it."""
    hq = Group(name="HQ", owner=2, hex="0101", sector="A-1", static="military",
               craft=[Craft(name="hq", mass=100, command=True)])
    return (group("A", 1, thrust=1), group("Pick", 2, order="patrol", thrust=3),
            group("Wing", 2, hex_name="0102", order="patrol", thrust=5), hq)


def _defaults(state: State) -> dict[int, dict[str, Any]]:
    return {r.seat: dict(r.default or {}) for r in RULESET.pending(state)}


def _at_deadline(state: State, missed: set[int]) -> list[Event]:
    """Every seat's default taken; ``missed`` are the seats the service says missed it."""
    out = RULESET.resolve_with_defaults(state, _defaults(state), ScriptedDice([1] * 40),
                                        frozenset(missed))
    return settle(out, [1] * 40).events


def _battle_list(events: list[Event]) -> Event:
    return next(e for e in events if e.kind == "battle_list")


def _marks(event: Event) -> str:
    assert event.embed is not None
    return next((f.value for f in event.embed.fields if f.name == "Missed deadlines"), "")


def test_a_defaulted_chase_decision_is_marked_in_the_battle_list() -> None:
    out = play_hex(group("R", 1, thrust=1), group("S", 2, thrust=2),
                   orders={"R": "RT", "S": "SF"}, where={"R": "C-1", "S": "C-1"})
    assert out.state.step == "chase"
    listed = _battle_list(_at_deadline(out.state, {2}))
    assert f"Chase decisions {BY_DEFAULT}: P2" in listed.text.splitlines()
    assert _marks(listed) == f"Chase decisions {BY_DEFAULT}: P2"


def test_a_chase_decision_given_in_time_is_not_marked() -> None:
    out = play_hex(group("R", 1, thrust=1), group("S", 2, thrust=2),
                   orders={"R": "RT", "S": "SF"}, where={"R": "C-1", "S": "C-1"})
    listed = _battle_list(_at_deadline(out.state, set()))
    assert BY_DEFAULT not in listed.text and _marks(listed) == ""


def test_defaulted_reserves_are_marked_by_seat_and_only_for_that_seat() -> None:
    out = play_hex(group("A", 1, thrust=1), group("R", 2, thrust=2), group("Far", 2, thrust=4),
                   orders={"A": "EE", "R": "SF", "Far": "SF"},
                   where={"A": "B-1", "R": "B-1", "Far": "D-9"})
    assert out.state.step == "reserves"
    assert {r.seat for r in RULESET.pending(out.state)} == {1, 2}  # E-D33: both asked
    listed = _battle_list(_at_deadline(out.state, {2}))
    assert f"Reserves {BY_DEFAULT}: P2" in listed.text.splitlines()
    assert "Far" not in _marks(listed) and "P1" not in _marks(listed)


def test_defaulted_patrol_reserves_are_marked_without_naming_the_dispatched_group() -> None:
    out = play_hex(*_patrol_world(), orders={"A": "EE", "Pick": "EE"},
                   where={"A": "B-1", "Pick": "B-1"},
                   special={2: {"dispatch:Pick": ["Wing"]}})
    assert out.state.step == "patrol"
    events = _at_deadline(out.state, {1, 2})
    listed = _battle_list(events)
    assert f"Patrol reserves {BY_DEFAULT}: P1, P2" in listed.text.splitlines()
    assert "Wing" not in _marks(listed)  # the dispatch stays secret (E-D33)
    assert [e for e in events if e.kind == "battle_list"] == [listed]


def test_defaulted_special_acts_are_marked_in_the_engage_reveal_then_dropped() -> None:
    state = orders_in(world(group("Vanguard", 1), group("Raiders", 2)),
                      skip_special=False).state
    assert state.step == "special"
    out = RULESET.resolve_with_defaults(state, _defaults(state), ScriptedDice(),
                                        frozenset({1}))
    assert out.state.step == "engage" and out.state.by_default == ["special@1"]
    done = RULESET.resolve_with_defaults(out.state, _defaults(out.state),
                                         ScriptedDice([3, 3, 2, 2]), frozenset())
    reveal = next(e for e in done.events if e.kind == "engage_reveal")
    assert f"Special acts {BY_DEFAULT}: P1" in reveal.text.splitlines()
    assert reveal.embed is not None and f"Special acts {BY_DEFAULT}: P1" in \
        reveal.embed.description
    assert f"Engage orders {BY_DEFAULT}" not in reveal.text  # the engage orders came in time
    assert done.state.by_default == []


def test_a_marked_battle_list_leaves_no_mark_for_the_next_one() -> None:
    out = play_hex(group("R", 1, thrust=1), group("S", 2, thrust=2),
                   orders={"R": "RT", "S": "SF"}, where={"R": "C-1", "S": "C-1"})
    after = RULESET.resolve_with_defaults(out.state, _defaults(out.state),
                                          ScriptedDice([1] * 40), frozenset({2}))
    assert after.state.by_default == []
