"""A heuristic demo player: it reads only its request and its own view."""

from __future__ import annotations

from typing import Any

from bot.rules.base import Dice, Request


class HeuristicPlayer:
    """Holds its groups (from round 2 on, sometimes moves one), launches nothing, engages with
    big groups, chases and joins battles; as the GM, confirms battle results.

    Enough for ``python -m bot demo`` to play a round with three contested hexes."""

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def choose(self, view: dict[str, Any], request: Request, dice: Dice) -> dict[str, Any]:
        if request.kind == "turn":
            return dict(request.default or {})
        if request.step.startswith("battles-"):  # the GM (E-D36)
            return self._settle(request)
        spec = request.actions[0]
        action: dict[str, Any] = {"type": spec.type}
        standing = {g["name"]: g.get("order") for g in view.get("groups", [])}
        for f in spec.fields:
            values = [o.value for o in f.options]
            kind = f.name.split(":")[0]
            if kind == "group":
                keep = standing.get(f.name.split(":", 1)[1])
                action[f.name] = keep if keep in values else "hold" if "hold" in values \
                    else values[0]
                moves = [v for v in values if v.startswith("move ")]
                # from round 2 on a group sometimes moves, so rounds differ (round 1 holds:
                # the demo's three contested hexes)
                if view.get("round", 1) > 1 and moves and dice.d(3) == 1:
                    action[f.name] = moves[dice.d(len(moves)) - 1]
            elif kind == "order":
                # Prefer engaging, else standing off; retreat only when nothing else is legal.
                action[f.name] = next((v for v in ("EE", "SF") if v in values), values[0])
            elif kind == "split":
                engaging = action.get("order:" + f.name.split(":", 1)[1]) == "EE"
                two_parts = len(values) > 1 and values[1].count("|") == 1
                action[f.name] = values[1] if engaging and two_parts and dice.d(2) == 2 \
                    else "all"
            elif kind in ("chase", "patrol"):
                action[f.name] = values[0]
            elif kind == "dispatch":
                action[f.name] = values
            elif kind == "reserve":
                action[f.name] = values[1] if len(values) > 1 else values[0]
            elif f.min_values > 0:
                action[f.name] = next((p for p in ("none", "0") if p in values), values[0])
        return action

    @staticmethod
    def _settle(request: Request) -> dict[str, Any]:
        """The scripted GM confirms a proposed battle result as it stands, else closes a
        battle as fought at the table (a demo with no HRFT battle must still go on)."""
        specs = {spec.type: spec for spec in request.actions}
        kind = "confirm" if "confirm" in specs else "close"
        return {"type": kind, "battle": specs[kind].fields[0].options[0].value}
