"""/orders: brings back the player's open panels (in DM, or here if DMs are closed)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.campaign.models import CampaignInfo, Panel
from bot.errors import InvalidInput, NotFound
from bot.rules.base import GM_SEAT
from cogs.background_loops import DM_CLOSED_CODE
from cogs.common import clip, reply
from cogs.panel_items import render

if TYPE_CHECKING:
    from bot.campaign import CampaignService
    from bot.client import AdmiraltyBot

MAX_PANELS = 10  # one message each; more than this means something is wrong upstream
NO_CAMPAIGN = "You hold no seat in a running campaign, and you are the GM of none."


def choice_name(info: CampaignInfo, user_id: int) -> str:
    """The campaign's name, marked "(GM)" where the user runs it."""
    return f"{info.name} (GM)" if info.gm_user_id == user_id else info.name


def seat_label(panel: Panel) -> str:
    return "GM" if panel.seat == GM_SEAT else f"seat {panel.seat}"


class OrdersCog(commands.Cog):
    """Re-opens panels; the panels themselves are handled by their items (cogs.panel_items)."""

    def __init__(self, service: CampaignService) -> None:
        self.service = service

    async def campaign_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        user_id = interaction.user.id
        infos = await self.service.campaigns_of_user(user_id)
        return [
            app_commands.Choice(name=clip(choice_name(i, user_id), 100), value=str(i.id))
            for i in infos
            if current.lower() in i.name.lower()
        ][:25]


    @app_commands.command(description="Get your current orders panel(s) again")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    @app_commands.describe(campaign="Which campaign (in a campaign channel: that one)")
    @app_commands.autocomplete(campaign=campaign_choices)
    async def orders(self, interaction: discord.Interaction, campaign: str | None = None) -> None:
        panels = await self._panels(interaction, campaign)
        if not panels:
            await reply(interaction, "Nothing is waiting for you right now.")
            return
        if interaction.guild is None:
            # Already in the DM: the panels are the answer itself.
            for content, view in panels:
                await reply(interaction, content, ephemeral=False, view=view)
            return
        if await self._send_to_dm(interaction.user, panels):
            await reply(interaction, "Sent your panel(s) to your DMs.")
            return
        # DMs closed: the same panels, visible only to this user.
        for content, view in panels:
            await reply(interaction, content, ephemeral=True, view=view)

    async def _panels(
        self, interaction: discord.Interaction, campaign: str | None
    ) -> list[tuple[str, discord.ui.View]]:
        """Each open panel rendered, headed by its campaign and seat (a GM may also play)."""
        service = self.service
        user_id = interaction.user.id
        out: list[tuple[str, discord.ui.View]] = []
        for info in await self._campaigns(interaction, campaign):
            for panel in await service.panels_for(info.id, user_id):
                content, view = render(panel)
                out.append((clip(f"**{info.name}** ({seat_label(panel)})\n{content}"), view))
        return out[:MAX_PANELS]

    async def _campaigns(
        self, interaction: discord.Interaction, campaign: str | None
    ) -> list[CampaignInfo]:
        service = self.service
        mine = await service.campaigns_of_user(interaction.user.id)
        if campaign is not None:
            chosen = [i for i in mine if str(i.id) == campaign or i.name == campaign]
            if not chosen:
                names = ", ".join(i.name for i in mine) or "none"
                raise NotFound(
                    f"You have no running campaign '{campaign}' (as a player or its GM). "
                    f"Yours: {names}."
                )
            return chosen
        if interaction.guild is not None:
            here = [i for i in mine if i.channel_id == interaction.channel_id]
            if here:
                return here
            if not mine:
                raise NotFound(NO_CAMPAIGN)
            raise InvalidInput(
                "This channel has no campaign of yours. Use /orders in your campaign's "
                "channel, in a DM with me, or name the campaign."
            )
        if not mine:
            raise NotFound(NO_CAMPAIGN)
        return mine

    async def _send_to_dm(
        self, user: discord.abc.User, panels: list[tuple[str, discord.ui.View]]
    ) -> bool:
        try:
            for content, view in panels:
                await user.send(content, view=view)
        except discord.Forbidden as error:
            if error.code != DM_CLOSED_CODE:
                raise
            return False
        return True


async def setup(bot: AdmiraltyBot) -> None:
    await bot.add_cog(OrdersCog(bot.service))
