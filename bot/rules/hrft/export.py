"""A side's surviving ships as a Fleet Manager 2 ``.FTFleet`` (H-D34), so a group can carry
on in the Fleet Manager after a battle.

The file has the shape the Fleet Manager writes: ``{"schema_version": 2, "kind": "FTFleet",
"fleet": {..., "ships": [...]}, "designs": [custom designs only], "factions": []}``. A ship
from a Fleet Manager file keeps its design id and ship id; a built-in design (``fb:fb1:...``)
is named by id only. Other ships (samples, TOML) get a design written from the HRFT ship,
with an id made from its contents, so two exports of one design agree.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from bot.errors import InvalidState, NotFound
from bot.rules.hrft.carried import HRFT_ONLY, carried_damage, unmapped
from bot.rules.hrft.convert import is_builtin
from bot.rules.hrft.imports import SCHEMA
from bot.rules.hrft.model import Ship
from bot.rules.hrft.state import BattleState

# design systems whose arcs come from the design (the others have fixed arcs, systems.py)
_DESIGN_ARCS = ("beam", "pulse_torpedo", "submunition", "sm_launcher", "sm_rack", "sensor")


def _hex_id(*parts: str) -> str:
    """A 12-hex id like the Fleet Manager's, from the parts (stable across exports)."""
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:12]


def design_of(ship: Ship, design_id: str) -> dict[str, Any]:
    """The Fleet Manager design object of an HRFT ship (its holds are not kept)."""
    systems = []
    for s in ship.systems:
        if s.type in HRFT_ONLY:
            continue
        entry: dict[str, Any] = {"uid": s.uid, "type": s.type, **s.params}
        if s.type in _DESIGN_ARCS:
            entry["arcs"] = list(s.arcs)
        systems.append(entry)
    return {
        "schema_version": SCHEMA, "id": design_id, "ruleset": "fb", "race": "human",
        "faction": None, "name": ship.class_name or ship.name, "type_label": "",
        "type_code": ship.type_code, "hull_kind": ship.hull_kind, "tmf": ship.mass,
        "hull_boxes": ship.hull_total, "armour": ship.armour_total,
        "hull_rows": ship.hull_rows, "thrust": ship.thrust, "ftl": ship.ftl,
        "streamlining": "none", "systems": systems,
        "default_loadout": {"fighters": [], "magazines": []}, "allow_rule_breaking": False,
        "layout_hints": {}, "source": {"kind": "custom"},
        "notes": "Written by Admiralty from an HRFT battle.",
    }


def _design_id(ship: Ship) -> str:
    if ship.origin and ship.origin.design_id:
        return ship.origin.design_id
    return _hex_id(json.dumps(design_of(ship, ""), sort_keys=True))


def _status(ship: Ship, damage: dict[str, Any]) -> str:
    if ship.hulk:
        return "hulk"
    hurt = any(damage[k] for k in ("hull", "armour", "systems_out", "drive_hits"))
    return "damaged" if hurt or unmapped(ship) else "ready"


def side_fleet(state: BattleState, seat: int, title: str) -> dict[str, Any]:
    """The ``.FTFleet`` object of ``seat``'s ships that were not destroyed."""
    if seat not in [s.number for s in state.seats]:
        sides = ", ".join(f"{s.number} ({s.name})" for s in state.seats)
        raise NotFound(f"There is no side {seat} in this battle. Sides: {sides}.")
    side = state.seat_name(seat)
    ships = [s for s in state.ships_of(seat) if not s.destroyed]
    if not ships:
        had = "lost every ship" if state.ships_of(seat) else "brought no ships"
        raise InvalidState(f"{side} {had}: there is no fleet to export.")
    entries, designs = [], {}
    for n, ship in enumerate(ships, start=1):
        design_id = _design_id(ship)
        if not is_builtin(design_id) and design_id not in designs:
            designs[design_id] = design_of(ship, design_id)
        damage = carried_damage(ship, state.spent.get(ship.uid, []))
        origin = ship.origin
        notes = unmapped(ship)
        entries.append({
            "uid": (origin.ship_uid if origin and origin.ship_uid else f"sh{n}"),
            "design_id": design_id, "name": ship.name,
            "table_id": (origin.table_id if origin and origin.table_id
                         else f"{ship.type_code or 'S'}-{n}"),
            "squadron": origin.squadron if origin else "",
            "status": _status(ship, damage), "location": "", "loadout": None,
            "notes": f"After {title}: {'; '.join(notes)}." if notes else "",
            "damage": damage,
        })
    fleet = {
        "schema_version": SCHEMA, "id": _hex_id(title, str(seat), side), "ruleset": "fb",
        "race": "human", "allow_race_mixing": False, "faction": None,
        "name": f"{side} after {title}"[:100], "admiral": side, "points_limit": 0,
        "options": {}, "squadrons": [], "ships": entries, "campaign_id": None, "log": [],
        "notes": f"Survivors of the HRFT battle {title}, written by Admiralty.",
    }
    return {"schema_version": SCHEMA, "kind": "FTFleet", "fleet": fleet,
            "designs": list(designs.values()), "factions": []}


def fleet_file(state: BattleState, seat: int, title: str,
               ended: bool = False) -> tuple[str, str, str]:
    """(file name, JSON text, note for the caller) of a side's surviving ships."""
    doc = side_fleet(state, seat, title)
    side = state.seat_name(seat)
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", side).strip("-")[:40] or f"side-{seat}"
    ships = doc["fleet"]["ships"]
    lost = len(state.ships_of(seat)) - len(ships)
    running = "" if state.finished or ended else " (the battle goes on: damage so far)"
    note = (f"{side}: {len(ships)} surviving ship(s)" + (f", {lost} destroyed" if lost else "")
            + running + ". Import the file in the Fleet Manager to carry on.")
    return f"{stem}.FTFleet", json.dumps(doc, indent=1), note
