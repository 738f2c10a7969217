"""Long-range scans per viewing player (E-4) and who can see which group."""

from __future__ import annotations

from typing import Any

from bot.rules.ftcamp import index
from bot.rules.ftcamp.core import signature_class
from bot.rules.ftcamp.model import Craft, Group, State
from bot.rules.words import plural

MAX_CLASS = 5


def groups_in(state: State, hex_name: str) -> list[Group]:
    """The groups in a hex by owner, then name (read only: it may be the index's list)."""
    return index.groups_in(state, hex_name)


def best_sensors(state: State, seat: int, hex_name: str) -> int:
    """The viewer's best sensor level among its craft in the hex (E-4)."""
    return index.memo(state, ("sensors", seat, hex_name), lambda: max(
        (c.sensors for g in groups_in(state, hex_name) if g.owner == seat
         for c in g.craft if not c.is_decoy), default=0))


def craft_contact(state: State, craft: Craft, sensors: int) -> str | None:
    """What one craft shows to a viewer with ``sensors``: a class, 'unknown', or None."""
    if craft.is_decoy:
        return f"class {craft.decoy_class}"
    if craft.stealth > sensors:
        return None
    if craft.ecm:
        return "unknown"
    base = signature_class(craft.mass, state.rules.signature_limits)
    # A weasel only raises the class (E-4); classes stop at 5 (E-D6).
    return f"class {min(base + craft.weasel_on, MAX_CLASS)}"


def contacts(state: State, viewer: int, group: Group) -> list[str]:
    """The contacts ``viewer`` sees for ``group``; empty = the group is not seen at all."""
    if group.static is not None:
        label = f"static, MASS {sum(c.mass for c in group.craft)}"
        if group.static == "civilian" and group.show_civilian:
            label += ", civilian"
        return [label]
    sensors = best_sensors(state, viewer, group.hex)
    seen = [craft_contact(state, c, sensors) for c in group.craft]
    return [s for s in seen if s is not None]


def sees(state: State, viewer: int, group: Group) -> bool:
    return viewer == group.owner or bool(contacts(state, viewer, group))


def is_contested(state: State, hex_name: str) -> bool:
    """Groups of non-allied players present, at least one of them not static, and at least
    one of the two detects the other (E-3, decision E-D7)."""
    groups = groups_in(state, hex_name)
    for a in groups:
        for b in groups:
            if state.allied(a.owner, b.owner) or (a.static and b.static):
                continue
            if sees(state, a.owner, b) or sees(state, b.owner, a):
                return True
    return False


def scan_report(state: State, viewer: int, hex_name: str) -> tuple[str, dict[str, Any]]:
    """The private scan report of one player for one hex."""
    sensors = best_sensors(state, viewer, hex_name)
    lines = [f"Long-range scans, hex {hex_name}, round {state.round} "
             f"(your best sensors: level {sensors}):"]
    data: dict[str, Any] = {"hex": hex_name, "sensors": sensors, "groups": []}
    for g in groups_in(state, hex_name):
        if g.owner == viewer:
            continue
        seen = contacts(state, viewer, g)
        if not seen:
            continue
        where = f" at {g.sector}" if g.static and g.sector else ""
        owner = state.player_name(g.owner)
        lines.append(f"- {g.name} ({owner}){where}: {plural(len(seen), 'contact')}: "
                     f"{', '.join(seen)}")
        data["groups"].append({"group": g.name, "owner": g.owner, "contacts": seen,
                               "sector": g.sector if g.static else None})
    if len(lines) == 1:
        lines.append("- no contacts")
    return "\n".join(lines), data
