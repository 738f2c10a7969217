"""Threshold checks (H-5, H-6, H-7): which blocks threshold in one attack, at what level,
and who rolls.

A *source* is one facing block of the attack with the blocks its cascade thresholded. It
yields up to four kinds of checks: in-arc systems one by one, then the out-of-arc group, the
central group and the core group, each group rolling once (a failure damages one member
picked at random).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.rules.base import Dice
from bot.rules.hrft.model import Ship, System
from bot.rules.hrft.placement import Placement

MAX_LEVEL = 6  # a level-6 check fails on any die


@dataclass
class Source:
    """One threshold situation of an attack and the levels it rolls at."""

    kind: str  # "direct" (H-6), "cascade" (H-7), "strip+adjacent" (H-7 last sentence)
    block: str
    receivers: list[str]
    in_arcs: list[str]
    in_level: int
    rest_level: int
    core_level: int
    notes: list[str] = field(default_factory=list)


def fails(roll: int, level: int) -> bool:
    """H-5: a check at level n fails on d6 >= 7 - n."""
    return level > 0 and roll >= 7 - level


def new_level(ship: Ship, name: str, lost_before: int) -> int | None:
    """The threshold level block ``name`` reached in this attack, or None (H-5)."""
    block = ship.blocks[name]
    new = [r for r in block.rows_done() if r not in block.rows_done(lost_before)]
    if not new:
        return None
    return min(MAX_LEVEL, max(new) + (1 if len(new) > 1 else 0))


def sources_for(ship: Ship, placements: list[Placement], before: dict[str, int],
                stripped_before: set[str]) -> list[Source]:
    """The threshold sources of one attack, facing blocks in ring order (H-6, H-7). A block
    that took cascade damage rolls with that cascade, not on its own (H-D26)."""
    levels = {n: new_level(ship, n, before[n]) for n in ship.ring}
    cascade_from: dict[str, list[str]] = {}
    facing: list[str] = []
    for p in placements:
        if p.block not in facing:
            facing.append(p.block)
        for b in p.cascade:
            cascade_from.setdefault(p.block, [])
            if b not in cascade_from[p.block]:
                cascade_from[p.block].append(b)
    claimed: set[str] = set()
    out: list[Source] = []
    for name in sorted(facing, key=ship.ring.index):
        recv = [c for c in sorted(cascade_from.get(name, []), key=ship.ring.index)
                if levels[c] is not None and c not in claimed and c != name]
        if not recv:
            continue
        claimed.update(recv)
        arcs = _arcs(ship, [name, *recv])
        worst_recv = max(levels[c] or 0 for c in recv)
        if name in stripped_before:
            strip = ship.blocks[name].stripped_level
            out.append(Source("cascade", name, recv, arcs, worst_recv, strip, strip - 1))
        else:
            claimed.add(name)
            lvl = levels[name] or ship.blocks[name].stripped_level
            out.append(Source("strip+adjacent", name, recv, arcs, lvl, worst_recv, lvl - 1))
    for name in ship.ring:
        lvl = levels[name]
        if lvl is not None and name not in claimed:
            out.append(Source("direct", name, [], _arcs(ship, [name]), lvl, lvl, lvl - 1))
    return out


def _arcs(ship: Ship, names: list[str]) -> list[str]:
    arcs: list[str] = []
    for n in names:
        arcs += [a for a in ship.blocks[n].arcs if a not in arcs]
    return arcs


def _need(level: int) -> str:
    return f"{7 - level}+" if level < MAX_LEVEL else "any"


def _hit(system: System) -> str:
    system.hits += 1
    return "knocked out" if system.destroyed else "damaged"


def _describe(src: Source) -> str:
    where = "+".join(src.in_arcs)
    if src.kind == "direct":
        return f"Threshold in block {src.block}, level {src.in_level}"  # H-5, H-6
    recv = ", ".join(src.receivers)
    label = "cascade threshold" if src.kind == "cascade" else "stripped block + adjacent"
    return (f"{label.capitalize()} from {src.block} into {recv}: in-arc ({where}) at "  # H-7
            f"level {src.in_level}, other groups at {src.rest_level}, core at {src.core_level}")


def run_checks(ship: Ship, sources: list[Source], dice: Dice,
               ) -> tuple[list[str], list[dict[str, object]]]:
    """Roll every check of every source, mark failed systems; lines and dice records."""
    lines: list[str] = []
    rolled: list[dict[str, object]] = []
    for src in sources:
        lines.append(_describe(src) + ":")
        # H-D6: a joined block's systems are in arc when they face any of its arcs.
        in_arc = [s for s in ship.systems if s.group == "arc" and set(s.arcs) & set(src.in_arcs)]
        for s in in_arc:
            if not s.can_be_hit or src.in_level <= 0:
                continue
            roll = dice.d(6)
            result = _hit(s) if fails(roll, src.in_level) else "holds"
            rolled.append({"roll": roll, "for": s.label, "system": s.uid,
                           "level": src.in_level, "result": result})
            lines.append(f"  {s.label}: d6 {roll} vs {_need(src.in_level)}: {result}")
        groups = [
            ("out-of-arc group", src.rest_level,
             [s for s in ship.systems if s.group == "arc" and s not in in_arc]),
            ("central group", src.rest_level, [s for s in ship.systems if s.group == "central"]),
            ("core group", src.core_level, [s for s in ship.systems if s.group == "core"]),
        ]
        for label, level, members in groups:
            _group_check(label, level, members, dice, lines, rolled)
    return lines, rolled


def _group_check(label: str, level: int, members: list[System], dice: Dice,
                 lines: list[str], rolled: list[dict[str, object]]) -> None:
    """One roll for a group; on failure one member at random is damaged (H-6)."""
    eligible = [s for s in members if s.can_be_hit]
    if level <= 0 or not eligible:
        return
    roll = dice.d(6)
    if not fails(roll, level):
        rolled.append({"roll": roll, "for": label, "level": level, "result": "holds"})
        lines.append(f"  {label} ({len(eligible)}): d6 {roll} vs {_need(level)}: holds")
        return
    pick = dice.d(len(eligible)) if len(eligible) > 1 else 1
    victim = eligible[pick - 1]
    result = _hit(victim)
    rolled.append({"roll": roll, "for": label, "level": level, "result": "fails"})
    if len(eligible) > 1:
        rolled.append({"roll": pick, "for": f"{label} pick (d{len(eligible)})",
                       "system": victim.uid, "result": result})
    lines.append(f"  {label} ({len(eligible)}): d6 {roll} vs {_need(level)}: fails; "
                 f"d{len(eligible)} {pick} picks {victim.label}: {result}")
