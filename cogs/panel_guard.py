"""Who may press a panel component (every answer goes by the one ladder, ``cogs.answers``).

A panel's custom id ``adm:<campaign>:<step>:<seat>:<verb>[:<arg>]`` names the seat it acts for,
and every part of it can be guessed or forged (a number Modal's id too, ``cogs.panel_modal``).
So each component first proves that the user who clicked holds that seat now (``SeatCheck``,
every panel item's ``interaction_check``, and ``admit`` for a Modal's submission) and only
then loads what the panel shows; the callbacks can reach the panel only through the
admitted item. Who counts as the holder (the service decides, ``panel(..., user_id=)``):

- a player seat: its current, active holder (a kicked or replaced player no longer is);
- the GM seat: the campaign's GM user. A server admin acts as GM through the /gm commands
  but does not answer the GM's own panels: a DM click carries no server permissions, so an
  admin rule would hold in one place and not the other, and the GM's panel is delivered to,
  and re-opened by /orders for, the GM user only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import discord

from bot.errors import InvalidState
from cogs.answers import guarded
from cogs.common import service_of
from cogs.panel_ids import PanelKey

if TYPE_CHECKING:
    from bot.campaign.models import Panel

STALE = "This panel is for a step that is over; use /orders to get your current panel."
UNREADABLE = "I can't read this panel; use /orders to get your current panel."


class SeatCheck:
    """Mixed into every panel item: discord.py calls ``interaction_check`` before the
    callback, and it lets through only the holder of the seat the custom id names, on a
    component of the item's own kind (a Select's id on a button is not ours)."""

    component: ClassVar[type[discord.ui.Item[Any]]]
    item: discord.ui.Item[Any]
    key: PanelKey | None
    _panel: Panel | None = None

    @property
    def panel(self) -> Panel:
        if self._panel is None:
            raise RuntimeError("a panel callback ran without the seat-holder check")
        return self._panel

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        key = self.key if isinstance(self.item, self.component) else None
        self._panel = await admit(interaction, key)
        return self._panel is not None


async def admit(interaction: discord.Interaction, key: PanelKey | None) -> Panel | None:
    """The panel ``key`` names if, and only if, the user holds its seat; otherwise None, after
    an ephemeral refusal that names nothing of the seat (no key: an id we cannot read)."""
    admitted: list[Panel] = []

    async def work() -> None:
        if key is None:
            raise InvalidState(UNREADABLE)
        admitted.append(await load_panel(interaction, key))

    await guarded(interaction, work)
    return admitted[0] if admitted else None


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
