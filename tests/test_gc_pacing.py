"""Full garbage collections between intents, not inside one (bot/gc_pacing.py, issue 17
item 9): the rarer automatic full collection while a bot runs, the thresholds as they were
after it, a full collection at rest only when due, and start-up objects frozen once (a
running bot's: tests/cogs/test_foundation_client.py)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from bot import gc_pacing


@pytest.fixture
def thresholds(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[int, int, int]]:
    """The process's thresholds, as if no bot had installed its pacing; restored after."""
    before = gc.get_threshold()
    monkeypatch.setattr(gc_pacing, "_installed", 0)
    monkeypatch.setattr(gc_pacing, "_saved", None)
    yield before
    gc.set_threshold(*before)


def young_collections(n: int) -> None:
    """``n`` generation-1 collections: each counts towards the next full one."""
    for _ in range(n):
        gc.collect(1)


def test_install_makes_the_automatic_full_collection_rarer_until_the_last_uninstall(
        thresholds: tuple[int, int, int]) -> None:
    gc.set_threshold(700, 10, 10)
    gc_pacing.install()
    assert gc.get_threshold() == (700, 10, gc_pacing.AUTOMATIC_FULL_AFTER)
    gc_pacing.install()  # a second bot in the process
    gc_pacing.uninstall()
    assert gc.get_threshold() == (700, 10, gc_pacing.AUTOMATIC_FULL_AFTER)
    gc_pacing.uninstall()
    assert gc.get_threshold() == (700, 10, 10)
    gc_pacing.uninstall()  # one too many changes nothing
    assert gc.get_threshold() == (700, 10, 10)


def test_a_full_collection_at_rest_runs_only_when_due_and_nobody_is_at_work() -> None:
    now = [100.0]
    collector = gc_pacing.QuietCollector(clock=lambda: now[0], every=30.0)
    gc.collect()  # no young collection since this full one: nothing due
    assert not collector.at_rest(0)
    young_collections(gc_pacing.QUIET_FULL_AFTER)
    assert collector.due()
    assert not collector.at_rest(1)  # an intent under way: it waits
    assert collector.at_rest(0) and collector.collections == 1
    assert gc.get_count()[2] == 0  # that was a full collection
    young_collections(gc_pacing.QUIET_FULL_AFTER)
    now[0] += 29.0  # due by count, but one ran less than ``every`` ago
    assert not collector.at_rest(0)
    now[0] += 1.0
    assert collector.at_rest(0) and collector.collections == 2


def test_start_up_objects_are_frozen_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    frozen = {"count": 0}
    monkeypatch.setattr(gc, "get_freeze_count", lambda: frozen["count"])
    monkeypatch.setattr(gc, "collect", lambda *a: calls.append("collect") or 0)

    def freeze() -> None:
        calls.append("freeze")
        frozen["count"] = 1000

    monkeypatch.setattr(gc, "freeze", freeze)
    assert gc_pacing.freeze_startup_objects() is True
    assert calls == ["collect", "freeze"]  # collect first: garbage is not frozen
    # A second bot in the same process (tests, a restart) leaves the GC alone.
    assert gc_pacing.freeze_startup_objects() is False
    assert calls == ["collect", "freeze"]
