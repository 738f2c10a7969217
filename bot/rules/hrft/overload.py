"""Optional weapon overload (seed "Damage control modifications" item 7, H-D31).

A weapon that fired at an end-of-turn step (16 or 18) of turn X and fires again at a
mid-turn step (8 or 10) of turn X+1 fires faster than its standard rate: after the shot it
rolls a threshold check at the worst threshold level reached by the hull blocks of its arcs.
No threshold reached in those blocks (level 0): no roll (H-D31).
"""

from __future__ import annotations

from bot.rules.base import Dice
from bot.rules.hrft.model import Ship, System
from bot.rules.hrft.state import BattleState
from bot.rules.hrft.thresholds import MAX_LEVEL, fails

END_STEPS = ("16", "18")
MID_STEPS = ("8", "10")


def _key(ship: Ship, system: System) -> str:
    return f"{ship.uid}:{system.uid}"


def overloaded_after(state: BattleState, ship: Ship, system: System, step: str) -> str | None:
    """The end-of-turn step of last turn that this mid-turn shot at ``step`` follows (the
    weapon overloads), or None."""
    if not state.options.overload or step not in MID_STEPS:
        return None
    last = state.last_fire.get(_key(ship, system))
    if last is not None and last[1] in END_STEPS and last[0] == state.turn - 1:
        return last[1]
    return None


def mark(state: BattleState, ship: Ship, system: System, step: str) -> None:
    """Remember the turn and step a weapon fired (only with the option on)."""
    if state.options.overload:
        state.last_fire[_key(ship, system)] = (state.turn, step)


def arc_level(ship: Ship, system: System) -> int:
    """The worst threshold level reached now by the hull blocks covering the weapon's arcs:
    the highest completed row (a stripped block: its last row, H-D2), 0 when none."""
    levels = [max(b.rows_done(), default=0) for b in ship.blocks.values()
              if set(b.arcs) & set(system.arcs)]
    return min(MAX_LEVEL, max(levels, default=0))


def check(ship: Ship, system: System, step_before: str, dice: Dice,
          ) -> tuple[list[str], list[dict[str, object]]]:
    """Roll the overload threshold of one weapon of ``ship`` (mutated on failure)."""
    head = f"Overload: {system.label} fired late last turn and again at mid-turn"
    if ship.out:
        return [f"{head}; {ship.name} is out of the battle: no roll"], []
    if not system.can_be_hit:
        return [f"{head}; it is already knocked out: no roll"], []
    level = arc_level(ship, system)
    if level <= 0:
        return [f"{head}; no threshold reached in the blocks of its arcs: no roll"], []
    roll = dice.d(6)
    need = f"{7 - level}+" if level < MAX_LEVEL else "any"
    if fails(roll, level):
        system.hits += 1
        result = "knocked out" if system.destroyed else "damaged"
    else:
        result = "holds"
    record: dict[str, object] = {"roll": roll, "for": f"{system.label} overload",
                                 "system": system.uid, "ship": ship.uid, "level": level,
                                 "result": result}
    return [f"{head}: threshold at level {level} (worst block of its arcs), d6 {roll} vs "
            f"{need}: {result}"], [record]
