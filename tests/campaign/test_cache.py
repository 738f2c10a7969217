"""The service's bounded keeping: the LRU of campaigns and the per-campaign locks."""

from __future__ import annotations

import asyncio

import pytest

from bot.campaign.cache import KeyedLocks, LruCache


def test_lru_drops_the_least_recently_used_beyond_its_size() -> None:
    cache: LruCache[str] = LruCache(2)
    cache.put(1, "a")
    cache.put(2, "b")
    assert cache.get(1) == "a"  # 1 is now the most recently used
    cache.put(3, "c")
    assert cache.keys() == [1, 3] and 2 not in cache and cache.get(2) is None
    cache.put(1, "a2")  # replacing refreshes too
    cache.put(4, "d")
    assert cache.keys() == [1, 4] and cache.get(1) == "a2"
    assert cache.pop(1) == "a2" and cache.pop(1) is None and len(cache) == 1


def test_lru_size_must_be_positive() -> None:
    with pytest.raises(ValueError, match=">= 1"):
        LruCache(0)


async def test_locks_serialise_one_key_and_are_dropped_when_unused() -> None:
    locks = KeyedLocks()
    inside: dict[int, list[int]] = {7: [], 8: []}
    overlaps: list[int] = []
    both_keys_at_once: list[bool] = []

    async def intent(n: int, key: int = 7) -> None:
        async with locks.hold(key):
            if inside[key]:
                overlaps.append(n)
            inside[key].append(n)
            await asyncio.sleep(0)
            both_keys_at_once.append(bool(inside[7] and inside[8]))
            inside[key].remove(n)

    await asyncio.gather(*(intent(n) for n in range(5)), intent(9, key=8))
    assert overlaps == [] and len(locks) == 0
    assert any(both_keys_at_once)  # another key's lock does not wait


async def test_a_lock_with_a_waiter_is_kept_between_release_and_wakeup() -> None:
    """Between a release and the next waiter taking the lock, ``locked()`` is False: a lock
    dropped then would let a newcomer run beside the woken waiter."""
    locks = KeyedLocks()
    order: list[str] = []
    first_in = asyncio.Event()
    release = asyncio.Event()

    async def first() -> None:
        async with locks.hold(1):
            first_in.set()
            await release.wait()
        order.append("first out")

    async def waiter() -> None:
        async with locks.hold(1):
            order.append("waiter in")
            await asyncio.sleep(0)
            order.append("waiter out")

    async def newcomer() -> None:
        async with locks.hold(1):
            order.append("newcomer in")

    a = asyncio.create_task(first())
    await first_in.wait()
    b = asyncio.create_task(waiter())
    await asyncio.sleep(0)  # the waiter is queued on the lock
    release.set()
    await asyncio.sleep(0)  # first releases; the waiter is woken but has not run yet
    c = asyncio.create_task(newcomer())
    await asyncio.gather(a, b, c)
    assert order.index("waiter out") < order.index("newcomer in")
    assert len(locks) == 0


async def test_a_cancelled_waiter_does_not_leak_its_lock() -> None:
    locks = KeyedLocks()
    held = asyncio.Event()
    done = asyncio.Event()

    async def holder() -> None:
        async with locks.hold(3):
            held.set()
            await done.wait()

    async def waiter() -> None:
        async with locks.hold(3):
            raise AssertionError("never gets the lock")

    h = asyncio.create_task(holder())
    await held.wait()
    w = asyncio.create_task(waiter())
    await asyncio.sleep(0)
    w.cancel()
    with pytest.raises(asyncio.CancelledError):
        await w
    done.set()
    await h
    assert len(locks) == 0
