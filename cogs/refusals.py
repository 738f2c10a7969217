"""How a refusal reads: its message, and a hint when a ruling is behind it.

The ruling id is data (``UserError.ruling``) and never appears in the text; the user's last
one is remembered so that ``/help rule`` offers it first (docs/dev/service-contract.md,
"Rulings behind refusals and results")."""

from __future__ import annotations

import discord

from bot.campaign import rulings
from bot.errors import UserError

WHY_HINT = "-# Why? `/help rule:` offers the rule behind this first."
# user id -> ruling id of that user's last refusal. In memory only: a convenience.
_LAST_RULINGS: dict[int, str] = {}
LAST_RULINGS_KEPT = 5000


def refusal_text(user_id: int, error: UserError) -> str:
    """The refusal as the user reads it; remembers its ruling for ``/help rule``."""
    found = rulings.find(error.ruling) if error.ruling else None
    if found is None:
        return error.message
    _LAST_RULINGS.pop(user_id, None)
    _LAST_RULINGS[user_id] = found.id
    while len(_LAST_RULINGS) > LAST_RULINGS_KEPT:  # oldest first (dicts keep insertion order)
        _LAST_RULINGS.pop(next(iter(_LAST_RULINGS)))
    return f"{error.message}\n{WHY_HINT}"


def last_ruling(interaction: discord.Interaction) -> rulings.Ruling | None:
    ident = _LAST_RULINGS.get(interaction.user.id)
    return rulings.find(ident) if ident else None
