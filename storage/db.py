"""The SQLite connection: PRAGMAs, numbered migrations, transactions.

Writes go through ``transaction()``, one at a time, on a writer connection owned by one
worker thread. A transaction's writes are queued and sent to that thread together with the
next read or with the COMMIT, so a typical intent (no reads: the service caches campaigns)
costs ONE round trip to the database thread: BEGIN IMMEDIATE, its statements, COMMIT. Displays
read through an aiosqlite connection of their own; with WAL it sees only committed data, so
a status display never shows half of another coroutine's open transaction.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from storage.health import Reporter, StorageError, check_verdict, typed

T = TypeVar("T")
log = logging.getLogger(__name__)
BUSY_TIMEOUT_MS = 5000
# a PASSIVE checkpoint of the WAL after this many commits (its size then: that many
# transactions' pages, about SQLite's own default of 1000 pages for a large campaign)
CHECKPOINT_EVERY = 16
_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")

Row = sqlite3.Row
# the table a write statement changes (``Tx.writes_to``)
_WRITTEN = re.compile(r"\s*(?:INSERT(?: OR \w+)? INTO|UPDATE|DELETE FROM)\s+(\w+)", re.I)


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


PRAGMAS = (
    f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = NORMAL",
    "PRAGMA foreign_keys = ON",
)


@contextmanager
def _typed_errors(path: Path, reporter: Reporter | None = None) -> Iterator[None]:
    """A failure of the file itself (damaged, full, I/O) as a StorageError; bugs stay as
    they are."""
    try:
        yield
    except sqlite3.Error as exc:
        error = typed(exc, path)
        if error is None:
            raise
        if reporter is not None:
            reporter.report(error)
        raise error from exc


async def _connect(path: Path) -> aiosqlite.Connection:
    """An aiosqlite connection (reads, migrations) with the house PRAGMAs."""
    # A file that cannot be opened is found by a plain sqlite3 connection first: aiosqlite's
    # failed connect leaves its thread to answer on a closed event loop (a stray traceback).
    await asyncio.to_thread(_probe, path)
    # isolation_level=None: transactions are explicit (BEGIN IMMEDIATE), never implicit
    conn = await aiosqlite.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
    try:
        conn.row_factory = sqlite3.Row
        with _typed_errors(path):
            for pragma in PRAGMAS:
                # fetched to the end: an unfinished statement would block a later COMMIT
                await conn.execute_fetchall(pragma)
    except BaseException:
        # an aiosqlite connection left open keeps its thread, and the process, alive
        await conn.close()
        raise
    return conn


def _probe(path: Path) -> None:
    with _typed_errors(path):
        sqlite3.connect(path).close()


def _connect_sync(path: Path) -> sqlite3.Connection:
    """The writer's connection, opened in (and only used by) the writer thread."""
    with _typed_errors(path):
        conn = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
    try:
        conn.row_factory = sqlite3.Row
        with _typed_errors(path):
            for pragma in PRAGMAS:
                conn.execute(pragma).fetchall()
            # the writer never checkpoints on its COMMIT (SQLite's automatic 1000-page
            # checkpoint made about one resolution in ten three times slower there): the
            # Database checkpoints from a connection of its own, off the writer's path
            conn.execute("PRAGMA wal_autocheckpoint = 0").fetchall()
    except BaseException:
        conn.close()
        raise
    return conn


async def _schema_version(conn: aiosqlite.Connection) -> int:
    await conn.execute_fetchall(
        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
    )
    rows = list(await conn.execute_fetchall("SELECT version FROM schema_version"))
    if not rows:
        await conn.execute_fetchall("INSERT INTO schema_version (version) VALUES (0)")
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


class _Writer:
    """One sqlite3 connection living in one worker thread: ``run`` sends it a function."""

    def __init__(self, executor: ThreadPoolExecutor, conn: sqlite3.Connection, path: Path) -> None:
        self._executor = executor
        self._conn = conn
        self.path = path
        self.reporter = Reporter()
        # round trips to the writer thread and the statements run there (bench/trips.py)
        self.trips = 0
        self.statements = 0

    def _count_statement(self, _sql: str) -> None:
        self.statements += 1

    @classmethod
    async def open(cls, path: Path) -> _Writer:
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="admiralty-db")
        loop = asyncio.get_running_loop()
        try:
            conn = await loop.run_in_executor(executor, _connect_sync, path)
        except BaseException:
            executor.shutdown(wait=False)
            raise
        writer = cls(executor, conn, path)
        # (the connection may be used in its own thread only)
        await loop.run_in_executor(executor, conn.set_trace_callback, writer._count_statement)
        return writer

    async def run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        loop = asyncio.get_running_loop()
        self.trips += 1
        with _typed_errors(self.path, self.reporter):
            return await loop.run_in_executor(self._executor, fn, self._conn)

    async def close(self) -> None:
        await self.run(lambda conn: conn.close())
        self._executor.shutdown(wait=True)


