"""Outbox rows keep their order, their picture requests and their retry bookkeeping; files
go once the message is sent or failed (issue 9.3), also in databases from before."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from storage import open_database
from storage import outbox as repo
from storage.db import migrations
from storage.outbox import NewMessage, Picture

MAP = Picture("map.png", "orbits", "map", {"names": {"1": "Alice"}, "areas": [1, 2]})


async def test_order_picture_requests_and_retry_bookkeeping(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "bot.db")
    try:
        async with db.transaction() as tx:
            await repo.enqueue(tx, [
                NewMessage(None, "channel", "one", channel_id=5),
                NewMessage(None, "dm", "two", user_id=9, pictures=[MAP, Picture("b.png", "x", "y",
                                                                            {})],
                           panel=(3, 4, 1)),
                NewMessage(None, "channel", "three", channel_id=6),
            ], now=100.0)
        rows = await repo.due(db, 100.0, 10)
        assert [r.content for r in rows] == ["one", "two", "three"]
        assert rows[1].pictures == [MAP, Picture("b.png", "x", "y", {})]
        assert rows[1].panel == (3, 4, 1) and rows[0].panel is None
        async with db.transaction() as tx:
            await repo.mark_sent(tx, rows[0].id, 777)
            await repo.mark_retry(tx, rows[1].id, "HTTP 503", 130.0)
            assert await repo.mark_failed(tx, rows[2].id, "HTTP 403")
            assert not await repo.mark_failed(tx, rows[2].id, "again")  # not pending any more
        assert await repo.due(db, 129.0, 10) == []
        assert [r.content for r in await repo.due(db, 130.0, 10)] == ["two"]
        after = {r.content: r for r in await repo.all_rows(db)}
        assert after["one"].status == "sent" and after["one"].discord_message_id == 777
        assert after["two"].attempts == 1 and after["two"].last_error == "HTTP 503"
        assert after["three"].status == "failed" and after["three"].last_error == "HTTP 403"
        assert await repo.next_attempt(db) == 130.0
    finally:
        await db.close()


async def test_a_waiting_message_holds_back_only_its_own_destination(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "bot.db")
    try:
        async with db.transaction() as tx:
            await repo.enqueue(tx, [
                NewMessage(None, "channel", "reveal", channel_id=5),
                NewMessage(None, "dm", "panel", user_id=9),
                NewMessage(None, "channel", "next step", channel_id=5),
                NewMessage(None, "dm", "news", user_id=10),
            ], now=100.0)
        heads = await repo.due(db, 100.0, 10)
        assert [r.content for r in heads] == ["reveal", "panel", "news"]
        async with db.transaction() as tx:
            await repo.mark_retry(tx, heads[0].id, "HTTP 429", 160.0)
            for row in heads[1:]:
                await repo.mark_sent(tx, row.id, None)
        # "next step" is due, but the reveal before it waits: nothing may overtake it
        assert await repo.due(db, 150.0, 10) == []
        assert await repo.next_attempt(db) == 160.0
        async with db.transaction() as tx:
            await repo.mark_sent(tx, heads[0].id, 1)
        assert [r.content for r in await repo.due(db, 160.0, 10)] == ["next step"]
    finally:
        await db.close()


async def test_sent_and_failed_messages_keep_no_files(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "bot.db")
    try:
        async with db.transaction() as tx:
            await tx.execute(
                "INSERT INTO campaigns (id, guild_id, channel_id, ruleset, name, gm_user_id,"
                " seed, created_at, updated_at) VALUES (7, 1, 5, 'orbits', 'C', 1, 1, 0, 0)"
            )
            await repo.enqueue(tx, [
                NewMessage(None, "channel", "a", channel_id=5, pictures=[MAP]),
                NewMessage(None, "channel", "b", channel_id=6, pictures=[MAP]),
                NewMessage(7, "dm", "c", user_id=9, pictures=[MAP]),
            ], now=1.0)
        assert (await db.fetchone("SELECT COUNT(*) FROM outbox_files"))[0] == 3
        a, b, c = await repo.due(db, 1.0, 10)
        async with db.transaction() as tx:
            await repo.mark_sent(tx, a.id, 1)
            await repo.mark_failed(tx, b.id, "HTTP 404")
            await repo.drop_pending_panels(tx, 7, 9)
        assert (await db.fetchone("SELECT COUNT(*) FROM outbox_files"))[0] == 0
    finally:
        await db.close()


async def test_migration_003_drops_files_of_sent_messages_and_keeps_pending_ones(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    for _number, sql in migrations()[:2]:
        conn.executescript(sql)
    conn.executescript(
        "CREATE TABLE schema_version (version INTEGER NOT NULL);"
        "INSERT INTO schema_version VALUES (2);"
        "INSERT INTO outbox (id, kind, channel_id, content, status, next_attempt_at, created_at)"
        " VALUES (1, 'channel', 5, 'old', 'sent', 0, 0), (2, 'channel', 5, 'new', 'pending', 0, 0),"
        " (3, 'channel', 5, 'gave up', 'failed', 0, 0);"
        "INSERT INTO outbox_files VALUES (1, 0, 'map.png', x'89504e47'),"
        " (2, 0, 'map.png', x'89504e4732'), (3, 0, 'map.png', x'00');"
    )
    conn.commit()
    conn.close()
    db = await open_database(path)
    try:
        assert await db.schema_version() >= 3
        rows = {r.id: r for r in await repo.all_rows(db)}
        assert rows[1].pictures == [] and rows[3].pictures == []
        # drawn before the upgrade, not sent yet: it still goes out with its picture
        assert rows[2].pictures == [Picture("map.png", data=b"\x89PNG2")]
        assert [r.content for r in await repo.due(db, 0.0, 10)] == ["new"]
    finally:
        await db.close()


async def test_embeds_are_kept_with_their_message_until_it_is_sent(tmp_path: Path) -> None:
    """Migration 005: a channel message's embeds survive in the outbox (a restart between
    commit and send loses nothing), beside the picture they show."""
    embed = {"title": "Battle at Orbit 3", "description": "", "footer": "Fight it out.",
             "fields": [{"name": "Bob, attack", "value": "7♦", "inline": True}],
             "image": "map.png"}
    db = await open_database(tmp_path / "bot.db")
    try:
        async with db.transaction() as tx:
            await repo.enqueue(tx, [
                NewMessage(None, "channel", "", channel_id=5, pictures=[MAP], embeds=[embed]),
                NewMessage(None, "channel", "plain", channel_id=5),
            ], now=100.0)
    finally:
        await db.close()
    db = await open_database(tmp_path / "bot.db")  # as after a restart
    try:
        first, second = await repo.all_rows(db)
        assert first.embeds == [embed] and first.pictures == [MAP] and first.content == ""
        assert second.embeds == []
    finally:
        await db.close()
