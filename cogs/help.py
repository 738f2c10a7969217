"""/help: how to start and play, in general or for one rule set."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.campaign.rulesets import ruleset_info, ruleset_names
from cogs.campaign import ruleset_choices
from cogs.common import clip, reply

GENERAL = """**Admiralty** referees space-wargame campaigns in this server.
**Start**: in a text channel, the GM runs `/campaign create` (rule set and name); players run \
`/campaign join`; the GM runs `/campaign start`.
**Play**: your orders panels come by DM (allow DMs from server members). Choose in the menus \
and press Submit; sealed orders can change until everyone is in, then all are revealed \
together in the channel. `/orders` brings your panels back, `/campaign status` shows the state.
**GM**: `/campaign settings` (timing, options), `/gm extend|pause|resume|advance|undo|log|\
kick|replace`.
**Dice**: `/roll 2d6kh1+3`.
Rule sets: {names}. `/help ruleset:<name>` explains one."""


class HelpCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="How to start and play a campaign")
    @app_commands.describe(ruleset="A rule set to explain (leave empty for the overview)")
    @app_commands.autocomplete(ruleset=ruleset_choices)
    async def help_command(
        self, interaction: discord.Interaction, ruleset: str | None = None
    ) -> None:
        if ruleset is None:
            await reply(interaction, GENERAL.format(names=", ".join(ruleset_names())))
            return
        rules = ruleset_info(ruleset)
        text = (
            f"**{rules.title}** (`{rules.name}`, {rules.min_seats} to {rules.max_seats} "
            f"players)\n{rules.help_text}"
        )
        await reply(interaction, clip(text))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HelpCog(bot))
