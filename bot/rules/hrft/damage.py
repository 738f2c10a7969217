"""Damage to ships (H-4 to H-8): armour, rows, stripped blocks, cascades, destruction.

``apply_attack`` takes one attack (H-5: all direct fire from one ship at one target in one
step, one fighter wave, one missile salvo) as a list of hits ``(incoming arc, points)``,
places the boxes, works out which blocks threshold and at what level, rolls every check
(``thresholds``) and the overkill roll, and reports every die.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules.base import Dice
from bot.rules.hrft.arcs import check_arc
from bot.rules.hrft.model import Ship
from bot.rules.hrft.placement import Placement
from bot.rules.hrft.thresholds import Source, run_checks, sources_for


@dataclass
class AttackReport:
    """What one attack did: placements, threshold checks with their dice, destruction."""

    ship: Ship
    placements: list[Placement]
    sources: list[Source]
    lines: list[str]
    dice: list[dict[str, object]]
    destroyed_now: bool = False
    overkill: int = 0

    @property
    def boxes_removed(self) -> int:
        return sum(p.armour + p.hull + sum(p.cascade.values()) for p in self.placements)

    @property
    def cascade_boxes(self) -> int:
        return sum(sum(p.cascade.values()) for p in self.placements)


def _reach(ship: Ship, origin: int, direction: int) -> list[int]:
    """Ring indexes a cascade share from block ``origin`` may reach in ``direction``: the
    blocks of that half of the ring, nearest first (H-7 rule 7; H-D3)."""
    n = len(ship.ring)
    return [(origin + direction * k) % n for k in range(1, n // 2 + 1)]


def _first_open(ship: Ship, origin: int, direction: int) -> int | None:
    """The first block of that half that is not stripped (H-7: a stripped adjacent block
    passes its share on), or None."""
    for j in _reach(ship, origin, direction):
        if not ship.blocks[ship.ring[j]].stripped:
            return j
    return None


def _cascade(ship: Ship, origin: int, direction: int, points: int, out: dict[str, int]) -> int:
    """Put ``points`` on the blocks of one half of the ring past ``origin``, bypassing armour;
    what a block cannot take goes on in the same direction (H-D3). Returns what found no box."""
    for j in _reach(ship, origin, direction):
        if points <= 0:
            break
        block = ship.blocks[ship.ring[j]]
        taken = min(points, block.hull_left)
        if taken:
            block.hull_lost += taken
            out[block.name] = out.get(block.name, 0) + taken
            points -= taken
    return points


def place_hit(ship: Ship, arc: str, points: int) -> Placement:
    """One hit through ``arc``: armour, then hull of the facing block (H-4); past a stripped
    block, in full to both neighbours without armour (H-7). Mutates ``ship``."""
    block = ship.block_for(arc)
    p = Placement(arc=arc, points=points, block=block.name)
    rest = points
    if not block.stripped:
        p.armour = min(rest, block.armour_left)
        block.armour_lost += p.armour
        rest -= p.armour
        p.hull = min(rest, block.hull_left)
        block.hull_lost += p.hull
        rest -= p.hull
    if rest <= 0:
        return p
    i = ship.ring.index(block.name)
    cw, ccw = _first_open(ship, i, 1), _first_open(ship, i, -1)
    if cw is None and ccw is None:
        p.leftover = rest
        return p
    # H-D3: when both directions reach the same block first, it takes the share once.
    left_cw = _cascade(ship, i, 1, rest, p.cascade)
    left_ccw = _cascade(ship, i, -1, rest, p.cascade) if ccw != cw else left_cw
    p.leftover = max(left_cw, left_ccw) if ship.all_stripped else 0
    return p


def apply_attack(ship: Ship, hits: list[tuple[str, int]], dice: Dice,
                 thresholds: bool = True) -> AttackReport:
    """Apply one attack to a copy of ``ship`` and roll what it calls for (H-4..H-8)."""
    ship = ship.model_copy(deep=True)
    before = {name: ship.blocks[name].hull_lost for name in ship.ring}
    stripped_before = {name for name in ship.ring if ship.blocks[name].stripped}
    placements: list[Placement] = []
    for arc, points in hits:
        if points < 0:
            raise ValueError("damage points cannot be negative")
        if points and not ship.out:
            placements.append(place_hit(ship, check_arc(arc), points))
        elif points:
            placements.append(Placement(arc=arc, points=points, block="-", leftover=points))
    report = AttackReport(ship=ship, placements=placements, sources=[], lines=[], dice=[])
    for p in placements:
        report.lines.append(_placement_line(p))
    if ship.out:
        return report
    if ship.all_stripped:  # H-D17: no threshold checks on a ship that is gone
        _destroy(report, dice)
        return report
    if thresholds:
        report.sources = sources_for(ship, placements, before, stripped_before)
        lines, rolled = run_checks(ship, report.sources, dice)
        report.lines += lines
        report.dice += rolled
    return report


def _destroy(report: AttackReport, dice: Dice) -> None:
    """H-8: every box gone. d6 > overkill leaves a hulk; a 1 always destroys."""
    ship = report.ship
    report.overkill = sum(p.leftover for p in report.placements)
    roll = dice.d(6)
    hulk = roll != 1 and roll > report.overkill
    ship.hulk, ship.destroyed = hulk, not hulk
    report.destroyed_now = True
    what = "remains a hulk (salvageable)" if hulk else "is destroyed"
    report.dice.append({"roll": roll, "for": "overkill", "against": report.overkill,
                        "result": "hulk" if hulk else "destroyed"})
    report.lines.append(f"Every hull box is gone. Overkill {report.overkill}, "  # H-8
                        f"d6 = {roll}: {ship.name} {what}.")


def _placement_line(p: Placement) -> str:
    parts = []
    if p.armour:
        parts.append(f"{p.armour} armour")
    if p.hull:
        parts.append(f"{p.hull} hull")
    text = f"{p.points} through {p.arc} on block {p.block}: " + (", ".join(parts) or "no box")
    if p.cascade:
        spread = ", ".join(f"{n} {b}" for b, n in p.cascade.items())
        text += f"; cascade past stripped block, armour bypassed: {spread}"  # H-7
    if p.leftover:
        text += f"; {p.leftover} found no box"
    return text
