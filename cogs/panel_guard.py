"""Who may press a panel component (every answer goes by the one ladder, ``cogs.answers``).

A panel's custom id ``adm:<campaign>:<step>:<seat>:<verb>[:<arg>]`` names the seat it acts for,
and every part of it can be guessed or forged (a number Modal's id too, ``cogs.panel_modal``).
So each component first proves that the user who clicked holds that seat now (``admit``,
called from the items' ``interaction_check``, and for a Modal from its submission) and only
then loads what the panel shows; the callbacks can reach the panel only through the
admitted item. Who counts as the holder (the service decides, ``panel(..., user_id=)``):

- a player seat: its current, active holder (a kicked or replaced player no longer is);
- the GM seat: the campaign's GM user. A server admin acts as GM through the /gm commands
  but does not answer the GM's own panels: a DM click carries no server permissions, so an
  admin rule would hold in one place and not the other, and the GM's panel is delivered to,
  and re-opened by /orders for, the GM user only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.errors import InvalidState
from cogs.answers import guarded
from cogs.common import service_of

if TYPE_CHECKING:
    from bot.campaign.models import Panel

STALE = "This panel is for a step that is over; use /orders to get your current panel."
UNREADABLE = "I can't read this panel; use /orders to get your current panel."
BUTTON_VERBS = ("open", "back", "page", "sub", "num")
SELECT_VERBS = ("sel",)
MODAL_VERBS = ("set",)  # a typed number (cogs.panel_modal); admitted like any component
MAX_ID = 2**63 - 1  # what SQLite stores; a larger number names no campaign
_ID = re.compile(
    r"adm:([0-9]{1,19}):([0-9]{1,19}):([0-9]{1,19}):([a-z]{1,8})"
    r"(?::([0-9]{1,4}(?:\.[0-9]{1,4}){0,3}))?"
)


@dataclass(frozen=True)
class PanelKey:
    """Which panel a component belongs to (the custom id's fixed part)."""

    campaign_id: int
    step_no: int
    seat: int

    @classmethod
    def of(cls, panel: Panel) -> PanelKey:
        return cls(panel.campaign_id, panel.step_no, panel.seat)

    def custom_id(self, verb: str, arg: str | None = None) -> str:
        base = f"adm:{self.campaign_id}:{self.step_no}:{self.seat}:{verb}"
        return f"{base}:{arg}" if arg is not None else base


@dataclass(frozen=True)
class ParsedId:
    """A custom id read strictly; ``key`` is None when it is not one this bot makes."""

    key: PanelKey | None
    verb: str = ""
    arg: str = ""


def parse_custom_id(custom_id: str, verbs: tuple[str, ...]) -> ParsedId:
    """Reads ``adm:<campaign>:<step>:<seat>:<verb>[:<arg>]``; anything else (a verb of the
    wrong kind, ids beyond 64 bits, a malformed argument) gives a ParsedId without key,
    which ``admit`` refuses."""
    match = _ID.fullmatch(custom_id)
    if match is None or match[4] not in verbs:
        return ParsedId(None)
    numbers = [int(match[i]) for i in (1, 2, 3)]
    if any(n > MAX_ID for n in numbers):
        return ParsedId(None)
    return ParsedId(PanelKey(*numbers), match[4], match[5] or "")


class Admitted:
    """Mixed into the panel items: the panel is there only once the clicker is admitted."""

    key: PanelKey | None
    _panel: Panel | None = None
    # set on an item made for a component of the other kind, which it leaves to its own item
    foreign = False

    @property
    def panel(self) -> Panel:
        if self._panel is None:
            raise RuntimeError("a panel callback ran without the seat-holder check")
        return self._panel

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """discord.py calls this before the callback; a refusal is answered here."""
        if self.foreign:
            return False
        return await admit(self, interaction)


async def admit(item: Admitted, interaction: discord.Interaction) -> bool:
    """Loads the item's panel for the clicker if, and only if, they hold its seat; otherwise
    answers with an ephemeral refusal that names nothing of the seat."""

    async def work() -> None:
        if item.key is None:
            raise InvalidState(UNREADABLE)
        item._panel = await load_panel(interaction, item.key)

    await guarded(interaction, work)
    return item._panel is not None


async def load_panel(interaction: discord.Interaction, key: PanelKey) -> Panel:
    """The panel behind a component, for its seat's holder only; a step that is over gets the
    stale-panel answer (after the holder check, so it tells a stranger nothing)."""
    service = service_of(interaction)
    try:
        panel = await service.panel(key.campaign_id, key.step_no, key.seat, interaction.user.id)
    except InvalidState as error:
        # the holder clicked (the check passed): an away seat is back (P-26)
        await service.panel_clicked(key.campaign_id, key.step_no, key.seat,
                                    interaction.user.id)
        raise InvalidState(STALE) from error
    await service.panel_clicked(key.campaign_id, key.step_no, key.seat, interaction.user.id)
    return panel
