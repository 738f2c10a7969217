"""Conversion of Full Thrust designs (H-2, H-3, H-10, H-17; seed SCC)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import InvalidInput
from bot.rules.hrft import convert_design
from bot.rules.hrft.convert import (
    convert_fleet,
    convert_toml,
    damage_control_parties,
    split_rows,
)
from tests.rules.hrft.fixtures import design, escort
from tests.support.examples import examples


def _shape(ship):  # name -> (hull, armour, rows)
    return {n: (b.hull, b.armour, b.rows) for n, b in ship.blocks.items()}


def test_h1_h2_standard_ship_has_six_blocks_named_by_arc():
    ship = convert_design(escort())
    assert list(ship.blocks) == ["F", "FS", "AS", "A", "AP", "FP"]
    assert all(ship.blocks[a].arcs == [a] for a in ship.blocks)
    assert ship.ring == ["F", "FS", "AS", "A", "AP", "FP"]


def test_h2_even_hull_splits_evenly_and_armour_the_same_way():
    ship = convert_design(design(hull=10, armour=2))
    assert {n: (b.hull, b.armour) for n, b in ship.blocks.items()} == {
        a: (5, 1) for a in ("F", "FS", "AS", "A", "AP", "FP")}


def test_h2_remainder_goes_to_fp_f_fs():
    ship = convert_design(design(hull=7, armour=3))
    hull = {n: b.hull for n, b in ship.blocks.items()}
    armour = {n: b.armour for n, b in ship.blocks.items()}
    assert hull == {"F": 4, "FS": 4, "AS": 3, "A": 3, "AP": 3, "FP": 4}
    assert armour == {"F": 2, "FS": 2, "AS": 1, "A": 1, "AP": 1, "FP": 2}


def test_h2_small_ship_hull_1_is_one_block_covering_every_arc():
    ship = convert_design(design(hull=1, armour=1, mass=6))
    assert list(ship.blocks) == ["F+FS+AS+A+AP+FP"]
    block = ship.blocks["F+FS+AS+A+AP+FP"]
    assert (block.hull, block.armour, block.rows) == (3, 3, [1, 1, 1])
    assert sorted(block.arcs) == sorted(["F", "FS", "AS", "A", "AP", "FP"])


def test_h2_small_ship_hull_2_is_fore_and_aft_halves():
    ship = convert_design(design(hull=2, armour=1, mass=8))
    assert _shape(ship) == {"FP+F+FS": (3, 2, [1, 1, 1]), "AS+A+AP": (3, 1, [1, 1, 1])}
    assert ship.block_for("FS").name == "FP+F+FS"
    assert ship.block_for("AP").name == "AS+A+AP"


def test_h2_small_ship_hull_4_default_layout_f_p_s_a():
    ship = convert_design(design(hull=4, armour=2, mass=14))
    assert _shape(ship) == {
        "F": (3, 2, [1, 1, 1]), "FP+AP": (3, 2, [1, 1, 1]),
        "AS+FS": (3, 1, [1, 1, 1]), "A": (3, 1, [1, 1, 1]),
    }
    assert ship.ring == ["F", "AS+FS", "A", "FP+AP"]
    # a joined block can be asked for with its arcs in any order
    assert ship.blocks["FS+AS"] is ship.blocks["AS+FS"]
    assert ship.blocks["AP+FP"].name == "FP+AP"


@pytest.mark.parametrize(("boxes", "rows", "expected"), [
    (15, 3, [5, 5, 5]), (10, 3, [4, 3, 3]), (2, 3, [1, 1, 0]), (7, 2, [4, 3]),
    (9, 4, [3, 2, 2, 2]), (11, 5, [3, 2, 2, 2, 2]),
])
def test_h3_rows_split_evenly_longer_rows_first(boxes, rows, expected):
    assert split_rows(boxes, rows) == expected


@pytest.mark.parametrize(("hull_rows", "block_rows"), [(3, 2), (4, 3), (5, 4), (6, 5)])
def test_h3_variable_hull_rows_give_one_fewer_row_per_block(hull_rows, block_rows):
    ship = convert_design(design(hull=20, hull_rows=hull_rows))
    assert all(len(b.rows) == block_rows for b in ship.blocks.values())
    assert ship.blocks["F"].rows == split_rows(10, block_rows)


def test_h3_bad_hull_rows_refused():
    with pytest.raises(InvalidInput, match="hull rows must be 3, 4, 5 or 6"):
        convert_design(design(hull_rows=7))


@pytest.mark.parametrize(("mass", "kind", "dcps"), [
    (6, "warship", 1), (24, "warship", 3), (40, "warship", 4), (41, "warship", 4),
    (79, "warship", 4), (80, "warship", 4), (81, "warship", 5), (120, "warship", 6),
    (250, "warship", 13), (120, "merchant", 3), (40, "merchant", 1),
])
def test_h10_damage_control_parties_by_mass(mass, kind, dcps):
    assert damage_control_parties(mass, kind) == dcps


def test_h10_dcps_are_central_systems_and_the_last_is_inverted():
    ship = convert_design(escort())
    assert ship.damage_control == 3
    dcps = ship.systems_of("dcp")
    assert [d.group for d in dcps] == ["central"] * 3
    assert [d.inverted for d in dcps] == [False, False, True]


def test_seed_scc3_systems_grouped_by_arc():
    ship = convert_design(design(systems=[
        {"uid": "s1", "type": "beam", "class": 2, "arcs": ["FP", "F"]},
        {"uid": "s2", "type": "pds"},
        {"uid": "s3", "type": "fire_control"},
        {"uid": "s4", "type": "screen", "level": 1},
        {"uid": "s5", "type": "hangar", "bays": 1},
        {"uid": "s6", "type": "hold", "kind": "cargo", "mass": 4},
    ], ftl=True))
    by = {s.uid: s for s in ship.systems}
    assert by["s1"].arcs == ["F", "FP"] and by["s1"].group == "arc"
    assert by["s2"].arcs == ["F", "FS", "AS", "A", "AP", "FP"]
    assert by["s3"].group == by["s4"].group == "central"
    assert by["s5"].arcs == ["F"]
    assert "s6" not in by  # cargo space is not a system (H-D5)
    assert by["drive"].arcs == ["A"] and by["ftl"].arcs == ["A"]
    assert [s.uid for s in ship.systems if s.group == "core"] == [
        "computer", "communications", "sensors"]


@pytest.mark.parametrize(("change", "message"), [
    ({"ruleset": "ft2"}, "Fleet Book designs"),
    ({"hull_boxes": 0}, "hull boxes"),
    ({"armour": -1}, "armour"),
    ({"tmf": "big"}, "MASS"),
    ({"systems": [{"uid": "s1", "type": "pdaf"}]}, "cannot be converted"),
    ({"systems": [{"uid": "s1", "type": "beam", "class": "B", "arcs": ["F"]}]}, "class"),
    ({"systems": [{"uid": "s1", "type": "beam", "class": 1, "arcs": ["P"]}]}, "six"),
    ({"name": ""}, "no name"),
])
def test_h17_unconvertible_designs_are_refused_with_the_reason(change, message):
    with pytest.raises(InvalidInput, match=message):
        convert_design({**design(), **change})


def test_h17_toml_form_converts_like_the_json_form():
    ship = convert_toml("""
