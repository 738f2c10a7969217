"""Damage to ships: armour, rows, thresholds, cascades, destruction (H-4 to H-8)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.dice import ScriptedDice, SeededDice
from bot.rules.hrft import convert_design
from bot.rules.hrft.damage import apply_attack
from bot.rules.hrft.thresholds import fails
from tests.rules.hrft.fixtures import design, escort
from tests.support.examples import examples

ARCS6 = ["F", "FS", "AS", "A", "AP", "FP"]


def _escort(armour: int = 0, **lost: int):
    ship = convert_design(escort(armour=armour))
    for name, n in lost.items():
        ship.blocks[name].hull_lost = n
    return ship


def _lost(ship):
    return {n: b.hull_lost for n, b in ship.blocks.items()}


def test_h4_armour_first_and_completing_armour_never_thresholds():
    ship = _escort(armour=2)  # 6 armour boxes: 1 per block
    dice = ScriptedDice([])  # no die may be asked for
    report = apply_attack(ship, [("F", 1)], dice)
    assert report.ship.blocks["F"].armour_lost == 1
    assert report.ship.blocks["F"].hull_lost == 0
    assert report.sources == [] and dice.used == []
    report = apply_attack(report.ship, [("F", 1)], ScriptedDice([]))  # row 1 not complete
    assert report.ship.blocks["F"].hull_lost == 1 and report.sources == []


def test_h5_fail_numbers_by_level():
    assert [r for r in range(1, 7) if fails(r, 1)] == [6]
    assert [r for r in range(1, 7) if fails(r, 2)] == [5, 6]
    assert [r for r in range(1, 7) if fails(r, 3)] == [4, 5, 6]
    assert [r for r in range(1, 7) if fails(r, 4)] == [3, 4, 5, 6]
    assert [r for r in range(1, 7) if fails(r, 5)] == [2, 3, 4, 5, 6]
    assert not fails(6, 0)


def test_h5_h6_row_one_is_level_1_core_does_not_roll():
    ship = _escort()
    # in-arc F beam (s1) rolls alone; out-of-arc group (s2, s3, drive); central (FC, 2 DCPs)
    dice = ScriptedDice([6, 5, 6, 2])
    report = apply_attack(ship, [("F", 2)], dice)
    [src] = report.sources
    assert (src.kind, src.block, src.in_level, src.rest_level, src.core_level) == (
        "direct", "F", 1, 1, 0)
    after = report.ship
    assert after.system("s1").hits == 1  # 6 at level 1 fails
    assert after.system("s2").hits == after.system("s3").hits == 0  # group held on 5
    assert after.system("dcp1").hits == 1  # central group failed, d3 = 2 -> 2nd member
    assert after.system("s4").hits == 0
    assert dice.remaining == 0 and dice.used == [6, 5, 6, 2]


def test_h5_one_attack_completing_two_rows_is_one_level_worse():
    report = apply_attack(_escort(), [("F", 4)], SeededDice(1))
    assert report.sources[0].in_level == 3
    report = apply_attack(_escort(), [("F", 3), ("F", 3)], SeededDice(1))
    assert report.sources[0].in_level == 4  # rows 1-3 in one attack


def test_h5_separate_attacks_threshold_each_row_at_its_own_level():
    first = apply_attack(_escort(), [("F", 2)], SeededDice(1))
    second = apply_attack(first.ship, [("F", 2)], SeededDice(2))
    assert [s.in_level for s in first.sources] == [1]
    assert [s.in_level for s in second.sources] == [2]


def test_h6_core_group_rolls_one_level_better():
    dice = ScriptedDice([1, 1, 1, 5, 3])
    report = apply_attack(_escort(F=2), [("F", 2)], dice)  # completes row 2: level 2
    assert report.sources[0].core_level == 1
    # s1, out-of-arc, central, then core at level 1 fails on 6 only: 5 holds
    assert dice.used == [1, 1, 1, 5] and dice.remaining == 1
    assert all(s.hits == 0 for s in report.ship.systems)


def test_h6_knocked_out_systems_and_the_inverted_dcp_do_not_roll():
    ship = convert_design(design(hull=12, systems=[
        {"uid": "s1", "type": "beam", "class": 1, "arcs": ["F"]}], thrust=0, mass=10))
    ship.system("s1").hits = 1
    # no working in-arc system, no out-of-arc system, central = only the inverted DCP
    dice = ScriptedDice([])
    report = apply_attack(ship, [("F", 2)], dice)
    assert report.sources and dice.used == []


def test_h7_seed_example_f_stripped_two_more_damage_goes_to_fp_and_fs_bypassing_armour():
    ship = _escort(armour=2, F=6)
    report = apply_attack(ship, [("F", 2)], SeededDice(3), thresholds=False)
    after = report.ship
    assert after.blocks["FS"].hull_lost == 2 and after.blocks["FP"].hull_lost == 2
    assert after.blocks["FS"].armour_lost == 0 and after.blocks["FP"].armour_lost == 0
    assert after.blocks["F"].armour_lost == 0
    assert report.placements[0].cascade == {"FS": 2, "FP": 2}


def test_h7_seed_example_fs_stripped_cascade_threshold_levels():
    # FS stripped; 1 point through FS goes to F (completes row 1) and AS (does not)
    ship = _escort(FS=6, F=1)
    dice = ScriptedDice([5, 6, 4, 2, 3, 5, 1])
    report = apply_attack(ship, [("FS", 1)], dice)
    [src] = report.sources
    assert src.kind == "cascade" and src.receivers == ["F"]
    assert src.in_arcs == ["FS", "F"]
    assert (src.in_level, src.rest_level, src.core_level) == (1, 3, 2)
    after = report.ship
    assert after.system("s1").hits == 0  # F beam, level 1, rolled 5
    assert after.system("s2").hits == 1  # FS beam, level 1, rolled 6
    assert after.system("drive").hits == 1  # out-of-arc at level 3: 4 fails, d2 = 2
    assert after.system("s4").hits == 0  # central at level 3: 3 holds
    assert after.system("computer").hits == 1  # core at level 2: 5 fails, d3 = 1
    assert dice.remaining == 0


def test_h7_cascade_two_blocks_threshold_uses_the_worse_level():
    ship = _escort(FS=6, F=1, AS=3)
    report = apply_attack(ship, [("FS", 1)], SeededDice(4))
    [src] = report.sources
    assert src.receivers == ["F", "AS"] and src.in_level == 2


def test_h7_cascade_passes_over_a_stripped_adjacent_block():
    ship = _escort(F=6, FS=6)
    report = apply_attack(ship, [("F", 2)], SeededDice(5), thresholds=False)
    assert report.placements[0].cascade == {"AS": 2, "FP": 2}
    assert _lost(report.ship)["FS"] == 6


def test_h7_one_attack_strips_a_block_and_thresholds_the_adjacent_ones():
    ship = _escort(F=4)
    report = apply_attack(ship, [("F", 4)], SeededDice(6))
    [src] = report.sources
    assert src.kind == "strip+adjacent" and sorted(src.receivers) == ["FP", "FS"]
    # in-arc at the stripped block's level (3), core one better, rest at the adjacent level
    assert (src.in_level, src.core_level, src.rest_level) == (3, 2, 1)
    assert sorted(src.in_arcs) == sorted(["F", "FS", "FP"])


def test_h7_cascade_overflow_continues_in_its_direction():
    ship = _escort(F=6, FS=5)
    report = apply_attack(ship, [("F", 3)], SeededDice(7), thresholds=False)
    assert report.placements[0].cascade == {"FS": 1, "AS": 2, "FP": 3}


def test_h8_every_box_gone_overkill_roll_hulk_or_destroyed():
    lost = {a: 6 for a in ARCS6}
    lost["F"] = 5
    # 3 through F: 1 hull, 2 left over -> overkill 2; d6 3 > 2 -> hulk
    report = apply_attack(_escort(**lost), [("F", 3)], ScriptedDice([3]))
    assert report.overkill == 2 and report.ship.hulk and not report.ship.destroyed
    report = apply_attack(_escort(**lost), [("F", 3)], ScriptedDice([2]))
    assert report.ship.destroyed and not report.ship.hulk
    # exactly enough damage: overkill 0, but a 1 always destroys
    report = apply_attack(_escort(**lost), [("F", 1)], ScriptedDice([1]))
    assert report.overkill == 0 and report.ship.destroyed
    report = apply_attack(_escort(**lost), [("F", 1)], ScriptedDice([2]))
    assert report.ship.hulk


def test_h2_h7_small_ship_hull_1_strips_its_only_block_and_is_destroyed():
    ship = convert_design(design(hull=1, mass=6))
    report = apply_attack(ship, [("AP", 2)], SeededDice(1))
    assert report.sources[0].in_level == 3  # rows 1 and 2 in one attack
    report = apply_attack(report.ship, [("F", 3)], ScriptedDice([6]))
    assert report.overkill == 2 and report.ship.hulk


def test_h2_h7_small_ship_hull_2_cascade_goes_once_to_the_other_half():
    ship = convert_design(design(hull=2, mass=8))
    ship.blocks["FP+F+FS"].hull_lost = 3
    report = apply_attack(ship, [("F", 2)], SeededDice(1), thresholds=False)
    assert report.placements[0].cascade == {"AS+A+AP": 2}  # H-D3


def test_h2_h7_small_ship_hull_4_cascade_to_both_side_blocks():
    ship = convert_design(design(hull=4, armour=4, mass=14))
    ship.blocks["F"].hull_lost = 3
    report = apply_attack(ship, [("F", 1)], SeededDice(1), thresholds=False)
    assert report.placements[0].cascade == {"AS+FS": 1, "FP+AP": 1}
    assert report.ship.blocks["AS+FS"].armour_lost == 0


hits_strategy = st.lists(st.tuples(st.sampled_from(ARCS6), st.integers(0, 9)),
                         min_size=1, max_size=4)


@settings(max_examples=examples(60), deadline=None)
@given(attacks=st.lists(hits_strategy, min_size=1, max_size=12), armour=st.integers(0, 6),
       seed=st.integers(0, 10_000))
def test_h4_h7_property_damage_never_removes_more_than_dealt_outside_cascades(
        attacks, armour, seed):
    ship = convert_design(escort(armour=armour))
    dice = SeededDice(seed)
    for hits in attacks:
        report = apply_attack(ship, hits, dice)
        for p in report.placements:
            direct = p.armour + p.hull
            assert direct <= p.points
            overflow = p.points - direct
            # H-7: the overflow goes in full to each side, so at most twice over
            assert sum(p.cascade.values()) <= 2 * overflow
            if not p.cascade:
                assert direct + p.leftover == p.points
        ship = report.ship


@settings(max_examples=examples(60), deadline=None)
@given(attacks=st.lists(hits_strategy, min_size=1, max_size=15), hull=st.sampled_from(
    [1, 2, 3, 4, 5, 8, 12]), seed=st.integers(0, 10_000))
def test_h8_property_destroyed_exactly_when_every_box_is_gone(attacks, hull, seed):
    ship = convert_design(design(hull=hull, armour=1, mass=20))
    dice = SeededDice(seed)
    for hits in attacks:
        ship = apply_attack(ship, hits, dice).ship
        assert ship.out == (ship.hull_left == 0)
        assert ship.destroyed != ship.hulk or not ship.out


def test_h7_cascade_share_stays_in_its_half_of_the_ring_h_d3():
    # F, FS, AS stripped: the clockwise share reaches A (the opposite block) and no further
    ship = _escort(F=6, FS=6, AS=6, A=5)
    report = apply_attack(ship, [("F", 4)], SeededDice(8), thresholds=False)
    assert report.placements[0].cascade == {"A": 1, "FP": 4}
    assert _lost(report.ship)["AP"] == 0


def test_h7_seed_example_cascade_counts_the_adjacent_arc_as_in_arc_for_an_f_only_torpedo():
    # FP stripped; damage through FP cascades into F (row 1) and AP; the F-only pulse
    # torpedo rolls on its own "just like all other weapons with FP arcs"
    ship = convert_design(design(hull=12, thrust=0, mass=10, systems=[
        {"uid": "t1", "type": "pulse_torpedo", "arcs": ["F"]},
        {"uid": "b1", "type": "beam", "class": 1, "arcs": ["FP"]},
        {"uid": "b2", "type": "beam", "class": 1, "arcs": ["FS"]},
    ]))
    ship.blocks["FP"].hull_lost = 6
    ship.blocks["F"].hull_lost = 1
    dice = ScriptedDice([6, 2, 1, 1])  # t1 fails, b1 holds, out-of-arc (b2) holds, core holds
    report = apply_attack(ship, [("FP", 1)], dice)
    [src] = report.sources
    assert src.kind == "cascade" and src.in_arcs == ["FP", "F"]
    assert [d.get("system") for d in report.dice[:2]] == ["t1", "b1"]
    assert report.ship.system("t1").hits == 1 and report.ship.system("b2").hits == 0
    assert report.dice[2]["for"] == "out-of-arc group"
    assert dice.remaining == 0
