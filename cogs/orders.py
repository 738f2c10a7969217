"""/orders: brings back the player's open panels (in DM, or here if DMs are closed)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.campaign.models import Panel
from bot.errors import InvalidInput, NotFound
from cogs.common import reply, service_of
from cogs.outbox import DM_CLOSED_CODE
from cogs.panel_view import render

MAX_PANELS = 10  # one message each; more than this means something is wrong upstream


async def campaign_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    infos = await service_of(interaction).campaigns_of_user(interaction.user.id)
    return [
        app_commands.Choice(name=i.name[:100], value=str(i.id))
        for i in infos
        if current.lower() in i.name.lower()
    ][:25]


class OrdersCog(commands.Cog):
    """Re-opens panels; the panels themselves are handled by the Panels cog."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(description="Get your current orders panel(s) again")
    @app_commands.describe(campaign="Which campaign (in a campaign channel: that one)")
    @app_commands.autocomplete(campaign=campaign_choices)
    async def orders(self, interaction: discord.Interaction, campaign: str | None = None) -> None:
        panels = await self._panels(interaction, campaign)
        if not panels:
            await reply(interaction, "Nothing is waiting for you right now.")
            return
        if interaction.guild is None:
            # Already in the DM: the panels are the answer itself.
            for panel in panels:
                content, view = render(panel)
                await reply(interaction, content, ephemeral=False, view=view)
            return
        if await self._send_to_dm(interaction.user, panels):
            await reply(interaction, "Sent your panel(s) to your DMs.")
            return
        # DMs closed: the same panels, visible only to this user.
        for panel in panels:
            content, view = render(panel)
            await reply(interaction, content, ephemeral=True, view=view)

    async def _panels(self, interaction: discord.Interaction, campaign: str | None) -> list[Panel]:
        service = service_of(interaction)
        user_id = interaction.user.id
        ids = await self._campaign_ids(interaction, campaign)
        panels: list[Panel] = []
        for campaign_id in ids:
            panels.extend(await service.panels_for(campaign_id, user_id))
        return panels[:MAX_PANELS]

    async def _campaign_ids(
        self, interaction: discord.Interaction, campaign: str | None
    ) -> list[int]:
        service = service_of(interaction)
        mine = await service.campaigns_of_user(interaction.user.id)
        if campaign is not None:
            chosen = [i.id for i in mine if str(i.id) == campaign or i.name == campaign]
            if not chosen:
                names = ", ".join(i.name for i in mine) or "none"
                raise NotFound(
                    f"You hold no seat in a running campaign '{campaign}'. Yours: {names}."
                )
            return chosen
        if interaction.guild is not None:
            here = [i.id for i in mine if i.channel_id == interaction.channel_id]
            if here:
                return here
            if not mine:
                raise NotFound("You hold no seat in a running campaign.")
            raise InvalidInput(
                "This channel has no campaign of yours. Use /orders in your campaign's "
                "channel, in a DM with me, or name the campaign."
            )
        if not mine:
            raise NotFound("You hold no seat in a running campaign.")
        return [i.id for i in mine]

    async def _send_to_dm(self, user: discord.abc.User, panels: list[Panel]) -> bool:
        try:
            for panel in panels:
                content, view = render(panel)
                await user.send(content, view=view)
        except discord.Forbidden as error:
            if error.code != DM_CLOSED_CODE:
                raise
            return False
        return True


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(OrdersCog(bot))
