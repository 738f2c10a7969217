"""Fleet Manager 2 files in the shape the app writes (schema-notes.md, "What an exported file
looks like"), hand-written for the tests: the designs are invented, not catalog copies."""

from __future__ import annotations

import json
from typing import Any

ALL = ["F", "FS", "AS", "A", "AP", "FP"]


def fm_design(design_id: str, name: str, *, hull: int, armour: int = 0, mass: int = 30,
              thrust: int = 4, code: str = "DD", systems: list[dict[str, Any]] | None = None,
              kind: str = "custom") -> dict[str, Any]:
    """A design object with every field the Fleet Manager writes."""
    return {
        "schema_version": 2, "id": design_id, "ruleset": "fb", "race": "human",
        "faction": None, "name": name, "type_label": "Destroyer", "type_code": code,
        "hull_kind": "warship", "tmf": mass, "hull_boxes": hull, "armour": armour,
        "thrust": thrust, "ftl": True, "streamlining": "none",
        "systems": systems if systems is not None else [
            {"uid": "s1", "type": "beam", "class": 2, "arcs": ["F", "FS", "FP"]},
            {"uid": "s2", "type": "beam", "class": 1, "arcs": list(ALL)},
            {"uid": "s3", "type": "pds"},
            {"uid": "s4", "type": "fire_control"},
        ],
        "default_loadout": {"fighters": [], "magazines": []},
        "allow_rule_breaking": False, "layout_hints": {},
        "source": {"kind": kind}, "notes": "",
    }


PIKE = fm_design("a1b2c3d4e5f6", "Pike", hull=12, armour=2, mass=32)
LANCE = fm_design("0f9e8d7c6b5a", "Lance", hull=18, armour=3, mass=54, thrust=4, code="CL",
                  systems=[
                      {"uid": "s1", "type": "beam", "class": 3, "arcs": ["F", "FS", "FP"]},
                      {"uid": "s2", "type": "beam", "class": 2, "arcs": ["FS", "AS"]},
                      {"uid": "s3", "type": "submunition", "arcs": ["F"]},
                      {"uid": "s4", "type": "pds"},
                      {"uid": "s5", "type": "fire_control"},
                      {"uid": "s6", "type": "hold", "kind": "cargo", "mass": 2},
                  ])
# built-in style ids: the Fleet Manager leaves these designs out of a fleet file
BUILTIN_A = fm_design("fb:test:alpha-escort", "Alpha", hull=9, mass=26, thrust=6, code="FF",
                      kind="catalog")
BUILTIN_B = fm_design("fb:test:beta-cruiser", "Beta", hull=20, armour=2, mass=60, code="CA",
                      kind="catalog")


def fm_ship(uid: str, design_id: str, name: str, *, status: str = "ready",
            **damage: Any) -> dict[str, Any]:
    """A fleet ship entry with every field the Fleet Manager writes."""
    return {
        "uid": uid, "design_id": design_id, "name": name, "table_id": f"DD-{uid[-1]}",
        "squadron": "", "status": status, "location": "", "loadout": None, "notes": "",
        "damage": {"hull": 0, "armour": 0, "systems_out": [], "drive_hits": 0,
                   "fighters_lost": {}, "salvos_spent": {}, "one_shot_used": [], **damage},
    }


def fm_fleet(ships: list[dict[str, Any]], designs: list[dict[str, Any]], *,
             schema: int = 2, name: str = "Home Guard") -> dict[str, Any]:
    """An exported .FTFleet: the fleet, its custom designs only, no factions."""
    return {
        "schema_version": schema, "kind": "FTFleet",
        "fleet": {
            "schema_version": 2, "id": "feedfacecafe", "ruleset": "fb", "race": "human",
            "allow_race_mixing": False, "faction": None, "name": name,
            "admiral": "Adm. Test", "points_limit": 1000,
            "options": {"core_systems": False, "rerolls": False},
            "squadrons": [], "ships": ships, "campaign_id": None, "log": [], "notes": "",
        },
        "designs": designs, "factions": [],
    }


def fm_design_file(design: dict[str, Any], schema: int = 2) -> dict[str, Any]:
    return {"schema_version": schema, "kind": "FTDesign", "design": design, "factions": []}


def fm_catalog(*designs: dict[str, Any]) -> dict[str, Any]:
    """A catalog file in the catalog's shape: a wrapper with a designs list, no kind."""
    return {"schema_version": 1, "designs": list(designs)}


def three_ship_fleet() -> dict[str, Any]:
    return fm_fleet([fm_ship("sh1", PIKE["id"], "Resolute"),
                     fm_ship("sh2", PIKE["id"], "Steadfast"),
                     fm_ship("sh3", LANCE["id"], "Vigilant")], [PIKE, LANCE])


def dumps(obj: Any) -> bytes:
    return json.dumps(obj).encode()
