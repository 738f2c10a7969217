"""A side's ships as a Fleet Manager 2 ``.FTFleet`` (H-D34, H-D51), so a group carries on in
the Fleet Manager after a battle.

When the side uploaded a Fleet Manager fleet, the file is an update of that fleet: the kept
document (fm_keep.py) with each ship that fought patched (damage in Fleet Manager boxes,
status, a note on damage it has no field for) and the fleet's ``modified`` set to the export
time, so the Fleet Manager takes it as the newer copy. Everything else (header, squadrons,
log, notes, each ship's uid, location, notes and loadout, the player's designs) is written back
as it came. Ships from elsewhere (samples, the GM's designs, another fleet file) are added with
uids and design ids that cannot collide with the fleet's (H-D51), if they survived. The
fleet's own destroyed ships and hulks stay in it with that status.
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import UTC, datetime
from typing import Any

from bot.errors import InvalidState, NotFound
from bot.rules.hrft.carried import HRFT_ONLY, carried_damage, unmapped
from bot.rules.hrft.convert import is_builtin
from bot.rules.hrft.fm_keep import kept_doc
from bot.rules.hrft.imports import SCHEMA
from bot.rules.hrft.model import Ship
from bot.rules.hrft.state import BattleState

# design systems whose arcs come from the design (the others have fixed arcs, systems.py)
_DESIGN_ARCS = ("beam", "pulse_torpedo", "submunition", "sm_launcher", "sm_rack", "sensor")
MAX_SHIP_NOTES = 2000  # what the Fleet Manager keeps of a ship's notes


def _hex_id(*parts: str) -> str:
    """A 12-hex id like the Fleet Manager's, from the parts (stable across exports)."""
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:12]


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def stamp(now: datetime | None = None) -> str:
    """The Fleet Manager's ``modified``: UTC ISO-8601 to the second. The rules read no clock
    (issue 17): the service passes ``now``; without one the file says the epoch."""
    return (now or EPOCH).astimezone(UTC).replace(microsecond=0).isoformat()


def design_of(ship: Ship, design_id: str) -> dict[str, Any]:
    """The Fleet Manager design object of an HRFT ship from elsewhere (a sample, the GM's
    design): only the systems HRFT has."""
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


def _unique(wanted: str, used: set[str]) -> str:
    """``wanted``, or with a number added until no id in ``used`` has it; then used. At most
    64 characters, as the Fleet Manager's ids."""
    wanted = wanted[:56]
    out, n = wanted, 2
    while out in used:
        out, n = f"{wanted}-{n}", n + 1
    used.add(out)
    return out


def _hurt(damage: dict[str, Any]) -> bool:
    return any(damage.get(k) for k in ("hull", "armour", "systems_out", "drive_hits"))


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """The same campaign damage, whatever the order of ids and missing zero fields."""
    for key in ("hull", "armour", "drive_hits"):
        if (a.get(key) or 0) != (b.get(key) or 0):
            return False
    for key in ("systems_out", "one_shot_used"):
        if set(a.get(key) or []) != set(b.get(key) or []):
            return False
    return all((a.get(k) or {}) == (b.get(k) or {}) for k in ("fighters_lost", "salvos_spent"))


def _merged(old: list[Any], now: list[str], modelled: set[str]) -> list[Any]:
    """Ids out after the battle: the old ones HRFT does not model (holds, a cloak) or that
    are still out, in their old order, then the new ones."""
    kept = [u for u in old if u not in modelled or u in now]
    return kept + [u for u in now if u not in old]


def _status(ship: Ship, damage: dict[str, Any]) -> str:
    if ship.destroyed:
        return "destroyed"
    if ship.hulk:
        return "hulk"
    return "damaged" if _hurt(damage) or unmapped(ship) else "ready"


def patched_entry(entry: dict[str, Any], ship: Ship, spent: list[str],
                  title: str) -> dict[str, Any]:
    """A kept fleet ship after the battle: its damage in Fleet Manager boxes, its status and
    a note on damage the Fleet Manager has no field for; every other field as it came. A
    docked ship the GM brought in (H-D54) left its dock: ready or damaged now."""
    old = entry.get("damage") if isinstance(entry.get("damage"), dict) else {}
    assert isinstance(old, dict)
    fought = carried_damage(ship, spent)
    modelled = {s.uid for s in ship.systems if s.type not in HRFT_ONLY}
    damage = {**old, **fought,
              "systems_out": _merged(list(old.get("systems_out") or []),
                                     fought["systems_out"], modelled),
              "one_shot_used": _merged(list(old.get("one_shot_used") or []),
                                       fought["one_shot_used"], modelled)}
    new = dict(entry)
    notes = unmapped(ship)
    if _same(damage, old) and not notes and not ship.out and entry.get("status") != "docked":
        return new  # untouched: written back exactly as it came (H-D51)
    new["damage"] = damage
    new["status"] = _status(ship, damage)
    if notes:
        line = f"After {title}: {'; '.join(notes)}."
        before = str(entry.get("notes") or "")
        new["notes"] = (f"{before}\n{line}" if before else line)[-MAX_SHIP_NOTES:]
    return new


