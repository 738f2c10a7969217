"""The one error ladder of the bot, for slash commands and components alike, and the one way
to answer an interaction whether or not it was answered (or deferred) already.

The ladder: a refusal (``UserError``) is shown to the user who acted, with its ruling hint
(``cogs.refusals``); a failed app-command check says why; anything else is a bug: it is
logged with its traceback and the user gets a short apology that names nothing of it."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.errors import UserError
from cogs.refusals import refusal_text

log = logging.getLogger(__name__)

APOLOGY = "Sorry, something went wrong on my side. The GM can check the bot's log."
NOT_HERE = "You can't use this command here."


async def respond(interaction: discord.Interaction, **message: Any) -> None:
    """Sends ``message`` as the interaction's answer, or as a follow-up once it was answered
    or deferred (Discord accepts one response per interaction)."""
    if interaction.response.is_done():
        await interaction.followup.send(**message)
    else:
        await interaction.response.send_message(**message)


async def ephemeral(interaction: discord.Interaction, text: str) -> None:
    await respond(interaction, content=text, ephemeral=True)


def failure_text(interaction: discord.Interaction, error: BaseException, what: str) -> str:
    """What the user reads for ``error``; a bug is logged here, once, as ``what`` failed."""
    if isinstance(error, UserError):
        return refusal_text(interaction, error)
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or NOT_HERE
    log.error("%s failed", what, exc_info=error)
    return APOLOGY


async def answer_failure(
    interaction: discord.Interaction, error: BaseException, what: str
) -> None:
    await ephemeral(interaction, failure_text(interaction, error, what))


async def guarded(interaction: discord.Interaction, work: Callable[[], Awaitable[None]]) -> bool:
    """Runs a component's work through the ladder: True when it finished, False when it was
    refused (answered here). A bug gets its apology and is raised on, so that discord.py logs
    it too and a test sees it."""
    try:
        await work()
    except UserError as error:
        await answer_failure(interaction, error, component_of(interaction))
        return False
    except BaseException as error:
        await answer_failure(interaction, error, component_of(interaction))
        raise
    return True


def component_of(interaction: discord.Interaction) -> str:
    # the custom id only: interaction.data of a Select carries the values chosen
    data = interaction.data or {}
    return f"panel interaction {data.get('custom_id')}"
