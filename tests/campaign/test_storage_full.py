"""A full disk during an intent (issue 8): the player gets a plain refusal, the admin one
ERROR line, and nothing of the intent is written. ``PRAGMA max_page_count`` on the writer's
connection stands in for the disk."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from bot.campaign import Actor, CampaignService
from storage import Database, StorageFull
from tests.campaign.conftest import ALICE, BOB, CAROL, guess, started

PLAYERS = (ALICE, BOB, CAROL)


async def cap_file(db: Database, extra_pages: int) -> None:
    def cap(conn: sqlite3.Connection) -> None:
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages + extra_pages}")

    await db._writer.run(cap)


async def committed(db: Database, campaign_id: int) -> tuple[object, ...]:
    row = await db.fetchone("SELECT state, version, step_no FROM campaigns WHERE id = ?",
                            (campaign_id,))
    assert row is not None
    counts = [await db.fetchone(f"SELECT COUNT(*) FROM {t}")
              for t in ("events", "outbox", "submissions", "snapshots")]
    return (row[0], row[1], row[2], *[c[0] for c in counts if c is not None])


async def next_move(
    service: CampaignService, campaign_id: int
) -> tuple[Actor, int, dict[str, str]]:
    """Some seat's open request and a legal answer: a guess, or passing the bank turn."""
    for player in PLAYERS:
        for panel in await service.panels_for(campaign_id, player.user_id):
            if panel.submitted is None:
                kind = panel.request.actions[0].type
                action = guess(1 + panel.seat) if kind == "guess" else {"type": "pass"}
                return player, panel.step_no, action
    raise AssertionError("nobody is asked")


async def test_a_full_disk_refuses_the_intent_and_writes_none_of_it(
    service: CampaignService, db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    info = await started(service, *PLAYERS, target=20)
    await cap_file(db, 0)
    caplog.set_level(logging.ERROR)
    moves = 0
    while True:  # the file's free space runs out after some moves
        assert moves < 500, "the capped file never filled up"
        player, step, action = await next_move(service, info.id)
        before = await committed(db, info.id)
        try:
            await service.submit(player, info.id, step, action)
        except StorageFull as exc:
            assert exc.message == ("The bot's storage is full, so nothing was changed; the "
                                   "bot's admin has been told.")
            break
        moves += 1
    assert moves > 0, moves  # some moves fitted in the file's free space
    assert await committed(db, info.id) == before  # nothing half-written
    # trying again is refused the same way, and logs nothing more: one line for the admin
    with pytest.raises(StorageFull):
        await service.submit(player, info.id, step, action)
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and "the disk is full" in errors[0].getMessage()
    assert str(db.path) in errors[0].getMessage()
    assert await committed(db, info.id) == before
    # space again (the admin cleaned up): the same move goes through and the game goes on
    await cap_file(db, 10_000)
    await service.submit(player, info.id, step, action)
    assert await committed(db, info.id) != before
    player, step, action = await next_move(service, info.id)
    await service.submit(player, info.id, step, action)
