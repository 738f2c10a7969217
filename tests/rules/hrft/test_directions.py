"""Damage directions (H-9) and arcs (H-1)."""

from __future__ import annotations

import pytest

from bot.errors import InvalidInput
from bot.rules.dice import ScriptedDice
from bot.rules.hrft.arcs import adjacent, arcs_out, distance
from bot.rules.hrft.directions import area, enveloping, fighters, hits_for, missiles


def test_h1_arcs_clockwise_and_adjacent():
    assert adjacent("F") == ("FS", "FP")
    assert adjacent("A") == ("AP", "AS")
    assert distance("F", "A") == 3 and distance("FP", "FS") == 2
    assert arcs_out("A", ["F", "FS"]) == 2


def test_h9_direct_fire_through_the_facing_arc():
    assert hits_for("direct", "as", 5) == [("AS", 5)]


def test_h9_missile_d6_one_clockwise_six_counter_clockwise():
    hits, rolls = missiles("F", [4, 3, 5], ScriptedDice([1, 6, 3]))
    assert rolls == [1, 6, 3]
    assert hits == [("FS", 4), ("FP", 3), ("F", 5)]


def test_h9_fighters_split_over_three_arcs_remainder_facing_then_nearer():
    assert fighters("F", 6) == [("F", 2), ("FS", 2), ("FP", 2)]
    assert fighters("F", 7, nearer="FP") == [("F", 3), ("FP", 2), ("FS", 2)]
    assert fighters("F", 8, nearer="FP") == [("F", 3), ("FP", 3), ("FS", 2)]
    assert fighters("A", 5, concentrate=True) == [("A", 5)]
    with pytest.raises(InvalidInput, match="FS or FP"):
        fighters("F", 5, nearer="A")


@pytest.mark.parametrize(("points", "split"), [(5, (3, 1, 1)), (6, (4, 1, 1)), (1, (1, 0, 0)),
                                               (4, (2, 1, 1)), (8, (4, 2, 2))])
def test_h9_area_weapons_half_to_the_facing_arc(points, split):
    assert [p for _, p in area("F", points)] == list(split)
    assert [a for a, _ in area("F", points)] == ["F", "FS", "FP"]


def test_h9_enveloping_evenly_over_six_remainder_from_the_facing_arc_outwards():
    assert dict(enveloping("F", 9)) == {"F": 2, "FS": 2, "FP": 2, "AS": 1, "AP": 1, "A": 1}
    assert dict(enveloping("A", 1)) == {"A": 1, "AP": 0, "AS": 0, "FP": 0, "FS": 0, "F": 0}
    assert sum(p for _, p in enveloping("AS", 17)) == 17


def test_h9_unknown_kind_refused():
    with pytest.raises(InvalidInput, match="Kinds"):
        hits_for("nuke", "F", 3)
