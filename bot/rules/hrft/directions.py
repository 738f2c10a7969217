"""Damage directions (H-9): which arcs an attack's points come in through."""

from __future__ import annotations

from bot.errors import InvalidInput
from bot.rules.base import Dice
from bot.rules.hrft.arcs import ARCS, CLOCKWISE, COUNTER_CLOCKWISE, adjacent, check_arc, step

KINDS = ("direct", "missile", "fighter", "area", "enveloping")


def direct(arc: str, points: int) -> list[tuple[str, int]]:
    """Direct fire: all points through the facing arc."""
    return [(check_arc(arc), points)]


def missile_arc(arc: str, roll: int) -> str:
    """One missile's incoming arc from its d6: 1 one arc clockwise, 6 one counter-clockwise."""
    if roll == 1:
        return step(arc, CLOCKWISE)
    if roll == 6:
        return step(arc, COUNTER_CLOCKWISE)
    return arc


def missiles(arc: str, damages: list[int], dice: Dice) -> tuple[list[tuple[str, int]], list[int]]:
    """A salvo: each missile's damage through the arc its own d6 gives. Returns hits, rolls."""
    arc = check_arc(arc)
    rolls = [dice.d(6) for _ in damages]
    return [(missile_arc(arc, r), d) for r, d in zip(rolls, damages, strict=True)], rolls


def fighters(arc: str, points: int, nearer: str | None = None,
             concentrate: bool = False) -> list[tuple[str, int]]:
    """Fighter damage split evenly over the facing arc and both adjacent arcs; remainder to
    the facing arc, then the adjacent arc nearer the line (``nearer``, named by the player).
    ``concentrate``: a group that paid endurance puts everything in the facing arc."""
    arc = check_arc(arc)
    if concentrate:
        return [(arc, points)]
    cw, ccw = adjacent(arc)
    near = check_arc(nearer) if nearer else cw  # H-D25
    if near not in (cw, ccw):
        raise InvalidInput(f"The nearer adjacent arc must be {cw} or {ccw}.", ruling="H-9")
    far = ccw if near == cw else cw
    base, rem = divmod(points, 3)
    return [(arc, base + (1 if rem >= 1 else 0)), (near, base + (1 if rem >= 2 else 0)),
            (far, base)]


def area(arc: str, points: int) -> list[tuple[str, int]]:
    """Area weapons: each adjacent arc takes floor(ceil(D/2)/2), the facing arc the rest."""
    arc = check_arc(arc)
    side = (-(-points // 2)) // 2
    cw, ccw = adjacent(arc)
    return [(arc, points - 2 * side), (cw, side), (ccw, side)]


def enveloping(arc: str, points: int) -> list[tuple[str, int]]:
    """Enveloping weapons: as evenly as possible over all six arcs; remainder to the facing
    arc, then the adjacent arcs, then the next ones, then the opposite arc."""
    arc = check_arc(arc)
    base, rem = divmod(points, 6)
    order = [arc, step(arc, 1), step(arc, -1), step(arc, 2), step(arc, -2), step(arc, 3)]
    extra = {a: 1 for a in order[:rem]}
    return [(a, base + extra.get(a, 0)) for a in order]


def hits_for(kind: str, arc: str, points: int, nearer: str | None = None,
             concentrate: bool = False) -> list[tuple[str, int]]:
    """Hits for a manual damage entry of ``kind`` (missiles: use ``missiles``)."""
    if kind == "direct":
        return direct(arc, points)
    if kind == "fighter":
        return fighters(arc, points, nearer, concentrate)
    if kind == "area":
        return area(arc, points)
    if kind == "enveloping":
        return enveloping(arc, points)
    raise InvalidInput(f"Unknown damage kind '{kind}'. Kinds: {', '.join(KINDS)}.", ruling="H-9")


__all__ = ["ARCS", "KINDS", "area", "direct", "enveloping", "fighters", "hits_for",
           "missile_arc", "missiles"]
