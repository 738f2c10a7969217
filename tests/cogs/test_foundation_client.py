"""bot.client start-up: dev-guild command sync (settings ``guild_ids``), the GC freeze and the
full collections paced between intents."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
import pytest_asyncio
import simcord

from bot import gc_pacing
from bot.client import AdmiraltyBot
from bot.rules.base import Ruleset
from bot.rules.dice import ScriptedDice
from bot.settings import Settings
from tests.cogs.conftest import ROLL_DICE

DEV_GUILD = 912345678901234567
OTHER_GUILD = 912345678901234999


def command_puts(env: simcord.Env) -> list[str]:
    """The paths of every bulk command sync the bot made."""
    return [r.path for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]


@pytest.fixture
def dev_guilds() -> list[int]:
    return [DEV_GUILD]


@pytest.fixture
def simcord_bot(db_path: Path, guess_rules: Ruleset, dev_guilds: list[int]) -> AdmiraltyBot:
    settings = Settings(database_path=db_path, guild_ids=dev_guilds)
    return AdmiraltyBot(settings, roll_dice=ScriptedDice(ROLL_DICE))


@pytest_asyncio.fixture
async def guilds(simcord_env: simcord.Env) -> tuple[simcord.GuildHandle, simcord.GuildHandle]:
    dev = simcord_env.create_guild("Dev", id=DEV_GUILD)
    other = simcord_env.create_guild("Elsewhere", id=OTHER_GUILD)
    await simcord_env.settle()
    return dev, other


async def test_guild_ids_sync_every_command_to_those_guilds_only(
    simcord_env: simcord.Env, guilds: tuple[simcord.GuildHandle, simcord.GuildHandle]
) -> None:
    dev, other = guilds
    puts = command_puts(simcord_env)
    assert puts and all(p.endswith(f"/guilds/{DEV_GUILD}/commands") for p in puts), puts
    # A member of the dev guild sees every command there and can use it ...
    tester = dev.add_member(simcord_env.create_user("tester"))
    chan = dev.create_text_channel("lab")
    await simcord_env.settle()
    names = {c.split()[0] for c in tester.available_commands(chan)}
    assert {"campaign", "orders", "gm", "roll", "help"} <= names
    result = await tester.slash(chan, "roll", expression="2d6")
    assert "7" in result.response.content  # ROLL_DICE starts 5, 2
    # ... while other guilds (and DMs) get nothing: no global sync happened.
    stranger = other.add_member(simcord_env.create_user("stranger"))
    elsewhere = other.create_text_channel("general")
    await simcord_env.settle()
    assert stranger.available_commands(elsewhere) == ()
    assert tester.user.available_commands() == ()


@pytest.mark.parametrize("dev_guilds", [[]])
async def test_without_guild_ids_commands_sync_globally(
    simcord_env: simcord.Env, guilds: tuple[simcord.GuildHandle, simcord.GuildHandle]
) -> None:
    dev, other = guilds
    puts = command_puts(simcord_env)
    assert len(puts) == 1 and "/guilds/" not in puts[0], puts
    member = other.add_member(simcord_env.create_user("member"))
    chan = other.create_text_channel("general")
    await simcord_env.settle()
    assert "roll" in {c.split()[0] for c in member.available_commands(chan)}
    assert "orders" in member.user.available_commands()  # global commands reach DMs


async def test_a_started_bot_has_frozen_its_start_up_objects(
    simcord_env: simcord.Env, guilds: tuple[simcord.GuildHandle, simcord.GuildHandle],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert gc.get_freeze_count() > 0
    # Several bots in one process start and work: a restart does not freeze again. (The
    # freeze count itself is no measure: frozen objects that die leave the count, so the first
    # bot's freed objects make it shrink.)
    freezes: list[None] = []
    monkeypatch.setattr(gc, "freeze", lambda: freezes.append(None))
    await simcord_env.restart_bot(
        AdmiraltyBot(simcord_env.bot.db_path, roll_dice=ScriptedDice(ROLL_DICE))
    )
    assert freezes == []
    assert gc.get_freeze_count() > 0


class Recorder(gc_pacing.QuietCollector):
    def __init__(self) -> None:
        super().__init__()
        self.asked: list[int] = []

    def at_rest(self, intents_running: int) -> bool:
        self.asked.append(intents_running)
        return super().at_rest(intents_running)


@pytest.mark.parametrize("dev_guilds", [[]])
async def test_a_running_bot_paces_full_collections_and_collects_once_its_outbox_is_sent(
        simcord_env: simcord.Env) -> None:
    """Issue 17 item 9 (bot/gc_pacing.py)."""
    bot = simcord_env.bot
    assert gc.get_threshold()[2] == gc_pacing.AUTOMATIC_FULL_AFTER
    assert bot.loops is not None and bot.loops.at_rest == bot.gc_collector.at_rest
    recorder = Recorder()
    bot.loops.at_rest = recorder.at_rest
    guild = simcord_env.create_guild("Lab")
    gm, ann = (guild.add_member(simcord_env.create_user(n)) for n in ("gm", "ann"))
    chan = guild.create_text_channel("war")
    await simcord_env.settle()
    await gm.slash(chan, "campaign create", ruleset="guess", name="Lab war")
    for member in (gm, ann):
        await member.slash(chan, "campaign join")
    await simcord_env.settle()
    for _ in range(gc_pacing.QUIET_FULL_AFTER):
        gc.collect(1)  # a full collection is due
    posts = len(chan.history())
    asked = len(recorder.asked)
    await gm.slash(chan, "campaign start")
    await simcord_env.settle()
    assert len(chan.history()) > posts  # the outbox sent ...
    assert recorder.asked[asked:] and recorder.asked[-1] == 0  # ... and then, at rest ...
    assert recorder.collections == 1  # ... the collection due ran
    # a restart: the new bot's start makes its own install, the old bot's close undoes its
    # own (simcord detaches a bot without closing it)
    installed = gc_pacing._installed
    await simcord_env.restart_bot(AdmiraltyBot(bot.db_path, roll_dice=ScriptedDice(ROLL_DICE)))
    assert gc_pacing._installed == installed + 1
    await bot.close()
    assert gc_pacing._installed == installed
    assert gc.get_threshold()[2] == gc_pacing.AUTOMATIC_FULL_AFTER
