"""Small helpers shared by the cogs: who is acting, where, and how to answer."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Protocol, cast

import discord

from bot.campaign import messages
from bot.campaign.models import Actor
from bot.errors import InvalidInput, InvalidState
from cogs.answers import respond

if TYPE_CHECKING:
    from bot.campaign import CampaignService

MAX_CONTENT = 2000  # Discord's limit for one message's content
CLOSED_DM_HINT = (
    "I can't DM you: enable 'Allow direct messages from server members' for this server, "
    "or use /orders to get your panels here."
)


class ServiceHolder(Protocol):
    """What a DynamicItem reads off the bot (``bot.client.AdmiraltyBot.service``): discord.py
    builds the items from their custom ids, so they cannot be handed the service as the cogs
    are. A protocol, not an import: the client imports the cogs."""

    @property
    def service(self) -> CampaignService: ...


def service_of(interaction: discord.Interaction) -> CampaignService:
    return cast(ServiceHolder, interaction.client).service


def actor_of(interaction: discord.Interaction) -> Actor:
    """The acting user; Manage Server in a guild makes them a GM of every campaign there."""
    return actor_for(interaction.user, in_guild=interaction.guild is not None)


def actor_for(user: discord.abc.User, *, in_guild: bool = True) -> Actor:
    is_admin = (
        in_guild
        and isinstance(user, discord.Member)
        and user.guild_permissions.manage_guild
    )
    guild_id = user.guild.id if isinstance(user, discord.Member) else None
    return Actor(user_id=user.id, name=user.display_name, is_admin=bool(is_admin),
                 guild_id=guild_id)


def campaign_channel_id(interaction: discord.Interaction) -> int:
    """The channel a campaign command addresses; refuses in DMs, where no campaign lives."""
    if interaction.guild is None or interaction.channel_id is None:
        raise InvalidState(
            "Campaign commands work in the campaign's channel on the server, not in DMs. "
            "In a DM you can use /orders, /roll, /help and /orbits hand."
        )
    return interaction.channel_id


def _too_big(filename: str, size: int, limit: int) -> InvalidInput:
    return InvalidInput(f"'{filename[:100]}' is {-(-size // 1000)} kB; at most "
                        f"{limit // 1000} kB is allowed.")


async def read_attachment(attachment: discord.Attachment, limit: int) -> bytes:
    """The attachment's bytes, refused before downloading when Discord says it is larger
    than ``limit``, and again after reading should the content be larger than announced."""
    if attachment.size > limit:
        raise _too_big(attachment.filename, attachment.size, limit)
    data = await attachment.read()
    if len(data) > limit:
        raise _too_big(attachment.filename, len(data), limit)
    return data


def timestamp(when: datetime | None) -> str:
    """A Discord timestamp, so each reader sees their own time zone."""
    if when is None:
        return "no deadline"
    return f"<t:{int(when.timestamp())}:R>"


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    """Keep a text within Discord's limit, saying that it was cut."""
    if len(text) <= limit:
        return text
    return text[: limit - 2] + " …"


def split_content(text: str, limit: int = MAX_CONTENT) -> list[str]:
    """Split a long text at line ends into pieces Discord accepts (at least one piece)."""
    return messages.chunks(text, limit)


async def reply(
    interaction: discord.Interaction,
    content: str,
    *,
    ephemeral: bool = True,
    view: discord.ui.View | None = None,
    files: Sequence[discord.File] = (),
) -> None:
    """Answer an interaction whether or not it was already answered or deferred."""
    kwargs: dict[str, object] = {"content": clip(content), "ephemeral": ephemeral}
    if view is not None:
        kwargs["view"] = view
    if files:
        kwargs["files"] = list(files)
    await respond(interaction, **kwargs)
