"""Shared by the bench scripts: percentiles, interleaved rounds, ratio lines, loop-lag probe.

Every figure a script prints is measured next to a reference taken in the same run: the two
are run in alternating order (A B, then B A, ...) so that drift (other processes, a warming
cache, the CPU clock) hits both alike, and each is reported by its minimum (the least
disturbed run) and its median (the typical one).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as `python bench/x.py` from the repository root
    sys.path.insert(0, str(ROOT))

T = TypeVar("T")


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) by nearest rank; nan for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f} ms"


def spread(values: list[float]) -> str:
    """``min .. median`` of a list of seconds, for one side of a ratio line."""
    return f"min {ms(min(values))}, median {ms(statistics.median(values))}"


def ratio_line(label: str, measured: list[float], reference: list[float], ref_name: str) -> str:
    """One line: both sides' min and median and the two ratios measured / reference."""
    r_min = min(measured) / min(reference) if min(reference) else float("inf")
    med_ref = statistics.median(reference)
    r_med = statistics.median(measured) / med_ref if med_ref else float("inf")
    return (f"{label}: {spread(measured)} (n={len(measured)}); {ref_name}: {spread(reference)}"
            f" (n={len(reference)}); ratio min {r_min:.2f}x, median {r_med:.2f}x")


def latency_line(label: str, values: list[float]) -> str:
    return (f"{label}: p50 {ms(pct(values, 0.5))}, p99 {ms(pct(values, 0.99))}, "
            f"max {ms(max(values))} (n={len(values)})")


async def interleave(
    repeats: int,
    measured: Callable[[], Awaitable[list[float]]],
    reference: Callable[[], Awaitable[list[float]]],
) -> tuple[list[float], list[float]]:
    """Runs both ``repeats`` times, alternating which goes first; returns all samples."""
    a: list[float] = []
    b: list[float] = []
    for i in range(repeats):
        if i % 2 == 0:
            a += await measured()
            b += await reference()
        else:
            b += await reference()
            a += await measured()
    return a, b


def timed(fn: Callable[[], T]) -> tuple[float, T]:
    began = time.perf_counter()
    result = fn()
    return time.perf_counter() - began, result


class LoopLagProbe:
    """A task that sleeps 1 ms in a loop and records how late each wake-up came: while the
    event loop runs something that does not yield (a render, a long rules call), every other
    coroutine in the bot waits that long too."""

    TICK = 0.001

    def __init__(self) -> None:
        self.lags: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            began = time.perf_counter()
            await asyncio.sleep(self.TICK)
            self.lags.append(max(0.0, time.perf_counter() - began - self.TICK))

    async def __aenter__(self) -> LoopLagProbe:
        self._task = asyncio.ensure_future(self._run())
        await asyncio.sleep(0)  # let it take its first tick
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
