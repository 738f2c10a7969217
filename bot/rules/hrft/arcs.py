"""Fire arcs (H-1): six 60-degree arcs clockwise from dead ahead."""

from __future__ import annotations

from bot.errors import InvalidInput

ARCS: tuple[str, ...] = ("F", "FS", "AS", "A", "AP", "FP")
ALL_ARCS: list[str] = list(ARCS)
CLOCKWISE = 1
COUNTER_CLOCKWISE = -1


def check_arc(arc: str) -> str:
    """The arc, upper-cased; InvalidInput if it is not one of the six (H-1)."""
    value = str(arc).strip().upper()
    if value not in ARCS:
        raise InvalidInput(f"'{arc}' is not an arc. Arcs: {', '.join(ARCS)}.", ruling="H-1")
    return value


def step(arc: str, direction: int) -> str:
    """The arc ``direction`` places clockwise (negative: counter-clockwise) from ``arc``."""
    return ARCS[(ARCS.index(arc) + direction) % len(ARCS)]


def adjacent(arc: str) -> tuple[str, str]:
    """The two arcs beside ``arc``: (clockwise, counter-clockwise)."""
    return step(arc, CLOCKWISE), step(arc, COUNTER_CLOCKWISE)


def distance(a: str, b: str) -> int:
    """How many arcs apart two arcs are on the ring (0 to 3)."""
    d = abs(ARCS.index(a) - ARCS.index(b)) % len(ARCS)
    return min(d, len(ARCS) - d)


def arcs_out(target_arc: str, weapon_arcs: list[str]) -> int:
    """How many arcs the target lies outside a weapon's arcs (0 = inside)."""
    return min(distance(target_arc, a) for a in weapon_arcs)
