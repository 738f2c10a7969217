"""Forces of an Orbits battle fought in HRFT (O-D17): budgets in MASS against the smallest
sample design, and the GM's command that opens a battle in its thread. Pure; apart from
``war.py`` because the battle cards (``battles.py``) need it and ``war.py`` builds on them."""

from __future__ import annotations

from bot.rules.base import Event
from bot.rules.orbits.battle import battle_force
from bot.rules.orbits.events import to_gm
from bot.rules.orbits.state import Battle, OrbitsState
from bot.rules.war_models import smallest_design  # O-D17; re-exported for tests

MAX_CLASS = 5  # the HRFT muster's largest size class (O-D17)
MAX_BUDGET = 100_000  # the HRFT muster's largest budget (MASS); the ship limit binds first


def budget_of(state: OrbitsState, total: int) -> int:
    """O-D17: a side's budget in MASS, its total × points_per_value."""
    return min(MAX_BUDGET, total * state.options.points_per_value)


def budget_problem(state: OrbitsState, seat: int, total: int, budget: int) -> str | None:
    name, mass = smallest_design()
    if budget >= mass:
        return None
    ppv = state.options.points_per_value
    need = -(-mass // max(total, 1))
    return (f"{state.name(seat)}'s budget is {budget} MASS ({total} card value × "
            f"points_per_value {ppv}), less than the smallest sample design ({name}, "
            f"{mass} MASS). The campaign option points_per_value sets the budget; it can only "
            "be changed before a campaign starts, so fight this battle at the table and report "
            f"it as usual (a new campaign could set points_per_value to {max(need, 10)} or "
            "more).")


def fits(state: OrbitsState, b: Battle) -> bool:
    """Whether every side's budget buys the smallest sample design (O-D17)."""
    o = state.options
    for s in b.sides:
        total = battle_force(b.forces[s], o.size_class_cap)[0]
        if budget_problem(state, s, total, budget_of(state, total)) is not None:
            return False
    return True


def battle_commands(state: OrbitsState) -> list[Event]:
    """For the GM (a DM): the command that opens each battle of the turn in its own HRFT
    thread, for the battles whose budgets buy a ship (O-D17); nothing when none does."""
    fit = [state.area_label(b.area) for b in state.battles if fits(state, b)]
    if not fit:
        return []
    lines = ["GM: to fight a battle of this turn in its own thread (High Resolution Full "
             "Thrust), run this in the campaign's channel (for parent, pick this campaign "
             "from the list):"]
    lines += [f"`/battle start parent:<this campaign> ref:{where}`" for where in fit]
    lines.append("Or use the button under the battle's card (only you may).")  # O-D23
    return [to_gm("battle_commands", "\n".join(lines))]
