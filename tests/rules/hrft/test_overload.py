"""Optional weapon overload: seed 003 "Damage control modifications" item 7, read as H-D31.

A weapon that fired at step 18 of turn X and fires at step 10 of turn X+1 rolls a threshold
check at the worst threshold level of the hull blocks of its arcs, after its shot.
"""

from __future__ import annotations

from typing import Any

from bot.rules.dice import ScriptedDice, SeededDice
from bot.rules.hrft import RULESET, BattleState, HrftOptions
from bot.rules.hrft.overload import arc_level
from tests.rules.hrft.battle_helpers import battle, to_fire_step

# s1 of the gunboat: class-3 beam, arcs FP/F/FS; at 10 MU it rolls 3 dice (band 1).
SHOT = {"type": "fire", "weapons": ["1a:s1"], "target": "2a", "range": "10", "arc": "F",
        "bearing": "F"}
MISS = [1, 1, 1]  # three beam dice that score nothing: no threshold on the target


def _ready(state: BattleState, dice: Any = None) -> BattleState:
    for seat in (1, 2):
        state = RULESET.act(state, seat, {"type": "ready"}, dice or SeededDice(1)).state
    return state


def _to(state: BattleState, key: str) -> BattleState:
    """Say ready until the battle reaches step ``key`` (orders resolved with defaults)."""
    for _ in range(10):
        if state.step == key:
            return state
        if state.step == "orders":
            state = RULESET.resolve(state, {1: {"type": "orders"}, 2: {"type": "orders"}},
                                    ScriptedDice([3, 4])).state
        else:
            state = _ready(state)
    assert state.step == key, state.step
    return state


def _fire(state: BattleState, rolls: list[int], action: dict[str, Any] | None = None,
          ) -> tuple[BattleState, Any, ScriptedDice]:
    dice = ScriptedDice(rolls)
    out = RULESET.act(state, 1, action or SHOT, dice)
    return out.state, out.events[0], dice


def _fired_at_18_then_turn_2_step_10(overload: bool = True) -> BattleState:
    state, _ = to_fire_step(battle(HrftOptions(overload=overload)))
    state = _to(state, "fire2")
    state, _, _ = _fire(state, MISS)
    state = _to(state, "fire1")
    assert state.turn == 2
    return state


def _wound_firer(state: BattleState, f_lost: int, fs_lost: int) -> BattleState:
    state = state.model_copy(deep=True)
    state.ships["1a"].blocks["F"].hull_lost = f_lost  # rows 2/2/2: 2 = level 1, 4 = level 2
    state.ships["1a"].blocks["FS"].hull_lost = fs_lost
    return state


def test_hd31_overload_is_off_by_default():
    assert HrftOptions().overload is False
    state = _wound_firer(_fired_at_18_then_turn_2_step_10(overload=False), 4, 2)
    state, event, dice = _fire(state, MISS)  # no fourth die asked for
    assert dice.used == MISS
    assert "Overload" not in event.text and event.data["overload_dice"] == []
    assert state.last_fire == {}


def test_hd31_no_roll_for_a_weapon_that_did_not_fire_at_16_or_18_the_turn_before():
    # fired at step 10 of turn 1, not at 18: firing at step 10 of turn 2 is its normal rate
    state, _ = to_fire_step(battle(HrftOptions(overload=True)))
    state, _, _ = _fire(state, MISS)
    assert state.last_fire["1a:s1"] == (1, "10")
    state = _wound_firer(_to(_to(state, "fire2"), "fire1"), 4, 2)
    state, event, dice = _fire(state, MISS)
    assert dice.used == MISS and "Overload" not in event.text
    # never fired before: no roll either
    fresh = _wound_firer(to_fire_step(battle(HrftOptions(overload=True)))[0], 4, 2)
    _, event, dice = _fire(fresh, MISS)
    assert dice.used == MISS and "Overload" not in event.text


def test_hd31_no_roll_at_step_18_after_step_18_or_two_turns_later():
    state = _fired_at_18_then_turn_2_step_10()
    state = _wound_firer(_to(_to(state, "fire2"), "fire2"), 4, 2)  # turn 2, step 18
    assert state.turn == 2 and state.last_fire["1a:s1"] == (1, "18")
    _, event, dice = _fire(state, MISS)  # 18 -> 18 is not faster than the standard rate
    assert dice.used == MISS and "Overload" not in event.text
    later = _wound_firer(_to(state, "fire1"), 4, 2)  # turn 3: two turns after its shot
    assert later.turn == 3 and later.last_fire["1a:s1"] == (1, "18")
    _, event, dice = _fire(later, MISS)
    assert dice.used == MISS and "Overload" not in event.text


def test_hd31_roll_at_the_worst_level_of_the_blocks_of_its_arcs():
    state = _wound_firer(_fired_at_18_then_turn_2_step_10(), 4, 2)  # F level 2, FS level 1
    assert arc_level(state.ships["1a"], state.ships["1a"].system("s1")) == 2
    assert arc_level(state.ships["1a"], state.ships["1a"].system("s2")) == 0  # A block whole
    state, event, dice = _fire(state, [*MISS, 4])
    assert dice.used == [*MISS, 4]
    assert ("Overload: Beam-3 (F/FS/FP) fired late last turn and again at mid-turn: "
            "threshold at level 2 (worst block of its arcs), d6 4 vs 5+: holds"
            ) in event.text
    assert event.data["overload_dice"] == [{
        "roll": 4, "for": "Beam-3 (F/FS/FP) overload", "system": "s1", "ship": "1a",
        "level": 2, "result": "holds"}]
    assert state.ships["1a"].system("s1").hits == 0
    assert state.last_fire["1a:s1"] == (2, "10")


def test_hd31_a_failed_check_damages_the_weapon():
    state = _wound_firer(_fired_at_18_then_turn_2_step_10(), 4, 0)
    state, event, _ = _fire(state, [*MISS, 5])
    assert "d6 5 vs 5+: knocked out" in event.text
    assert state.ships["1a"].system("s1").hits == 1
    assert event.data["overload_dice"][0]["result"] == "knocked out"


def test_hd31_no_threshold_reached_in_its_arcs_means_no_roll():
    # damage only in the aft block: the beam's FP/F/FS blocks have reached no threshold
    state = _wound_firer(_fired_at_18_then_turn_2_step_10(), 0, 0)
    state.ships["1a"].blocks["A"].hull_lost = 6
    state, event, dice = _fire(state, MISS)
    assert dice.used == MISS
    assert "no threshold reached in the blocks of its arcs: no roll" in event.text
    assert state.ships["1a"].system("s1").hits == 0


def test_hd31_the_check_comes_after_the_shot_is_resolved():
    # a hit that thresholds the target rolls the target's checks first, the overload last
    state = _wound_firer(_fired_at_18_then_turn_2_step_10(), 2, 0)
    state, event, dice = _fire(state, [6, 6, 6, 1, 1, 1] + [1] * 20)
    text = event.text
    assert text.index("Threshold in block F") < text.index("Overload:")
    assert event.data["overload_dice"][0]["roll"] == dice.used[-1]


def test_hd31_the_option_round_trips_and_is_shown_at_the_start():
    out = RULESET.start(HrftOptions(overload=True), battle().seats, ScriptedDice([]))
    assert "weapon overload thresholds" in out.events[0].text
    state = _fired_at_18_then_turn_2_step_10()
    again = BattleState.model_validate_json(state.model_dump_json())
    assert again.last_fire == {"1a:s1": (1, "18")}
