"""One retry policy, the configured one (issue 9.4): ``[outbox]`` decides the waits and when
a message has failed; the GM hears of what could not be delivered, never a DM's content."""

from __future__ import annotations

from pathlib import Path

import pytest
import simcord

from bot.client import AdmiraltyBot
from bot.rules.base import Ruleset
from bot.rules.dice import ScriptedDice
from bot.settings import OutboxSettings, Settings
from tests.cogs.conftest import ROLL_DICE
from tests.cogs.simworld import (
    World,
    dm_texts,
    post_in_two_pieces_failing_the_second,
    texts,
)
from tests.cogs.test_cog_lifecycle import open_campaign

MAX_ATTEMPTS, BASE, CAP = 4, 30.0, 50.0  # waits 30, 50, 50 seconds


def configured_bot(db_path: Path) -> AdmiraltyBot:
    settings = Settings(database_path=db_path, outbox=OutboxSettings(
        max_attempts=MAX_ATTEMPTS, retry_base_seconds=BASE, retry_max_seconds=CAP))
    return AdmiraltyBot(settings, roll_dice=ScriptedDice(ROLL_DICE))


@pytest.fixture
def simcord_bot(db_path: Path, guess_rules: Ruleset) -> AdmiraltyBot:
    return configured_bot(db_path)


def posts(env: simcord.Env, channel_id: int) -> int:
    return sum(1 for r in env.http_requests
               if r.method == "POST" and r.path == f"/channels/{channel_id}/messages")


async def test_retries_wait_as_configured(world: World) -> None:
    await open_campaign(world)
    world.env.inject_error("POST", f"/channels/{world.chan.id}/messages", status=429, times=2)
    before = posts(world.env, world.chan.id)
    await world.gm.slash(world.chan, "campaign start")
    await world.env.settle()
    assert posts(world.env, world.chan.id) == before + 1  # refused; waits 30 s
    await world.env.advance_time(BASE - 2)
    assert posts(world.env, world.chan.id) == before + 1
    await world.env.advance_time(3)
    assert posts(world.env, world.chan.id) == before + 2  # refused again; waits 50 s (capped)
    await world.env.advance_time(CAP - 2)
    assert posts(world.env, world.chan.id) == before + 2
    await world.env.advance_time(3)
    assert posts(world.env, world.chan.id) > before + 2
    new = [t for t in texts(world.chan) if "Waiting for" in t]
    assert len(new) == 1  # delivered once


async def test_a_channel_message_fails_after_max_attempts_and_the_gm_is_told(
    world: World,
) -> None:
    await open_campaign(world)
    before = posts(world.env, world.chan.id)
    world.env.inject_error("POST", f"/channels/{world.chan.id}/messages", status=500,
                           times=None)
    await world.gm.slash(world.chan, "campaign start")
    await world.env.advance_time(3600)
    assert posts(world.env, world.chan.id) - before == MAX_ATTEMPTS  # then it stopped
    gm = [t for t in dm_texts(world.gm) if "could not post" in t]
    assert len(gm) == 1 and "**Dice Cup**" in gm[0] and f"<#{world.chan.id}>" in gm[0]
    # the players' DMs were not held back by the failing channel
    assert any("Guess the roll" in t for t in dm_texts(world.alice))
    rows = await world.env.bot.service.db.fetchall(
        "SELECT status, attempts FROM outbox WHERE kind = 'channel' ORDER BY id")
    assert rows[-1]["status"] == "failed" and rows[-1]["attempts"] == MAX_ATTEMPTS
    await world.env.advance_time(3 * 3600)
    assert posts(world.env, world.chan.id) - before == MAX_ATTEMPTS  # nothing more
    assert len([t for t in dm_texts(world.gm) if "could not post" in t]) == 1


@pytest.mark.parametrize(("status", "code"), [(403, 50013), (404, 10003)])
async def test_a_refused_channel_fails_at_once_and_the_gm_is_told(
    world: World, status: int, code: int
) -> None:
    await open_campaign(world)
    before = posts(world.env, world.chan.id)
    world.env.inject_error("POST", f"/channels/{world.chan.id}/messages", status=status,
                           code=code, times=1)
    await world.gm.slash(world.chan, "campaign start")
    await world.env.advance_time(600)
    gm = [t for t in dm_texts(world.gm) if "could not post" in t]
    assert len(gm) == 1 and "Discord refused it" in gm[0]
    # one refused try of the start message and no second one: it is not coming back
    assert posts(world.env, world.chan.id) - before == 1
    assert not any("Waiting for" in t for t in texts(world.chan))
    assert any("Guess the roll" in t for t in dm_texts(world.alice))


async def test_a_failed_dm_is_noticed_without_its_content(world: World) -> None:
    await open_campaign(world)
    dm = world.alice.user.dm_channel.id
    before = posts(world.env, dm)  # her welcome DM at join
    world.env.inject_error("POST", f"/channels/{dm}/messages", status=503, times=None)
    await world.gm.slash(world.chan, "campaign start")
    await world.env.advance_time(3600)
    channel = [t for t in texts(world.chan) if "could not deliver" in t]
    assert channel == [
        "I could not deliver a direct message to alice: Discord kept refusing it, so I "
        "stopped trying. Use /orders here to see and give your orders, and /campaign "
        "status for the game."]
    gm = [t for t in dm_texts(world.gm) if "could not be delivered" in t]
    assert len(gm) == 1 and "alice" in gm[0]
    # what the DM said (the panel's prompt) reached nobody else
    assert not any("Guess the roll" in t for t in texts(world.chan) + dm_texts(world.gm))
    assert any("Guess the roll" in t for t in dm_texts(world.bob))  # Bob's DM went out
    assert posts(world.env, dm) - before == MAX_ATTEMPTS  # her panel DM, then no more


async def test_a_restart_keeps_the_retry_count_and_sends_nothing_twice(
    world: World, db_path: Path
) -> None:
    await open_campaign(world)
    before = posts(world.env, world.chan.id)
    world.env.inject_error("POST", f"/channels/{world.chan.id}/messages", status=503, times=2)
    await world.gm.slash(world.chan, "campaign start")
    await world.env.settle()
    await world.env.restart_bot(configured_bot(db_path))
    await world.env.advance_time(BASE + 1)
    await world.env.restart_bot(configured_bot(db_path))
    await world.env.advance_time(600)
    assert len([t for t in texts(world.chan) if "Waiting for" in t]) == 1
    assert posts(world.env, world.chan.id) - before == 3  # two refused, then once
    rows = await world.env.bot.service.db.fetchall(
        "SELECT attempts FROM outbox WHERE kind = 'channel' ORDER BY id DESC LIMIT 1")
    assert rows[0]["attempts"] == 3  # the count survived both restarts


async def test_a_long_message_cut_off_midway_goes_on_where_it_stopped(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord takes the first piece of an overlong message and refuses the second: the
    retry posts the second piece only, never the first again."""
    await open_campaign(world)
    first, second = await post_in_two_pieces_failing_the_second(world, monkeypatch)
    await world.env.advance_time(600)
    assert texts(world.chan).count(first) == 1 and texts(world.chan).count(second) == 1
