"""simcord fixtures: a fresh bot on a real SQLite file, and a small server to play on."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
import pytest_asyncio
import simcord
from discord import app_commands

import storage
from bot.client import AdmiraltyBot
from bot.errors import UserError
from bot.rules.base import Ruleset
from bot.rules.dice import ScriptedDice
from tests.cogs.simworld import World
from tests.support.template_db import copy_of

ROLL_DICE = [5, 2, 6, 1, 3, 4] * 4  # what /roll draws, in order
# simcord settles after each action by polling, every ``idle`` seconds (50 ms), while a timer
# callback of the bot's is still active; half the Discord tests' time was those sleeps. A
# shorter poll asks the same question more often: settling ends on the same conditions and
# the same absolute deadline (issue 17 item 8, a test suite to live with).
SETTLE_POLL = 0.002
_settle = simcord.Env._settle_internal


async def _settle_polling_often(self: simcord.Env, *, idle: float = SETTLE_POLL,
                                **kwargs: Any) -> None:
    await _settle(self, idle=min(idle, SETTLE_POLL), **kwargs)


simcord.Env._settle_internal = _settle_polling_often  # type: ignore[method-assign]


def new_bot(db_path: Path) -> AdmiraltyBot:
    return AdmiraltyBot(db_path, roll_dice=ScriptedDice(ROLL_DICE))


@pytest_asyncio.fixture(autouse=True)
async def close_databases(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[None]:
    """Close every database a bot opened: simcord detaches bots without calling ``close()``,
    and an open aiosqlite connection keeps a non-daemon thread that stops pytest exiting."""
    opened: list[storage.Database] = []
    real_open = storage.open_database

    async def tracked_open(*args, **kwargs) -> storage.Database:
        db = await real_open(*args, **kwargs)
        opened.append(db)
        return db

    monkeypatch.setattr(storage, "open_database", tracked_open)
    yield
    for db in opened:
        await db.close()


@pytest.fixture
def db_path(tmp_path: Path, migrated_template: Path) -> Path:
    """Where the bot keeps its database: a copy of the run's migrated one, so the bot starts
    as on a restart, without migrating a new file for each test."""
    return copy_of(migrated_template, tmp_path / "admiralty.db")


@pytest.fixture
def simcord_bot(db_path: Path, guess_rules: Ruleset) -> AdmiraltyBot:
    return new_bot(db_path)


def refusal(error: BaseException) -> bool:
    """A UserError that reached the one error handler (a refusal, not a bug)."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    return isinstance(error, UserError)


def expected(w: World, error: BaseException) -> bool:
    text = f"{error!r} {error.__cause__!r}"
    return any(bug in text for bug in w.expected_bugs)


@pytest_asyncio.fixture
async def world(simcord_env: simcord.Env) -> AsyncIterator[World]:
    env = simcord_env
    guild = env.create_guild("Fleet")
    chan = guild.create_text_channel("war-room")
    other = guild.create_text_channel("other-front")
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    w = World(
        env=env,
        guild=guild,
        chan=chan,
        other_chan=other,
        gm=guild.add_member(env.create_user("gm")),
        alice=guild.add_member(env.create_user("alice")),
        bob=guild.add_member(env.create_user("bob")),
        carol=guild.add_member(env.create_user("carol")),
        admin=guild.add_member(env.create_user("admin"), roles=[admins]),
    )
    await env.settle()
    yield w
    # Refusals go through tree.on_error, which simcord records; anything else is a bug.
    bugs = [e for e in env.errors if not refusal(e) and not expected(w, e)]
    if bugs:
        raise ExceptionGroup("the bot raised errors that are not refusals", bugs)
