"""The GM's button under a battle card (Orbits) or a battle list (FTCamp): open that battle
in a thread (P-17), as ``/battle start parent:<this campaign> ref:<battle>`` does.

Everyone sees the button; the click does what ``/battle start`` does (``cogs.battle_start``)
as the clicker, so every check of it (only the campaign's GM, the battle still open, opened
once, designs) is the clicker's own. The button's id names the campaign and the battle; it
survives restarts (a dynamic item)."""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.answers import guarded
from cogs.battle_start import start_battle
from cogs.common import clip, service_of

PREFIX = "adm-open:"
TEMPLATE = r"adm-open:(?P<campaign>\d{1,19}):(?P<ref>.{1,80})"
MAX_BUTTONS = 25  # five rows of five


def custom_id(campaign_id: int, ref: str) -> str:
    return f"{PREFIX}{campaign_id}:{ref[:80]}"


class OpenBattleButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    def __init__(self, campaign_id: int, ref: str) -> None:
        super().__init__(discord.ui.Button(
            label=clip(f"Open {ref} in a thread", 80), style=discord.ButtonStyle.secondary,
            custom_id=custom_id(campaign_id, ref)))
        self.campaign_id, self.ref = campaign_id, ref

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> OpenBattleButton:
        return cls(int(match["campaign"]), match["ref"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: start_battle(
            service_of(interaction), interaction, parent=str(self.campaign_id), ref=self.ref))


def open_view(campaign_id: int, embeds: list[dict[str, Any]]) -> discord.ui.View | None:
    """The buttons a channel message's embeds ask for (``buttons``: battle references)."""
    refs = list(dict.fromkeys(r for e in embeds for r in e.get("buttons", [])
                              if isinstance(r, str) and r))[:MAX_BUTTONS]
    if not refs:
        return None
    view = discord.ui.View(timeout=None)
    for ref in refs:
        view.add_item(OpenBattleButton(campaign_id, ref))
    return view
