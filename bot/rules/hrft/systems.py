"""Design systems -> HRFT systems grouped by arc (seed SCC 3; H-6, H-10, H-11).

Arc-bound systems keep their arcs; drives and minelayers face A; PDS face all arcs (360);
fighter bays face F (the seed's own example); systems without external reach are central;
every ship has the three core systems (H-D4); DCPs are central, the last one inverted (H-10).
"""

from __future__ import annotations

from typing import Any

from bot.errors import InvalidInput
from bot.rules.hrft.arcs import ALL_ARCS, ARCS
from bot.rules.hrft.model import System, arc_order

# type -> (group, fixed arcs or None = from the design, label)
_KINDS: dict[str, tuple[str, list[str] | None, str]] = {
    "beam": ("arc", None, "Beam"),
    "pulse_torpedo": ("arc", None, "Pulse torpedo"),
    "submunition": ("arc", None, "Submunition"),
    "sm_launcher": ("arc", None, "SM launcher"),
    "sm_rack": ("arc", None, "SM rack"),
    "sensor": ("arc", ALL_ARCS, "Special sensor"),
    "pds": ("arc", ALL_ARCS, "PDS"),
    "minelayer": ("arc", ["A"], "Minelayer"),
    "hangar": ("arc", ["F"], "Hangar"),  # H-D5: "F facing systems like Fighter launch bays"
    "tender_bay": ("arc", ["F"], "Tender bay"),  # H-D5
    "fire_control": ("central", [], "Fire control"),
    "adfc": ("central", [], "ADFC"),
    "screen": ("central", [], "Screen"),
    "ecm": ("central", [], "ECM"),
    "sm_magazine": ("central", [], "SM magazine"),  # H-D5: no external reach
}
# Spaces, not systems: they never roll thresholds (H-D5).
_SPACES = {"hold"}
# H-D52: types Fleet Manager's Fleet Book picker writes that HRFT does not model: the ship
# comes in without them; the sheet lists them as "not used in HRFT" and the export keeps them.
NOT_USED: dict[str, str] = {
    "needle_beam": "Needle beam", "nova_cannon": "Nova cannon", "wave_gun": "Wave gun",
    "cloak": "Cloak", "reflex_field": "Reflex field", "minesweeper": "Minesweeper",
    "tug_drive": "Tug drive", "mt_missile": "MT missile", "ortillery": "Ortillery",
    "hold": "Hold",
}
CORE_SYSTEMS = ("computer", "communications", "sensors")
# what a Fleet Manager file may hold: ecm and sensor are the bot's TOML form only
FM_TYPES = sorted([k for k in _KINDS if k not in ("ecm", "sensor")])
KNOWN_TYPES = sorted([*_KINDS, *_SPACES])


def _arcs(ship: str, raw: dict[str, Any], fixed: list[str] | None) -> list[str]:
    if fixed is not None:
        if raw.get("arcs") and raw["type"] == "sensor":
            fixed = list(raw["arcs"])
        else:
            return list(fixed)
    arcs = raw.get("arcs")
    if not isinstance(arcs, list) or not arcs:
        raise InvalidInput(f"Design '{ship}': system {raw.get('uid')} ({raw['type']}) "
                           "has no arcs.")
    bad = [a for a in arcs if a not in ARCS]
    if bad:
        raise InvalidInput(
            f"Design '{ship}': system {raw.get('uid')} ({raw['type']}) has arcs {bad}; "
            f"HRFT uses the six Fleet Book arcs {', '.join(ARCS)}.", ruling="H-1")
    return arc_order(arcs)


def _label(kind: str, base: str, raw: dict[str, Any], arcs: list[str], group: str) -> str:
    text = base
    if kind == "beam":
        text = f"Beam-{raw.get('class')}"
    elif kind == "screen":
        text = f"Screen-{raw.get('level', 1)}"
    if group == "arc" and len(arcs) < 6:
        text += " (" + "/".join(arcs) + ")"
    return text


