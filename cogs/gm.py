"""/gm: the game master's tools, for the campaign in this channel."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.campaign.models import LogEntry
from bot.errors import InvalidInput
from cogs.common import (
    MAX_CONTENT,
    actor_for,
    actor_of,
    campaign_channel_id,
    clip,
    reply,
    timestamp,
)

if TYPE_CHECKING:
    from bot.campaign import CampaignService
    from bot.client import AdmiraltyBot

MAX_LOG = 50


@app_commands.guild_only()
class GmCog(commands.GroupCog, group_name="gm"):
    """Each command checks GM rights in the service (campaign GM, or Manage Server)."""

    def __init__(self, service: CampaignService) -> None:
        self.service = service
        super().__init__()

    @app_commands.command(description="GM: give everyone more time for this step")
    @app_commands.describe(hours="Hours to add to the deadline")
    async def extend(
        self, interaction: discord.Interaction, hours: app_commands.Range[float, 0.1, 720.0]
    ) -> None:
        await self.service.gm_extend(
            actor_of(interaction), campaign_channel_id(interaction), float(hours)
        )
        await reply(interaction, f"Deadline extended by {hours:g} hour(s).")

    @app_commands.command(description="GM: stop the clock (no deadlines or reminders)")
    async def pause(self, interaction: discord.Interaction) -> None:
        await self.service.gm_pause(
            actor_of(interaction), campaign_channel_id(interaction)
        )
        await reply(interaction, "Campaign paused.")

    @app_commands.command(description="GM: start the clock again")
    async def resume(self, interaction: discord.Interaction) -> None:
        await self.service.gm_resume(
            actor_of(interaction), campaign_channel_id(interaction)
        )
        await reply(interaction, "Campaign resumed.")

    @app_commands.command(description="GM: resolve the step now; missing players take defaults")
    async def advance(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.gm_advance(
            actor_of(interaction), campaign_channel_id(interaction)
        )
        await reply(interaction, "Step resolved.")

    @app_commands.command(description="GM: take back the last resolution")
    async def undo(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        told = await self.service.gm_undo(
            actor_of(interaction), campaign_channel_id(interaction)
        )
        await reply(interaction, f"Undone. The channel was told:\n{told}")

    @app_commands.command(description="GM: the latest public and GM events")
    @app_commands.describe(limit="How many events (newest last)",
                           file="Send the whole log as a text file instead")
    async def log(
        self, interaction: discord.Interaction, limit: app_commands.Range[int, 1, MAX_LOG] = 15,
        file: bool = False,
    ) -> None:
        service = self.service
        actor, channel_id = actor_of(interaction), campaign_channel_id(interaction)
        if file:
            await interaction.response.defer(ephemeral=True, thinking=True)
            entries = await service.gm_log(actor, channel_id, None)
            text = "\n".join(_file_line(e) for e in entries) or "No events yet."
            attached = discord.File(io.BytesIO(text.encode("utf-8")), filename="campaign-log.txt")
            await reply(interaction, f"The whole log ({len(entries)} entries, oldest first) is "
                                     "attached.", files=[attached])
            return
        entries = await service.gm_log(actor, channel_id, int(limit))
        await reply(interaction, newest_that_fit([_log_line(e) for e in entries]))

    @app_commands.command(description="GM: remove a player; their seat takes defaults")
    @app_commands.describe(player="The player to remove")
    async def kick(self, interaction: discord.Interaction, player: discord.User) -> None:
        await self.service.gm_kick(
            actor_of(interaction), campaign_channel_id(interaction), player.id
        )
        await reply(interaction, f"{player.display_name} was removed from the campaign.")

    @app_commands.command(description="GM: let one player change orders an undo put back "
                                      "locked")
    @app_commands.describe(player="The player whose orders reopen")
    async def reopen(self, interaction: discord.Interaction, player: discord.User) -> None:
        text = await self.service.gm_reopen(
            actor_of(interaction), campaign_channel_id(interaction), player.id)
        await reply(interaction, f"Reopened. The channel was told:\n{text}")

    @app_commands.command(description="GM: hand a player's seat to someone else")
    @app_commands.describe(old="The player leaving the seat", new="The member taking it over")
    async def replace(
        self, interaction: discord.Interaction, old: discord.User, new: discord.User
    ) -> None:
        # ``new`` is taken as a User and checked here: a Member option fails to convert in a
        # DM (and for a user who left the server) before any refusal could be given.
        channel_id = campaign_channel_id(interaction)
        if not isinstance(new, discord.Member):
            raise InvalidInput(f"{new.display_name} is not a member of this server; the new "
                               "holder of a seat must be.")
        await self.service.gm_replace(
            actor_of(interaction), channel_id, old.id, actor_for(new)
        )
        await reply(interaction, f"{new.display_name} takes over {old.display_name}'s seat.")


LEFT_OUT = "Older entries left out; `/gm log file:True` sends the whole log."


def newest_that_fit(lines: list[str], limit: int = MAX_CONTENT) -> str:
    """The newest lines that fit one message, newest last; says so when older ones are
    left out (a GM reads the log for what just happened)."""
    if not lines:
        return "No events yet."
    whole = "\n".join(lines)
    if len(whole) <= limit:
        return whole
    room = limit - len(LEFT_OUT) - 1
    picked: list[str] = []
    for line in reversed(lines):
        if len(line) + 1 > room:
            if not picked:  # the newest entry alone is too long: its start, cut
                picked.append(clip(line, room - 1))
            break
        picked.append(line)
        room -= len(line) + 1
    return "\n".join([LEFT_OUT, *reversed(picked)])


def _file_line(entry: LogEntry) -> str:
    who = " (GM only)" if entry.audience == "gm" else ""
    when = entry.created_at.strftime("%Y-%m-%d %H:%M:%S UTC")
    return f"{when} step {entry.step_no}{who}: {entry.text}"


def _log_line(entry: LogEntry) -> str:
    who = " (GM only)" if entry.audience == "gm" else ""
    return f"{timestamp(entry.created_at)} step {entry.step_no}{who}: {entry.text}"


async def setup(bot: AdmiraltyBot) -> None:
    await bot.add_cog(GmCog(bot.service))