name = "Lancer"
mass = 30
hull = 10
armour = 2
thrust = 5
hull_rows = 5
[[systems]]
type = "beam"
class = 2
arcs = ["FP", "F", "FS"]
""")
    assert ship.name == "Lancer" and ship.hull_total == 10
    assert ship.blocks["F"].rows == [2, 1, 1, 1]
    assert ship.system("s1").label == "Beam-2 (F/FS/FP)"


def test_h17_bad_toml_refused():
    with pytest.raises(InvalidInput, match="not valid TOML"):
        convert_toml("name = ")


def test_h17_fleet_file_uses_carried_designs_refuses_missing_ones_and_carries_damage():
    d = escort()
    fleet = {"ships": [{"uid": "sh1", "design_id": d["id"], "name": "Kestrel",
                        "damage": {"hull": 0, "systems_out": []}}], "designs": [d]}
    [ship] = convert_fleet(fleet)
    assert ship.name == "Kestrel"
    # H-D55: a ship whose design is missing is left out, the others still come in
    assert convert_fleet({"ships": [{"design_id": "fb:fb1:nope", "name": "X"}]}) == []
    fleet["ships"][0]["damage"] = {"hull": 2}  # H-D34 (was refused by H-D11)
    [ship] = convert_fleet(fleet)
    assert ship.hull_left == 3 * 12 - 6


@settings(max_examples=examples(60), deadline=None)
@given(hull=st.integers(1, 120), armour=st.integers(0, 40), hull_rows=st.sampled_from([3, 4, 5, 6]))
def test_h2_property_conversion_keeps_three_times_hull_and_armour(hull, armour, hull_rows):
    ship = convert_design(design(hull=hull, armour=armour, hull_rows=hull_rows))
    assert sum(b.hull for b in ship.blocks.values()) == 3 * hull
    assert sum(b.armour for b in ship.blocks.values()) == 3 * armour
    assert all(sum(b.rows) == b.hull for b in ship.blocks.values())
    sizes = [b.hull for b in ship.blocks.values()]
    assert max(sizes) - min(sizes) <= 1


def test_h17_uploaded_files_by_extension():
    import json

    from bot.rules.hrft import ships_from_file
    d = escort()
    [ship] = ships_from_file("escort.FTDesign", json.dumps(d).encode())
    assert ship.hull_total == 12
    fleet = {"ships": [{"uid": "sh1", "design_id": d["id"], "name": "A"},
                       {"uid": "sh2", "design_id": d["id"], "name": "B"}], "designs": [d]}
    assert [s.name for s in ships_from_file("f.FTFleet", json.dumps(fleet))] == ["A", "B"]
    assert ships_from_file("x.toml", 'name = "T"\nmass = 10\nhull = 3\n')[0].name == "T"
    with pytest.raises(InvalidInput, match="not valid JSON"):
        ships_from_file("x.FTDesign", b"{")
    with pytest.raises(InvalidInput, match="upload a"):
        ships_from_file("x.txt", b"")
    with pytest.raises(InvalidInput, match="UTF-8"):
        ships_from_file("x.json", b"\xff\xfe\x00")


def test_joined_block_names_work_with_in():
    ship = convert_design(design(hull=4, mass=14))
    assert "FS+AS" in ship.blocks and "AS+FS" in ship.blocks and "F+A" not in ship.blocks
