"""Weapons (H-13, H-14, H-11 sensors), screens (H-12), VTIF (H-16), damage control (H-10)."""

from __future__ import annotations

import pytest

from bot.errors import InvalidInput, RulesError
from bot.rules.dice import ScriptedDice
from bot.rules.hrft import convert_design, repair, screens, vtif
from bot.rules.hrft.model import System
from bot.rules.hrft.weapons import WEAPONS, band_length, beam_die, fire_weapon, range_band
from tests.rules.hrft.fixtures import escort


def _beam(cls: int, arcs: list[str] | None = None) -> System:
    return System(uid="b", type="beam", label=f"Beam-{cls}", group="arc",
                  arcs=arcs or ["F"], params={"class": cls})


def test_h13_beam_dice_class_minus_band_plus_one():
    shot = fire_weapon(_beam(3), 13, 0, ScriptedDice([4, 5]))  # band 2: 2 dice
    assert shot.band == 2 and shot.damage == 2
    shot = fire_weapon(_beam(3), 12, 0, ScriptedDice([1, 2, 3]))  # 12 MU is still band 1
    assert shot.band == 1 and len(shot.dice) == 3
    with pytest.raises(RulesError, match="out of range"):
        fire_weapon(_beam(2), 25, 0, ScriptedDice([]))


def test_h13_six_scores_two_and_rerolls_and_rerolls_ignore_screens():
    shot = fire_weapon(_beam(1), 5, 2, ScriptedDice([6, 5, ]))
    # 6 = 2 and a re-roll; the re-rolled 5 ignores the level-2 screen: 1
    assert shot.damage == 3 and [d["reroll"] for d in shot.dice] == [False, True]
    shot = fire_weapon(_beam(1), 5, 2, ScriptedDice([6]), beam_reroll=False)
    assert shot.damage == 2 and len(shot.dice) == 1


@pytest.mark.parametrize(("roll", "screen", "points"), [
    (3, 0, 0), (4, 0, 1), (5, 0, 1), (6, 0, 2), (4, 1, 0), (5, 1, 1), (4, 2, 0), (5, 2, 0),
    (6, 2, 2), (5, 3, 0)])
def test_h13_screens_ignore_fours_then_fives(roll, screen, points):
    assert beam_die(roll, screen, rerolled=False) == points


def test_h14_aft_fire_with_drive_used_counts_as_stealth_2_and_stacks():
    table = WEAPONS["beam"]
    assert [band_length(table, n) for n in (0, 1, 2)] == [12, 8, 6]
    assert range_band(table, _beam(3), 9, stealth_steps=1) == 2
    assert range_band(table, _beam(3), 13, stealth_steps=2) == 3


def test_h11_sensors_damage_one_band_further_or_double_range():
    table = WEAPONS["beam"]
    assert range_band(table, _beam(3), 5, sensors_damaged=True) == 2
    assert range_band(WEAPONS["pds"], _beam(1), 6, sensors_damaged=True) == 1
    with pytest.raises(RulesError, match="sensors damaged"):
        range_band(WEAPONS["pds"], _beam(1), 7, sensors_damaged=True)  # counts as 14


def test_weapon_table_pulse_torpedo_to_hit_then_d6_ignoring_screens():
    torp = System(uid="t", type="pulse_torpedo", label="Torp", group="arc", arcs=["F"])
    shot = fire_weapon(torp, 14, 2, ScriptedDice([4, 5]))  # band 3 needs 4+
    assert shot.band == 3 and shot.damage == 5
    assert fire_weapon(torp, 25, 0, ScriptedDice([5])).damage == 0  # band 5 needs 6


def test_h12_screen_points_and_costs():
    assert screens.parse("all:1", 1) == {a: 1 for a in ("F", "FS", "AS", "A", "AP", "FP")}
    assert screens.parse("F2 FS2 FP2", 2) == {"F": 2, "FS": 2, "FP": 2}
    assert screens.parse("F3 FS3 FP3", 3) == {"F": 3, "FS": 3, "FP": 3}
    with pytest.raises(RulesError, match="costs 24 points"):
        screens.parse("F3 FS3 FP3 A3", 3)
    with pytest.raises(RulesError, match="above the ship's screen level"):
        screens.parse("F2", 1)
    assert [v for v, _ in screens.presets(1)] == ["off", "all:1"]
    assert all(screens.parse(v, 3) is not None for v, _ in screens.presets(3))


