"""/campaign: create, join, leave, start, status, settings, back, end, list."""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.campaign.models import CampaignStatus, SeatInfo, Status
from bot.campaign.rulesets import ruleset_info, ruleset_names
from bot.campaign.settings import brief, is_short
from bot.errors import InvalidInput, InvalidState, UserError
from cogs.background_loops import DM_CLOSED_CODE
from cogs.common import (
    CLOSED_DM_HINT,
    MAX_CONTENT,
    actor_of,
    campaign_channel_id,
    clip,
    reply,
    timestamp,
)

if TYPE_CHECKING:
    from bot.campaign import CampaignService
    from bot.client import AdmiraltyBot

log = logging.getLogger(__name__)


async def ruleset_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    typed = current.lower()
    return [
        app_commands.Choice(name=f"{name} ({_title(name)})"[:100], value=name)
        for name in ruleset_names()
        if typed in name.lower()
    ][:25]


def _title(name: str) -> str:
    try:
        return ruleset_info(name).title
    except (UserError, ImportError):
        return "not available"


async def join_seat(service: CampaignService, interaction: discord.Interaction) -> None:
    """Takes a seat in the campaign of the channel (or battle thread): the welcome DM, the
    closed-DM notice. ``/campaign join`` and ``/battle join`` both."""
    channel_id = campaign_channel_id(interaction)
    seat = await service.join(actor_of(interaction), channel_id)
    seen = await service.seat_view(actor_of(interaction), channel_id)
    dm_ok = await _welcome(interaction, seat, seen.info.name, channel_id)
    # The service announces the join in the channel; this answer is for the player.
    await reply(interaction, f"You joined as seat {seat.seat}.")
    if not dm_ok:
        await service.dm_closed(interaction.user.id)
        await reply(interaction, CLOSED_DM_HINT, ephemeral=True)


async def _welcome(interaction: discord.Interaction, seat: SeatInfo, name: str,
                   channel_id: int) -> bool:
    """DMs a short welcome naming the campaign and linking its channel (or thread); False
    when the user does not accept DMs from us."""
    try:
        await interaction.user.send(
            f"Welcome aboard! You hold seat {seat.seat} in **{name}** (<#{channel_id}>). "
            "Your orders panels will arrive here; `/orders` brings them back."
        )
    except discord.Forbidden as error:
        if error.code != DM_CLOSED_CODE:
            raise
        return False
    return True


