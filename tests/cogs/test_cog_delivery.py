"""Delivery: closed DMs, rate limits, reminders and deadlines on virtual time, restarts."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cogs.conftest import new_bot
from tests.cogs.simworld import (
    World,
    custom_ids,
    dm_texts,
    last_dm,
    select_id,
    texts,
)
from tests.cogs.test_cog_lifecycle import guess, open_campaign, start

HOUR = 3600.0
CLOSED = "I can't DM you"


def close_dms(world: World, member_name: str) -> None:
    member = getattr(world, member_name)
    world.env.inject_error(
        "POST", f"/channels/{member.user.dm_channel.id}/messages", status=403, code=50007,
        message="Cannot send messages to this user", times=None,
    )


async def test_closed_dms_at_join_are_explained_and_panels_come_ephemerally(
    world: World,
) -> None:
    close_dms(world, "alice")
    await world.gm.slash(world.chan, "campaign create", ruleset="guess", name="Dice Cup")
    joined = await world.alice.slash(world.chan, "campaign join")
    assert joined.response.ephemeral
    assert any("alice joins" in t for t in texts(world.chan))  # announced to all
    warning = [f for f in joined.followups if CLOSED in f.content]
    assert len(warning) == 1 and warning[0].ephemeral
    assert "Allow direct messages from server members" in warning[0].content
    await world.bob.slash(world.chan, "campaign join")
    await world.gm.slash(world.chan, "campaign start")
    assert dm_texts(world.alice) == []  # nothing could be delivered
    # /orders in the channel gives her the panel, visible only to her.
    orders = await world.alice.slash(world.chan, "orders")
    panel = orders.response
    assert panel.ephemeral and "Guess the roll" in panel.content
    await world.alice.select(panel, ["3"], custom_id=select_id(panel))
    submitted = await world.alice.click(panel, label="Submit")
    assert "Your orders are in" in submitted.response.content
    assert not any("Guesses" in t for t in texts(world.chan))


async def test_a_dm_refused_later_is_marked_and_noticed_in_the_channel(world: World) -> None:
    await open_campaign(world)
    close_dms(world, "bob")
    await world.gm.slash(world.chan, "campaign start")
    channel = "\n".join(texts(world.chan))
    assert "/orders" in channel
    assert "50007" not in channel


async def test_rate_limited_messages_are_retried_and_sent_once(world: World) -> None:
    await open_campaign(world)
    before = len(world.chan.history())
    requests_before = len(world.env.http_requests)
    world.env.inject_error("POST", f"/channels/{world.chan.id}/messages", status=429, times=2)
    await world.gm.slash(world.chan, "campaign start")
    await world.env.advance_time(600)
    new = texts(world.chan)[before:]
    assert new, "nothing reached the channel"
    assert len(new) == len(set(new))  # no message twice
    posts = [r for r in world.env.http_requests[requests_before:]
             if r.method == "POST" and r.path == f"/channels/{world.chan.id}/messages"]
    assert len(posts) == len(new) + 2  # two refused attempts, then each message once


async def test_server_errors_are_retried_too(world: World) -> None:
    await open_campaign(world)
    world.env.inject_error("POST", f"/channels/{world.alice.user.dm_channel.id}/messages",
                           status=503, times=1)
    await world.gm.slash(world.chan, "campaign start")
    await world.env.advance_time(600)
    assert sum("Guess the roll" in t for t in dm_texts(world.alice)) == 1


async def test_reminders_go_to_late_players_only_then_the_deadline_resolves(
    world: World,
) -> None:
    await start(world)
    await guess(world, "alice", "4")
    alice_before = len(dm_texts(world.alice))
    bob_before = len(dm_texts(world.bob))
    await world.env.advance_time(36 * HOUR + 1)  # 12 hours before the 48-hour deadline
    assert len(dm_texts(world.bob)) == bob_before + 1
    assert len(dm_texts(world.alice)) == alice_before
    await world.env.advance_time(11 * HOUR)  # 1 hour before
    assert len(dm_texts(world.bob)) == bob_before + 2
    assert not any("Guesses" in t for t in texts(world.chan))
    await world.env.advance_time(HOUR)
    reveal = [t for t in texts(world.chan) if "Guesses" in t]
    assert len(reveal) == 1 and "alice 4" in reveal[0] and "bob 1" in reveal[0]
    await world.env.advance_time(HOUR)
    assert sum("Guesses" in t for t in texts(world.chan)) == 1


async def test_restart_keeps_panels_and_deadlines_and_sends_nothing_twice(
    world: World, db_path: Path
) -> None:
    await start(world)
    await guess(world, "alice", "4")
    bob_panel = last_dm(world.bob)
    channel_before = texts(world.chan)
    dms_before = (dm_texts(world.alice), dm_texts(world.bob))

    await world.env.restart_bot(new_bot(db_path))
    await world.env.settle()
    assert texts(world.chan) == channel_before
    assert (dm_texts(world.alice), dm_texts(world.bob)) == dms_before

    # Bob's panel from before the restart still works.
    assert custom_ids(bob_panel)
    await world.bob.user.select(bob_panel, ["5"], custom_id=select_id(bob_panel))
    await world.bob.user.click(last_dm(world.bob), label="Submit")
    reveal = [t for t in texts(world.chan) if "Guesses" in t]
    assert len(reveal) == 1 and "bob 5" in reveal[0]


async def test_a_deadline_due_during_downtime_fires_once_after_restart(
    world: World, db_path: Path
) -> None:
    await start(world)
    await world.env.advance_time(47 * HOUR)
    await world.env.restart_bot(new_bot(db_path))
    await world.env.advance_time(2 * HOUR)
    await world.env.restart_bot(new_bot(db_path))
    await world.env.settle()
    assert sum("Guesses" in t for t in texts(world.chan)) == 1


async def test_a_crashed_scheduler_starts_again_and_the_deadline_still_fires(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await start(world)
    service = world.env.bot.service
    real_run_due = service.run_due
    calls = 0

    async def flaky() -> None:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("scheduler hiccup")
        await real_run_due()

    monkeypatch.setattr(service, "run_due", flaky)
    world.expect_bug("scheduler hiccup")
    world.env.bot.wake_loops()  # the scheduler runs a pass now, and crashes
    await world.env.settle()
    assert calls == 1
    await world.env.advance_time(49 * HOUR)
    assert calls >= 2
    assert sum("Guesses" in t for t in texts(world.chan)) == 1
