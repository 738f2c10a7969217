"""Formulas and layouts: E-1, E-4 (signature), E-7, E-8, E-9."""

from __future__ import annotations

import pytest

from bot.errors import InvalidInput
from bot.rules.ftcamp import engage_value, group_size, max_subdivisions
from bot.rules.ftcamp import geometry as geo
from bot.rules.ftcamp.core import signature_class, subdivision_bonus
from bot.rules.ftcamp.model import HexMap, SystemHex


def test_e1_deep_space_has_four_orbits_of_6_6_12_12_sectors() -> None:
    m = HexMap(columns=5, rows=5)
    sectors = geo.sectors(m, "0202")
    assert len(sectors) == 36
    assert [s for s in sectors if s.startswith("D")][-1] == "D-12"
    assert geo.outermost(m, "0202")[0] == "D-1"
    assert geo.system_at(m, "0202") is None


def test_e1_system_hex_has_three_orbits_and_a_system_sector() -> None:
    m = HexMap(columns=5, rows=5, systems=[SystemHex(hex="0303", name="X", system_sector="B-4")])
    sectors = geo.sectors(m, "0303")
    assert len(sectors) == 24 and "C-12" in sectors and "D-1" not in sectors
    assert geo.home_sector(m, "0303") == "B-4"
    assert geo.outermost(m, "0303")[-1] == "C-12"


def test_e1_hex_neighbours_odd_q_numbering() -> None:
    m = HexMap(columns=8, rows=6)
    # Odd column 03: neighbours in columns 02/04 are rows 03 and 04 (E-D1).
    assert geo.neighbours(m, "0304") == ["0203", "0204", "0303", "0305", "0403", "0404"]
    # Even column 04 sits half a hex lower: rows 04 and 05 beside it.
    assert geo.neighbours(m, "0404") == ["0304", "0305", "0403", "0405", "0504", "0505"]
    assert geo.neighbours(m, "0101") == ["0102", "0201"]


@pytest.mark.parametrize(("mass", "cls"), [(1, 1), (20, 1), (21, 2), (40, 2), (80, 3),
                                           (81, 4), (160, 4), (161, 5), (900, 5)])
def test_e4_signature_class_by_mass(mass: int, cls: int) -> None:
    assert signature_class(mass, [20, 40, 80, 160]) == cls


@pytest.mark.parametrize(("n", "name"), [(0, "Task Force"), (1, "Task Force"), (3, "Task Force"),
                                         (4, "Combat Group"), (6, "Combat Group"),
                                         (7, "Battle Group"), (10, "Battle Group"),
                                         (11, "War Group"), (15, "War Group"), (16, "Armada"),
                                         (40, "Armada")])
def test_e8_group_size_defaults(n: int, name: str) -> None:
    assert group_size(n) == name


def test_e8_group_size_is_an_option() -> None:
    assert group_size(5, [2, 4, 6, 8]) == "Battle Group"


def test_e7_max_subdivisions() -> None:
    assert [max_subdivisions("EE", n) for n in (1, 2, 3, 4, 7, 11, 16)] == [1, 2, 2, 3, 4, 5, 6]
    assert [max_subdivisions("RT", n) for n in (1, 2, 3, 20)] == [1, 2, 3, 3]
    assert max_subdivisions("SF", 20) == 1
    with pytest.raises(InvalidInput):
        max_subdivisions("XX", 3)


def test_e7_subdivision_bonus() -> None:
    assert [subdivision_bonus("RT", k) for k in (1, 2, 3)] == [0, 1, 2]
    assert [subdivision_bonus("EE", k) for k in (1, 2, 6)] == [0, 1, 5]
    assert subdivision_bonus("SF", 1) == 0


def test_e9_engage_value_takes_the_highest_die_not_the_sum() -> None:
    assert engage_value((2, 5), 1, 4) == 10
    assert engage_value((6, 6), 0, 0) == 6
    with pytest.raises(InvalidInput):
        engage_value((0, 7), 0, 0)
