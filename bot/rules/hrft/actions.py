"""HRFT's kinds of action as models (issue 17): what a seat or the GM sends, read from its
stored form (bot/rules/actions.py) at the rule set's boundary. Field values are as the
panel or /battle sent them; the step modules check them and refuse in their own words."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict

from bot.rules.actions import ActionKinds, ActionModel, ActionValue, Flag, OtherAction, read_flag
from bot.rules.base import YesNo


class Ready(ActionModel):
    type: Literal["ready"] = "ready"


class Concede(ActionModel):
    type: Literal["concede"] = "concede"


class StayOut(ActionModel):
    """H-D38: a side with no ships stays out of the battle."""

    type: Literal["stay_out"] = "stay_out"


class AddSample(ActionModel):
    type: Literal["add_sample"] = "add_sample"
    sample: ActionValue = ""


class AddFile(ActionModel):
    """A design or fleet file a side uploads in setup."""

    type: Literal["add_file"] = "add_file"
    filename: ActionValue = ""
    content: ActionValue = ""


class AddDesign(ActionModel):
    """The GM's upload of designs (setup: the battle's catalog; muster: designs to field)."""

    type: Literal["add_design"] = "add_design"
    filename: ActionValue = ""
    content: ActionValue = ""


class BringDocked(ActionModel):
    """H-D54: the GM brings a docked ship in."""

    type: Literal["bring_docked"] = "bring_docked"
    ship: ActionValue = ""


class Fire(ActionModel):
    """One attack: weapons of one ship ('ship:system') at one target (H-5)."""

    type: Literal["fire"] = "fire"
    weapons: ActionValue = None
    target: ActionValue = None
    range: ActionValue = None
    arc: ActionValue = ""
    bearing: ActionValue = None
    evasive: ActionValue = None


class Maneuver(ActionModel):
    """H-D32: a manoeuvre after mid-turn, declared in the mid-turn fire step."""

    type: Literal["maneuver"] = "maneuver"
    ship: ActionValue = ""
    kinds: ActionValue = None
    thrust: ActionValue = None
    evasive: ActionValue = None


class Damage(ActionModel):
    """Damage from a weapon not in the tables (H-9, H-D30): ``hits`` free text from
    /battle damage, or ``points`` from the panel."""

    type: Literal["damage"] = "damage"
    target: ActionValue = None
    kind: ActionValue = "direct"
    arc: ActionValue = ""
    hits: ActionValue = None
    points: ActionValue = None
    nearer: ActionValue = None
    concentrate: Flag = False
    source: ActionValue = ""


class Repair(ActionModel):
    """One damage-control attempt (H-10): ``target`` is '<ship>|<what>'."""

    type: Literal["repair"] = "repair"
    target: ActionValue = ""
    parties: ActionValue = 1
    medic: Flag = False


class Orders(ActionModel):
    """A seat's written orders (sealed): per ship ``<id>.speed``, ``<id>.thrust``,
    ``<id>.turn``, ``<id>.screens``, ``<id>.redline``, ``<id>.tracking`` (kept by name) and
    an optional ``note``."""

    model_config = ConfigDict(extra="allow", frozen=True)

    type: Literal["orders"] = "orders"
    note: ActionValue = ""

    def redline(self, uid: str) -> bool:
        return read_flag(self.given(f"{uid}.redline", YesNo.NO.value))


class Muster(ActionModel):
    """H-D36: a side's ships chosen from its budget, design key -> count (kept by name)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    type: Literal["muster"] = "muster"


HrftAction = (Ready | Concede | StayOut | AddSample | AddFile | AddDesign | BringDocked | Fire
              | Maneuver | Damage | Repair | Orders | Muster)
AnyAction = HrftAction | OtherAction  # what a read gives: one of ours, or a stranger
KINDS: ActionKinds[HrftAction] = ActionKinds(
    Ready, Concede, StayOut, AddSample, AddFile, AddDesign, BringDocked, Fire, Maneuver, Damage,
    Repair, Orders, Muster)
