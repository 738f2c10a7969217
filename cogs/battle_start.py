"""Opening an HRFT battle in a thread: what ``/battle start`` does, and the GM's "Open ... in a
thread" button under a battle card or list (``cogs.battle_open``) does the same, as the
clicker, so every check of the command is the clicker's own."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.campaign.battle_child import war_title
from bot.errors import InvalidInput, InvalidState
from cogs.battle_read import RULESET
from cogs.common import actor_of, campaign_channel_id, clip, reply

if TYPE_CHECKING:
    from bot.campaign import CampaignService

MAX_NAME = 80
THREAD_MINUTES = 10080  # a week: battles are played over days
DEFAULT_NAME = "HRFT battle"


async def start_battle(
    service: CampaignService, interaction: discord.Interaction, name: str = DEFAULT_NAME,
    parent: str | None = None, ref: str | None = None, designs: str = "",
) -> None:
    campaign_channel_id(interaction)
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel):
        raise InvalidState("Start a battle in a normal text channel of the server: the "
                           "battle gets a thread of its own there.")
    name = name.strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise InvalidInput(f"A battle name has 1 to {MAX_NAME} characters.")
    assert interaction.guild is not None
    actor = actor_of(interaction)
    linked = None
    parent_id = (await service.parent_id(actor, interaction.guild.id, parent)
                 if parent is not None else None)
    if parent_id is not None:  # H-D28, P-20: refuse a bad link before any thread exists
        linked = await service.battle_link(actor, interaction.guild.id,
                                                           parent_id, ref or "", designs)
    elif ref is not None:
        raise InvalidInput("A battle reference belongs to a parent campaign: pick the "
                           "campaign first (parent), then its battle (ref).")
    if linked is not None and linked.name and name == DEFAULT_NAME:
        name = linked.name[:MAX_NAME]  # P-16: its round or turn in the thread's name
    # No defer: after a public defer, a refusal would be public too; creating a thread
    # and a campaign row is quick.
    thread = await channel.create_thread(
        name=name, type=discord.ChannelType.public_thread,
        auto_archive_duration=THREAD_MINUTES,
    )
    service = service
    opened = False
    try:
        if linked is not None:  # one intent seats, starts and brings the craft in
            info = await service.open_battle(actor, interaction.guild.id, thread.id, name,
                                             parent_id or 0, ref or "", designs)
        else:
            info = await service.create(actor, interaction.guild.id, thread.id, RULESET,
                                        name)
        opened = True
    finally:
        if not opened:  # no empty thread left behind by a refused or failed start
            await thread.delete()
    # players read the parent campaign's name, never its id (issue 15 item 6)
    parent_name = next((c.name for c in await service.list_campaigns(interaction.guild.id)
                        if c.id == parent_id), "its campaign") if parent_id else ""
    if linked is not None:
        lines = [f"**{info.name}**: High Resolution Full Thrust battle of **{parent_name}**"
                 f", GM {interaction.user.mention}. Sides: "
                 + ", ".join(f"<@{s.user_id}>" for s in info.seats)
                 + (". Each side picks its ships within its budget in its DM panel; the "
                    "picks stay secret until every side has chosen."
                    if linked.muster else
                    ". Your craft are in: add any others (`/battle add`), then `/battle "
                    "ready`.")
                 + " The result goes back to the campaign's GM to confirm."]
    else:
        lines = [f"**{info.name}**: High Resolution Full Thrust battle, GM "
                 f"{interaction.user.mention}.\nPlayers: `/battle join` here. GM: `/battle "
                 "begin` when 2 to 6 have joined. Then add ships (`/battle add`) and say "
                 "`/battle ready`."]
    # the sides are pinged so they join the thread; the names in the text ping nobody (P-36)
    seats = [discord.Object(id=s.user_id) for s in info.seats] if linked is not None else []
    await thread.send(clip("\n".join(lines), 2000),
                      allowed_mentions=discord.AllowedMentions(users=seats or False))
    parent_note = (f" for **{parent_name}**" + (f" ({ref})" if ref else "")
                   if parent_id is not None else "")
    await reply(interaction, f"{war_title(info.name, None)}{parent_note} opens in "
                             f"{thread.mention}.", ephemeral=False)
