"""How a refusal reads: its message, and a hint when a ruling is behind it.

The ruling id is data (``UserError.ruling``) and never appears in the text; the user's last
one is remembered so that ``/help rule`` offers it first (docs/dev/service-contract.md,
"Rulings behind refusals and results")."""

from __future__ import annotations

from typing import Protocol, cast

import discord

from bot.campaign import rulings
from bot.campaign.cache import LruCache
from bot.errors import UserError

WHY_HINT = "-# Why? `/help rule:` offers the rule behind this first."
LAST_RULINGS_KEPT = 5000


class RememberedRulings(Protocol):
    """What the bot declares for this (``bot.client.AdmiraltyBot.last_rulings``): user id ->
    ruling id of that user's last refusal, in memory only (a convenience a restart may
    forget), the latest ``LAST_RULINGS_KEPT`` users kept. A protocol, not an import: the
    client imports this module."""

    last_rulings: LruCache[str]


def _store(interaction: discord.Interaction) -> LruCache[str]:
    return cast(RememberedRulings, interaction.client).last_rulings


def refusal_text(interaction: discord.Interaction, error: UserError) -> str:
    """The refusal as the user reads it; remembers its ruling for ``/help rule``."""
    return refusal_for(_store(interaction), interaction.user.id, error)


def refusal_for(store: LruCache[str], user_id: int, error: UserError) -> str:
    found = rulings.find(error.ruling) if error.ruling else None
    if found is None:
        return error.message
    store.put(user_id, found.id)
    return f"{error.message}\n{WHY_HINT}"


def last_ruling(interaction: discord.Interaction) -> rulings.Ruling | None:
    ident = _store(interaction).get(interaction.user.id)
    return rulings.find(ident) if ident else None
