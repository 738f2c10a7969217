"""Outbox EDITS (issue 10.1): a step tracker's later versions are rows that edit the message
its first post sent. They keep their place in that channel's queue, several unsent ones
become the latest, they survive a restart, and a re-post (the message was gone) is recorded
for the edits after it."""

from __future__ import annotations

from pathlib import Path

from bot.campaign import CampaignService
from storage import Database, open_database
from storage import outbox as repo
from storage.outbox import NewMessage
from tests.campaign.conftest import FakeClock

CHAN = 700


async def queue(db: Database, *messages: NewMessage, now: float) -> None:
    async with db.transaction() as tx:
        await repo.enqueue(tx, list(messages), now)


def post(text: str) -> NewMessage:
    return NewMessage(None, "channel", text, channel_id=CHAN)


def edit(of: int, text: str) -> NewMessage:
    return NewMessage(None, "channel", text, channel_id=CHAN, edit_of=of)


async def test_unsent_edits_of_one_message_become_the_latest(db: Database) -> None:
    await queue(db, post("tracker v1"), now=0)
    [original] = await repo.all_rows(db)
    await queue(db, edit(original.id, "tracker v2"), post("a result"), now=1)
    await queue(db, edit(original.id, "tracker v3"), now=2)
    rows = await repo.all_rows(db)
    # v2 is gone; v3 takes the end of the queue, after the result posted meanwhile
    assert [(r.content, r.edit_of) for r in rows] == [
        ("tracker v1", None), ("a result", None), ("tracker v3", original.id)]


async def test_a_tracker_edited_many_times_keeps_one_sent_edit(
    db: Database, clock: FakeClock
) -> None:
    """Issue 9: storage stays bounded. Each edit is the whole text again, so the ones already
    sent are history nobody reads; a new edit replaces them."""
    service = CampaignService(db, clock=clock)
    await queue(db, post("tracker v1"), now=0)
    [original] = await repo.all_rows(db)
    await service.outbox_sent(original.id, 555)
    for n in range(2, 40):
        await queue(db, edit(original.id, f"tracker v{n}"), now=n)
        [pending] = await service.outbox_pending(10)
        await service.outbox_sent(pending.id, 555)
    rows = await repo.all_rows(db)
    assert [(r.content, r.status) for r in rows] == [
        ("tracker v1", "sent"), ("tracker v39", "sent")]


async def test_an_edit_waits_for_its_original_and_survives_a_restart(
    db: Database, db_path: Path, clock: FakeClock
) -> None:
    service = CampaignService(db, clock=clock)
    await queue(db, post("tracker v1"), now=0)
    [original] = await repo.all_rows(db)
    await queue(db, edit(original.id, "tracker v2"), now=0)
    # the bot stops before anything was sent; after the restart the original goes first
    reopened = await open_database(db_path)
    try:
        again = CampaignService(reopened, clock=clock)
        [head] = await again.outbox_pending(10)
        assert head.id == original.id and head.edit_of is None
        await again.outbox_sent(head.id, 555)
        [next_one] = await again.outbox_pending(10)
        assert (next_one.content, next_one.edit_of, next_one.target_message_id) == (
            "tracker v2", original.id, 555)
        await again.outbox_sent(next_one.id, 555)
        assert await again.outbox_pending(10) == []
    finally:
        await reopened.close()
    assert service.db is db


async def test_a_re_post_is_where_the_later_edits_go(db: Database, clock: FakeClock) -> None:
    service = CampaignService(db, clock=clock)
    await queue(db, post("tracker v1"), now=0)
    [original] = await repo.all_rows(db)
    await service.outbox_sent(original.id, 555)
    await queue(db, edit(original.id, "tracker v2"), now=0)
    [first] = await service.outbox_pending(10)
    assert first.target_message_id == 555
    # the message was deleted: the dispatcher posted v2 anew as message 777
    await service.outbox_sent(first.id, 777)
    await queue(db, edit(original.id, "tracker v3"), now=0)
    [second] = await service.outbox_pending(10)
    assert second.target_message_id == 777


async def test_a_coalesced_edit_keeps_the_backoff_and_the_tries(
    db: Database, clock: FakeClock
) -> None:
    service = CampaignService(db, clock=clock)
    await queue(db, post("tracker v1"), now=clock.now.timestamp())
    [original] = await repo.all_rows(db)
    await service.outbox_sent(original.id, 555)
    await queue(db, edit(original.id, "tracker v2"), now=clock.now.timestamp())
    [first] = await service.outbox_pending(10)
    at = await service.outbox_retry_later(first.id, "HTTP 429")  # rate limited
    assert at is not None and at > clock.now.timestamp()
    await queue(db, edit(original.id, "tracker v3"), now=clock.now.timestamp())
    assert await service.outbox_pending(10) == []  # still waiting out the rate limit
    [row] = [r for r in await repo.all_rows(db) if r.edit_of]
    assert (row.content, row.attempts, row.next_attempt_at) == ("tracker v3", 1, at)
