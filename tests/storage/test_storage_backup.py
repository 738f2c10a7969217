"""Backup and restore (P-39): a consistent copy while the bot writes, a checked way back."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import pytest

from storage import code_version, migrate, open_database
from storage.backup import BackupRefused, backup, check_backup, restore

FIXED = datetime(2026, 5, 4, 3, 2, 1, tzinfo=UTC)


@contextmanager
def connect(path: Path) -> Iterator[sqlite3.Connection]:
    """A connection committed and closed at the end (sqlite3's own ``with`` leaves it open,
    and an open connection is a running bot to restore)."""
    conn = sqlite3.connect(path)
    try:
        with conn:
            yield conn
    finally:
        conn.close()


def make_db(path: Path, rows: int = 0) -> Path:
    """A migrated Admiralty database with a test table ``ledger`` of ``rows`` rows."""
    asyncio.run(migrate(path))
    with connect(path) as conn:
        conn.execute("CREATE TABLE ledger (id INTEGER PRIMARY KEY, amount INTEGER NOT NULL)")
        conn.executemany("INSERT INTO ledger (amount) VALUES (?)", [(1,)] * rows)
    return path


def ledger(path: Path) -> list[tuple[int, int]]:
    with connect(path) as conn:
        return conn.execute("SELECT id, amount FROM ledger ORDER BY id").fetchall()


def test_a_backup_taken_while_another_connection_writes_is_one_consistent_state(
    tmp_path: Path,
) -> None:
    """Each write transaction adds +n and -n: any committed state sums to 0. The writer keeps
    going during the backup (WAL) and the copy holds what was committed before it began."""
    live = make_db(tmp_path / "live.db")
    with connect(live) as conn:
        conn.execute("PRAGMA journal_mode = WAL")
        # enough rows that the copy is more than a few pages
        conn.executemany("INSERT INTO ledger (amount) VALUES (?)", [(5,), (-5,)] * 20000)
    stop = threading.Event()
    commits = [0]

    def writer() -> None:
        conn = sqlite3.connect(live, isolation_level=None, timeout=5)
        while not stop.is_set():
            conn.execute("BEGIN IMMEDIATE")
            n = commits[0] + 1
            conn.execute("INSERT INTO ledger (amount) VALUES (?)", (n,))
            conn.execute("INSERT INTO ledger (amount) VALUES (?)", (-n,))
            conn.execute("COMMIT")
            commits[0] = n
        conn.close()

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        while commits[0] < 50:
            time.sleep(0.01)
        before = commits[0]
        made = backup(live, tmp_path / "copy.db")
        # the writer was never blocked: it went on committing while the copy was taken
        while commits[0] < before + 50:
            time.sleep(0.01)
    finally:
        stop.set()
        thread.join()
    assert made.schema == code_version()
    assert not (tmp_path / "copy.db-wal").exists()  # one self-contained file
    with connect(made.path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        total, count = conn.execute("SELECT sum(amount), count(*) FROM ledger").fetchone()
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert total == 0  # never half a transaction
    # at least everything committed before the backup began (a raw copy of the main file
    # without its WAL would miss these), and not everything written since
    assert count >= 40000 + 2 * before
    assert count < len(ledger(live))


def test_round_trip_restores_the_backed_up_state_and_keeps_the_replaced_database(
    tmp_path: Path,
) -> None:
    live = make_db(tmp_path / "data" / "admiralty.db", rows=3)
    saved = backup(live, tmp_path / "backups" / "b.db")  # the folder is created
    with connect(live) as conn:
        conn.execute("DELETE FROM ledger WHERE id = 2")
        conn.execute("INSERT INTO ledger (amount) VALUES (99)")
    after_changes = ledger(live)

    done = restore(saved.path, live, now=lambda: FIXED)

    assert ledger(live) == [(1, 1), (2, 1), (3, 1)]
    assert done.schema == code_version()
    assert done.kept == live.with_name("admiralty.db.before-restore-20260504T030201Z")
    assert ledger(done.kept) == after_changes
    # the bot opens the restored database as usual
    db = asyncio.run(open_database(live))
    asyncio.run(db.close())


def test_restore_into_a_missing_database_creates_it(tmp_path: Path) -> None:
    saved = backup(make_db(tmp_path / "old.db", rows=2), tmp_path / "b.db")
    target = tmp_path / "new" / "admiralty.db"
    done = restore(saved.path, target)
    assert done.kept is None
    assert ledger(target) == [(1, 1), (2, 1)]


def test_restore_refuses_while_the_bot_has_the_database_open(tmp_path: Path) -> None:
    live = make_db(tmp_path / "live.db", rows=1)
    saved = backup(live, tmp_path / "b.db")
    with connect(live) as conn:
        conn.execute("INSERT INTO ledger (amount) VALUES (7)")

    async def while_running() -> str:
        db = await open_database(live)  # the bot's own storage, idle
        try:
            with pytest.raises(BackupRefused) as err:
                restore(saved.path, live)
            return str(err.value)
        finally:
            await db.close()

    message = asyncio.run(while_running())
    assert "in use (is the bot running?)" in message and "Stop the bot first" in message
    assert ledger(live) == [(1, 1), (2, 7)]  # nothing changed
    assert not list(tmp_path.glob("live.db.before-restore-*"))
    # once the bot is stopped, the same restore goes through
    restore(saved.path, live)
    assert ledger(live) == [(1, 1)]


def _refused(source: Path, live: Path) -> str:
    before = ledger(live)
    with pytest.raises(BackupRefused) as err:
        restore(source, live)
    assert ledger(live) == before
    assert not list(live.parent.glob("*.before-restore-*"))
    return str(err.value)


def test_restore_refuses_a_missing_file(tmp_path: Path) -> None:
    live = make_db(tmp_path / "live.db", rows=1)
    message = _refused(tmp_path / "nope.db", live)
    assert message == f"{tmp_path / 'nope.db'}: no such file (the backup to restore)."


def test_restore_refuses_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    live = make_db(tmp_path / "live.db", rows=1)
    text = tmp_path / "notes.txt"
    text.write_text("these are not the campaigns you are looking for\n" * 100)
    assert "it is not an SQLite database" in _refused(text, live)
    assert "is a folder" in _refused(tmp_path, live)


def test_restore_refuses_another_programs_database(tmp_path: Path) -> None:
    live = make_db(tmp_path / "live.db", rows=1)
    other = tmp_path / "other.db"
    with connect(other) as conn:
        conn.execute("CREATE TABLE campaigns (id INTEGER)")  # a name alone does not pass
    message = _refused(other, live)
    assert "not an Admiralty one" in message and "outbox" in message
    empty = tmp_path / "empty.db"
    empty.touch()
    assert "an empty SQLite database" in _refused(empty, live)


def test_restore_refuses_a_damaged_backup(tmp_path: Path) -> None:
    live = make_db(tmp_path / "live.db", rows=1)
    saved = backup(live, tmp_path / "b.db").path
    with connect(saved) as conn:
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'campaigns'")
        page = root.fetchone()[0]
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    with saved.open("r+b") as f:  # a leaf page header whose cells point off the page
        f.seek(size * (page - 1))
        f.write(b"\x0d\x00\x00\x00\x05\x0f\xf0\x00")
    message = _refused(saved, live)
    assert "fails SQLite's integrity check" in message or "it is damaged" in message


def test_restore_refuses_a_backup_from_a_newer_bot_with_the_versions(tmp_path: Path) -> None:
    live = make_db(tmp_path / "live.db", rows=1)
    saved = backup(live, tmp_path / "b.db").path
    with connect(saved) as conn:
        conn.execute("UPDATE schema_version SET version = ?", (code_version() + 1,))
    message = _refused(saved, live)
    assert f"schema version {code_version() + 1}" in message
    assert f"only knows up to {code_version()}" in message and "Upgrade the bot" in message
    with pytest.raises(BackupRefused):
        check_backup(saved)


def test_restore_refuses_to_replace_an_unreadable_database(tmp_path: Path) -> None:
    saved = backup(make_db(tmp_path / "good.db", rows=1), tmp_path / "b.db").path
    live = tmp_path / "live.db"
    live.write_bytes(b"garbage" * 1000)
    with pytest.raises(BackupRefused) as err:
        restore(saved, live)
    assert "move it aside" in str(err.value)
    assert live.read_bytes() == b"garbage" * 1000


def test_backup_refusals_write_nothing(tmp_path: Path) -> None:
    with pytest.raises(BackupRefused) as err:
        backup(tmp_path / "missing.db", tmp_path / "b.db")
    assert "no such file" in str(err.value) and "first start" in str(err.value)
    live = make_db(tmp_path / "live.db")
    taken = tmp_path / "taken.db"
    taken.write_text("keep me")
    with pytest.raises(BackupRefused) as err:
        backup(live, taken)
    assert "already exists" in str(err.value) and taken.read_text() == "keep me"
    other = tmp_path / "other.db"
    with connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    with pytest.raises(BackupRefused) as err:
        backup(other, tmp_path / "b.db")
    assert "not an Admiralty one" in str(err.value)
    assert not (tmp_path / "b.db").exists() and not (tmp_path / "b.db.partial").exists()
