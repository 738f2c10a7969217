"""Scenario files (load, errors with locations, round trip) and pure GM edits."""

from __future__ import annotations

from pathlib import Path

import pytest
from ftcamp_testkit import SYS, craft, group, world

from bot.errors import InvalidInput, InvalidState, NotFound
from bot.rules.ftcamp import build, export_scenario, gm, load_scenario
from bot.rules.ftcamp.demo import demo_scenario, demo_state

EXAMPLE = Path(__file__).parents[3] / "examples" / "ftcamp" / "example.toml"

# One group of one craft in a 4 x 4 map, as a scenario file.
MINIMAL = export_scenario(build.scenario("Minimal", (4, 4), ["One", "Two"],
                                         [build.group("A", 1, "0101", build.craft("a", 10))]))


def problems(text: str) -> str:
    with pytest.raises(InvalidInput) as info:
        load_scenario(text)
    return info.value.message


def test_example_scenario_loads_and_equals_the_demo() -> None:
    example = load_scenario(EXAMPLE.read_text())
    assert example == demo_state() == load_scenario(demo_scenario(3))
    assert len(example.players) == 3 and example.alliances == [(1, 3)]
    assert example.groups["Tau Ceti Station"].static == "military"
    assert example.groups["Home Guard"].order.kind == "maintain-orbit"


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_demo_scenario_fits_every_seat_count(seats: int) -> None:
    assert len(load_scenario(demo_scenario(seats)).players) == seats


def test_round_trip_export_then_load_is_identity() -> None:
    state = load_scenario(EXAMPLE.read_text())
    assert load_scenario(export_scenario(state)) == state
    odd = gm.add_group(state, group('Q "quoted" \\ name\u00e9', 2, hex_name="0101",
                                 crafts=[craft("t\tab", mass=5, weasel=2, weasel_on=1)]))
    assert load_scenario(export_scenario(odd)) == odd


def test_every_problem_is_reported_with_its_location() -> None:
    bad = MINIMAL.replace("mass = 10", "mass = -3\nftl = \"broken\"\ncolour = 1") + """
[[groups]]
name = "A"
owner = 9
hex = "0909"
order = "move 0303"
craft = [{ name = "b", mass = "heavy" }]  # an inline array of tables reads the same

[[statics]]
name = "S"
owner = 1
hex = "0101"
craft = [{ name = "s", mass = 5 }]
"""
    text = problems(bad)
    for expected in ("groups[0].craft[0].mass: must be a positive integer",
                     "groups[0].craft[0].ftl: must be 'working' or 'crippled'",
                     "groups[0].craft[0].colour: unknown key",
                     "groups[1].craft[0].mass: must be a positive integer",
                     "groups[1].name: group name 'A' is used twice",
                     "statics[0].sector: a static needs its fixed orbit-sector"):
        assert expected in text


def test_cross_references_are_checked() -> None:
    bad = MINIMAL.replace('order = "hold"', 'order = "move 0404"\nsector = "E-1"')
    text = problems(bad)
    assert "groups[0].order: move target 0404 is not adjacent to 0101" in text
    assert "groups[0].sector: 'E-1' is not an orbit-sector of hex 0101" in text
    text = problems(MINIMAL.replace('owner = 1', 'owner = 5'))
    assert "groups[0].owner: seat 5 is not a player" in text


def test_bad_toml_and_bad_map_are_refused() -> None:
    assert "not valid TOML" in problems("[map")
    text = problems(MINIMAL + '[[map.systems]]\nhex = "0909"\nname = "X"\n'
                    'system_sector = "C-1"\n')
    assert "map.systems[0].hex: '0909' is not a hex of the map" in text
    assert "map.systems[0].system_sector: must be a sector of orbit A or B" in text


def test_nothing_is_loaded_from_a_bad_file() -> None:
    with pytest.raises(InvalidInput):
        load_scenario(MINIMAL.replace('seat = 2', 'seat = 3'))


def test_gm_edits_are_pure_and_validated() -> None:
    s = world(group("A", 1, n=2), group("B", 2, hex_name=SYS))
    moved = gm.move_group(s, "A", "0101")
    assert moved.groups["A"].hex == "0101" and s.groups["A"].hex == "0505"
    with pytest.raises(InvalidInput, match="not a hex"):
        gm.move_group(s, "A", "0909")
    with pytest.raises(InvalidInput, match="orbit-sector"):
        gm.move_group(s, "A", SYS, "D-1")
    with pytest.raises(NotFound):
        gm.remove_group(s, "Nope")
    assert "A" not in gm.remove_group(s, "A").groups
    assert len(gm.add_craft(s, "A", craft("new")).groups["A"].craft) == 3
    with pytest.raises(InvalidInput, match="already has"):
        gm.add_craft(s, "A", craft("A-0"))
    assert [c.name for c in gm.remove_craft(s, "A", "A-0").groups["A"].craft] == ["A-1"]
    with pytest.raises(InvalidInput, match="last craft"):
        gm.remove_craft(s, "B", "B-0")
    hit = gm.mark_damage(s, "A", "A-0", 3, drive_lost=True).groups["A"].craft[0]
    assert hit.damage == 3 and not hit.drive
    assert gm.mark_ftl_lost(s, "A", "A-1").groups["A"].craft[1].crippled
    flagged = gm.set_flags(s, "A", lost=True, diplomat=True).groups["A"]
    assert flagged.lost and flagged.diplomat
    with pytest.raises(InvalidInput, match="already exists"):
        gm.add_group(s, group("A", 1))
    with pytest.raises(InvalidInput, match="not a player"):
        gm.add_group(s, group("Z", 7))


def test_gm_cannot_edit_a_hex_during_its_engage_phase() -> None:
    from ftcamp_testkit import orders_in
    s = orders_in(world(group("A", 1), group("B", 2))).state
    with pytest.raises(InvalidState, match="engage phase"):
        gm.mark_ftl_lost(s, "A", "A-0")


def test_the_builder_refuses_a_bad_fleet_order() -> None:
    with pytest.raises(InvalidInput, match="unknown fleet order 'fly'"):
        build.group("A", 1, "0101", build.craft("a", 10), order="fly 0202")
