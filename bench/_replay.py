"""The reference for submit.py: the service's own writer running the service's own statements.

``Recorder`` wraps ``storage.db.Database.transaction`` and the ``Tx`` methods while the service
runs, and keeps every committed transaction's calls (SQL, parameters, ``must_change``) in
commit order, tagged with the submission that made it (a context variable set by the
caller). ``replay`` sends the same calls, in the same order, through ``db.transaction()`` of a
fresh copy of the same starting database: the same rows, the same state JSON, the same
indexes, the same writer thread and round trips, so the difference to the service is
everything else it does (rules, validation, JSON, pictures, messages). Because the order and
the starting file are the same, every INSERT gets the same row id as it did for the service;
``replay`` counts any that does not (a sign the copy diverged).
"""

from __future__ import annotations

import contextvars
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from storage.db import Database, Tx

SAMPLE: contextvars.ContextVar[Any] = contextvars.ContextVar("bench_sample", default=None)
_WRAPPED = ("execute", "executemany", "insert", "changed", "fetchall", "fetchone")


@dataclass
class Call:
    method: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    rowid: int | None = None


@dataclass
class Group:
    """One committed transaction."""

    sample: Any
    calls: list[Call] = field(default_factory=list)


class Recorder:
    """``with Recorder() as rec:`` records every transaction committed meanwhile."""

    def __init__(self) -> None:
        self.groups: list[Group] = []
        self._saved: dict[str, Any] = {}

    def __enter__(self) -> Recorder:
        recorder = self
        original_tx = Database.transaction
        self._saved["transaction"] = original_tx

        @asynccontextmanager
        async def transaction(db: Database) -> AsyncIterator[Tx]:
            group = Group(SAMPLE.get())
            async with original_tx(db) as tx:
                tx._bench_calls = group.calls  # type: ignore[attr-defined]
                tx._bench_depth = 0  # type: ignore[attr-defined]
                yield tx
            # after COMMIT and before any other task runs: the list is in commit order
            recorder.groups.append(group)

        Database.transaction = transaction  # type: ignore[method-assign]
        for name in _WRAPPED:
            self._saved[name] = getattr(Tx, name)
            setattr(Tx, name, _recording(name, self._saved[name]))
        return self

    def __exit__(self, *exc: object) -> None:
        for name, fn in self._saved.items():
            setattr(Database if name == "transaction" else Tx, name, fn)


def _recording(name: str, fn: Any) -> Any:
    async def wrapper(tx: Tx, *args: Any, **kwargs: Any) -> Any:
        calls = getattr(tx, "_bench_calls", None)
        if calls is None or tx._bench_depth:  # type: ignore[attr-defined]
            return await fn(tx, *args, **kwargs)  # a call made inside a recorded one
        if name == "executemany":  # a generator would be used up by the first run
            args = (args[0], [tuple(r) for r in args[1]], *args[2:])
        call = Call(name, args, kwargs)
        calls.append(call)
        tx._bench_depth += 1  # type: ignore[attr-defined]
        try:
            result = await fn(tx, *args, **kwargs)
        finally:
            tx._bench_depth -= 1  # type: ignore[attr-defined]
        if name == "insert":
            call.rowid = result
        return result

    return wrapper


@dataclass
class Replayed:
    ends: dict[Any, float]  # sample -> perf_counter when its last transaction committed
    starts: dict[Any, float]  # sample -> perf_counter when its first transaction began
    diverged: int


async def replay(db: Database, groups: list[Group],
                 offered: dict[Any, float] | None = None) -> Replayed:
    """Replays the transactions in order; with ``offered`` (sample -> perf_counter) a
    sample's transactions wait until that moment (paced load), else they run back to back."""
    import asyncio

    ends: dict[Any, float] = {}
    starts: dict[Any, float] = {}
    diverged = 0
    for group in groups:
        if offered is not None and group.sample in offered:
            delay = offered[group.sample] - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
        starts.setdefault(group.sample, time.perf_counter())
        async with db.transaction() as tx:
            for call in group.calls:
                # the same statements without the service's optimistic checks: a version or
                # outbox-id check recorded in one copy need not hold in another (the
                # reference measures the writes, not the service's retry)
                kwargs = {k: v for k, v in call.kwargs.items() if k != "must_change"}
                result = await getattr(tx, call.method)(*call.args, **kwargs)
                if call.method == "insert" and result != call.rowid:
                    diverged += 1
        ends[group.sample] = time.perf_counter()
    return Replayed(ends, starts, diverged)
