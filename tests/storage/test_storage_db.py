"""The SQLite layer: PRAGMAs, numbered migrations, transactions, the one-live-campaign index."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from storage import SchemaTooNew, code_version, migrate, open_database
from storage import db as db_module


async def test_migrates_an_empty_database_and_creates_the_folder(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "bot.db"
    db = await open_database(path)
    try:
        assert path.exists()
        assert await db.schema_version() == code_version() >= 1
        listed = await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
        tables = {r[0] for r in listed}
        assert {"campaigns", "players", "submissions", "drafts", "events", "snapshots", "outbox",
                "outbox_files", "deadlines", "reminders", "schema_version"} <= tables
    finally:
        await db.close()


async def test_pragmas_wal_foreign_keys_synchronous_busy_timeout(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "bot.db")
    try:
        assert await db.pragma("journal_mode") == "wal"
        assert await db.pragma("foreign_keys") == 1
        assert await db.pragma("synchronous") == 1  # NORMAL
        assert await db.pragma("busy_timeout") == db_module.BUSY_TIMEOUT_MS
        assert await db.writer_pragma("journal_mode") == "wal"
        assert await db.writer_pragma("foreign_keys") == 1
        assert await db.writer_pragma("synchronous") == 1
        with pytest.raises(sqlite3.IntegrityError):
            async with db.transaction() as tx:
                await tx.execute(
                    "INSERT INTO players (campaign_id, seat, user_id, name, joined_at)"
                    " VALUES (12345, 1, 1, 'x', 0)"
                )
    finally:
        await db.close()


async def test_migrate_reports_old_and_new_version(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    assert await migrate(path) == (0, code_version())
    assert await migrate(path) == (code_version(), code_version())


async def test_refuses_a_database_from_a_newer_bot(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    await migrate(path)
    async with aiosqlite.connect(path) as conn:
        await conn.execute("UPDATE schema_version SET version = 99")
        await conn.commit()
    with pytest.raises(SchemaTooNew) as err:
        await open_database(path)
    assert "99" in str(err.value) and str(code_version()) in str(err.value)
    with pytest.raises(SchemaTooNew):
        await migrate(path)


async def test_a_failing_migration_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "bot.db"
    await migrate(path)
    good = db_module.migrations()
    bad = "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);"
    monkeypatch.setattr(db_module, "migrations", lambda: [*good, (len(good) + 1, bad)])
    with pytest.raises(sqlite3.OperationalError):
        await migrate(path)
    monkeypatch.undo()
    db = await open_database(path)
    try:
        assert await db.schema_version() == len(good)
        assert await db.fetchone("SELECT name FROM sqlite_master WHERE name = 'half_done'") is None
    finally:
        await db.close()


async def test_transaction_rolls_back_on_error(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "bot.db")
    try:
        with pytest.raises(RuntimeError):
            async with db.transaction() as tx:
                await tx.execute(
                    "INSERT INTO outbox (kind, channel_id, content, next_attempt_at, created_at)"
                    " VALUES ('channel', 1, 'hi', 0, 0)"
                )
                raise RuntimeError("boom")
        assert await db.fetchall("SELECT * FROM outbox") == []
        async with db.transaction() as tx:
            await tx.execute(
                "INSERT INTO outbox (kind, channel_id, content, next_attempt_at, created_at)"
                " VALUES ('channel', 1, 'hi', 0, 0)"
            )
        assert len(await db.fetchall("SELECT * FROM outbox")) == 1
    finally:
        await db.close()


async def test_one_campaign_that_is_not_over_per_channel(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "bot.db")
    insert = (
        "INSERT INTO campaigns (guild_id, channel_id, ruleset, name, gm_user_id, seed, status,"
        " created_at, updated_at) VALUES (1, 7, 'guess', 'c', 1, 1, ?, 0, 0)"
    )
    try:
        async with db.transaction() as tx:
            await tx.execute(insert, ("ended",))
            await tx.execute(insert, ("running",))
        with pytest.raises(sqlite3.IntegrityError):
            async with db.transaction() as tx:
                await tx.execute(insert, ("setup",))
    finally:
        await db.close()


async def test_the_wal_is_checkpointed_off_the_writer_every_few_commits(tmp_path: Path) -> None:
    """The writer never checkpoints inside its COMMIT (wal_autocheckpoint 0: SQLite's own
    1000-page checkpoint ran there, one large resolution in ten); a PASSIVE checkpoint on a
    connection of its own follows every CHECKPOINT_EVERY commits, so the WAL stays bounded."""
    db = await open_database(tmp_path / "a.db")
    try:
        assert await db.writer_pragma("wal_autocheckpoint") == 0
        await db.checkpoint_done()
        assert db.checkpoints == []
        for i in range(db_module.CHECKPOINT_EVERY * 3):
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO schema_version (version) VALUES (?)", (1000 + i,))
                await tx.execute("DELETE FROM schema_version WHERE version = ?", (1000 + i,))
            await db.checkpoint_done()
        assert len(db.checkpoints) == 3
        busy, frames, moved = db.checkpoints[-1]
        assert busy == 0 and frames > 0 and moved == frames  # every frame back in the file
        (version,) = await db.fetchone("SELECT version FROM schema_version")
        assert version == code_version()
    finally:
        await db.close()
