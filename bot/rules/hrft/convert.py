"""Full Thrust design -> HRFT ship (H-2, H-3, H-10, H-17).

Input is a Fleet Manager design object (the JSON of an ``.FTDesign``), a fleet object (the JSON
of an ``.FTFleet``) or the bot's own TOML form, which is read into a design object first.
Whatever cannot be converted is refused with ``InvalidInput`` saying why.
"""

from __future__ import annotations

import tomllib
from typing import Any

from bot.errors import InvalidInput
from bot.rules.hrft.arcs import ALL_ARCS, ARCS
from bot.rules.hrft.model import Block, Ship, System
from bot.rules.hrft.systems import build_systems

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


def _int_field(design: dict[str, Any], key: str, low: int, what: str) -> int:
    value = design.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise InvalidInput(f"Design '{design.get('name', '?')}': {what} ('{key}') must be a "
                           f"whole number of at least {low}, not {value!r}.")
    return value


def convert_design(design: dict[str, Any]) -> Ship:
    """A Fleet Manager design object as an HRFT ship; InvalidInput says why it cannot be."""
    if not isinstance(design, dict):
        raise InvalidInput("A design must be a JSON object (one .FTDesign design).")
    name = str(design.get("name") or "").strip()
    if not name:
        raise InvalidInput("The design has no name.")
    ruleset = design.get("ruleset", "fb")
    if ruleset != "fb":
        raise InvalidInput(
            f"Design '{name}' uses rule set '{ruleset}'. HRFT converts Fleet Book designs "
            "(ruleset 'fb') only: they have hull boxes and six arcs.", ruling="H-17")
    mass = _int_field(design, "tmf", 1, "MASS")
    hull = _int_field(design, "hull_boxes", 1, "hull boxes")
    armour = _int_field(design, "armour", 0, "armour boxes")
    thrust = _int_field(design, "thrust", 0, "thrust") if "thrust" in design else 0
    hull_rows = design.get("hull_rows", 4)
    if hull_rows not in ROWS_FOR_HULL_ROWS:
        raise InvalidInput(f"Design '{name}': hull rows must be 3, 4, 5 or 6, "
                           f"not {hull_rows!r}.", ruling="H-3")
    rows = ROWS_FOR_HULL_ROWS[hull_rows]
    hull_kind = str(design.get("hull_kind", "warship"))
    if hull_kind not in ("warship", "merchant", "civilian"):
        raise InvalidInput(f"Design '{name}': hull_kind must be warship, merchant or "
                           f"civilian, not {hull_kind!r}.")
    blocks = (_small_blocks if hull in SMALL_LAYOUTS else _standard_blocks)(hull, armour, rows)
    dcps = damage_control_parties(mass, hull_kind)
    systems: list[System] = build_systems(name, design.get("systems", []), thrust,
                                          bool(design.get("ftl", False)), dcps)
    return Ship(
        name=name,
        class_name=name,
        type_code=str(design.get("type_code", "")),
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
    )


def convert_fleet(fleet: dict[str, Any], catalog: dict[str, dict[str, Any]] | None = None,
                  ) -> list[Ship]:
    """The ships of an ``.FTFleet`` object, each named after the fleet ship.

    Designs are looked up in the file's own ``designs`` list, then in ``catalog`` (id ->
    design). Ships with carried-over damage or that are hulks/destroyed are refused (H-D11)."""
    if not isinstance(fleet, dict) or not isinstance(fleet.get("ships"), list):
        raise InvalidInput("A fleet must be a JSON object with a 'ships' list (.FTFleet).")
    designs = dict(catalog or {})
    for d in fleet.get("designs", []) or []:
        if isinstance(d, dict) and "id" in d:
            designs[d["id"]] = d
    ships = []
    for entry in fleet["ships"]:
        label = entry.get("name") or entry.get("uid") or "?"
        design = designs.get(entry.get("design_id", ""))
        if design is None:
            raise InvalidInput(
                f"Fleet ship '{label}': design '{entry.get('design_id')}' is not in the file. "
                "Export the fleet with its designs, or import the .FTDesign first.")
        if entry.get("status", "ready") in ("hulk", "destroyed"):
            raise InvalidInput(f"Fleet ship '{label}' is {entry['status']}; it cannot fight.")
        damage = entry.get("damage") or {}
        if any(damage.get(k) for k in ("hull", "armour", "systems_out", "drive_hits")):
            raise InvalidInput(
                f"Fleet ship '{label}' carries damage from an earlier game; HRFT cannot place "
                "old damage in hull blocks. Repair it in the Fleet Manager first.", ruling="H-D11")
        ship = convert_design(design)
        ships.append(ship.model_copy(update={"name": str(entry.get("name") or ship.name)}))
    return ships


def design_from_toml(text: str) -> dict[str, Any]:
    """The bot's TOML ship form read into a Fleet Manager style design object.

    Keys: name, class, type_code, kind (warship/merchant), mass, hull, armour, hull_rows,
    thrust, ftl, and [[systems]] tables with type (and class, arcs, level, ...)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInput(f"The ship file is not valid TOML: {exc}.") from exc
    systems = []
    for i, s in enumerate(data.get("systems", []), start=1):
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


def convert_toml(text: str) -> Ship:
    """A ship from the bot's TOML form."""
    return convert_design(design_from_toml(text))
