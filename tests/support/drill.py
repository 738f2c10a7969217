"""A tiny rule set for the panel tests (never shipped): "drill".

One sealed step: each seat orders six groups (hold / move / attack; default hold), reports the
losses it took (a number from 0 to 61, typed; default 0), or concedes (destructive). Group 6
has no weapons, so ``check`` refuses an attack by it. The reveal ends the campaign.
Six Selects and a number make two panel pages.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from bot.errors import RulesError
from bot.rules import registry as rules_registry
from bot.rules.base import ActionSpec, Audience, Dice, Event, InputField, Option, Outcome, Request
from bot.rules.base import Seat as SeatModel
from bot.rules.ruleset_base import RulesetBase

GROUPS = [f"g{i}" for i in range(1, 7)]
ORDERS = ["hold", "move", "attack"]
MAX_LOSSES = 61
CONCEDE_TEXT = "Concede: your side leaves the battle; this cannot be undone."


class DrillOptions(BaseModel):
    pass


class DrillState(BaseModel):
    names: dict[int, str]
    over: bool = False


def orders_spec() -> ActionSpec:
    fields = [InputField(name=g, label=f"Group {g[1:]}",
                         options=[Option(value=o, label=o) for o in ORDERS]) for g in GROUPS]
    fields.append(InputField(name="losses", label="Losses taken", options=[], kind="number",
                             minimum=0, maximum=MAX_LOSSES))
    return ActionSpec(type="orders", label="Orders", fields=fields)


def concede_spec() -> ActionSpec:
    return ActionSpec(type="concede", label="Concede", destructive=True, confirm=CONCEDE_TEXT)


def default_action() -> dict[str, Any]:
    return {"type": "orders", **{g: "hold" for g in GROUPS}, "losses": "0"}


def describe(name: str, action: dict[str, Any]) -> str:
    if action.get("type") == "concede":
        return f"{name} concedes"
    orders = ", ".join(f"{g} {action.get(g)}" for g in GROUPS)
    return f"{name}: {orders}; losses {action.get('losses')}"


class DrillRuleset(RulesetBase):
    name = "drill"
    title = "Drill"
    min_seats = 2
    max_seats = 3
    options_model = DrillOptions
    state_model = DrillState
    help_text = "Order six groups, report losses, or concede."

    def start(self, options: BaseModel, seats: list[SeatModel], dice: Dice) -> Outcome:
        state = DrillState(names={s.number: s.name for s in seats})
        return Outcome(state=state, events=[Event(audience=Audience.public(), kind="start",
                                                  text="The drill begins.")])

    def pending(self, state: Any) -> list[Request]:
        st = DrillState.model_validate(state)
        if st.over:
            return []
        return [Request(seat=s, kind="sealed", step="orders", prompt="Give your squadron's orders.",
                        actions=[orders_spec(), concede_spec()], default=default_action())
                for s in sorted(st.names)]

    def check(self, state: Any, seat: int, action: dict[str, Any]) -> None:
        if action.get("type") == "concede":
            return
        if action.get("type") != "orders":
            raise RulesError("Send orders or concede.")
        if action.get("g6") == "attack":
            raise RulesError("Group 6 cannot attack: it has no weapons.")
        losses = str(action.get("losses", ""))
        if not losses.isdigit() or int(losses) > MAX_LOSSES:
            raise RulesError(f"Losses are 0 to {MAX_LOSSES}.")

    def resolve(self, state: Any, actions: dict[int, dict[str, Any]], dice: Dice) -> Outcome:
        st = DrillState.model_validate(state).model_copy(deep=True)
        for seat, action in actions.items():
            self.check(st, seat, action)
        lines = [describe(st.names[s], a) for s, a in sorted(actions.items())]
        st.over = True
        text = "Orders revealed: " + " | ".join(lines)
        return Outcome(state=st, events=[Event(audience=Audience.public(), kind="reveal",
                                               text=text)], finished=True)

    def act(self, state: Any, seat: int, action: dict[str, Any], dice: Dice) -> Outcome:
        raise RulesError("The drill has no turns.")

    def view(self, state: Any, viewer: int | None) -> dict[str, Any]:
        return {"over": DrillState.model_validate(state).over}

    def status(self, state: Any, viewer: int | None) -> str:
        return "Over." if DrillState.model_validate(state).over else "Orders are due."


RULESET = DrillRuleset()


def register() -> None:
    rules_registry.register(RULESET)