def _new_fleet(state: BattleState, seat: int, title: str) -> dict[str, Any]:
    side = state.seat_name(seat)
    fleet = {
        "schema_version": SCHEMA, "id": _hex_id(title, str(seat), side), "ruleset": "fb",
        "race": "human", "allow_race_mixing": False, "faction": None,
        "name": f"{side} after {title}"[:80], "admiral": side[:80], "points_limit": 0,
        "options": {}, "squadrons": [], "ships": [], "campaign_id": None, "log": [],
        "notes": f"Survivors of the HRFT battle {title}, written by Admiralty."[:4000],
    }
    return {"schema_version": SCHEMA, "kind": "FTFleet", "fleet": fleet, "designs": [],
            "factions": []}


def _elsewhere_entry(state: BattleState, ship: Ship, title: str, squadron: str,
                     uids: set[str], design_id: str) -> dict[str, Any]:
    """A fleet entry for a ship that did not come from the kept fleet (H-D51)."""
    damage = carried_damage(ship, state.spent.get(ship.uid, []))
    notes = unmapped(ship)
    origin = ship.origin
    own_uid = origin.ship_uid if origin and origin.ship_uid else ""
    uid = _unique(own_uid or f"adm-{_hex_id(title, ship.uid)[:8]}", uids)
    return {
        "uid": uid, "design_id": design_id, "name": ship.name,
        "table_id": (origin.table_id if origin and origin.table_id
                     else f"{ship.type_code or 'S'}-{ship.uid}")[:16],
        "squadron": squadron, "status": _status(ship, damage), "location": "",
        "loadout": None, "notes": f"After {title}: {'; '.join(notes)}." if notes else "",
        "damage": damage,
    }


def side_fleet(state: BattleState, seat: int, title: str,
               now: datetime | None = None) -> dict[str, Any]:
    """The ``.FTFleet`` document of ``seat``'s ships: an update of the fleet it uploaded, if
    any (H-D51), with ``modified`` set to ``now`` (default: the time of the export)."""
    if seat not in [s.number for s in state.seats]:
        sides = ", ".join(f"{s.number} ({s.name})" for s in state.seats)
        raise NotFound(f"There is no side {seat} in this battle. Sides: {sides}.")
    side = state.seat_name(seat)
    kept = [k for k in state.fm_fleets if k.seat == seat]
    ships = state.ships_of(seat)
    if not kept and not [s for s in ships if not s.destroyed]:
        had = "lost every ship" if ships else "brought no ships"
        raise InvalidState(f"{side} {had}: there is no fleet to export.")
    doc = kept_doc(kept[0]) if kept else _new_fleet(state, seat, title)
    fleet = doc["fleet"]
    entries: list[Any] = fleet["ships"]
    designs: list[Any] = doc["designs"]
    uids = {str(e.get("uid")) for e in entries if isinstance(e, dict)}
    design_ids = {str(d.get("id")) for d in designs if isinstance(d, dict)}
    changed = False
    placed: set[str] = set()
    if kept:
        for index, battle_uid in kept[0].ships.items():
            ship = state.ships.get(battle_uid)
            placed.add(battle_uid)
            if ship is None or not 0 <= int(index) < len(entries):
                continue
            new = patched_entry(entries[int(index)], ship, state.spent.get(ship.uid, []),
                                title)
            changed |= new != entries[int(index)]
            entries[int(index)] = new
    squads = fleet.get("squadrons")
    squadron = (str(squads[0].get("id", "")) if isinstance(squads, list) and squads
                and isinstance(squads[0], dict) else "")
    # ships from another kept fleet of this side bring their own designs, as they came
    carried = {str(d.get("id")): d for k in kept[1:]
               for d in kept_doc(k).get("designs") or [] if isinstance(d, dict)}
    for ship in ships:
        if ship.uid in placed or ship.destroyed:
            continue  # a ship from elsewhere joins the fleet only if it survived
        design_id = ship.origin.design_id if ship.origin and ship.origin.design_id else ""
        if design_id and design_id not in design_ids and design_id in carried:
            designs.append(carried[design_id])
            design_ids.add(design_id)
        elif not design_id or (not is_builtin(design_id) and design_id not in design_ids):
            written = design_of(ship, "")
            design_id = _unique(_hex_id(json.dumps(written, sort_keys=True)), design_ids)
            designs.append({**design_of(ship, design_id), "modified": stamp(now)})
        entries.append(_elsewhere_entry(state, ship, title, squadron, uids, design_id))
        changed = True
    if changed:
        fleet["modified"] = stamp(now)
    return doc


def fleet_file(state: BattleState, seat: int, title: str, ended: bool = False,
               now: datetime | None = None) -> tuple[str, str, str]:
    """(file name, JSON text, note for the caller) of a side's fleet after the battle."""
    doc = side_fleet(state, seat, title, now)
    side = state.seat_name(seat)
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", side).strip("-")[:40] or f"side-{seat}"
    ships = state.ships_of(seat)
    lost = sum(1 for s in ships if s.destroyed)
    running = "" if state.finished or ended else " (the battle goes on: damage so far)"
    kept = any(k.seat == seat for k in state.fm_fleets)
    what = ("an update of the fleet you uploaded: import it in the Fleet Manager and it "
            "replaces the older copy" if kept else "import the file in the Fleet Manager")
    note = (f"{side}: {len(ships) - lost} surviving ship(s)"
            + (f", {lost} destroyed" if lost else "") + running + f". This is {what}.")
    return f"{stem}.FTFleet", json.dumps(doc, indent=1), note
