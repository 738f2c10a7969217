"""A graceful stop (P-38): once the bot is asked to stop, a new action is refused with a
plain word, the one under way finishes, the messages already due are sent, and the database
closes with nothing left in its write-ahead log."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

from bot.campaign import Actor
from bot.campaign.stopping import STOPPING
from tests.cogs.simworld import World, texts


async def until(condition, what: str) -> None:  # noqa: ANN001 (a plain predicate)
    # bounded by the clock, not by loop turns: the database's worker thread may need a while
    # on a busy machine (200 turns were not always enough in the whole suite)
    end = time.monotonic() + 10
    while time.monotonic() < end:
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError(f"never happened: {what}")


async def test_p38_a_stop_finishes_the_action_under_way_and_refuses_new_ones(
    world: World, db_path: Path
) -> None:
    w = world
    bot = w.env.bot
    await w.gm.slash(w.chan, "campaign create", ruleset="guess", name="Cup")
    await w.env.settle()
    service = bot.service
    campaign_id = await service.campaign_in_channel(w.chan.id)
    async with service._locks.hold(campaign_id):  # alice's join waits inside its intent
        joining = asyncio.create_task(service.join(Actor(w.alice.user.id, "alice"), w.chan.id))
        await until(lambda: service.intents.running == 1, "alice's join under way")
        closing = asyncio.create_task(bot.close())
        await until(lambda: service.intents.closing, "the stop begun")
        refused = await w.bob.slash(w.chan, "campaign join")
        assert refused.ephemeral and refused.response.content == STOPPING
        assert not closing.done()  # waits for alice's join
    await closing
    assert joining.done() and joining.result().seat == 1
    assert bot.db is None and bot.is_closed()
    # alice's join was committed and its message sent before the database closed
    assert any("alice" in t and "joins" in t for t in texts(w.chan)), texts(w.chan)
    with sqlite3.connect(db_path) as conn:
        unsent = conn.execute("SELECT COUNT(*) FROM outbox WHERE status != 'sent'").fetchone()
        seats = conn.execute("SELECT COUNT(*) FROM players").fetchone()
    assert unsent == (0,) and seats == (1,)
    assert not Path(f"{db_path}-wal").exists() or Path(f"{db_path}-wal").stat().st_size == 0