@dataclass
class _Op:
    sql: str
    params: Any  # a tuple, or a list of tuples for executemany
    many: bool = False
    must_change: Exception | None = None  # raised when the statement changes no row


def _run_ops(conn: sqlite3.Connection, begin: bool, ops: list[_Op]) -> None:
    if begin:
        conn.execute("BEGIN IMMEDIATE")
    for op in ops:
        if op.many:
            conn.executemany(op.sql, op.params)
            continue
        cursor = conn.execute(op.sql, op.params)
        if op.must_change is not None and cursor.rowcount < 1:
            raise op.must_change


class Database:
    """A migrated database: ``transaction()`` for writes, ``fetchall``/``fetchone`` for reads."""

    def __init__(self, path: Path, writer: _Writer, reader: aiosqlite.Connection) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()
        self._closed = False
        # what the writer's transactions remember between them (``Tx.memo``): as of the last
        # commit; dropped by a rollback, so nothing a failed transaction took is kept
        self._memo: dict[str, Any] = {}
        # the WAL is checkpointed every CHECKPOINT_EVERY commits by a PASSIVE checkpoint on
        # a connection of its own (it never waits for the writer nor the writer for it), so
        # the WAL stays bounded without a checkpoint inside a COMMIT
        self._commits_since_checkpoint = 0
        self._checkpointer: aiosqlite.Connection | None = None
        self._checkpoint: asyncio.Task[None] | None = None
        self.checkpoints: list[tuple[int, int, int]] = []  # (busy, frames, moved), latest last

    @property
    def writing(self) -> bool:
        """A write transaction is open (its lock is held): nothing slow may run now."""
        return self._write_lock.locked()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK when the block (or a queued write) fails."""
        async with self._write_lock:
            tx = Tx(self._writer, dict(self._memo))
            try:
                yield tx
                await tx.commit()
                self._memo = tx.memo
                self._committed()
            except BaseException:
                self._memo = {}
                try:
                    await tx.rollback()
                except StorageError:
                    # SQLite rolls back itself after a failed write of the file; the first
                    # error is the one to report
                    log.warning("rollback failed on %s", self.path)
                raise

    def _committed(self) -> None:
        self._commits_since_checkpoint += 1
        running = self._checkpoint is not None and not self._checkpoint.done()
        if self._commits_since_checkpoint >= CHECKPOINT_EVERY and not running:
            self._commits_since_checkpoint = 0
            self._checkpoint = asyncio.create_task(self._run_checkpoint())

    async def _run_checkpoint(self) -> None:
        try:
            if self._checkpointer is None:
                self._checkpointer = await _connect(self.path)
            rows = await self._checkpointer.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
            busy, frames, moved = (int(v) for v in tuple(rows[0]))
            self.checkpoints = [*self.checkpoints[-9:], (busy, frames, moved)]
        except Exception:  # noqa: BLE001 (the next one tries again; SQLite keeps the WAL)
            log.warning("WAL checkpoint failed on %s", self.path, exc_info=True)

    async def checkpoint_done(self) -> None:
        """Waits for a checkpoint under way (tests, close)."""
        if self._checkpoint is not None:
            await self._checkpoint

    def writer_counts(self) -> tuple[int, int]:
        """Round trips to the writer thread and statements it ran, since the database was
        opened (each trip is about 100 us of thread hand-over: bench/trips.py counts them)."""
        return self._writer.trips, self._writer.statements

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        with _typed_errors(self.path, self._writer.reporter):
            return list(await self._reader.execute_fetchall(sql, tuple(params)))

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def pragma(self, name: str) -> Any:
        row = await self.fetchone(f"PRAGMA {name}")
        return row[0] if row else None

    async def writer_pragma(self, name: str) -> Any:
        """A PRAGMA as the writer connection sees it (tests check both connections)."""
        return await self._writer.run(lambda conn: conn.execute(f"PRAGMA {name}").fetchone()[0])

    async def schema_version(self) -> int:
        row = await self.fetchone("SELECT version FROM schema_version")
        return int(row[0]) if row else 0

    async def close(self) -> None:
        """Close both connections; a second call does nothing."""
        if self._closed:
            return
        self._closed = True
        await self.checkpoint_done()
        if self._checkpointer is not None:
            await self._checkpointer.close()
        await self._reader.close()
        await self._writer.close()


class Tx:
    """The open write transaction handed to repositories.

    ``execute``/``executemany`` are queued and run, in order, before the next read, insert or
    ``changed`` (which need an answer) or at COMMIT; errors of queued statements surface
    there and roll the whole transaction back."""

    def __init__(self, writer: _Writer, memo: dict[str, Any] | None = None) -> None:
        self._writer = writer
        self._ops: list[_Op] = []
        self._begun = False
        # kept for the next transaction once this one commits (storage/outbox.py: the highest
        # outbox id given, so ids are taken without a trip); ``local``: this one's own
        self.memo: dict[str, Any] = memo if memo is not None else {}
        self.local: dict[str, Any] = {}
        self._written: dict[str, int] = {}  # write statements per table (``writes_to``)

    async def execute(
        self, sql: str, params: Iterable[Any] = (), *, must_change: Exception | None = None
    ) -> None:
        """Queues one statement; ``must_change`` is raised if it changes no row."""
        self.queue(sql, params, must_change=must_change)

    async def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        self.queue_many(sql, rows)

    def queue(self, sql: str, params: Iterable[Any] = (), *,
              must_change: Exception | None = None) -> None:
        """``execute`` for code that does not await: the statement only joins the queue."""
        self._note_write(sql)
        self._ops.append(_Op(sql, tuple(params), must_change=must_change))

    def queue_many(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        self._note_write(sql)
        batch = [tuple(r) for r in rows]
        if len(batch) == 1:
            self._ops.append(_Op(sql, batch[0]))
        elif batch:
            self._ops.append(_Op(sql, batch, many=True))

    def _note_write(self, sql: str) -> None:
        match = _WRITTEN.match(sql)
        if match:
            table = match.group(1).lower()
            self._written[table] = self._written.get(table, 0) + 1

    def writes_to(self, table: str) -> int:
        """How many write statements to ``table`` this transaction made so far (a copy of
        rows read earlier in it is still true while this stays the same)."""
        return self._written.get(table, 0)

    async def run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """One trip: the queued writes, then ``fn`` on the writer's connection (several
        reads at once: storage/intent_rows.py)."""
        return await self._now(fn)

    async def changed(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Runs one statement now; returns the number of rows it changed."""
        self._note_write(sql)
        return await self._now(lambda conn: conn.execute(sql, tuple(params)).rowcount)

    async def insert(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Runs an INSERT now; returns the new rowid."""
        self._note_write(sql)
        rowid = await self._now(lambda conn: conn.execute(sql, tuple(params)).lastrowid)
        if rowid is None:
            raise RuntimeError("INSERT returned no row id")
        return rowid

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        return await self._now(lambda conn: conn.execute(sql, tuple(params)).fetchall())

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def _now(self, then: Callable[[sqlite3.Connection], T]) -> T:
        """One trip to the writer thread: BEGIN if not yet, the queued writes, then ``then``."""
        begin, ops = not self._begun, self._ops
        self._begun, self._ops = True, []

        def trip(conn: sqlite3.Connection) -> T:
            _run_ops(conn, begin, ops)
            return then(conn)

        return await self._writer.run(trip)

    async def commit(self) -> None:
        if not self._begun and not self._ops:
            return  # nothing was read or written
        await self._now(lambda conn: conn.execute("COMMIT"))
        self._writer.reporter.recovered()

    async def rollback(self) -> None:
        self._ops = []
        if self._begun:
            await self._writer.run(_rollback)


def _rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        conn.execute("ROLLBACK")


async def migrate(path: str | Path) -> tuple[int, int]:
    """Brings the database at ``path`` up to date; returns (old version, new version).

    For ``python -m bot migrate``: ``asyncio.run(migrate(path))``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = await _connect(path)
    try:
        with _typed_errors(path):
            rows = await conn.execute_fetchall("PRAGMA quick_check")
            check_verdict([str(r[0]) for r in rows], path)
            return await _migrate_conn(conn, path)
    finally:
        await conn.close()


async def open_database(path: str | Path) -> Database:
    """Creates the folder, migrates, and returns the open database.

    Raises ``SchemaTooNew`` (naming both versions) for a database from a newer bot, and
    ``DatabaseDamaged`` for a file that is not a database or fails ``PRAGMA quick_check``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    await migrate(path)
    writer = await _Writer.open(path)
    try:
        reader = await _connect(path)
    except BaseException:
        await writer.close()
        raise
    return Database(path, writer, reader)
