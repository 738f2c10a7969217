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


# Every system type of the Fleet Manager's Fleet Book human picker (schema-notes.md), with
# its parameters; the ones HRFT does not model are carried as "not used in HRFT" (H-D52).
EVERY_TYPE: list[dict[str, Any]] = [
    {"uid": "s1", "type": "beam", "class": 5, "arcs": ["F", "FS", "FP"]},
    {"uid": "s2", "type": "pulse_torpedo", "arcs": ["F"]},
    {"uid": "s3", "type": "needle_beam", "arcs": ["F"]},
    {"uid": "s4", "type": "submunition", "arcs": ["F"]},
    {"uid": "s5", "type": "sm_launcher", "arcs": ["F", "FS"]},
    {"uid": "s6", "type": "sm_magazine", "capacity": 6, "feeds": ["s5"]},
    {"uid": "s7", "type": "sm_rack", "load": "er", "arcs": ["FP"]},
    {"uid": "s8", "type": "pds"},
    {"uid": "s9", "type": "fire_control"},
    {"uid": "s10", "type": "adfc"},
    {"uid": "s11", "type": "screen", "level": 2},
    {"uid": "s12", "type": "hangar", "bays": 1},
    {"uid": "s13", "type": "tender_bay", "capacity": 20},
    {"uid": "s14", "type": "nova_cannon", "arcs": ["F"]},
    {"uid": "s15", "type": "wave_gun", "arcs": ["F"]},
    {"uid": "s16", "type": "mt_missile"},
    {"uid": "s17", "type": "ortillery"},
    {"uid": "s18", "type": "minesweeper"},
    {"uid": "s19", "type": "reflex_field"},
    {"uid": "s20", "type": "cloak"},
    {"uid": "s21", "type": "minelayer", "mines": 4},
    {"uid": "s22", "type": "tug_drive", "tow_mass": 40},
    {"uid": "s23", "type": "hold", "kind": "lab", "mass": 4},
    {"uid": "s24", "type": "hold", "kind": "cargo", "mass": 10},
]
NOT_MODELLED = ["needle_beam", "nova_cannon", "wave_gun", "mt_missile", "ortillery",
                "minesweeper", "reflex_field", "cloak", "tug_drive"]


def full_design(design_id: str, name: str, **extra: Any) -> dict[str, Any]:
    """A design as the Fleet Manager saves a player's own: faction, type label, holds,
    notes, a loadout and its ``modified`` stamp, every system type."""
    d = fm_design(design_id, name, hull=30, armour=4, mass=120, thrust=4, code="BC",
                  systems=[dict(s) for s in EVERY_TYPE])
    d.update({"faction": "NAC", "type_label": "Battlecruiser (refit)",
              "notes": "Refitted at Vega yards; cargo for the colony.",
              "default_loadout": {"fighters": [{"hangar": "s12", "type": "heavy"}],
                                  "magazines": [{"magazine": "s6", "salvos": ["std", "er"]}]},
              "source": {"kind": "variant", "of": "fb:fb1:nac-vandenberg"},
              "modified": "2026-11-20T08:15:00+00:00", **extra})
    return d


FLAGSHIP = full_design("c0ffee123456", "Indomitable")
ESCORT = {**PIKE, "faction": "NAC", "modified": "2026-11-19T09:00:00+00:00",
          "notes": "Picket design."}


def full_ship(uid: str, design_id: str, name: str, *, squadron: str = "sq1",
              status: str = "ready", **damage: Any) -> dict[str, Any]:
    """A fleet ship with every field filled in, as a campaign player keeps it."""
    entry = fm_ship(uid, design_id, name, status=status, **damage)
    entry.update({"table_id": f"T-{uid}", "squadron": squadron,
                  "location": f"Vega orbit, berth {uid}", "notes": f"{name}: veteran crew.",
                  "loadout": {"fighters": [{"hangar": "s12", "type": "interceptor"}],
                              "magazines": [{"magazine": "s6", "salvos": ["er", "er"]}]}
                  if design_id == FLAGSHIP["id"] else None})
    return entry


def full_fleet(ships: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """An .FTFleet with every header field a campaign fleet has."""
    doc = fm_fleet(ships if ships is not None else [
        full_ship("sh1", FLAGSHIP["id"], "Indomitable", status="damaged", hull=3,
                  systems_out=["s20", "s24"], fighters_lost={"s12": 1},
                  salvos_spent={"s6": 1}),
        full_ship("sh2", ESCORT["id"], "Picket", squadron="sq2"),
        full_ship("sh3", ESCORT["id"], "Lookout", squadron="sq2"),
        full_ship("sh4", ESCORT["id"], "Sleeper", status="docked"),
        full_ship("sh5", ESCORT["id"], "Lost Cause", status="destroyed", hull=12),
    ], [FLAGSHIP, ESCORT], name="Vega Squadron")
    doc["fleet"].update({
        "faction": "NAC", "admiral": "Adm. Okafor", "points_limit": 1500,
        "options": {"core_systems": True, "rerolls": False, "fighter_endurance": True,
                    "vector_movement": False, "mt_systems": True, "mt_superships": False,
                    "mt_fighters": False},
        "squadrons": [{"id": "sq1", "name": "Main body"}, {"id": "sq2", "name": "Pickets"}],
        "log": [{"week": 3, "text": "Raid on the Vega relay."},
                {"week": 4, "text": "Refit."}],
        "notes": "Home fleet of the Vega campaign.",
        "modified": "2026-11-30T10:00:00+00:00",
    })
    return doc
