"""Bounded in-memory keeping for the service: an LRU of loaded campaigns, per-campaign locks."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Generic, TypeVar

V = TypeVar("V")


class LruCache(Generic[V]):
    """At most ``size`` entries by id; ``get`` and ``put`` make an entry the most recently used
    and ``put`` drops the least recently used one beyond the size. The one LRU of the bot (loaded
    campaigns, drawn pictures, last refusals): keep it only for what may be made again (read,
    drawn) or forgotten."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"cache size must be >= 1, got {size}")
        self.size = size
        self._entries: OrderedDict[int, V] = OrderedDict()

    def get(self, key: int) -> V | None:
        value = self._entries.get(key)
        if value is not None:
            self._entries.move_to_end(key)
        return value

    def put(self, key: int, value: V) -> None:
        self._entries[key] = value
        self._entries.move_to_end(key)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)

    def pop(self, key: int, default: V | None = None) -> V | None:
        return self._entries.pop(key, default)

    def clear(self) -> None:
        self._entries.clear()

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def keys(self) -> list[int]:
        """Least recently used first."""
        return list(self._entries)


class _Held:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0  # holding it or waiting for it


class KeyedLocks:
    """One asyncio lock per campaign, alive only while some coroutine holds or waits for it.

    A lock nobody holds or waits for protects nothing, so it is dropped and the next user gets
    a fresh one; counting waiters too (not just ``locked()``) matters: between a release and
    the next waiter taking the lock, ``locked()`` is False, and a new lock then would let two
    intents of one campaign run at once."""

    def __init__(self) -> None:
        self._held: dict[int, _Held] = {}

    @asynccontextmanager
    async def hold(self, key: int) -> AsyncIterator[None]:
        held = self._held.get(key)
        if held is None:
            held = self._held[key] = _Held()
        held.users += 1
        try:
            async with held.lock:
                yield
        finally:
            held.users -= 1
            if held.users == 0:
                del self._held[key]

    def busy(self, key: int) -> bool:
        """Some coroutine holds or waits for the key's lock (an intent is under way)."""
        return key in self._held

    def __len__(self) -> int:
        return len(self._held)
