"""/roll: dice for everyone to see, every die shown."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.rules.base import Dice
from bot.rules.dice_roll import roll
from cogs.common import clip, reply

if TYPE_CHECKING:
    from bot.client import AdmiraltyBot


class RollCog(commands.Cog):
    def __init__(self, dice: Dice) -> None:
        self.dice = dice  # not a campaign's: /roll has its own (bot.client)

    @app_commands.command(name="roll", description="Roll dice, e.g. 2d6, d20+3, 4d6kh3")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    @app_commands.describe(expression="Dice like 2d6kh1+3 (NdS, khK/klK to keep, +/- numbers)")
    async def roll_command(self, interaction: discord.Interaction, expression: str) -> None:
        # A bad expression raises InvalidInput listing the allowed forms: shown ephemerally.
        result = roll(expression, self.dice)
        text = clip(f"{interaction.user.mention} rolls {result.format()}")
        await reply(interaction, text, ephemeral=False)


async def setup(bot: AdmiraltyBot) -> None:
    await bot.add_cog(RollCog(bot.roll_dice))
