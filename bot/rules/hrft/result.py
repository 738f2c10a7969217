"""A linked battle's result for its parent campaign (E-D36): each brought-in craft's fate
from the final state. Pure; plain values the parent's rule set reads (``propose_battle``)."""

from __future__ import annotations

from typing import Any

from bot.rules.hrft.model import Ship
from bot.rules.hrft.state import BattleState


def _fate(ship: Ship) -> str:
    """Out of the fight or not; the parent reads FTL, drive and hull from the other fields."""
    if ship.destroyed:
        return "destroyed"
    return "hulk" if ship.hulk else "intact"


def ship_fate(ship: Ship, group: str, craft: str) -> dict[str, Any]:
    ftl_lost = any(s.destroyed for s in ship.systems_of("ftl"))
    hull = sum(b.hull for b in ship.blocks.values())
    return {"group": group, "craft": craft,
            "fate": _fate(ship), "ftl_lost": ftl_lost,
            "thrust": ship.thrust, "thrust_left": ship.current_thrust,
            "hull_lost": max(0, hull - ship.hull_left)}


def battle_result(state: BattleState, name: str = "") -> dict[str, Any] | None:
    """Every ship that came from the parent campaign, with its fate; None when none did (a
    battle whose ships were all added by hand has nothing to send back)."""
    if not state.origin:
        return None
    craft = [ship_fate(state.ships[uid], group, name_)
             for uid, (group, name_) in state.origin.items() if uid in state.ships]
    return {"name": name, "craft": craft}
