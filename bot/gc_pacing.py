"""When the garbage collector's full collections run: between intents, not inside one
(issue 17 item 9).

A full collection walks every object the collector tracks, and a bot with large campaigns in
its cache holds many: a 200-group FTCamp state is about 3,700 of them, so forty such campaigns
made a 70-130 ms pause and a hundred one of 135-220 ms (bench/submit.py). CPython's default
starts one after ten young (generation 1) collections, about every forty resolutions of such
campaigns, inside whichever intent allocates at that moment: that pause was the paced p99.

So the bot freezes what it loaded at start (it lives as long as the process), makes the
automatic full collection ten times rarer, and runs one itself where it delays nobody: when
the outbox loop has sent everything and no intent is under way, once the young collections
since the last full one reach CPython's own count, at most once per ``QUIET_EVERY`` seconds.
The rarer automatic one stays as the bound on garbage kept by a bot that is never at rest.
Young collections stay as CPython makes them: short and frequent."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

AUTOMATIC_FULL_AFTER = 100  # young collections between automatic full ones (CPython: 10)
QUIET_FULL_AFTER = 10  # ... before a full collection at rest (CPython's own count)
QUIET_EVERY = 30.0  # seconds: at most one full collection at rest in that time

_installed = 0
_saved: tuple[int, int, int] | None = None


def freeze_startup_objects() -> bool:
    """Moves everything alive now (modules, cogs, command tree, rule tables) out of the GC's
    reach: those objects live as long as the process, and rescanning them in every full
    collection cost 30-45 ms pauses in bench/. Only the first bot of a process freezes (tests
    start many bots in one process; freezing again would pin each test's garbage)."""
    if gc.get_freeze_count() > 0:
        return False
    gc.collect()
    gc.freeze()
    return True


def install() -> None:
    """The rarer automatic full collection, for this process until the last ``uninstall``
    (a process may run several bots one after another: tests, restarts)."""
    global _installed, _saved
    if _installed == 0:
        _saved = gc.get_threshold()
        young, middle, _ = _saved
        gc.set_threshold(young, middle, AUTOMATIC_FULL_AFTER)
    _installed += 1


def uninstall() -> None:
    """The thresholds as they were before the first ``install``."""
    global _installed, _saved
    if _installed == 0:
        return
    _installed -= 1
    if _installed == 0 and _saved is not None:
        gc.set_threshold(*_saved)
        _saved = None


class QuietCollector:
    """Runs the full collection at rest (``at_rest``), when it is due."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 every: float = QUIET_EVERY) -> None:
        self._clock = clock
        self.every = every
        self._last: float | None = None
        self.collections = 0  # full collections run here (the tests read it)

    def due(self) -> bool:
        if gc.get_count()[2] < QUIET_FULL_AFTER:  # young collections since the last full
            return False
        return self._last is None or self._clock() - self._last >= self.every

    def at_rest(self, intents_running: int) -> bool:
        """Called where the bot has nothing left to do for now; a full collection when one
        is due and no intent is under way. True when it collected."""
        if intents_running or not self.due():
            return False
        gc.collect()
        self._last = self._clock()
        self.collections += 1
        return True
