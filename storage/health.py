"""When the database file itself fails: damaged, not a database, disk full, I/O error.

SQLite reports these as bare ``sqlite3`` errors ("disk I/O error") that the layers above
cannot tell from a bug. They become typed ``StorageError``s: a ``UserError``, so a player sees
one plain sentence (the transaction was rolled back: nothing changed), and logged once at
ERROR, with the file's path, for the admin who must fix the disk.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from bot.errors import UserError

log = logging.getLogger(__name__)

# Primary result codes (https://sqlite.org/rescode.html); extended codes keep them in the low byte.
SQLITE_READONLY = 8
SQLITE_IOERR = 10
SQLITE_CORRUPT = 11
SQLITE_FULL = 13
SQLITE_CANTOPEN = 14
SQLITE_NOTADB = 26


class StorageError(UserError):
    """The database file failed. ``message`` is for users; ``detail`` is for the admin."""

    user_text = "The bot's storage failed, so nothing was changed; the bot's admin has been told."

    def __init__(self, detail: str) -> None:
        super().__init__(self.user_text)
        self.detail = detail

    def __str__(self) -> str:
        return self.detail


class DatabaseDamaged(StorageError):
    """The file is not an SQLite database, or ``PRAGMA quick_check`` found damage."""

    user_text = (
        "The bot's database is damaged, so nothing was changed; the bot's admin has been told."
    )


class StorageFull(StorageError):
    """SQLITE_FULL: the disk (or the database's page limit) is full."""

    user_text = "The bot's storage is full, so nothing was changed; the bot's admin has been told."


class StorageIOError(StorageError):
    """SQLITE_IOERR: the operating system refused a read or write (often a full disk too)."""

    user_text = (
        "The bot could not write to its storage (a disk error), so nothing was changed; "
        "the bot's admin has been told."
    )


def damaged(path: Path, what: str) -> DatabaseDamaged:
    return DatabaseDamaged(
        f"Database {path} is damaged ({what}). Stop the bot, restore it from a backup, or try "
        f'`sqlite3 {path} ".recover"` into a new file.'
    )


def typed(exc: sqlite3.Error, path: Path) -> StorageError | None:
    """The StorageError for a failure of the file itself; None for anything else (a bug)."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    if code == SQLITE_NOTADB:
        return DatabaseDamaged(
            f"{path} is not an SQLite database (or its first page is damaged); point "
            "database_path (or --db) at the bot's database file."
        )
    if code == SQLITE_CORRUPT:
        return damaged(path, str(exc))
    if code == SQLITE_FULL:
        return StorageFull(f"Database {path}: the disk is full ({exc}); free some space.")
    if code in (SQLITE_CANTOPEN, SQLITE_READONLY):
        return StorageIOError(
            f"Database {path}: {exc}; check the path is a file (not a folder) that the bot's "
            "user may read and write, in a folder it may write."
        )
    if code == SQLITE_IOERR:
        return StorageIOError(
            f"Database {path}: disk I/O error ({getattr(exc, 'sqlite_errorname', exc)}); "
            "check the disk is mounted, writable and not full."
        )
    return None


class Reporter:
    """Logs each kind of storage failure once at ERROR until the database works again, so a
    full disk under a busy bot is one log line, not one per click."""

    def __init__(self) -> None:
        self._reported: set[type[StorageError]] = set()

    def report(self, error: StorageError) -> None:
        if type(error) not in self._reported:
            self._reported.add(type(error))
            log.error("%s", error.detail)

    def recovered(self) -> None:
        if self._reported:
            self._reported.clear()
            log.warning("the database works again")


def check_verdict(rows: list[str], path: Path) -> None:
    """The answer of ``PRAGMA quick_check`` (every page read, without the slow index
    cross-checks): a damaged file is refused when opened instead of failing at the first query
    that touches the bad page."""
    if rows != ["ok"]:
        shown = "; ".join(str(r) for r in rows[:3]) + ("; ..." if len(rows) > 3 else "")
        raise damaged(path, shown)