def _params(kind: str, ship: str, raw: dict[str, Any]) -> dict[str, Any]:
    if kind == "beam":
        cls = raw.get("class")
        if not isinstance(cls, int) or isinstance(cls, bool) or not 1 <= cls <= 6:
            raise InvalidInput(f"Design '{ship}': beam {raw.get('uid')} has class {cls!r}; "
                               "Fleet Book beams are classes 1 to 6 (FT2 letter classes are "
                               "not converted).")
        return {"class": cls}
    if kind == "screen":
        level = raw.get("level", 1)
        if level not in (1, 2, 3):
            raise InvalidInput(f"Design '{ship}': screen level must be 1, 2 or 3.")
        return {"level": level}
    keep = ("bays", "capacity", "load", "feeds")
    return {k: raw[k] for k in keep if k in raw}


def shown(kind: str) -> str:
    return kind if len(kind) <= 30 else kind[:30] + "..."


def not_used_labels(raw_systems: list[Any]) -> list[str]:
    """H-D52: the design's systems HRFT carries without using, as the sheet lists them."""
    out = []
    for raw in raw_systems if isinstance(raw_systems, list) else []:
        if not isinstance(raw, dict) or raw.get("type") not in NOT_USED:
            continue
        label = NOT_USED[raw["type"]]
        if raw["type"] == "hold":
            label = f"{str(raw.get('kind') or 'cargo')[:12].capitalize()} hold"
        arcs = raw.get("arcs")
        if isinstance(arcs, list) and arcs and all(a in ARCS for a in arcs):
            label += " (" + "/".join(arc_order(arcs)) + ")"
        out.append(label)
    return out


def build_systems(ship: str, raw_systems: list[Any], thrust: int, ftl: bool,
                  dcps: int) -> list[System]:
    """The ship's systems: design systems, drives, core systems and DCPs."""
    if not isinstance(raw_systems, list):
        raise InvalidInput(f"Design '{ship}': 'systems' must be a list.")
    out: list[System] = []
    for i, raw in enumerate(raw_systems, start=1):
        if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
            raise InvalidInput(f"Design '{ship}': system {i} has no type.")
        kind = raw["type"]
        if kind in _SPACES:
            continue
        if kind in NOT_USED:
            continue  # H-D52: carried, see not_used_labels
        if kind not in _KINDS:
            raise InvalidInput(
                f"Design '{ship}': system type '{shown(kind)}' cannot be converted: it "
                f"is not a Fleet Book type. HRFT converts {', '.join(FM_TYPES)} and carries "
                f"{', '.join(sorted(NOT_USED))} without using them (FT2 types pdaf, adaf "
                "and fighter_group are not converted).")
        group, fixed, base = _KINDS[kind]
        arcs = _arcs(ship, raw, fixed) if group == "arc" else []
        uid = str(raw.get("uid") or f"s{i}")
        out.append(System(uid=uid, type=kind, label=_label(kind, base, raw, arcs, group),
                          group=group, arcs=arcs,  # type: ignore[arg-type]
                          params=_params(kind, ship, raw)))
    if thrust > 0:
        # FB1 (H-D20): a drive goes to half thrust at its first hit, stops at the second.
        out.append(System(uid="drive", type="drive", label=f"Main drive {thrust}", group="arc",
                          arcs=["A"], max_hits=2, params={"thrust": thrust}))
    if ftl:
        out.append(System(uid="ftl", type="ftl", label="FTL drive", group="arc", arcs=["A"]))
    for kind in CORE_SYSTEMS:
        out.append(System(uid=kind, type=kind, label=kind.capitalize(), group="core"))
    for n in range(1, dcps + 1):
        out.append(System(uid=f"dcp{n}", type="dcp", label=f"DCP {n}", group="central",
                          inverted=n == dcps))
    return out
