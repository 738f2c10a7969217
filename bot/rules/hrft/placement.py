"""Where one hit's points went (H-4, H-7): shared by damage (which places hits) and
thresholds (which reads the placements), so neither imports the other."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Placement:
    """Where one hit's points went."""

    arc: str
    points: int
    block: str
    armour: int = 0
    hull: int = 0
    cascade: dict[str, int] = field(default_factory=dict)  # block -> hull boxes (no armour)
    leftover: int = 0  # points that found no box (overkill, H-8)
