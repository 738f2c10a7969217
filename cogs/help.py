"""/help: how to start and play, in general or for one rule set."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.campaign import rulings
from bot.campaign.rulesets import ruleset_info, ruleset_names
from bot.errors import NotFound
from cogs.campaign import ruleset_choices
from cogs.common import clip, reply
from cogs.refusals import last_ruling

GENERAL = """**Admiralty** referees space-wargame campaigns in this server.
**Start**: in a text channel, the GM runs `/campaign create` (rule set and name); players run \
`/campaign join`; the GM runs `/campaign start`.
**Play**: your orders panels come by DM (allow DMs from server members). Choose in the menus \
and press Submit; sealed orders can change until everyone is in, then all are revealed \
together in the channel. `/orders` brings your panels back, `/campaign status` shows the state.
**GM**: `/campaign settings` (timing, options), `/gm extend|pause|resume|advance|undo|log|\
kick|replace`.
**Dice**: `/roll 2d6kh1+3`.
Rule sets: {names}. `/help ruleset:<name>` explains one.
**Why?** `/help rule:` shows a ruling the bot plays by (type an id or a word of its title); \
after a refusal, the rule behind it is offered first."""
LAST = "Your last refusal"


async def rule_choices(interaction: discord.Interaction, current: str
                       ) -> list[app_commands.Choice[str]]:
    """Ids and titles matching what is typed; the rule behind the user's last refusal first."""
    choices: list[app_commands.Choice[str]] = []
    last = last_ruling(interaction)
    if last is not None and not current.strip():
        choices.append(app_commands.Choice(name=f"{LAST}: {last.title}"[:100], value=last.id))
    for r in rulings.search(current, limit=25 - len(choices)):
        choices.append(app_commands.Choice(name=f"{r.id} {r.title} ({r.rule_set})"[:100],
                                           value=r.id))
    return choices


def ruling_text(interaction: discord.Interaction, rule: str) -> str:
    """The text of the ruling asked for ("last" or "why": the last refusal's)."""
    if rule.strip().lower() in ("last", "why", LAST.lower()):
        found = last_ruling(interaction)
        if found is None:
            raise NotFound("No refusal of yours names a rule yet. Type an id such as O-15 or a "
                           "word of a ruling's title, and pick one from the list.")
        return found.show()
    found = rulings.find(rule)
    if found is None:
        near = rulings.search(rule, limit=5)
        hint = (" Close: " + ", ".join(f"{r.id} {r.title}" for r in near) + ".") if near else ""
        raise NotFound(f"No ruling '{clip(rule, 40)}'. Rulings have ids like O-15, E-D4 or "
                       f"H-12 (Orbits, FTCamp, HRFT; P for every rule set); type one or a word "
                       f"of its title and pick it from the list.{hint}")
    return found.show()


class HelpCog(commands.Cog):
    @app_commands.command(name="help", description="How to start and play a campaign")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    @app_commands.describe(ruleset="A rule set to explain (leave empty for the overview)",
                           rule="A ruling the bot plays by: its id (O-15) or words of its title")
    @app_commands.autocomplete(ruleset=ruleset_choices, rule=rule_choices)
    async def help_command(
        self, interaction: discord.Interaction, ruleset: str | None = None,
        rule: str | None = None,
    ) -> None:
        if rule is not None:
            await reply(interaction, clip(ruling_text(interaction, rule)))
            return
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
    await bot.add_cog(HelpCog())
