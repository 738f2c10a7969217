"""The optional ``design`` of an FTCamp craft: the HRFT design it flies as (H-D28)."""

from __future__ import annotations

import pytest

from bot.errors import InvalidInput
from bot.rules.ftcamp import export_scenario, load_scenario

SCENARIO = """
[map]
columns = 3
rows = 3

[[players]]
seat = 1
name = "Terran Union"

[[groups]]
name = "Vanguard"
owner = 1
hex = "0202"
[[groups.craft]]
name = "Resolute"
mass = 60
design = "Vanguard"
[[groups.craft]]
name = "Valiant"
mass = 40
"""


def test_hd28_craft_design_is_read_and_optional() -> None:
    state = load_scenario(SCENARIO)
    craft = state.groups["Vanguard"].craft
    assert craft[0].design == "Vanguard"
    assert craft[1].design is None


def test_hd28_craft_design_round_trips_through_export() -> None:
    state = load_scenario(SCENARIO)
    text = export_scenario(state)
    assert 'design = "Vanguard"' in text
    assert text.count("design =") == 1  # a craft without a design writes no key
    assert load_scenario(text) == state


@pytest.mark.parametrize("bad", ['design = ""', "design = 3", f'design = "{"x" * 61}"'])
def test_hd28_bad_craft_design_is_refused_with_its_location(bad: str) -> None:
    text = SCENARIO.replace('design = "Vanguard"', bad)
    with pytest.raises(InvalidInput, match=r"groups\[0\]\.craft\[0\]\.design"):
        load_scenario(text)
