"""FTCamp's kinds of action as models (issue 17): the answers of each sealed step (fleet
orders E-3, special acts, engage orders E-10, chase, reserves, patrol), an orbit-sector pick
(E-11) and the GM's word on a round's battles (E-D43), read from their stored form
(bot/rules/actions.py) at the rule set's boundary.

A sealed step's answers are named after what they set (``group:<name>``, ``order:<name>``,
``split:<name>``, ``chase:<sector>``...), one page of Selects at a time (E-D17): the models
keep them by name and ``steps.read`` checks them against the page's fields (P-32)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import ConfigDict

from bot.rules.actions import ActionKinds, ActionModel, ActionValue, OtherAction


class PageAnswers(ActionModel):
    """One page of a sealed step's answers, kept by field name."""

    model_config = ConfigDict(extra="allow", frozen=True)


class FleetOrders(PageAnswers):
    type: Literal["fleet_orders"] = "fleet_orders"


class SpecialActs(PageAnswers):
    type: Literal["special_acts"] = "special_acts"


class EngageOrders(PageAnswers):
    type: Literal["engage_orders"] = "engage_orders"


class Chase(PageAnswers):
    type: Literal["chase"] = "chase"


class Reserves(PageAnswers):
    type: Literal["reserves"] = "reserves"


class PatrolReserves(PageAnswers):
    type: Literal["patrol_reserves"] = "patrol_reserves"


# each sealed step and the answers it takes
STEP_ANSWERS: dict[str, type[PageAnswers]] = {
    "orders": FleetOrders, "special": SpecialActs, "engage": EngageOrders, "chase": Chase,
    "reserves": Reserves, "patrol": PatrolReserves}


class Place(ActionModel):
    """An orbit-sector pick (E-11): ``place-<orbit>`` (one per orbit on the panel; older
    stored picks say ``place``)."""

    type_prefix: ClassVar[str] = "place"

    type: str = "place"
    sector: ActionValue = None


class ConfirmBattle(ActionModel):
    """The GM applies a battle's proposed result (E-D43)."""

    type: Literal["confirm"] = "confirm"
    battle: ActionValue = None


class CloseBattle(ActionModel):
    """The GM closes a battle fought at the table or entered by hand (E-D43)."""

    type: Literal["close"] = "close"
    battle: ActionValue = None


class EditFate(ActionModel):
    """The GM changes one craft's fate in a proposed result, ``craft`` as '<war>:<craft>'."""

    type: Literal["edit"] = "edit"
    craft: ActionValue = ""
    fate: ActionValue = ""


FTCampAction = (FleetOrders | SpecialActs | EngageOrders | Chase | Reserves | PatrolReserves
                | Place | ConfirmBattle | CloseBattle | EditFate)
AnyAction = FTCampAction | OtherAction  # what a read gives: one of ours, or a stranger
KINDS: ActionKinds[FTCampAction] = ActionKinds(
    FleetOrders, SpecialActs, EngageOrders, Chase, Reserves, PatrolReserves, Place,
    ConfirmBattle, CloseBattle, EditFate)
