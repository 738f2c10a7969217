"""The Panels cog: registers the panel items (one DynamicItem class per verb,
``cogs.panel_items``) and takes the submissions of the panels' number Modals."""

from __future__ import annotations

import discord
from discord.ext import commands

from cogs import panel_modal
from cogs.panel_items import PANEL_ITEMS, show_typed


class Panels(commands.Cog):
    """Every panel component; each item's class has its own check and callback."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*PANEL_ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*PANEL_ITEMS)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every submission of a panel's number Modal (see ``cogs.panel_modal``)."""
        if interaction.type != discord.InteractionType.modal_submit:
            return
        custom_id = (interaction.data or {}).get("custom_id")
        if isinstance(custom_id, str) and custom_id.startswith("adm:"):
            await panel_modal.on_modal(interaction, show_typed)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Panels(bot))
