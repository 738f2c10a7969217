"""Orbits' kinds of action as models (issue 17): the turn actions of Transit and Deployment
(O-9 to O-12, O-18) and the sealed answers of a battle (O-15 to O-18, O-D18), read from
their stored form (bot/rules/actions.py) at the rule set's boundary. Values are as the panel
sent them: ``turns`` and ``battles`` check them and refuse in their own words."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict

from bot.rules.actions import ActionKinds, ActionModel, ActionValue, OtherAction

# --- turn actions (Transit, Deployment) ------------------------------------------------------


class Pass(ActionModel):
    type: Literal["pass"] = "pass"


class Depart(ActionModel):
    """Face-down cards leave ``origin`` for ``destination`` (O-9)."""

    type: Literal["depart"] = "depart"
    origin: ActionValue = None
    cards: ActionValue = None
    destination: ActionValue = None


class Rush(ActionModel):
    """1 RP: one more token off a group in transit (O-18)."""

    type: Literal["rush"] = "rush"
    group: ActionValue = None


class Deploy(ActionModel):
    """A face-down card turned face up; a fleet card declares its ``stance`` (O-10 to O-12)."""

    type: Literal["deploy"] = "deploy"
    card: ActionValue = None
    stance: ActionValue = None


class Retreat(ActionModel):
    type: Literal["retreat"] = "retreat"
    area: ActionValue = None


# --- sealed battle answers -------------------------------------------------------------------


class Report(ActionModel):
    """A battle's result: ``losses_<seat>`` (or the older ``losses_<seat>_tens`` and
    ``_units`` pair), kept by name, and the ``defeated`` side(s) (O-15, O-D10)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    type: Literal["report"] = "report"
    defeated: ActionValue = "none"


class Discard(ActionModel):
    """The cards a side discards for its losses: ``cards`` or ``cards_<suit>`` (O-D3), kept
    by name."""

    model_config = ConfigDict(extra="allow", frozen=True)

    type: Literal["discard"] = "discard"


class Raid(ActionModel):
    """A winner's raid on one face-up face card, ``<owner>:<code>`` (O-18)."""

    type: Literal["raid"] = "raid"
    card: ActionValue = None


class NoRaid(ActionModel):
    type: Literal["no_raid"] = "no_raid"


class Cancel(ActionModel):
    """The GM cancels the battle (O-16)."""

    type: Literal["cancel"] = "cancel"


class Confirm(ActionModel):
    """The GM confirms a result proposed by the battle's thread (O-D18)."""

    type: Literal["confirm"] = "confirm"


TurnAction = Pass | Depart | Rush | Deploy | Retreat
OrbitsAction = (Pass | Depart | Rush | Deploy | Retreat | Report | Discard | Raid | NoRaid
                | Cancel | Confirm)
AnyAction = OrbitsAction | OtherAction  # what a read gives: one of ours, or a stranger
KINDS: ActionKinds[OrbitsAction] = ActionKinds(
    Pass, Depart, Rush, Deploy, Retreat, Report, Discard, Raid, NoRaid, Cancel, Confirm)
