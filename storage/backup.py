"""``python -m bot backup`` and ``restore``: a consistent copy of the database, and its way back.

A backup goes through SQLite's online backup API in one step: it reads one snapshot of the
database (with WAL the running bot keeps writing meanwhile) and writes a single self-contained
file, checked with ``integrity_check`` before it takes FILE's name (P-39).

A restore checks the backup first (a readable SQLite file, ``integrity_check`` ok, an Admiralty
database, a schema this code knows) and then copies it, with the same backup API, into the
database while it holds SQLite's exclusive lock on it: no other connection may have the
database open, so a running bot is refused rather than left with a database changed under its
caches. The database it replaces is kept next to it first (P-39).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from storage.db import code_version
from storage.health import SQLITE_NOTADB

# Tables every Admiralty database has from its first migration on: a file without them is some
# other program's SQLite database.
ADMIRALTY_TABLES = frozenset({"schema_version", "campaigns", "players", "events", "outbox"})


class BackupRefused(Exception):
    """A backup or restore that did nothing; the message says why, for the admin."""


@dataclass(frozen=True)
class BackupResult:
    path: Path
    schema: int
    size: int


@dataclass(frozen=True)
class RestoreResult:
    database: Path
    schema: int
    kept: Path | None  # where the database it replaced was saved; None if there was none


def _open_existing(path: Path, *, read_only: bool) -> sqlite3.Connection:
    """A connection to a file that must already exist (``mode=ro``/``rw`` never create one)."""
    mode = "ro" if read_only else "rw"
    return sqlite3.connect(
        f"{path.resolve().as_uri()}?mode={mode}", uri=True, isolation_level=None, timeout=5
    )


def _problem(conn: sqlite3.Connection, *, full: bool) -> str | None:
    """Why this is not a sound Admiralty database this code may open, or None."""
    try:
        rows = conn.execute("PRAGMA integrity_check" if full else "PRAGMA quick_check").fetchall()
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except sqlite3.DatabaseError as exc:
        if getattr(exc, "sqlite_errorcode", 0) & 0xFF == SQLITE_NOTADB:
            return "it is not an SQLite database"
        return f"it is damaged ({exc})"
    verdict = [str(r[0]) for r in rows]
    if verdict != ["ok"]:
        found = "; ".join(line for v in verdict for line in v.splitlines() if "***" not in line)
        return "it fails SQLite's integrity check: " + _shorten(found)
    if not tables:
        return "it is an empty SQLite database, not an Admiralty one"
    missing = ADMIRALTY_TABLES - tables
    if missing:
        return (
            "it is an SQLite database, but not an Admiralty one (no "
            + ", ".join(sorted(missing))
            + " table)"
        )
    return None


def _shorten(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _schema(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT version FROM schema_version").fetchone()
    return int(row[0]) if row else 0


def _check_file(path: Path, what: str) -> None:
    if not path.exists():
        raise BackupRefused(f"{path}: no such file ({what}).")
    if path.is_dir():
        raise BackupRefused(f"{path} is a folder, not a database file ({what}).")


def check_backup(path: Path) -> int:
    """The schema version of a backup fit to restore; else ``BackupRefused`` with the reason."""
    _check_file(path, "the backup to restore")
    try:
        conn = _open_existing(path, read_only=True)
    except sqlite3.Error as exc:
        raise BackupRefused(f"{path} cannot be opened: {exc}.") from exc
    with closing(conn):
        problem = _problem(conn, full=True)
        if problem:
            raise BackupRefused(f"{path} cannot be restored: {problem}. Nothing was changed.")
        schema = _schema(conn)
    known = code_version()
    if schema > known:
        raise BackupRefused(
            f"{path} cannot be restored: it has schema version {schema}, but this version of "
            f"the bot only knows up to {known} (it was made by a newer bot). Upgrade the bot "
            "first. Nothing was changed."
        )
    return schema


def backup(database: Path, target: Path) -> BackupResult:
    """Copies ``database`` (the bot may be running) into the new file ``target``."""
    _check_file(database, "the database to back up; the bot creates it on its first start")
    if target.exists():
        raise BackupRefused(f"{target} already exists; give the backup a new name.")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    try:
        source = _open_existing(database, read_only=True)
    except sqlite3.Error as exc:
        raise BackupRefused(f"{database} cannot be opened: {exc}.") from exc
    try:
        with closing(source):
            problem = _problem(source, full=False)
            if problem:
                raise BackupRefused(f"{database} was not backed up: {problem}.")
            partial.unlink(missing_ok=True)  # left by a backup that was killed
            with closing(sqlite3.connect(partial, isolation_level=None)) as copy:
                # one step (pages=-1): one read snapshot, however much the bot writes meanwhile
                source.backup(copy, pages=-1)
                # the copy is one file, without a -wal beside it, and is checked before use
                copy.execute("PRAGMA journal_mode = DELETE").fetchall()
                problem = _problem(copy, full=True)
                if problem:
                    raise BackupRefused(f"the copy of {database} is not sound: {problem}.")
                schema = _schema(copy)
        os.replace(partial, target)
    except sqlite3.Error as exc:
        raise BackupRefused(f"{database} was not backed up: {exc}.") from exc
    finally:
        partial.unlink(missing_ok=True)
    return BackupResult(target, schema, target.stat().st_size)


def _lock_exclusively(database: Path) -> sqlite3.Connection:
    """A connection holding the database's exclusive lock; refuses while anything has it open.

    In WAL mode every open connection (the bot's, a second bot's, an sqlite3 shell) holds a
    shared lock, so the exclusive one is only granted when none is open."""
    conn = _open_existing(database, read_only=False)
    conn.execute("PRAGMA busy_timeout = 0")
    try:
        conn.execute("PRAGMA locking_mode = EXCLUSIVE").fetchall()
        conn.execute("BEGIN EXCLUSIVE")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchall()
        conn.execute("COMMIT")  # in EXCLUSIVE locking mode the lock stays after the commit
    except sqlite3.OperationalError as exc:
        conn.close()
        if "locked" in str(exc) or "busy" in str(exc):
            raise BackupRefused(
                f"{database} is in use (is the bot running?). Stop the bot first, e.g. "
                "`sudo systemctl stop admiralty`, then restore again. Nothing was changed."
            ) from exc
        raise
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise BackupRefused(
            f"{database} cannot be read ({exc}), so it is not replaced: move it aside "
            f"(`mv {database} {database}.damaged`) and restore again. Nothing was changed."
        ) from exc
    return conn


def restore(
    source: Path, database: Path, *, now: Callable[[], datetime] = lambda: datetime.now(UTC)
) -> RestoreResult:
    """Puts the checked backup ``source`` in place of ``database`` (the bot must be stopped)."""
    schema = check_backup(source)
    if database.exists() and source.resolve() == database.resolve():
        raise BackupRefused(f"{source} is the database itself. Nothing was changed.")
    database.parent.mkdir(parents=True, exist_ok=True)
    kept: Path | None = None
    try:
        existed = database.exists()
        target = (
            _lock_exclusively(database)
            if existed
            else sqlite3.connect(database, isolation_level=None)
        )
        with closing(target):
            if existed:
                stamp = now().strftime("%Y%m%dT%H%M%SZ")
                kept = database.with_name(f"{database.name}.before-restore-{stamp}")
                with closing(sqlite3.connect(kept, isolation_level=None)) as saved:
                    target.backup(saved, pages=-1)
                    saved.execute("PRAGMA journal_mode = DELETE").fetchall()
            with closing(_open_existing(source, read_only=True)) as backup_conn:
                backup_conn.backup(target, pages=-1)
            problem = _problem(target, full=False)
            if problem:  # not seen in practice: the backup API copies pages verbatim
                raise BackupRefused(f"{database} after the restore: {problem}.")
    except sqlite3.Error as exc:
        raise BackupRefused(f"{source} was not restored into {database}: {exc}.") from exc
    return RestoreResult(database, schema, kept)
