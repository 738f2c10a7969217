"""Commands sync only when the command tree changed (P-38): the payload's hash per scope is
kept next to the database; ``force_sync`` (``python -m bot sync``) syncs anyway; development
guilds get copies only, and a scope synced before that is no longer wanted is emptied, so no
command shows twice; a sync Discord refuses is said plainly and the bot runs on."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
import pytest_asyncio
import simcord

from bot import client, command_sync
from bot.client import AdmiraltyBot
from bot.rules.base import Ruleset
from bot.rules.dice import ScriptedDice
from bot.settings import Settings
from tests.cogs.conftest import ROLL_DICE

DEV_GUILD = 912345678901234567
OTHER_DEV = 912345678901234888


def command_puts(env: simcord.Env) -> list[str]:
    """The paths of every bulk command sync the bot made, in order."""
    return [r.path for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]


def bot_with(db_path: Path, guild_ids: list[int], *, force: bool = False) -> AdmiraltyBot:
    return AdmiraltyBot(Settings(database_path=db_path, guild_ids=guild_ids),
                        roll_dice=ScriptedDice(ROLL_DICE), force_sync=force)


@pytest.fixture
def simcord_bot(db_path: Path, guess_rules: Ruleset) -> AdmiraltyBot:
    return bot_with(db_path, [DEV_GUILD])


@pytest_asyncio.fixture
async def dev(simcord_env: simcord.Env) -> simcord.GuildHandle:
    guild = simcord_env.create_guild("Dev", id=DEV_GUILD)
    simcord_env.create_guild("Other dev", id=OTHER_DEV)
    await simcord_env.settle()
    return guild


@pytest.fixture
def env(simcord_env: simcord.Env, dev: simcord.GuildHandle) -> simcord.Env:
    return simcord_env


async def restart(env: simcord.Env, bot: AdmiraltyBot) -> list[str]:
    """The command syncs the new bot made at its start."""
    before = len(command_puts(env))
    await env.restart_bot(bot)
    return command_puts(env)[before:]


def guild_path(guild_id: int) -> str:
    return f"/guilds/{guild_id}/commands"


async def test_p38_an_unchanged_tree_is_not_synced_again(
    env: simcord.Env, dev: simcord.GuildHandle, db_path: Path
) -> None:
    assert [p for p in command_puts(env) if p.endswith(guild_path(DEV_GUILD))]
    record = json.loads(command_sync.record_path(db_path).read_text(encoding="utf-8"))
    assert set(record["scopes"]) == {f"guild:{DEV_GUILD}"}
    assert await restart(env, bot_with(db_path, [DEV_GUILD])) == []
    # the commands Discord had are still there and work
    tester = dev.add_member(env.create_user("tester"))
    chan = dev.create_text_channel("lab")
    await env.settle()
    result = await tester.slash(chan, "roll", expression="2d6")
    assert "7" in result.response.content


async def test_p38_a_changed_tree_is_synced(
    env: simcord.Env, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(client, "COGS", tuple(c for c in client.COGS if c != "cogs.roll"))
    puts = await restart(env, bot_with(db_path, [DEV_GUILD]))
    assert len(puts) == 1 and puts[0].endswith(guild_path(DEV_GUILD)), puts
    names = {c["name"] for c in env.backend.commands[DEV_GUILD].values()}
    assert "roll" not in names and "campaign" in names


async def test_p38_a_forced_sync_syncs_an_unchanged_tree(env: simcord.Env, db_path: Path) -> None:
    bot = bot_with(db_path, [DEV_GUILD], force=True)
    puts = await restart(env, bot)
    # the guild copy again, and the global set emptied in case one was left from before
    assert len(puts) == 2 and puts[0].endswith(guild_path(DEV_GUILD)), puts
    assert "/guilds/" not in puts[1] and not env.backend.commands.get(None)
    assert bot.synced_scopes == [f"guild {DEV_GUILD}", "removed from every server (global)"]
    assert bot.sync_problems == []


async def test_p38_each_guild_once_and_no_command_twice(env: simcord.Env, db_path: Path) -> None:
    # a global sync first (no guild_ids), then development guilds (one named twice)
    assert [p for p in await restart(env, bot_with(db_path, [])) if "/guilds/" not in p]
    assert env.backend.commands.get(None)
    puts = await restart(env, bot_with(db_path, [OTHER_DEV, DEV_GUILD, OTHER_DEV]))
    guild_puts = [p.partition("/guilds/")[2] for p in puts if "/guilds/" in p]
    assert sorted(guild_puts) == sorted([f"{DEV_GUILD}/commands", f"{OTHER_DEV}/commands"])
    assert not env.backend.commands.get(None)  # the globals are gone: no duplicates
    for guild_id in (DEV_GUILD, OTHER_DEV):
        names = [c["name"] for c in env.backend.commands[guild_id].values()]
        assert "roll" in names and len(names) == len(set(names))
    # back to global: the guild copies go
    await restart(env, bot_with(db_path, []))
    assert env.backend.commands.get(None)
    assert not env.backend.commands.get(DEV_GUILD) and not env.backend.commands.get(OTHER_DEV)


async def test_p38_a_refused_sync_is_said_plainly_and_tried_again(
    env: simcord.Env, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    env.inject_error("PUT", f"/applications/*{guild_path(DEV_GUILD)}", status=403,
                     code=50001, message="Missing Access")
    bot = bot_with(db_path, [DEV_GUILD], force=True)
    with caplog.at_level(logging.ERROR, logger="bot.client"):
        await restart(env, bot)
    assert bot.sync_problems and bot.sync_problems[0].startswith(f"guild {DEV_GUILD}: 403")
    assert "Missing Access" in bot.sync_problems[0]
    assert any("slash commands not synced for guild" in r.getMessage() for r in caplog.records)
    # the bot runs on; the refused scope is not recorded, so the next start tries again
    assert not env.bot.is_closed()
    puts = await restart(env, bot_with(db_path, [DEV_GUILD]))
    assert [p for p in puts if p.endswith(guild_path(DEV_GUILD))]
