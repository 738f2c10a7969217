"""A linked battle's result for its parent campaign (E-D36): each brought-in or mustered
craft's fate from the final state, and the defeated sides of a battle with forces (H-D37).
Pure; a ``BattleResult`` of bot/rules/war_models.py, which the parent's rule set reads
(``propose_battle``)."""

from __future__ import annotations

from typing import Any

from bot.rules.hrft.model import Ship
from bot.rules.hrft.state import BattleState
from bot.rules.war_models import BattleResult, CraftFate


def _fate(ship: Ship) -> str:
    """Out of the fight or not; the parent reads FTL, drive and hull from the other fields."""
    if ship.destroyed:
        return "destroyed"
    return "hulk" if ship.hulk else "intact"


def ship_fate(ship: Ship, group: str, craft: str, side: str = "") -> dict[str, Any]:
    """``hull_total`` and ``hull_lost`` count the same (HRFT) hull boxes; ``side`` is the
    Force's side key of a mustered ship, '' for a roster craft (H-D37)."""
    ftl_lost = any(s.destroyed for s in ship.systems_of("ftl"))
    hull = sum(b.hull for b in ship.blocks.values())
    return {"group": group, "craft": craft,
            "fate": _fate(ship), "ftl_lost": ftl_lost,
            "thrust": ship.thrust, "thrust_left": ship.current_thrust,
            "hull_lost": max(0, hull - ship.hull_left),
            "seat": ship.seat, "side": side, "mass": ship.mass, "hull_total": hull}


def defeated_sides(state: BattleState) -> list[str]:
    """H-D37: a force's side is defeated when each of its seats conceded or has no ship
    still fighting (destroyed or a hulk; HRFT ships do not leave by FTL) when the battle
    ends, by its rules, a concession or the GM. Sorted, each side once."""
    fighting = set(state.living_seats())  # conceded seats are not living
    sides: dict[str, bool] = {}
    for force in state.forces:
        sides[force.side] = sides.get(force.side, False) or force.seat in fighting
    return sorted(side for side, alive in sides.items() if not alive)


def battle_result(state: BattleState, name: str = "") -> BattleResult | None:
    """Every ship that came from the parent campaign, with its fate, and the defeated
    sides; None when nothing did (a battle whose ships were all added by hand has nothing to
    send back)."""
    if not state.origin and not state.forces:
        return None
    craft = [ship_fate(state.ships[uid], group, name_, state.mustered.get(uid, ""))
             for uid, (group, name_) in state.origin.items() if uid in state.ships]
    living = set(state.living_seats())
    beaten = sorted({s.seat for s in state.ships.values()} - living)  # E-D37: no ship fights
    return BattleResult(name=name, craft=[CraftFate(**c) for c in craft],
                        defeated=defeated_sides(state), defeated_seats=beaten,
                        hand_entered=state.hand_entered)
