"""The SQLite connection: PRAGMAs, numbered migrations, transactions.

One writer connection (all writes go through ``transaction()``, one at a time) and one reader
connection for display queries: with WAL the reader sees only committed data, so a status
display never shows half of another coroutine's open transaction.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

BUSY_TIMEOUT_MS = 5000
_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")

Row = sqlite3.Row


class SchemaTooNew(RuntimeError):
    """The database was written by a newer version of the bot than this one."""


def migrations() -> list[tuple[int, str]]:
    """The numbered migration scripts shipped in ``storage/migrations``, in order."""
    found: list[tuple[int, str]] = []
    for entry in resources.files("storage.migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.read_text(encoding="utf-8")))
    found.sort()
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"migrations must be numbered 001, 002, ... without gaps: {numbers}")
    return found


def code_version() -> int:
    return len(migrations())


async def _connect(path: Path) -> aiosqlite.Connection:
    # isolation_level=None: we issue BEGIN IMMEDIATE ourselves, so a writer takes the write
    # lock up front instead of failing to upgrade a read lock halfway through.
    conn = await aiosqlite.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
    conn.row_factory = sqlite3.Row
    await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    await conn.execute("PRAGMA journal_mode = WAL")
    await conn.execute("PRAGMA synchronous = NORMAL")
    await conn.execute("PRAGMA foreign_keys = ON")
    return conn


async def _schema_version(conn: aiosqlite.Connection) -> int:
    await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    rows = list(await conn.execute_fetchall("SELECT version FROM schema_version"))
    if not rows:
        await conn.execute("INSERT INTO schema_version (version) VALUES (0)")
        return 0
    return int(rows[0][0])


async def _migrate_conn(conn: aiosqlite.Connection, path: Path) -> tuple[int, int]:
    old = await _schema_version(conn)
    scripts = migrations()
    if old > len(scripts):
        raise SchemaTooNew(
            f"Database {path} has schema version {old}, but this version of the bot only knows "
            f"up to {len(scripts)}. Upgrade the bot; do not open the database with an older one."
        )
    for number, sql in scripts[old:]:
        # one transaction per migration: the schema change and its version number together
        script = f"BEGIN IMMEDIATE;\n{sql}\n;UPDATE schema_version SET version = {number};\nCOMMIT;"
        try:
            await conn.executescript(script)
        except sqlite3.Error:
            if conn.in_transaction:
                await conn.rollback()
            raise
    return old, len(scripts)


class Database:
    """A migrated database: ``transaction()`` for writes, ``fetchall``/``fetchone`` for reads."""

    def __init__(self, path: Path, writer: aiosqlite.Connection, reader: aiosqlite.Connection):
        self.path = path
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK when the block raises."""
        async with self._write_lock:
            await self._writer.execute("BEGIN IMMEDIATE")
            try:
                yield Tx(self._writer)
            except BaseException:
                await self._writer.rollback()
                raise
            await self._writer.commit()

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        return list(await self._reader.execute_fetchall(sql, tuple(params)))

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def pragma(self, name: str) -> Any:
        row = await self.fetchone(f"PRAGMA {name}")
        return row[0] if row else None

    async def schema_version(self) -> int:
        row = await self.fetchone("SELECT version FROM schema_version")
        return int(row[0]) if row else 0

    async def close(self) -> None:
        await self._reader.close()
        await self._writer.close()


class Tx:
    """The open write transaction handed to repositories."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    # The cursors below are not closed with ``await cursor.close()``: that would cost one
    # more round trip to the database thread per statement, and a finished statement's cursor
    # holds nothing (the garbage collector frees it).

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Runs one statement; returns the number of rows it changed."""
        cursor = await self._conn.execute(sql, tuple(params))
        return cursor.rowcount

    async def insert(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Runs an INSERT; returns the new rowid."""
        cursor = await self._conn.execute(sql, tuple(params))
        if cursor.lastrowid is None:
            raise RuntimeError("INSERT returned no row id")
        return cursor.lastrowid

    async def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        batch = [tuple(r) for r in rows]
        if len(batch) == 1:
            await self._conn.execute(sql, batch[0])
        elif batch:
            await self._conn.executemany(sql, batch)

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        return list(await self._conn.execute_fetchall(sql, tuple(params)))

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None


async def migrate(path: str | Path) -> tuple[int, int]:
    """Brings the database at ``path`` up to date; returns (old version, new version).

    For ``python -m bot migrate``: ``asyncio.run(migrate(path))``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = await _connect(path)
    try:
        return await _migrate_conn(conn, path)
    finally:
        await conn.close()


async def open_database(path: str | Path) -> Database:
    """Creates the folder, migrates, and returns the open database.

    Raises ``SchemaTooNew`` (naming both versions) for a database from a newer bot."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    writer = await _connect(path)
    try:
        await _migrate_conn(writer, path)
        reader = await _connect(path)
    except BaseException:
        await writer.close()
        raise
    return Database(path, writer, reader)
