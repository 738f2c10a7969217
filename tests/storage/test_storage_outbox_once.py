"""Outbox ids are never reused and a sent-mark names its row (migration 008, P-33)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from storage import db as db_module
from storage import migrate, open_database
from storage import outbox as repo
from storage.db import migrations
from storage.outbox import NewMessage

CHANNEL = 700


def msg(text: str, edit_of: int | None = None, mentions: list[int] | None = None) -> NewMessage:
    return NewMessage(None, "channel", text, channel_id=CHANNEL, edit_of=edit_of,
                      mentions=mentions or [])


async def test_a_superseded_edit_never_lends_its_id_and_its_mark_marks_nothing(
    tmp_path: Path,
) -> None:
    db = await open_database(tmp_path / "a.db")
    try:
        async with db.transaction() as tx:
            original = await repo.enqueue_one(tx, msg("tracker"), 0)
            await repo.mark_sent(tx, original, 777)
            older = await repo.enqueue_one(tx, msg("Waiting for Bob, Carol", original), 0)
        (being_sent,) = await repo.due(db, 1, 10)
        assert being_sent.id == older
        async with db.transaction() as tx:  # a newer edit replaces the pending one
            newer = await repo.enqueue_one(tx, msg("Waiting for Carol", original), 0)
        assert newer > older  # the highest id was deleted, and still not given again
        async with db.transaction() as tx:  # the older send comes back from Discord
            assert not await repo.mark_sent(tx, being_sent.id, 777, being_sent.edit_of)
        (due,) = await repo.due(db, 1, 10)
        assert (due.id, due.content, due.status) == (newer, "Waiting for Carol", "pending")
        assert due.nonce and due.nonce != being_sent.nonce and len(due.nonce) <= 20
    finally:
        await db.close()


async def test_ids_go_on_after_the_newest_rows_are_deleted(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "b.db")
    try:
        async with db.transaction() as tx:
            await repo.enqueue(tx, [msg("a"), msg("b"), msg("c", mentions=[5, 5, 3])], 0)
        rows = await repo.all_rows(db)
        assert rows[-1].mentions == [3, 5]  # stored once each
        async with db.transaction() as tx:
            await tx.execute("DELETE FROM outbox WHERE id >= ?", (rows[1].id,))
            await repo.enqueue(tx, [msg("d")], 0)
            # an insert that names no id (a tool, a test) moves the sequence on too
            await tx.execute(
                "INSERT INTO outbox (kind, channel_id, content, next_attempt_at, created_at)"
                " VALUES ('channel', 1, 'raw', 0, 0)")
            await repo.enqueue(tx, [msg("e")], 0)
        ids = [r.id for r in await repo.all_rows(db)]
        assert ids == [rows[0].id, rows[2].id + 1, rows[2].id + 2, rows[2].id + 3]
    finally:
        await db.close()


async def test_008_keeps_the_rows_and_starts_after_the_highest_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.db"
    with monkeypatch.context() as only_007:
        only_007.setattr(db_module, "migrations", lambda: migrations()[:7])
        assert await migrate(path) == (0, 7)
    conn = sqlite3.connect(path)
    conn.executemany(
        "INSERT INTO outbox (id, kind, channel_id, content, status, next_attempt_at,"
        " created_at) VALUES (?, 'channel', 1, ?, ?, 0, 0)",
        [(4, "sent one", "sent"), (9, "waiting", "pending")])
    conn.commit()
    conn.close()
    assert await migrate(path) == (7, len(migrations()))
    db = await open_database(path)
    try:
        rows = await repo.all_rows(db)
        assert [(r.id, r.content, r.status) for r in rows] == [
            (4, "sent one", "sent"), (9, "waiting", "pending")]
        assert rows[0].nonce is None and rows[1].nonce  # the waiting one got its nonce
        async with db.transaction() as tx:
            await tx.execute("DELETE FROM outbox WHERE id = 9")
            new = await repo.enqueue_one(tx, msg("after"), 0)
        assert new == 10
    finally:
        await db.close()


async def test_a_superseded_edit_that_posted_anew_still_records_the_new_post(
    tmp_path: Path,
) -> None:
    """The older edit found its message gone and posted it anew; a newer edit replaced it
    meanwhile. The new post's id still reaches the original, so the newer edit edits that
    post instead of posting a third copy."""
    db = await open_database(tmp_path / "c.db")
    try:
        async with db.transaction() as tx:
            original = await repo.enqueue_one(tx, msg("tracker"), 0)
            await repo.mark_sent(tx, original, 777)
            await repo.enqueue_one(tx, msg("v1", original), 0)
        (older,) = await repo.due(db, 1, 10)
        async with db.transaction() as tx:
            await repo.enqueue_one(tx, msg("v2", original), 0)
            assert not await repo.mark_sent(tx, older.id, 888, older.edit_of)
        (newer,) = await repo.due(db, 1, 10)
        assert newer.content == "v2" and newer.target_message_id == 888
    finally:
        await db.close()
