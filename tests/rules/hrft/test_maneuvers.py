"""The seed's "Additional Maneuver rules for HRFT" as the bot supports them (H-D32).

Roll, Corkscrew, Redlined Engines, Hard About, Extreme Maneuvers, Dead Rotate are "as in WDA";
the bot records declarations and keeps the numbers it uses itself: the redline thrust
(seed: at mid-turn "only 1/2 (round down) the additional thrust"), thrust used after mid-turn
(main drive used for H-14 aft fire), Evasive/Extreme points for VTIF (H-16: +1 each).
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.errors import RulesError
from bot.rules.dice import ScriptedDice, SeededDice
from bot.rules.hrft import RULESET, BattleState, HrftOptions
from bot.rules.hrft.maneuvers import redline_bonus
from tests.rules.hrft.battle_helpers import battle, ready_all

# gunboat: thrust 4, s1 class-3 beam FP/F/FS, s2 class-1 beam A
AFT = {"type": "fire", "weapons": ["1a:s2"], "target": "2a", "range": "10", "arc": "F",
       "bearing": "A"}


def _orders(state: BattleState, one: dict[str, Any] | None = None) -> Any:
    state, _ = ready_all(state)
    return RULESET.resolve(state, {1: {"type": "orders", **(one or {})},
                                   2: {"type": "orders"}}, ScriptedDice([3, 4]))


def _ready_to(state: BattleState, key: str) -> BattleState:
    for _ in range(6):
        if state.step == key:
            return state
        for seat in (1, 2):
            state = RULESET.act(state, seat, {"type": "ready"}, SeededDice(1)).state
    assert state.step == key
    return state


def _declare(state: BattleState, seat: int = 1, **fields: Any) -> Any:
    action = {"type": "maneuver", "ship": f"{seat}a", **fields}
    return RULESET.act(state, seat, action, ScriptedDice([]))


def _spec(state: BattleState, seat: int, kind: str) -> Any:
    request = next(r for r in RULESET.pending(state) if r.seat == seat)
    return next((a for a in request.actions if a.type == kind), None)


def test_hd32_written_orders_carry_a_free_text_manoeuvre_note_revealed_at_step_2():
    out = _orders(battle(), {"note": "1a: Corkscrew, Hard About after mid-turn"})
    reveal = out.events[0]
    assert reveal.kind == "orders" and reveal.audience.kind == "public"
    assert "_1a: Corkscrew, Hard About after mid-turn_" in reveal.text
    with pytest.raises(RulesError, match="at most 300"):
        RULESET.check(ready_all(battle())[0], 1, {"type": "orders", "note": "x" * 301})


def test_hd32_redline_is_off_by_default_and_refused_without_the_option():
    state, _ = ready_all(battle())
    names = [f.name for f in RULESET.pending(state)[0].actions[0].fields]
    assert "1a.redline" not in names
    with pytest.raises(RulesError, match="redline"):
        RULESET.check(state, 1, {"type": "orders", "1a.redline": "yes"})


def test_hd32_redline_bonus_third_or_half_rounded_down():
    assert [redline_bonus(t, "third") for t in (2, 3, 4, 6, 8)] == [0, 1, 1, 2, 2]
    assert [redline_bonus(t, "half") for t in (1, 3, 4, 5)] == [0, 1, 2, 2]
    assert redline_bonus(6, "off") == 0


def test_hd32_redlined_in_the_orders_the_ship_may_use_the_bonus_thrust():
    state, _ = ready_all(battle(HrftOptions(redline="half")))
    fields = {f.name: f for f in RULESET.pending(state)[0].actions[0].fields}
    assert [o.value for o in fields["1a.redline"].options] == ["no", "yes"]
    assert fields["1a.thrust"].options[-1].value == "6"  # 4 + half of 4
    with pytest.raises(RulesError, match="redlined engines allow more"):
        RULESET.check(state, 1, {"type": "orders", "1a.thrust": "6", "1a.speed": "6"})
    out = RULESET.resolve(state, {1: {"type": "orders", "1a.thrust": "6", "1a.speed": "6",
                                      "1a.redline": "yes"}, 2: {"type": "orders"}},
                          ScriptedDice([3, 4]))
    assert "Testship: speed 6, thrust 6, turn 0" in out.events[0].text
    assert "engines redlined" in out.events[0].text and "H-D32" not in out.events[0].text
    assert out.state.orders["1a"].redline is True
    with pytest.raises(RulesError, match="thrust used must be from 0 to 6, not 8"):
        RULESET.check(state, 1, {"type": "orders", "1a.thrust": "8", "1a.redline": "yes"})


def test_hd32_mid_turn_declaration_at_step_10_with_the_thrust_left():
    out = _orders(battle(), {"1a.thrust": "1", "1a.speed": "1"})
    state = out.state
    spec = _spec(state, 1, "maneuver")
    assert spec is not None and [f.name for f in spec.fields] == ["ship", "kinds", "thrust"]
    assert "redline" not in [o.value for o in spec.fields[1].options]  # option off
    with pytest.raises(RulesError, match="from 0 to 3"):
        _declare(state, kinds=["hard_about"], thrust="4")
    done = _declare(state, kinds=["hard_about", "extreme"], thrust="3")
    event = done.events[0]
    assert event.audience.kind == "public" and event.kind == "maneuver"
    assert ("declares after mid-turn: Hard About, Extreme Maneuver; thrust 3 of 3 "
            "un-allocated") in event.text
    assert _spec(done.state, 1, "maneuver") is None  # one declaration a ship a turn
    with pytest.raises(RulesError, match="already declared"):
        _declare(done.state, kinds=["roll"])
    with pytest.raises(RulesError, match="one of your ships"):
        _declare(done.state, 1, ship="2a", kinds=["roll"])


def test_hd32_mid_turn_redline_gets_half_the_additional_thrust_rounded_down():
    state = _orders(battle(HrftOptions(redline="half")),
                    {"1a.thrust": "4", "1a.speed": "4"}).state
    # thrust 4 all used; redline half: bonus 2, at mid-turn 2 // 2 = 1
    with pytest.raises(RulesError, match="from 0 to 0"):
        _declare(state, kinds=["hard_about"], thrust="1")
    with pytest.raises(RulesError, match="from 0 to 1"):
        _declare(state, kinds=["redline", "hard_about"], thrust="2")
    out = _declare(state, kinds=["redline", "hard_about"], thrust="1")
    assert out.state.maneuvers["1a"].redline and out.state.maneuvers["1a"].thrust == 1
    third = _orders(battle(HrftOptions(redline="third")),
                    {"1a.thrust": "4", "1a.speed": "4"}).state
    with pytest.raises(RulesError, match="from 0 to 0"):  # third of 4 = 1, half of 1 = 0
        _declare(third, kinds=["redline"], thrust="1")


def test_hd32_no_declaration_at_step_18():
    state = _ready_to(_orders(battle()).state, "fire2")
    assert _spec(state, 1, "maneuver") is None
    with pytest.raises(RulesError, match="in the mid-turn fire step"):
        _declare(state, kinds=["hard_about"])


def test_hd32_h14_thrust_after_mid_turn_makes_step_18_aft_fire_stealthy():
    # orders: no thrust. Aft beam (class 1, one 12 MU band) at 10 MU hits band 1 ...
    state = _orders(battle()).state
    state = _declare(state, kinds=["hard_about"], thrust="2").state
    fired = RULESET.act(state, 1, AFT, ScriptedDice([1]))  # step 10: before the manoeuvre
    assert fired.events[0].kind == "fire" and "Stealth" not in fired.events[0].text
    # ... but at step 18 the drive has been used: bands of 8 MU, 10 MU is out of range
    late = _ready_to(state, "fire2")
    with pytest.raises(RulesError, match="out of range"):
        RULESET.act(late, 1, AFT, ScriptedDice([1]))
    plain = _ready_to(_orders(battle()).state, "fire2")
    assert RULESET.act(plain, 1, AFT, ScriptedDice([1])).events[0].kind == "fire"


def test_hd32_h16_declared_evasive_points_count_against_vtif_rolls_at_step_18():
    options = HrftOptions(movement="vector", vtif=True)
    state = _orders(battle(options)).state
    spec = _spec(state, 2, "maneuver")
    assert spec is not None and spec.fields[-1].name == "evasive"
    state = _declare(state, 2, kinds=["extreme"], thrust="2", evasive="2").state
    shot = {"type": "fire", "weapons": ["1a:s1"], "target": "2a", "range": "10", "arc": "F",
            "bearing": "F"}
    # in arc -3, target's evasive +2: d6 4 - 1 = 3 <= 3 arcs, the weapon fires
    late = _ready_to(state, "fire2")
    out = RULESET.act(late, 1, shot, ScriptedDice([4, 1, 1, 1]))
    assert "VTIF d6 4 -1 = 3 vs <= 3: fires" in out.events[0].text
    # the firer's own figure wins when given
    out = RULESET.act(late, 1, {**shot, "evasive": "0"}, ScriptedDice([4, 1, 1, 1]))
    assert "VTIF d6 4 -3 = 1 vs <= 3: fires" in out.events[0].text


def test_hd32_declarations_last_one_turn():
    state = _declare(_orders(battle()).state, kinds=["dead_rotate"]).state
    state = _ready_to(state, "end")
    for seat in (1, 2):
        state = RULESET.act(state, seat, {"type": "ready"}, SeededDice(1)).state
    assert state.step == "orders" and state.turn == 2 and state.maneuvers == {}