def test_h16_vtif_modifiers_and_roll():
    assert vtif.modifier(["F"], "F") == -3
    assert vtif.modifier(["F"], "FS") == 0
    assert vtif.modifier(["F"], "AS", tracking=1) == 2
    assert vtif.modifier(["F"], "A", turn=6) == 12
    assert vtif.modifier(["F", "FS"], "F", evasive=2) == -1
    t = vtif.roll(["F", "FS", "FP"], "AS", ScriptedDice([1]), tracking=1)
    assert (t.roll, t.modifier, t.need, t.ok) == (1, -1, 3, True)  # AS is one arc out
    assert not vtif.roll(["F"], "A", ScriptedDice([1])).ok
    assert vtif.max_tracking(4) == 2
    assert vtif.averaged_range([10, 20]) == 15 and vtif.averaged_range([10, 30, 4]) == 7
    with pytest.raises(InvalidInput):
        vtif.averaged_range([1])


def test_h10_repair_numbers_by_parties():
    assert [repair.need(n) for n in (1, 2, 3)] == [6, 5, 4]
    assert repair.need(1, medic_bonus=True) == 5
    with pytest.raises(RulesError, match="1 to 3"):
        repair.need(4)


def test_h10_repair_a_system_and_the_medic_bonus_only_for_dcps():
    ship = convert_design(escort())
    ship.system("s1").hits = 1
    ship.system("dcp1").hits = 1
    assert repair.attempt(ship, "system:s1", 2, ScriptedDice([5])).ship.system("s1").hits == 0
    assert repair.attempt(ship, "system:s1", 1, ScriptedDice([5])).ship.system("s1").hits == 1
    with pytest.raises(RulesError, match="medic"):
        repair.attempt(ship, "system:s1", 1, ScriptedDice([6]), medic_bonus=True)
    res = repair.attempt(ship, "system:dcp1", 1, ScriptedDice([5]), medic_bonus=True)
    assert res.success and res.ship.system("dcp1").hits == 0


def test_h10_hull_repairs_only_the_current_damaged_row():
    ship = convert_design(escort(hull=18))  # blocks of 9, rows 3/3/3
    ship.blocks["F"].hull_lost = 4  # seed: 3/3/3 block with 4 damage -> back to 0/3/3 only
    res = repair.attempt(ship, "hull:F", 3, ScriptedDice([6]))
    assert res.ship.blocks["F"].hull_lost == 3
    with pytest.raises(RulesError, match="current damaged row"):
        repair.attempt(res.ship, "hull:F", 3, ScriptedDice([6]))


def test_h10_stripped_block_gets_back_its_last_row_then_thresholds_again():
    ship = convert_design(escort(hull=18))
    ship.blocks["F"].hull_lost = 9
    for _ in range(3):
        ship = repair.attempt(ship, "hull:F", 3, ScriptedDice([6])).ship
    assert ship.blocks["F"].hull_lost == 6
    with pytest.raises(RulesError):
        repair.attempt(ship, "hull:F", 3, ScriptedDice([6]))
    from bot.rules.dice import SeededDice
    from bot.rules.hrft.damage import apply_attack
    report = apply_attack(ship, [("F", 3)], SeededDice(1))
    assert report.sources and report.sources[0].in_level == 3


def test_h10_armour_repair_and_refusals():
    ship = convert_design(escort(armour=2))
    with pytest.raises(RulesError, match="lost no armour"):
        repair.attempt(ship, "armour:F", 1, ScriptedDice([6]))
    ship.blocks["F"].armour_lost = 1
    assert repair.attempt(ship, "armour:F", 1, ScriptedDice([6])).ship.blocks["F"].armour_lost == 0
    with pytest.raises(RulesError, match="must be"):
        repair.attempt(ship, "crew:F", 1, ScriptedDice([6]))
