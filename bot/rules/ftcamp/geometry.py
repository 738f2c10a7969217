"""Hex map and orbit-sector layouts (E-1).

Hexes are named ``CCRR`` (column, row, from 01), the usual wargame map numbering. Columns
are "odd-q": even columns sit half a hex lower (decision E-D1 in docs/rules/ftcamp.md).
"""

from __future__ import annotations

import re

from bot.rules.ftcamp.model import HexMap

DEEP_SPACE_ORBITS: tuple[tuple[str, int], ...] = (("A", 6), ("B", 6), ("C", 12), ("D", 12))
SYSTEM_ORBITS: tuple[tuple[str, int], ...] = (("A", 6), ("B", 6), ("C", 12))
_HEX_RE = re.compile(r"\d{4}")
_SECTOR_RE = re.compile(r"([A-D])-(\d{1,2})")
# E-D2: deep space has no local government; a default pick that would go to `system`
# goes to A-1 there.
DEEP_SPACE_FALLBACK = "A-1"


def hex_name(column: int, row: int) -> str:
    return f"{column:02d}{row:02d}"


def parse_hex(name: str) -> tuple[int, int] | None:
    if not _HEX_RE.fullmatch(name):
        return None
    return int(name[:2]), int(name[2:])


def on_map(hex_map: HexMap, name: str) -> bool:
    pos = parse_hex(name)
    return pos is not None and 1 <= pos[0] <= hex_map.columns and 1 <= pos[1] <= hex_map.rows


def all_hexes(hex_map: HexMap) -> list[str]:
    return [hex_name(c, r) for c in range(1, hex_map.columns + 1)
            for r in range(1, hex_map.rows + 1)]


def neighbours(hex_map: HexMap, name: str) -> list[str]:
    """The hexes adjacent to ``name`` that lie on the map, sorted."""
    pos = parse_hex(name)
    if pos is None:
        return []
    c, r = pos
    shift = (-1, 0) if c % 2 == 1 else (0, 1)
    cells = [(c, r - 1), (c, r + 1)]
    for dc in (-1, 1):
        cells += [(c + dc, r + shift[0]), (c + dc, r + shift[1])]
    names = [hex_name(cc, rr) for cc, rr in cells]
    return sorted(n for n in names if on_map(hex_map, n))


def system_at(hex_map: HexMap, name: str) -> str | None:
    """The system sector of a system hex, or None for deep space."""
    for s in hex_map.systems:
        if s.hex == name:
            return s.system_sector
    return None


def system_label(hex_map: HexMap, name: str) -> str:
    for s in hex_map.systems:
        if s.hex == name:
            return f"{name} ({s.name})"
    return name


def orbits(hex_map: HexMap, name: str) -> tuple[tuple[str, int], ...]:
    return SYSTEM_ORBITS if system_at(hex_map, name) else DEEP_SPACE_ORBITS


def sectors(hex_map: HexMap, name: str) -> list[str]:
    """Every orbit-sector of the hex, inner orbit first."""
    return [f"{letter}-{i}" for letter, n in orbits(hex_map, name) for i in range(1, n + 1)]


def valid_sector(layout: tuple[tuple[str, int], ...], sector: str) -> bool:
    m = _SECTOR_RE.fullmatch(sector)
    if not m:
        return False
    sizes = dict(layout)
    return m.group(1) in sizes and 1 <= int(m.group(2)) <= sizes[m.group(1)]


def outermost(hex_map: HexMap, name: str) -> list[str]:
    letter, n = orbits(hex_map, name)[-1]
    return [f"{letter}-{i}" for i in range(1, n + 1)]


def home_sector(hex_map: HexMap, name: str) -> str:
    """The `system` sector, or the deep-space fallback (E-D2)."""
    return system_at(hex_map, name) or DEEP_SPACE_FALLBACK