@app_commands.guild_only()
class CampaignCog(commands.GroupCog, group_name="campaign"):
    """Campaign lifecycle, addressed by the channel the campaign lives in."""

    def __init__(self, service: CampaignService) -> None:
        self.service = service
        super().__init__()

    @app_commands.command(description="Start a new campaign in this channel (you become its GM)")
    @app_commands.describe(ruleset="Which rules to play", name="A name for the campaign")
    @app_commands.autocomplete(ruleset=ruleset_choices)
    async def create(
        self, interaction: discord.Interaction, ruleset: str, name: str
    ) -> None:
        channel_id = campaign_channel_id(interaction)
        if not isinstance(interaction.channel, discord.TextChannel):
            raise InvalidState(
                "Create a campaign in a normal text channel of the server "
                "(not in a thread, forum, voice channel or DM)."
            )
        assert interaction.guild is not None
        info = await self.service.create(
            actor_of(interaction), interaction.guild.id, channel_id, ruleset, name
        )
        ruleset_obj = ruleset_info(info.ruleset)
        await reply(
            interaction,
            f"**{info.name}** ({ruleset_obj.title}) is open for players in this channel. "
            f"Join with `/campaign join`; {interaction.user.mention} (GM) starts it with "
            f"`/campaign start` once {ruleset_obj.min_seats} to {ruleset_obj.max_seats} "
            "players have joined.",
            ephemeral=False,
        )

    @app_commands.command(description="Take a seat in this channel's campaign")
    async def join(self, interaction: discord.Interaction) -> None:
        await join_seat(self.service, interaction)

    @app_commands.command(description="Give up your seat (only before the campaign starts)")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.service.leave(
            actor_of(interaction), campaign_channel_id(interaction)
        )
        await reply(interaction, "You left the campaign.")

    @app_commands.command(description="GM: start the campaign with the players who have joined")
    async def start(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        info = await self.service.start(
            actor_of(interaction), campaign_channel_id(interaction)
        )
        await reply(interaction, f"**{info.name}** has started. Panels are on their way.")

    @app_commands.command(description="Where the campaign stands, as you may see it")
    async def status(self, interaction: discord.Interaction) -> None:
        status = await self.service.status(
            campaign_channel_id(interaction), interaction.user.id
        )
        await reply(interaction, render_status(status))

    @app_commands.command(description="Show the settings or one in full; GM: change one")
    @app_commands.describe(key="The setting to show in full or to change (empty: list them all)",
                           value="Its new value (GM; empty: just show the setting)")
    async def settings(
        self,
        interaction: discord.Interaction,
        key: str | None = None,
        value: str | None = None,
    ) -> None:
        if key is None and value is not None:
            raise InvalidInput("Name the setting to change (key), or give neither key nor value "
                               "to see every setting.")
        changes = {key: value} if key is not None and value is not None else {}
        current = await self.service.settings(
            actor_of(interaction), campaign_channel_id(interaction), changes
        )
        if key is not None and value is None:
            await self._show_setting(interaction, key, current)
            return
        lines = [f"`{k}` = {brief(k, v)}" for k, v in sorted(current.items())]
        head = (f"Changed `{key}` to {brief(key, current[key])}.\n" if key is not None
                else "Current settings:\n")
        await reply(interaction, head + ("\n".join(lines) or "(none)"))

    async def _show_setting(
        self, interaction: discord.Interaction, key: str, current: dict[str, str]
    ) -> None:
        """One setting in full: inline when it fits a message, else as a text file."""
        if key not in current:
            raise InvalidInput(f"Unknown setting {key}. Settings: {', '.join(sorted(current))}.")
        value = current[key]
        if is_short(value):
            await reply(interaction, f"`{key}` = {value}")
            return
        text = f"`{key}` ({len(value)} characters):\n```\n{value}\n```"
        if len(text) <= MAX_CONTENT and "```" not in value:
            await reply(interaction, text)
            return
        attached = discord.File(io.BytesIO(value.encode("utf-8")), filename=f"{key}.txt")
        await reply(interaction, f"`{key}` ({len(value)} characters) is attached.",
                    files=[attached])

    @settings.autocomplete("key")
    async def settings_key(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            known = await self.service.settings(
                actor_of(interaction), campaign_channel_id(interaction), {}
            )
        except UserError:
            return []
        return [
            app_commands.Choice(name=clip(f"{k} (now {brief(k, v)})", 100), value=k)
            for k, v in sorted(known.items())
            if current.lower() in k.lower()
        ][:25]

    @app_commands.command(description="Back after missing deadlines: your moves wait for you again")
    async def back(self, interaction: discord.Interaction) -> None:
        text = await self.service.come_back(
            actor_of(interaction), campaign_channel_id(interaction))
        await reply(interaction, text)

    @app_commands.command(description="GM: end the campaign for good")
    @app_commands.describe(reason="Shown in the channel")
    async def end(self, interaction: discord.Interaction, reason: str = "ended by the GM") -> None:
        await self.service.end(
            actor_of(interaction), campaign_channel_id(interaction), reason
        )
        await reply(interaction, "Campaign ended; the channel has been told.")

    @app_commands.command(name="list", description="The campaigns on this server")
    @app_commands.describe(finished="Show the latest finished campaigns instead")
    async def list_(self, interaction: discord.Interaction, finished: bool = False) -> None:
        campaign_channel_id(interaction)
        assert interaction.guild is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        infos = await self.service.list_campaigns(interaction.guild.id,
                                                  finished=finished)
        if finished:
            lines = [f"**{i.name}** ({i.ruleset}) in <#{i.channel_id}>: finished: "
                     f"{i.end_reason or 'ended'}" for i in infos]
            empty = "No campaign on this server has finished yet."
        else:
            lines = [f"**{i.name}** ({i.ruleset}, {i.status}) in <#{i.channel_id}>"
                     for i in infos]
            empty = ("No campaign is running on this server (`/campaign list finished:True` "
                     "shows the finished ones).")
        await reply(interaction, "\n".join(lines) or empty)


def render_status(status: CampaignStatus) -> str:
    """A CampaignStatus as a short text (the viewer's own view when seated)."""
    if status.status == Status.ENDED:
        lines = [f"**{status.name}** ({status.ruleset}): finished. "
                 + (status.end_reason or "The campaign is over."),
                 "A new campaign can start in this channel with /campaign create."]
        if status.seats:
            lines.append("Seats: " + ", ".join(f"{s.seat}. {s.name}" for s in status.seats))
        if status.text:
            lines.append(status.text)
        return clip("\n".join(lines))
    lines = [f"**{status.name}** ({status.ruleset}): {status.status}"]
    if status.paused:
        lines.append("Paused by the GM: no deadlines run.")
    if status.pending:
        lines.append("Waiting for: " + ", ".join(status.pending))
    if status.deadline is not None:
        lines.append(f"Deadline: {timestamp(status.deadline)}")
    if status.seats:
        lines.append("Seats: " + ", ".join(f"{s.seat}. {s.name}" for s in status.seats))
    if status.away:
        lines.append("Away (their moves take the default at once): " + ", ".join(status.away))
    if status.text:
        lines.append(status.text)
    return clip("\n".join(lines))


async def setup(bot: AdmiraltyBot) -> None:
    await bot.add_cog(CampaignCog(bot.service))
