"""The database file itself failing: damaged pages, not a database, a full disk.

Real SQLite files throughout: a page is overwritten on disk for the damage, and
``PRAGMA max_page_count`` (on the writer's connection) stands in for a full disk."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from bot.errors import UserError
from storage import DatabaseDamaged, StorageFull, migrate, open_database
from storage.db import Database

PAGE = 4096


def damaged_file(path: Path) -> int:
    """A migrated database with a table of ~40 pages, then one of its pages overwritten on
    disk; returns that page's number."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE filler (id INTEGER PRIMARY KEY, data TEXT)")
    conn.executemany("INSERT INTO filler (data) VALUES (?)", [("x" * 400,) for _ in range(400)])
    conn.commit()
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    conn.close()  # the last connection checkpoints the WAL into the file
    victim = pages // 2
    with path.open("r+b") as handle:
        handle.seek((victim - 1) * PAGE)
        handle.write(b"\xff" * 64)
    return victim


async def test_a_damaged_page_is_refused_when_the_database_opens(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    await migrate(path)
    damaged_file(path)
    with pytest.raises(DatabaseDamaged) as info:
        await open_database(path)
    detail = str(info.value)
    assert str(path) in detail and "damaged" in detail and "backup" in detail
    # what a user of a command would see: plain, no path, no SQLite words
    assert info.value.message.startswith("The bot's database is damaged")
    assert isinstance(info.value, UserError)
    with pytest.raises(DatabaseDamaged):
        await migrate(path)


async def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"these are my notes, not a database\n" * 200)
    with pytest.raises(DatabaseDamaged, match="is not an SQLite database"):
        await migrate(path)
    with pytest.raises(DatabaseDamaged, match="is not an SQLite database"):
        await open_database(path)
    # the file is left as it was
    assert path.read_bytes() == b"these are my notes, not a database\n" * 200


async def fill_to_the_limit(db: Database) -> None:
    """Caps the file at its current size and fills every free byte of a scratch table, as a
    full disk would leave it."""

    def fill(conn: sqlite3.Connection) -> None:
        conn.execute("CREATE TABLE IF NOT EXISTS scratch (data BLOB)")
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages + 2}")
        for size in (2000, 200, 20):
            try:
                while True:
                    conn.execute("INSERT INTO scratch VALUES (?)", (b"\0" * size,))
            except sqlite3.OperationalError as exc:
                assert "full" in str(exc)

    await db._writer.run(fill)


async def test_a_full_disk_is_a_typed_error_and_rolls_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = await open_database(tmp_path / "bot.db")
    try:
        await fill_to_the_limit(db)
        caplog.set_level(logging.ERROR, logger="storage")
        for _attempt in range(2):
            with pytest.raises(StorageFull) as info:
                async with db.transaction() as tx:
                    await tx.execute("INSERT INTO schema_version (version) VALUES (77)")
                    await tx.execute("INSERT INTO scratch VALUES (?)", (b"\0" * 50_000,))
            assert info.value.message == (
                "The bot's storage is full, so nothing was changed; the bot's admin has been told."
            )
        # nothing half-written: the first statement of the failed transaction is gone
        assert await db.fetchone("SELECT 1 FROM schema_version WHERE version = 77") is None
        errors = [r for r in caplog.records if r.levelno == logging.ERROR]
        assert len(errors) == 1 and "disk is full" in errors[0].getMessage()
        # the database still works for what fits
        async with db.transaction() as tx:
            await tx.execute("UPDATE schema_version SET version = version")
    finally:
        await db.close()
