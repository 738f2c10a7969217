"""A simple self-play player (ScriptedPlayer): sees only its own view, the request and dice.

Heuristics: ship mixed groups of cards (bluffs included) to the orbits, deploy face cards for
income, deploy fleet cards where others show cards (attack when stronger in sight, blockade
otherwise), retreat from a clearly stronger attacker, report battles by a fixed formula both
sides compute alike, and accept the discard proposal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.rules.base import ActionSpec, Dice, InputField, Request
from bot.rules.orbits import cards as C

PASS = {"type": "pass"}


def _spec(request: Request, kind: str) -> list[ActionSpec]:
    return [a for a in request.actions if a.type == kind]


def _field(spec: ActionSpec, name: str) -> InputField:
    return next(f for f in spec.fields if f.name == name)


def _stack(view: dict[str, Any], area: str, seat: int) -> dict[str, Any] | None:
    for a in view["areas"]:
        if a["id"] == area:
            return next((s for s in a["stacks"] if s["seat"] == seat), None)
    return None


def _others_total(view: dict[str, Any], area: str, seat: int) -> tuple[int, bool]:
    """Face-up fleet total of the other players there, and whether they show any card."""
    for a in view["areas"]:
        if a["id"] == area:
            others = [s for s in a["stacks"] if s["seat"] != seat]
            return (sum(s["fleet_total"] for s in others),
                    any(s["face_up"] or s["face_down"]["count"] for s in others))
    return 0, False


@dataclass
class OrbitsScriptedPlayer:
    seat: int

    def choose(self, view: dict[str, Any], request: Request, dice: Dice) -> dict[str, Any]:
        step = request.step
        if step == "transit":
            return self._transit(view, request, dice)
        if step == "deployment":
            return self._deploy(view, request, dice)
        if _spec(request, "confirm"):  # O-D19: the GM confirms a battle's proposed result
            return {"type": "confirm"}
        if step.endswith(("_report", "_gm", "_linked")):
            return report_by_formula(view, request)
        if step.endswith("_discard") and request.default:
            return dict(request.default)
        raids = _spec(request, "raid")
        if raids:
            return {"type": "raid", "card": _field(raids[0], "card")
                    .options[0].value}
        return dict(request.default or PASS)

    def _transit(self, view: dict[str, Any], request: Request, dice: Dice) -> dict[str, Any]:
        home = f"home:{self.seat}"
        for spec in _spec(request, "depart"):
            if _field(spec, "origin").options[0].value != home:
                continue
            cards = [o.value for o in _field(spec, "cards").options]
            if len(cards) < 2 or dice.d(6) < 3:
                continue
            # a mixed group: its face cards found colonies, its fleet guards them, and the
            # opponent can't tell a bluff from a fleet
            take = [cards[i] for i in sorted({dice.d(len(cards)) - 1 for _ in range(3)})]
            dests = [o.value for o in _field(spec, "destination").options
                     if o.value.startswith("orbit:")]
            dest = dests[min(dice.d(6), len(dests)) - 1 if dice.d(2) == 1 else 0]
            return {"type": "depart", "origin": home, "cards": take, "destination": dest}
        return dict(PASS)

    def _deploy(self, view: dict[str, Any], request: Request, dice: Dice) -> dict[str, Any]:
        for spec in _spec(request, "retreat"):
            for opt in _field(spec, "area").options:
                mine = _stack(view, opt.value, self.seat)
                theirs, _ = _others_total(view, opt.value, self.seat)
                attacked = _others_attack(view, opt.value, self.seat)
                if mine and attacked and theirs > 2 * mine["fleet_total"] and dice.d(6) >= 4:
                    return {"type": "retreat", "area": opt.value}
        rp = next(s["rp"] for s in view["seats"] if s["number"] == self.seat)
        for spec in _spec(request, "deploy"):
            names = [f.name for f in spec.fields]
            card_opts = _field(spec, "card").options
            if "stance" not in names:  # a face card: income, always worth it
                return {"type": "deploy", "card": card_opts[0].value}
            for opt in sorted(card_opts, key=lambda o: -C.value(o.value)):
                area = _area_of(view, self.seat, opt.value)
                theirs, shown = _others_total(view, area, self.seat)
                if area is None or not shown or rp < 2 or C.value(opt.value) == 0:
                    continue
                mine = _stack(view, area, self.seat)
                have = (mine["fleet_total"] if mine else 0) + C.value(opt.value)
                if have < theirs:  # too weak in sight: keep the cards hidden
                    continue
                stance = "attack" if have > theirs and dice.d(6) >= 2 else "blockade"
                return {"type": "deploy", "card": opt.value, "stance": stance}
        return dict(PASS)


def _others_attack(view: dict[str, Any], area: str, seat: int) -> bool:
    for a in view["areas"]:
        if a["id"] == area:
            return any(s["stance"] == "attack" for s in a["stacks"] if s["seat"] != seat)
    return False


def _area_of(view: dict[str, Any], seat: int, code: str) -> str | None:
    for a in view["areas"]:
        for s in a["stacks"]:
            if s["seat"] == seat and code in s["face_down"].get("mine", []):
                return a["id"]
    return None


def report_by_formula(view: dict[str, Any], request: Request) -> dict[str, Any]:
    """Each side loses half the others' total (rounded up, at most its own); the side with the
    strictly smallest total is defeated. Every seat computes the same, so reports agree."""
    battle = view["battle"]
    totals = {int(s): f["total"] for s, f in battle["forces"].items()}
    action: dict[str, Any] = {"type": "report"}
    spec = _spec(request, "report")[0]
    names = {f.name for f in spec.fields}
    for s, own in totals.items():
        k = min(own, -(-sum(t for o, t in totals.items() if o != s) // 2))
        if f"losses_{s}" in names:
            action[f"losses_{s}"] = str(k)
        else:
            action[f"losses_{s}_tens"], action[f"losses_{s}_units"] = str(k // 10), str(k % 10)
    low = min(totals.values())
    losers = [s for s, t in totals.items() if t == low]
    action["defeated"] = str(losers[0]) if len(losers) == 1 else "none"
    return action


def scripted_player(seat: int) -> OrbitsScriptedPlayer:
    return OrbitsScriptedPlayer(seat)
