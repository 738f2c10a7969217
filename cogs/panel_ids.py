"""The custom ids of panel components: ``adm:<campaign>:<step>:<seat>:<verb>[:<arg>]``.

One template per verb, with named groups (``campaign``, ``step``, ``seat`` and the verb's own
numbers), one DynamicItem class per template (``cogs.panel_items``). The format is the one
panels have always carried, so the buttons of panels sent long ago in DMs still work. Digits
are ASCII only, at most 19 for an id (64 bits, checked again by ``PanelKey.of_match``) and 4
for an index, so a forged id never reaches the service as a number it cannot hold.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.campaign.models import Panel

MAX_ID = 2**63 - 1  # what SQLite stores; a larger number names no campaign
_ID = "[0-9]{1,19}"
_INDEX = "[0-9]{1,4}"
KEY = rf"adm:(?P<campaign>{_ID}):(?P<step>{_ID}):(?P<seat>{_ID})"


def template(verb: str, *numbers: str) -> str:
    """``<key>:<verb>[:<n1>.<n2>...]``, each number a named group."""
    tail = r"\.".join(rf"(?P<{name}>{_INDEX})" for name in numbers)
    return f"{KEY}:{verb}" + (f":{tail}" if numbers else "")


OPEN = template("open", "spec")  # an action's page, from the overview
BACK = template("back")  # the overview again
PAGE = template("page", "spec", "page")  # another page of an action's fields
SUBMIT = template("sub", "spec")  # send the action
NUMBER = template("num", "spec", "field", "page")  # open the box for a typed number
CHOICE = template("sel", "spec", "field", "chunk", "page")  # a Select (one chunk of a field)
TYPED = template("set", "spec", "field", "page")  # the number box's submission (a Modal)
VERBS = (OPEN, BACK, PAGE, SUBMIT, NUMBER, CHOICE)


def unreadable(templates: tuple[str, ...]) -> str:
    """Every other id that starts like ours, so that a garbled or forged one gets a refusal
    instead of no answer: discord.py runs every template that matches, so this one must not
    match what the others take."""
    known = "|".join(re.sub(r"\(\?P<\w+>", "(?:", t) for t in templates)
    return rf"(?s)(?!(?:{known})\Z)adm:.*"


UNREADABLE = unreadable(VERBS)


@dataclass(frozen=True)
class PanelKey:
    """Which panel a component belongs to (the custom id's fixed part)."""

    campaign_id: int
    step_no: int
    seat: int

    @classmethod
    def of(cls, panel: Panel) -> PanelKey:
        return cls(panel.campaign_id, panel.step_no, panel.seat)

    @classmethod
    def of_match(cls, match: re.Match[str]) -> PanelKey | None:
        """The key a template matched; None beyond 64 bits."""
        numbers = int(match["campaign"]), int(match["step"]), int(match["seat"])
        return None if any(n > MAX_ID for n in numbers) else cls(*numbers)

    def custom_id(self, verb: str, *numbers: int) -> str:
        base = f"adm:{self.campaign_id}:{self.step_no}:{self.seat}:{verb}"
        return f"{base}:{'.'.join(map(str, numbers))}" if numbers else base
