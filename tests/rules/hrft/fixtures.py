"""Small hand-written designs for the HRFT tests (not taken from any catalog)."""

from __future__ import annotations

from typing import Any


def design(hull: int = 10, armour: int = 0, mass: int = 30, thrust: int = 4,
           systems: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    """A Fleet Manager style design object."""
    return {
        "schema_version": 1,
        "id": "test0000001",
        "ruleset": "fb",
        "race": "human",
        "faction": None,
        "name": extra.pop("name", "Testship"),
        "type_label": "Test",
        "type_code": "TS",
        "hull_kind": extra.pop("hull_kind", "warship"),
        "tmf": mass,
        "hull_boxes": hull,
        "armour": armour,
        "thrust": thrust,
        "ftl": extra.pop("ftl", False),
        "streamlining": "none",
        "systems": systems if systems is not None else [],
        **extra,
    }


# An escort with one weapon per arc group: F beam, FS-only beam, a PDS, fire control.
ESCORT_SYSTEMS: list[dict[str, Any]] = [
    {"uid": "s1", "type": "beam", "class": 2, "arcs": ["F"]},
    {"uid": "s2", "type": "beam", "class": 1, "arcs": ["FS"]},
    {"uid": "s3", "type": "beam", "class": 1, "arcs": ["AP"]},
    {"uid": "s4", "type": "fire_control"},
]


def escort(hull: int = 12, armour: int = 0, **extra: Any) -> dict[str, Any]:
    """Hull 12 -> six blocks of 6 boxes, rows 2/2/2; mass 30 -> 3 DCPs; drive faces A."""
    return design(hull=hull, armour=armour, mass=30, thrust=4,
                  systems=[dict(s) for s in ESCORT_SYSTEMS], **extra)
