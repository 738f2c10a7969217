"""A scripted HRFT player for demos and self-play: sees only ``view(state, seat)``.

Setup: adds its side's frigate, destroyer and cruiser (samples), then Ready. Orders: the
request's default (hold course). Fire: each ship fires its unfired forward weapons at the
first enemy ship still fighting, at 6 MU through the target's F arc. Turn end: one DCP on
each damaged system while DCPs are free. Otherwise Ready.
"""

from __future__ import annotations

from typing import Any

from bot.rules.base import Dice, Request, YesNo
from bot.rules.hrft.samples import SIDES, side_for


class HrftScriptedPlayer:
    def __init__(self, seat: int) -> None:
        self.seat = seat

    def choose(self, view: dict[str, Any], request: Request, dice: Dice) -> dict[str, Any]:
        types = {a.type for a in request.actions}
        mine = [s for s in view["ships"].values() if s["seat"] == self.seat]
        if request.step == "setup":
            wanted = SIDES[side_for(self.seat)]
            if len(mine) < len(wanted) and "add_sample" in types:
                return {"type": "add_sample", "sample": wanted[len(mine)]}
            return {"type": "ready"}
        if request.kind == "sealed":
            return dict(request.default or {"type": "orders"})
        if "fire" in types:
            action = self._fire(view, mine, request)
            if action:
                return action
        if "repair" in types:
            action = self._repair(mine, request)
            if action:
                return action
        return {"type": "ready"}

    def _fire(self, view: dict[str, Any], mine: list[dict[str, Any]], request: Request,
              ) -> dict[str, Any] | None:
        spec = next(a for a in request.actions if a.type == "fire")
        offered = {o.value for o in spec.fields[0].options}
        enemies = [s for s in view["ships"].values()
                   if s["seat"] != self.seat and s["status"] == "fighting"]
        if not enemies:
            return None
        target = enemies[0]["uid"]
        for ship in mine:
            if target in ship["attacked"]:
                continue
            if target not in ship["targets"] and len(ship["targets"]) >= ship["firecons"]:
                continue
            weapons = [f"{ship['uid']}:{s['uid']}" for s in ship["systems"]
                       if "F" in s["arcs"] and f"{ship['uid']}:{s['uid']}" in offered]
            if weapons:
                return {"type": "fire", "weapons": weapons, "target": target, "range": "6",
                        "arc": "F", "bearing": "F"}
        return None

    def _repair(self, mine: list[dict[str, Any]], request: Request) -> dict[str, Any] | None:
        spec = next(a for a in request.actions if a.type == "repair")
        for option in spec.fields[0].options:
            if "|system:" in option.value:
                return {"type": "repair", "target": option.value, "parties": "1",
                        "medic": YesNo.NO.value}
        return None
