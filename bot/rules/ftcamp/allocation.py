"""Allocation to orbit-sectors (E-11): order by engage value, tie roll-offs, constraints."""

from __future__ import annotations

from bot.errors import RulesError
from bot.rules.base import Dice
from bot.rules.ftcamp import geometry as geo
from bot.rules.ftcamp.core import crippled_craft
from bot.rules.ftcamp.model import Group, HexRun, State
from bot.rules.ftcamp.scan import groups_in


def tie_order(names: list[str], dice: Dice, lines: list[str]) -> list[str]:
    """Tied groups roll a d6 each, lower picks first, ties re-roll (E-11)."""
    if len(names) < 2:
        return list(names)
    rolls = {n: dice.d(6) for n in names}
    lines.append("Tie roll-off: " + ", ".join(f"{n} rolls {rolls[n]}" for n in names)
                 + " (lower picks first)")  # E-11
    out: list[str] = []
    for value in sorted(set(rolls.values())):
        out += tie_order([n for n in names if rolls[n] == value], dice, lines)
    return out


def start(state: State, run: HexRun, dice: Dice) -> list[str]:
    """Fix the statics, order the rolling groups, return the public tie lines."""
    for g in groups_in(state, run.hex):
        if g.static is not None and g.sector:
            run.placements[g.name] = g.sector
    lines: list[str] = []
    queue: list[str] = []
    for value in sorted({r.value for r in run.rolls.values()}):
        tied = sorted(n for n, r in run.rolls.items() if r.value == value)
        queue += tie_order(tied, dice, lines)
    run.queue = queue
    state.sector_hex, state.sector_layout = run.hex, dict(run.placements)
    return lines


def _hold_maintain(run: HexRun, g: Group) -> bool:
    choice = run.choices.get(g.name)
    return (g.order.kind == "hold-special" and g.order.target == "maintain"
            and not (choice and choice.drop_hold))


def legal_sectors(state: State, run: HexRun, g: Group) -> tuple[list[str], str]:
    """The orbit-sectors open to the group and the reason when it is constrained (E-11)."""
    layout = geo.sectors(state.map, run.hex)
    if g.order.kind == "maintain-orbit":
        return ([geo.home_sector(state.map, run.hex)],
                "a group that maintains orbit stays in the system's sector")
    # E-D27: maintain-orbit first, then crippled, then hold-maintain. E-D13: a crippled group
    # without a recorded sector here picks freely once.
    if crippled_craft(g) and g.sector in layout:
        return [g.sector], "FTL-crippled, stays in its orbit-sector"
    if _hold_maintain(run, g):
        for other in groups_in(state, run.hex):
            if (other.owner == g.owner and other.name != g.name and other.name in
                    run.placements and _hold_maintain(run, other)):
                return ([run.placements[other.name]],
                        "hold-maintain groups of a player share one orbit-sector")
    return layout, ""


def default_pick(state: State, run: HexRun, g: Group) -> str:
    """The deadline default: RT to an empty outermost sector, others where they were, else
    `system` (E-11)."""
    legal, _ = legal_sectors(state, run, g)
    taken = set(run.placements.values())
    if run.choices[g.name].order == "RT":
        outer = geo.outermost(state.map, run.hex)
        wanted = next((s for s in outer if s not in taken), outer[0])
    elif g.sector in legal:
        wanted = g.sector
    else:
        wanted = geo.home_sector(state.map, run.hex)
    return wanted if wanted in legal else legal[0]


def _place(state: State, run: HexRun, name: str, sector: str, why: str) -> list[str]:
    run.placements[name] = sector
    g = state.groups[name]
    lines = [f"{name} ({state.player_name(g.owner)}) is placed in {sector}{why}"]
    for other, choice in sorted(run.choices.items()):
        if choice.follows == name and other not in run.placements:
            lines += _place(state, run, other, sector, f" with {name} (support)")  # E-11
    state.sector_layout = dict(run.placements)
    return lines


def pick(state: State, run: HexRun, name: str, sector: str) -> list[str]:
    """Apply the pick of the group at the head of the queue."""
    if not run.queue or run.queue[0] != name:
        raise RulesError(f"It is not {name}'s turn to pick an orbit-sector.", ruling="E-11")
    legal, reason = legal_sectors(state, run, state.groups[name])
    if sector not in legal:
        allowed = ", ".join(legal) if len(legal) <= 12 else f"any of {len(legal)} sectors"
        why = f": {reason}" if reason else ""
        raise RulesError(f"{name} cannot go to {sector!r}{why}. Allowed: {allowed}.",
                         ruling="E-11")
    run.queue.pop(0)
    roll = run.rolls[name]
    return _place(state, run, name, sector, f" (engage value {roll.value})")


def secretly_bound(state: State, g: Group) -> bool:
    """Held in its sector by FTL-crippled craft, which only its owner knows of (E-D16): such
    a group is asked like any other, so that no public line tells why (E-D33)."""
    return (g.order.kind != "maintain-orbit" and bool(crippled_craft(g))
            and g.sector in geo.sectors(state.map, g.hex))


def auto_place(state: State, run: HexRun) -> list[str]:
    """Place every group at the head of the queue that has one legal sector for a public
    reason (E-D26, E-D33)."""
    lines: list[str] = []
    while run.queue:
        g = state.groups[run.queue[0]]
        legal, reason = legal_sectors(state, run, g)
        if len(legal) != 1 or secretly_bound(state, g):
            break
        run.queue.pop(0)
        lines += _place(state, run, g.name, legal[0], f" ({reason})")
    return lines


def finish_unplaced(state: State, run: HexRun) -> list[str]:
    """Supporters of statics go with the static (E-11)."""
    lines = []
    for name, choice in sorted(run.choices.items()):
        if name not in run.placements and choice.follows in run.placements:
            lines += _place(state, run, name, run.placements[choice.follows],
                            f" with {choice.follows} (support)")  # E-11
    return lines
