"""Campaign damage of a Fleet Manager ship <-> an HRFT ship's damage (H-D34).

The Fleet Manager records damage that carries over between games in standard Full Thrust
terms: hull and armour boxes lost (totals), the design systems knocked out, drive hits (0-2),
fighters lost, salvos spent and one-shot systems used. HRFT keeps three boxes for every Full
Thrust box, in six blocks. Coming in, the lost boxes (times three) are spread evenly over the
blocks, fullest first, rows filling from row 1; going out, the boxes lost are counted back
(a part-lost Full Thrust box counts as lost). Which block took the damage is not kept.
"""

from __future__ import annotations

from typing import Any

from bot.errors import InvalidInput
from bot.rules.hrft import model as limits
from bot.rules.hrft.model import FleetOrigin, Ship

STATUSES = ("ready", "damaged", "docked", "hulk", "destroyed")
OUT_STATUSES = ("hulk", "destroyed")
# HRFT-only systems: not in the Fleet Manager design, so never in ``systems_out``
HRFT_ONLY = ("drive", "ftl", "computer", "communications", "sensors", "dcp")


def _count(value: Any, label: str, what: str, high: int) -> int:
    if value is None:
        return 0
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= high:
        raise InvalidInput(f"Fleet ship '{label}': {what} must be a whole number from 0 to "
                           f"{high}, not {value!r}"[:200] + ".")
    return value


def _uids(value: Any, label: str, what: str) -> list[str]:
    if value is None:
        return []
    if (not isinstance(value, list) or len(value) > limits.MAX_SYSTEMS
            or not all(isinstance(u, str) and len(u) <= limits.MAX_UID for u in value)):
        raise InvalidInput(f"Fleet ship '{label}': {what} must be a list of at most "
                           f"{limits.MAX_SYSTEMS} system ids.")
    return list(dict.fromkeys(value))


def _counts(value: Any, label: str, what: str) -> dict[str, int]:
    if value is None:
        return {}
    if (not isinstance(value, dict) or len(value) > limits.MAX_SYSTEMS
            or not all(len(k) <= limits.MAX_UID and isinstance(n, int) and not isinstance(n, bool)
                       and 0 <= n <= limits.MAX_PARAM for k, n in value.items())):
        raise InvalidInput(f"Fleet ship '{label}': {what} must map system ids to whole numbers "
                           f"from 0 to {limits.MAX_PARAM}.")
    return dict(value)


def _spread(ship: Ship, boxes: int, armour: bool) -> None:
    """Lose ``boxes`` HRFT boxes, one at a time on the block with the most left (ring order
    breaks ties), so the damage is as even as the blocks allow."""
    blocks = [ship.blocks[name] for name in ship.ring]
    for _ in range(boxes):
        block = max(blocks, key=lambda b: b.armour_left if armour else b.hull_left)
        if armour:
            block.armour_lost += 1
        else:
            block.hull_lost += 1


def apply_carried(ship: Ship, entry: dict[str, Any], design_id: str,
                  spaces: set[str] | None = None) -> Ship:
    """``ship`` (fresh from its design) with the fleet entry's damage and ids (H-D34).

    Raises InvalidInput for damage the design cannot hold (more boxes than it has, a system
    id it does not have). The caller leaves hulks and destroyed ships out first. ``spaces``:
    the design's cargo/troop holds, which HRFT does not keep: their damage is dropped."""
    label = ship.name
    damage = entry.get("damage")
    if damage is None:
        damage = {}
    if not isinstance(damage, dict):
        raise InvalidInput(f"Fleet ship '{label}': 'damage' must be an object.")
    hull = _count(damage.get("hull"), label, "hull boxes lost ('damage.hull')", ship.hull_total)
    if hull >= ship.hull_total:
        raise InvalidInput(f"Fleet ship '{label}' has lost all {ship.hull_total} hull boxes "
                           "but is not marked hulk or destroyed; fix its damage or status in "
                           "the Fleet Manager.")
    armour = _count(damage.get("armour"), label, "armour boxes lost ('damage.armour')",
                    ship.armour_total)
    drive = _count(damage.get("drive_hits"), label, "drive hits ('damage.drive_hits')", 2)
    out = _uids(damage.get("systems_out"), label, "'damage.systems_out'")
    used = _uids(damage.get("one_shot_used"), label, "'damage.one_shot_used'")
    known = {s.uid for s in ship.systems if s.type not in HRFT_ONLY}
    unknown = [u for u in out + used if u not in known and u not in (spaces or set())]
    if unknown:
        raise InvalidInput(f"Fleet ship '{label}': its damage names systems {unknown[:5]} "
                           f"that design '{ship.class_name}' does not have.")
    ship = ship.model_copy(deep=True)
    _spread(ship, 3 * hull, armour=False)
    _spread(ship, 3 * armour, armour=True)
    for system in ship.systems:
        if system.uid in out and system.type not in HRFT_ONLY:
            system.hits = system.max_hits
        if system.type == "drive":
            system.hits = drive
    text = {k: entry.get(k) for k in ("uid", "table_id", "squadron")}
    short = {k: (v[: limits.MAX_NAME] if isinstance(v, str) else "") for k, v in text.items()}
    ship.origin = FleetOrigin(
        design_id=design_id[: limits.MAX_NAME], ship_uid=short["uid"],
        table_id=short["table_id"], squadron=short["squadron"],
        fighters_lost=_counts(damage.get("fighters_lost"), label, "'damage.fighters_lost'"),
        salvos_spent=_counts(damage.get("salvos_spent"), label, "'damage.salvos_spent'"),
        one_shot_used=[u for u in used if u in known])
    return ship


def carried_damage(ship: Ship, spent: list[str]) -> dict[str, Any]:
    """The Fleet Manager ``damage`` object of an HRFT ship (H-D34)."""
    lost = sum(b.hull_lost for b in ship.blocks.values())
    hull = ship.hull_total if ship.out else min(-(-lost // 3), ship.hull_total - 1)
    armour = min(-(-sum(b.armour_lost for b in ship.blocks.values()) // 3), ship.armour_total)
    drive = next((s.hits for s in ship.systems if s.type == "drive"), 0)
    origin = ship.origin or FleetOrigin()
    return {
        "hull": hull,
        "armour": armour,
        "systems_out": [s.uid for s in ship.systems
                        if s.type not in HRFT_ONLY and s.destroyed],
        "drive_hits": min(drive, 2),
        "fighters_lost": dict(origin.fighters_lost),
        "salvos_spent": dict(origin.salvos_spent),
        "one_shot_used": list(dict.fromkeys([*origin.one_shot_used, *spent])),
    }


def unmapped(ship: Ship) -> list[str]:
    """HRFT damage the Fleet Manager has no field for, for the ship's notes (H-D34)."""
    notes = []
    for system in ship.systems:
        if system.type in ("ftl", "computer", "communications", "sensors") and system.hits:
            notes.append(f"{system.label} {'destroyed' if system.destroyed else 'damaged'}")
    dcps = [s for s in ship.systems if s.type == "dcp"]
    lost = sum(1 for s in dcps if s.hits)
    if lost:
        notes.append(f"{lost} of {len(dcps)} damage control parties lost")
    return notes
