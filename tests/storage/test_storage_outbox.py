"""Outbox rows keep their order, their files and their retry bookkeeping."""

from __future__ import annotations

from pathlib import Path

from storage import open_database
from storage import outbox as repo
from storage.outbox import NewMessage


async def test_order_files_and_retry_bookkeeping(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "bot.db")
    try:
        async with db.transaction() as tx:
            await repo.enqueue(tx, [
                NewMessage(None, "channel", "one", channel_id=5),
                NewMessage(None, "dm", "two", user_id=9, files=[("a.png", b"\x89PNG1"),
                                                                ("b.png", b"\x89PNG2")],
                           panel=(3, 4, 1)),
                NewMessage(None, "channel", "three", channel_id=5),
            ], now=100.0)
        rows = await repo.due(db, 100.0, 10)
        assert [r.content for r in rows] == ["one", "two", "three"]
        assert rows[1].files == [("a.png", b"\x89PNG1"), ("b.png", b"\x89PNG2")]
        assert rows[1].panel == (3, 4, 1) and rows[0].panel is None
        async with db.transaction() as tx:
            await repo.mark_sent(tx, rows[0].id, 777)
            await repo.mark_retry(tx, rows[1].id, "HTTP 503", 100.0)
            await repo.mark_failed(tx, rows[2].id, "HTTP 403")
        assert await repo.due(db, 100.0, 10) == []
        assert [r.content for r in await repo.due(db, 100.0 + repo.BACKOFF[0], 10)] == ["two"]
        after = {r.content: r for r in await repo.all_rows(db)}
        assert after["one"].status == "sent" and after["one"].discord_message_id == 777
        assert after["two"].attempts == 1 and after["two"].last_error == "HTTP 503"
        assert after["three"].status == "failed"
        assert await repo.next_attempt(db) == 100.0 + repo.BACKOFF[0]
    finally:
        await db.close()
