"""Full Thrust design -> HRFT ship (H-2, H-3, H-10, H-17).

Input is a Fleet Manager design object (the JSON of an ``.FTDesign``), a fleet object (the JSON
of an ``.FTFleet``) or the bot's own TOML form, which is read into a design object first.
Whatever cannot be converted is refused with ``InvalidInput`` saying why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.errors import InvalidInput
from bot.rules import safe_load
from bot.rules.hrft import model as limits
from bot.rules.hrft.arcs import ALL_ARCS, ARCS
from bot.rules.hrft.carried import OUT_STATUSES, STATUSES, apply_carried
from bot.rules.hrft.model import Block, Ship, System
from bot.rules.hrft.systems import NOT_USED, build_systems, not_used_labels

# H-3: rows per block from the Full Thrust hull rows.
ROWS_FOR_HULL_ROWS = {3: 2, 4: 3, 5: 4, 6: 5}
# H-2: the remainder (3 boxes when the hull is odd) goes one each to these blocks.
REMAINDER_ARCS = ("FP", "F", "FS")
# H-2: small ships, default layouts (name = arcs joined with "+"), fore-most block first.
# The alternative layouts need 90-degree or broadside arcs and are not offered (H-D7).
SMALL_LAYOUTS: dict[int, list[list[str]]] = {
    1: [list(ALL_ARCS)],
    2: [["FP", "F", "FS"], ["AS", "A", "AP"]],
    4: [["F"], ["FP", "AP"], ["AS", "FS"], ["A"]],
}
# H-D33: what the caps count as weapons (everything that attacks).
WEAPON_TYPES = ("beam", "pds", "pulse_torpedo", "submunition", "sm_launcher", "sm_rack")
# System fields kept as params (systems.py); checked here so none can grow the state.
_KEPT_INTS = ("bays", "capacity")


def split_rows(boxes: int, rows: int) -> list[int]:
    """Boxes split into ``rows`` rows as evenly as possible, longer rows first (H-3)."""
    base, extra = divmod(boxes, rows)
    return [base + (1 if i < extra else 0) for i in range(rows)]


def damage_control_parties(mass: int, hull_kind: str) -> int:
    """DCPs by MASS (H-10): warships by the HRFT scale, merchants by FB1's one per 50."""
    def per(n: int) -> int:
        return -(-mass // n)

    if hull_kind != "warship":
        return max(1, per(50))
    if mass <= 40:
        return max(1, per(10))
    if mass < 80:
        return 4
    return per(20)


def _standard_blocks(hull: int, armour: int, rows: int) -> list[Block]:
    """H-2 general rule: x3, /6 to each block, remainder one each to FP, F, FS."""
    h_base, h_rem = divmod(hull * 3, 6)
    a_base, a_rem = divmod(armour * 3, 6)
    blocks = []
    for arc in ARCS:
        h = h_base + (1 if h_rem and arc in REMAINDER_ARCS else 0)
        a = a_base + (1 if a_rem and arc in REMAINDER_ARCS else 0)
        blocks.append(Block(name=arc, arcs=[arc], hull=h, armour=a, rows=split_rows(h, rows)))
    return blocks


def _small_blocks(hull: int, armour: int, rows: int) -> list[Block]:
    """H-2 small ships: hull 1, 2, 4 give 1, 2, 4 blocks of 3 boxes; armour x3 split evenly,
    extra to the fore-most blocks (F, then P, then S)."""
    layout = SMALL_LAYOUTS[hull]
    a_base, a_rem = divmod(armour * 3, len(layout))
    blocks = []
    for i, arcs in enumerate(layout):
        a = a_base + (1 if i < a_rem else 0)
        blocks.append(Block(name="+".join(arcs), arcs=arcs, hull=3, armour=a,
                            rows=split_rows(3, rows)))
    return blocks


def _ring(blocks: list[Block]) -> list[str]:
    """Block names clockwise: sorted by the clockwise position of each block's arcs' middle."""
    def key(b: Block) -> float:
        if len(b.arcs) == 6:
            return 0.0
        idx = [ARCS.index(a) for a in b.arcs]
        # a block spanning F (e.g. FP+F+FS) sits at the front: unwrap FP to -1
        if "F" in b.arcs:
            idx = [i - 6 if i > 3 else i for i in idx]
        return (sum(idx) / len(idx)) % 6

    return [b.name for b in sorted(blocks, key=key)]


def _shown(value: Any, limit: int = 40) -> str:
    if isinstance(value, int) and abs(value) > 10**limit:
        return f"a {type(value).__name__} of over {limit} digits"  # repr() may refuse it
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def _design_label(design: dict[str, Any]) -> str:
    return str(design.get("name", "?"))[: limits.MAX_NAME]


def _int_field(design: dict[str, Any], key: str, low: int, what: str, high: int,
               biggest: int) -> int:
    """A whole number from low to high; ``biggest`` is the largest Fleet Book 1 value."""
    value = design.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidInput(f"Design '{_design_label(design)}': {what} ('{key}') must be a whole "
                           f"number from {low} to {high} (the largest Fleet Book ship has "
                           f"{biggest}), not {_shown(value)}.")
    return value


def _text_field(design: dict[str, Any], key: str, default: str, limit: int, what: str) -> str:
    value = design.get(key, default)
    text = "" if value is None else str(value) if isinstance(value, str | int) else None
    if text is None or len(text) > limit:
        raise InvalidInput(f"Design {what} ('{key}') must be a text of at most {limit} "
                           f"characters, not {_shown(value)}.")
    return text.strip()


def _check_systems(name: str, raw: Any) -> None:
    """H-D33: the systems list within the caps, and every kept field small."""
    if not isinstance(raw, list):
        raise InvalidInput(f"Design '{name}': 'systems' must be a list.")
    if len(raw) > limits.MAX_SYSTEMS:
        raise InvalidInput(f"Design '{name}' has {len(raw)} systems; at most "
                           f"{limits.MAX_SYSTEMS} are allowed (Fleet Book ships have up to 25).")
    weapons = sum(1 for s in raw if isinstance(s, dict) and s.get("type") in WEAPON_TYPES)
    if weapons > limits.MAX_WEAPONS:
        raise InvalidInput(f"Design '{name}' has {weapons} weapons; at most "
                           f"{limits.MAX_WEAPONS} are allowed (Fleet Book ships have up to 16).")
    for i, s in enumerate(raw, start=1):
        if not isinstance(s, dict):
            continue  # build_systems says "has no type"
        where = f"Design '{name}': system {i}"
        uid = s.get("uid", "")
        if not isinstance(uid, str | int) or isinstance(uid, bool) or len(str(uid)) > \
                limits.MAX_UID:
            raise InvalidInput(f"{where}: 'uid' must be a text of at most {limits.MAX_UID} "
                               f"characters, not {_shown(uid)}.")
        for key in _KEPT_INTS:
            v = s.get(key, 0)
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= limits.MAX_PARAM:
                raise InvalidInput(f"{where}: '{key}' must be a whole number from 0 to "
                                   f"{limits.MAX_PARAM}, not {_shown(v)}.")
        load = s.get("load", "")
        if not isinstance(load, str) or len(load) > limits.MAX_CODE:
            raise InvalidInput(f"{where}: 'load' must be a short text such as \"std\".")
        feeds = s.get("feeds", [])
        if (not isinstance(feeds, list) or len(feeds) > limits.MAX_FEEDS
                or not all(isinstance(f, str) and len(f) <= limits.MAX_UID for f in feeds)):
            raise InvalidInput(f"{where}: 'feeds' must be a list of at most "
                               f"{limits.MAX_FEEDS} system ids.")
        arcs = s.get("arcs", [])
        if not isinstance(arcs, list) or len(arcs) > len(ARCS) * 2:
            raise InvalidInput(f"{where}: 'arcs' must be a list of arcs "
                               f"({', '.join(ARCS)}).")


def convert_design(design: dict[str, Any]) -> Ship:
    """A Fleet Manager design object as an HRFT ship; InvalidInput says why it cannot be."""
    if not isinstance(design, dict):
        raise InvalidInput("A design must be a JSON object (one .FTDesign design).")
    name = _text_field(design, "name", "", limits.MAX_NAME, "name")
    if not name:
        raise InvalidInput("The design has no name.")
    ruleset = design.get("ruleset", "fb")
    if ruleset != "fb":
        raise InvalidInput(
            f"Design '{name}' uses rule set {_shown(ruleset)}. HRFT converts Fleet Book designs "
            "(ruleset 'fb') only: they have hull boxes and six arcs.", ruling="H-17")
    # H-D33: every number within what Fleet Book ships need, before anything is built.
    mass = _int_field(design, "tmf", 1, "MASS", limits.MAX_MASS, 280)
    hull = _int_field(design, "hull_boxes", 1, "hull boxes", limits.MAX_HULL, 88)
    armour = _int_field(design, "armour", 0, "armour boxes", limits.MAX_ARMOUR, 14)
    thrust = (_int_field(design, "thrust", 0, "thrust", limits.MAX_THRUST, 8)
              if "thrust" in design else 0)
    hull_rows = design.get("hull_rows", 4)
    if not isinstance(hull_rows, int) or hull_rows not in ROWS_FOR_HULL_ROWS:
        raise InvalidInput(f"Design '{name}': hull rows must be 3, 4, 5 or 6, "
                           f"not {_shown(hull_rows)}.", ruling="H-3")
    rows = ROWS_FOR_HULL_ROWS[hull_rows]
    hull_kind = _text_field(design, "hull_kind", "warship", 20, "kind")
    if hull_kind not in ("warship", "merchant", "civilian"):
        raise InvalidInput(f"Design '{name}': hull_kind must be warship, merchant or "
                           f"civilian, not {hull_kind!r}.")
    type_code = _text_field(design, "type_code", "", limits.MAX_CODE, "type code")
    _check_systems(name, design.get("systems", []))
    blocks = (_small_blocks if hull in SMALL_LAYOUTS else _standard_blocks)(hull, armour, rows)
    dcps = damage_control_parties(mass, hull_kind)
    systems: list[System] = build_systems(name, design.get("systems", []), thrust,
                                          bool(design.get("ftl", False)), dcps)
    return Ship(
        name=name,
        class_name=name,
        type_code=type_code,
        hull_kind=hull_kind,
        mass=mass,
        hull_total=hull,
        armour_total=armour,
        hull_rows=hull_rows,
        thrust=thrust,
        ftl=bool(design.get("ftl", False)),
        ring=_ring(blocks),
        blocks={b.name: b for b in blocks},
        systems=systems,
        damage_control=dcps,
        not_used=not_used_labels(design.get("systems", [])),
    )


def is_builtin(design_id: str) -> bool:
    """A Fleet Manager catalog id (``fb:fb1:nac-furious``); user designs have 12-hex ids."""
    return ":" in design_id


def convert_fleet(fleet: dict[str, Any], catalog: dict[str, dict[str, Any]] | None = None,
                  ) -> list[Ship]:
    """The ships of a fleet object that can fight (see ``fleet_ships``)."""
    return fleet_ships(fleet, catalog).ships


@dataclass
class FleetRead:
    """What a fleet object brings: the ships that can fight, the ships left out ("Name
    (hulk)", "Name (docked)", "Name (built-in design ...)") and the remedy for ships whose
    designs are missing ('' when none is)."""

    ships: list[Ship]
    left_out: list[str] = field(default_factory=list)
    remedy: str = ""


BUILTIN_REMEDY = (
    "A Fleet Manager fleet file never carries its built-in designs: in the Fleet Manager make "
    "a variant of each (it then travels in the file) and export the fleet again, or ask the GM "
    "to upload the Fleet Manager catalog file of that book with /battle design.")
CUSTOM_REMEDY = ("Export the fleet again from the Fleet Manager: its own designs travel in "
                 "the file.")


def _entry_label(entry: Any, i: int) -> str:
    """The fleet ship's name (checked), or its uid, for messages."""
    if not isinstance(entry, dict):
        raise InvalidInput(f"Fleet ship {i} must be an object with a 'design_id'.")
    own = entry.get("name")
    if own is not None and (not isinstance(own, str) or len(own) > limits.MAX_NAME):
        raise InvalidInput(f"Fleet ship {i}: 'name' must be a text of at most "
                           f"{limits.MAX_NAME} characters.")
    return str(own or entry.get("uid") or f"ship {i}")[: limits.MAX_NAME]


def fleet_designs(fleet: dict[str, Any], catalog: dict[str, dict[str, Any]] | None,
                  ) -> dict[str, dict[str, Any]]:
    """Designs by id a fleet's ships may name: the catalog's, then the fleet file's own."""
    carried = fleet.get("designs", []) or []
    if not isinstance(carried, list) or len(carried) > limits.MAX_FILE_DESIGNS:
        raise InvalidInput(f"A fleet's 'designs' must be a list of at most "
                           f"{limits.MAX_FILE_DESIGNS} designs.")
    designs = dict(catalog or {})
    for d in carried:
        if isinstance(d, dict) and isinstance(d.get("id"), str):
            designs[d["id"]] = d
    return designs


def fleet_ship(entry: dict[str, Any], design: dict[str, Any], index: int) -> Ship:
    """Fleet entry number ``index`` (from 0) as a ship of its design, with its carried
    damage (H-D34)."""
    ship = convert_design(design)
    ship = ship.model_copy(update={"name": (entry.get("name") or "").strip() or ship.name})
    spaces = {str(s.get("uid")) for s in design.get("systems", [])
              if isinstance(s, dict) and s.get("type") in NOT_USED}
    ship = apply_carried(ship, entry, str(entry["design_id"]), spaces)
    assert ship.origin is not None
    ship.origin.entry = index
    return ship


def fleet_ships(fleet: dict[str, Any], catalog: dict[str, dict[str, Any]] | None = None,
                ) -> FleetRead:
    """The ships of a fleet object, each named after the fleet ship, with its recorded damage
    (H-D34). Hulks and destroyed ships are left out, docked ships too (the GM may bring them
    in, H-D54), and ships whose design no source holds (H-D55: the others still come in).

    Designs are looked up in the fleet's ``designs`` list, then in ``catalog`` (id ->
    design, a catalog the GM uploaded)."""
    if not isinstance(fleet, dict) or not isinstance(fleet.get("ships"), list):
        raise InvalidInput("A fleet must be a JSON object with a 'ships' list (.FTFleet).")
    designs = fleet_designs(fleet, catalog)
    if len(fleet["ships"]) > limits.MAX_FILE_SHIPS:
        raise InvalidInput(f"The fleet has {len(fleet['ships'])} ships; a file may hold at most "
                           f"{limits.MAX_FILE_SHIPS} (as many as one side may bring).")
    read = FleetRead([])
    missing = {"builtin": False, "custom": False}
    for i, entry in enumerate(fleet["ships"], start=1):
        label = _entry_label(entry, i)
        design_id = entry.get("design_id", "")
        if not isinstance(design_id, str) or not design_id or len(design_id) > limits.MAX_NAME:
            raise InvalidInput(f"Fleet ship '{label}': 'design_id' must name its design "
                               f"(a text of at most {limits.MAX_NAME} characters).")
        status = entry.get("status", "ready")
        if status not in STATUSES:
            raise InvalidInput(f"Fleet ship '{label}': status must be one of "
                               f"{', '.join(STATUSES)}, not {_shown(status)}.")
        design = designs.get(design_id)
        if status in OUT_STATUSES:
            read.left_out.append(f"{label} ({status})")
        elif status == "docked":
            read.left_out.append(f"{label} (docked: the GM may bring it in)")
        elif design is None:
            builtin = is_builtin(design_id)
            missing["builtin" if builtin else "custom"] = True
            what = "built-in design" if builtin else "design not in the file:"
            read.left_out.append(f"{label} ({what} {design_id})")
        else:
            read.ships.append(fleet_ship(entry, design, i - 1))
    read.remedy = " ".join(text for key, text in (("builtin", BUILTIN_REMEDY),
                                                  ("custom", CUSTOM_REMEDY)) if missing[key])
    return read


def design_from_toml(text: str | bytes) -> dict[str, Any]:
    """The bot's TOML ship form read into a Fleet Manager style design object.

    Keys: name, class, type_code, kind (warship/merchant), mass, hull, armour, hull_rows,
    thrust, ftl, and [[systems]] tables with type (and class, arcs, level, ...)."""
    data = safe_load.load_toml(text, "The ship file", limits.MAX_TOML_BYTES)
    raw = data.get("systems", [])
    if not isinstance(raw, list):
        raise InvalidInput("The ship file's systems must be [[systems]] tables.")
    if len(raw) > limits.MAX_SYSTEMS:
        raise InvalidInput(f"The ship file has {len(raw)} systems; at most "
                           f"{limits.MAX_SYSTEMS} are allowed (Fleet Book ships have up to 25).")
    systems = []
    for i, s in enumerate(raw, start=1):
        if not isinstance(s, dict) or "type" not in s:
            raise InvalidInput(f"System {i}: every [[systems]] table needs a 'type'.")
        systems.append({"uid": f"s{i}", **s})
    return {
        "ruleset": "fb",
        "name": data.get("name", ""),
        "type_code": data.get("type_code", ""),
        "hull_kind": data.get("kind", "warship"),
        "tmf": data.get("mass"),
        "hull_boxes": data.get("hull"),
        "armour": data.get("armour", 0),
        "hull_rows": data.get("hull_rows", 4),
        "thrust": data.get("thrust", 0),
        "ftl": data.get("ftl", False),
        "systems": systems,
    }


def convert_toml(text: str | bytes) -> Ship:
    """A ship from the bot's TOML form."""
    return convert_design(design_from_toml(text))
