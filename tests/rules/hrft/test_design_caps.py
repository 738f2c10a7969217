"""H-D33: design numbers capped at what Fleet Book ships need, ships per file capped, and
every bad design or fleet file refused with InvalidInput (fuzzed), never another error."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import InvalidInput, UserError
from bot.rules.hrft import model
from bot.rules.hrft.convert import convert_design, convert_fleet
from bot.rules.hrft.imports import ships_from_file
from tests.rules.hrft.fixtures import design
from tests.support.examples import examples


def refused(fn, *args: Any) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidInput) as info:
        fn(*args)
    return info.value.message


def largest(**extra: Any) -> dict[str, Any]:
    """The largest legal design: every cap reached, weapons and other systems to the limits."""
    weapons = [{"uid": f"w{i}", "type": "beam", "class": 6, "arcs": ["FP", "F", "FS"]}
               for i in range(model.MAX_WEAPONS)]
    others = [{"uid": f"o{i}", "type": "fire_control"}
              for i in range(model.MAX_SYSTEMS - model.MAX_WEAPONS)]
    return design(hull=model.MAX_HULL, armour=model.MAX_ARMOUR, mass=model.MAX_MASS,
                  thrust=model.MAX_THRUST, systems=weapons + others, ftl=True,
                  name="N" * model.MAX_NAME, **extra)


def test_h_d33_the_largest_legal_design_converts() -> None:
    ship = convert_design(largest())
    assert (ship.mass, ship.hull_total, ship.armour_total, ship.thrust) == (400, 200, 100, 20)
    assert ship.damage_control == 20  # 400 MASS / 20
    # 60 design systems, drive, FTL, three core systems, 20 DCPs
    assert len(ship.systems) == 60 + 1 + 1 + 3 + 20
    assert sum(b.hull for b in ship.blocks.values()) == 600  # H-2: hull x3
    assert len(ship.model_dump_json()) < 60_000  # the 10^7 design made 75 MB


@pytest.mark.parametrize(("key", "value", "limit"), [
    ("tmf", model.MAX_MASS + 1, "MASS ('tmf') must be a whole number from 1 to 400 (the "
                                "largest Fleet Book ship has 280), not 401"),
    ("tmf", 10**7, "from 1 to 400"),
    ("hull_boxes", model.MAX_HULL + 1, "hull boxes ('hull_boxes') must be a whole number "
                                       "from 1 to 200 (the largest Fleet Book ship has 88)"),
    ("armour", model.MAX_ARMOUR + 1, "from 0 to 100 (the largest Fleet Book ship has 14)"),
    ("thrust", model.MAX_THRUST + 1, "from 0 to 20 (the largest Fleet Book ship has 8)"),
    ("thrust", -1, "from 0 to 20"),
    ("tmf", 2.5, "not 2.5"),
    ("tmf", True, "not True"),
    ("hull_boxes", [1], "not [1]"),
    pytest.param("armour", 10**5000, "not a int of over 40 digits", id="5000-digits"),
])
def test_h_d33_numbers_beyond_the_caps_are_refused_with_the_limit(
    key: str, value: Any, limit: str
) -> None:
    assert limit in refused(convert_design, {**design(), key: value})


def test_h_d33_the_10_million_design_is_refused_before_anything_is_built() -> None:
    text = json.dumps(design(hull=10**7, armour=10**7, mass=10**7))
    assert "MASS ('tmf') must be a whole number from 1 to 400" in refused(
        ships_from_file, "big.FTDesign", text)


def test_h_d33_systems_weapons_and_texts_are_capped() -> None:
    many = [{"uid": f"s{i}", "type": "fire_control"} for i in range(model.MAX_SYSTEMS + 1)]
    assert "has 61 systems; at most 60 are allowed" in refused(
        convert_design, design(systems=many))
    guns = [{"uid": f"s{i}", "type": "pds"} for i in range(model.MAX_WEAPONS + 1)]
    assert "has 41 weapons; at most 40 are allowed" in refused(
        convert_design, design(systems=guns))
    # H-D53: the Fleet Manager allows 80 characters in a name
    assert convert_design(design(name="N" * 80)).name == "N" * 80
    assert "name ('name') must be a text of at most 80" in refused(
        convert_design, design(name="N" * 81))
    assert "type code ('type_code') must be a text of at most 8" in refused(
        convert_design, {**design(), "type_code": "X" * 9})
    bad = [{"uid": "u" * 21, "type": "fire_control"}]
    assert "'uid' must be a text of at most 20" in refused(convert_design, design(systems=bad))
    bays = [{"uid": "h", "type": "hangar", "bays": 10**9}]
    assert "'bays' must be a whole number from 0 to 1000" in refused(
        convert_design, design(systems=bays))
    feeds = [{"uid": "m", "type": "sm_magazine", "feeds": [["x"]]}]
    assert "'feeds' must be a list of at most 60" in refused(
        convert_design, design(systems=feeds))


def test_h_d33_ships_per_file_are_capped_at_a_sides_limit() -> None:
    d = design()
    d["id"] = "d1"
    ships = [{"uid": f"sh{i}", "design_id": "d1", "name": f"S{i}"}
             for i in range(model.MAX_FILE_SHIPS + 1)]
    text = refused(ships_from_file, "f.FTFleet", json.dumps({"ships": ships, "designs": [d]}))
    assert "13 ships; a file may hold at most 12" in text
    assert len(ships_from_file("f.FTFleet", json.dumps({"ships": ships[:12], "designs": [d]}))) \
        == 12
    text = refused(ships_from_file, "f.json", json.dumps({"designs": [d] * 13}))
    assert "13 designs; a file may add at most 12 ships" in text
    text = refused(convert_fleet, {"ships": [], "designs": [d] * 25})
    assert "at most 24 designs" in text


def test_h_d33_toml_ship_files_have_their_own_small_size_limit() -> None:
    text = "name = 'Big'\nmass = 10\nhull = 4\n" + "# padding\n" * 3300
    assert "at most 32 kB is allowed" in refused(ships_from_file, "big.toml", text)


# ---------------------------------------------------------------- fuzz

KEYS = ["name", "ruleset", "tmf", "hull_boxes", "armour", "thrust", "hull_rows", "hull_kind",
        "type_code", "systems", "ftl", "design", "designs", "ships", "id", "uid", "type",
        "class", "arcs", "level", "bays", "feeds", "load", "design_id", "status", "damage"]
LEAF = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20),
                 st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8),
                 st.sampled_from(["fb", "beam", "pds", "F", "AS", "warship", "d1", "hulk"]))
TREE = st.recursive(LEAF, lambda kids: st.one_of(
    st.lists(kids, max_size=5), st.dictionaries(st.sampled_from(KEYS), kids, max_size=8)),
    max_leaves=60)


def _mutated(value: Any) -> dict[str, Any]:
    """A valid design with one field replaced by anything."""
    base = design(systems=[{"uid": "s1", "type": "beam", "class": 2, "arcs": ["F"]}])
    return {**base, "tmf": value} if not isinstance(value, dict) else {**base, **value}


FILES = st.one_of(
    st.binary(max_size=400),
    st.text(max_size=200).map(str.encode),
    TREE.map(lambda t: json.dumps(t).encode()),
    TREE.map(lambda t: json.dumps(_mutated(t)).encode()),
    TREE.map(lambda t: json.dumps({"ships": [{"design_id": "d1", "name": t}],
                                    "designs": [{**design(), "id": "d1"}]}).encode()),
    TREE.map(lambda t: json.dumps({"ships": t, "designs": t}).encode()),
    st.integers(1, 3000).map(lambda n: ("[" * n + "]" * n).encode()),
    st.integers(1, 6000).map(lambda n: ('{"tmf": ' + "9" * n + "}").encode()),
    st.text(max_size=40).map(lambda t: t.encode("utf-16")),
)


@settings(max_examples=examples(400), deadline=None)
@given(FILES, st.sampled_from(["x.FTDesign", "x.FTFleet", "x.json"]))
def test_fuzz_design_and_fleet_files_give_ships_or_a_user_error(data: bytes, name: str) -> None:
    try:
        ships = ships_from_file(name, data)
    except UserError:
        return
    assert 1 <= len(ships) <= model.MAX_FILE_SHIPS
    for ship in ships:
        assert ship.mass <= model.MAX_MASS and len(ship.systems) <= model.MAX_SYSTEMS + 25


TOML_LINES = st.sampled_from([
    "name = 'T'", "mass = 30", "hull = 10", "armour = 2", "thrust = 4", "mass = 1e3",
    "hull = 99999999999999999999", "mass = " + "9" * 5000, "kind = 'merchant'", "ftl = true",
    "[[systems]]", "type = 'beam'", "class = 2", "arcs = ['F']", "type = 'pds'", "systems = 3",
    "arcs = " + "[" * 500 + "]" * 500, "a" + ".a" * 30 + " = 1", "hull_rows = [1]",
    "name = " + "{a = " * 40 + "1" + "}" * 40, "mass = nan", "x = \xff",
])


@settings(max_examples=examples(400), deadline=None)
@given(st.one_of(st.lists(TOML_LINES, max_size=14).map("\n".join).map(str.encode),
                 st.binary(max_size=300)))
def test_fuzz_toml_ship_files_give_a_ship_or_a_user_error(data: bytes) -> None:
    try:
        [ship] = ships_from_file("x.toml", data)
    except UserError:
        return
    assert ship.mass <= model.MAX_MASS


def test_h17_an_exported_fleet_wrapper_adds_the_fleet_ships_not_its_designs() -> None:
    """The Fleet Manager's .FTFleet export: {"kind": "FTFleet", "fleet": {...}, "designs"}."""
    d = {**design(), "id": "d1"}
    spare = {**design(name="Spare"), "id": "d2"}
    export = {"schema_version": 2, "kind": "FTFleet", "designs": [d, spare],
              "fleet": {"name": "Home", "ships": [{"uid": "sh1", "design_id": "d1",
                                                    "name": "Alpha"}]}}
    assert [s.name for s in ships_from_file("home.FTFleet", json.dumps(export))] == ["Alpha"]
    export["fleet"]["ships"] = [{"uid": f"s{i}", "design_id": "d1"} for i in range(13)]
    assert "13 ships; a file may hold at most 12" in refused(
        ships_from_file, "home.FTFleet", json.dumps(export))
