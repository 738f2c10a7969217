"""Vector Turn Integrated Fire targeting (H-16), a vector-movement option."""

from __future__ import annotations

from dataclasses import dataclass

from bot.errors import InvalidInput
from bot.rules.base import Dice
from bot.rules.hrft.arcs import arcs_out, check_arc

OUT_OF_ARC = {0: -3, 1: 0, 2: 3, 3: 6}


@dataclass(frozen=True)
class Targeting:
    roll: int
    modifier: int
    need: int

    @property
    def total(self) -> int:
        return self.roll + self.modifier

    @property
    def ok(self) -> bool:
        return self.total <= self.need


def modifier(weapon_arcs: list[str], target_arc: str, tracking: int = 0, turn: int = 0,
             evasive: int = 0) -> int:
    """The DRM: in arc -3 (one arc out 0, two +3, opposite +6), -1 per tracking point,
    +1 per point of turn executed, +1 per evasive/extreme point of the target."""
    if min(tracking, turn, evasive) < 0:
        raise InvalidInput("Tracking, turn and evasive points cannot be negative.")
    out = arcs_out(check_arc(target_arc), weapon_arcs)
    return OUT_OF_ARC[out] - tracking + turn + evasive


def roll(weapon_arcs: list[str], target_arc: str, dice: Dice, tracking: int = 0,
         turn: int = 0, evasive: int = 0) -> Targeting:
    """d6 + DRM <= number of the weapon's arcs lets it fire (H-16)."""
    return Targeting(dice.d(6), modifier(weapon_arcs, target_arc, tracking, turn, evasive),
                     len(weapon_arcs))


def max_tracking(thrust: int) -> int:
    """Only maneuver thrust may track: half the thrust (a thrust-4 ship tracks at most 2)."""
    return thrust // 2


def averaged_range(distances: list[float]) -> float:
    """Option 1: average the start-start and end-end ranges (with a midpoint range, the two
    smallest of the three)."""
    if len(distances) not in (2, 3) or min(distances) < 0:
        raise InvalidInput("Give two ranges (start, end) or three (start, mid, end).")
    two = sorted(distances)[:2]
    return sum(two) / 2
