"""The Panels cog: registers the bot's DynamicItems (the panel items, one class per verb,
``cogs.panel_items``, and the battle cards' open buttons, ``cogs.battle_open``) and takes the
submissions of the panels' number Modals."""

from __future__ import annotations

import discord
from discord.ext import commands

from cogs import panel_modal
from cogs.battle_open import OpenBattleButton
from cogs.panel_items import PANEL_ITEMS, show_typed

DYNAMIC_ITEMS = (*PANEL_ITEMS, OpenBattleButton)  # P-17: battle cards' open buttons


class Panels(commands.Cog):
    """Every persistent component; each item's class has its own check and callback."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)

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
