"""Benchmark: sealed submissions through CampaignService against a raw aiosqlite loop.

    .venv/bin/python bench/submit.py [--campaigns 200] [--players 6]

Creates and starts the campaigns through the service on a SQLite file in a temp folder, then
sends every seat's sealed order at once (asyncio.gather) and prints submissions/s and the
latency percentiles. In a burst the latency is mostly queueing (every order waits for the
one write connection), so it also prints the time each submission held the database and the
latency under a paced load (orders arriving at half the burst throughput, like real
traffic spread out). Last, a raw aiosqlite insert-and-commit loop of the same count with
the same PRAGMAs, and the ratio of the two throughputs.

The rule set is the tests' "guess" with room for six seats; every sixth submission completes
its campaign's step and so also resolves it (rules, events, a PNG, the next step's panels).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.campaign import Actor, CampaignService  # noqa: E402
from bot.render import registry as render_registry  # noqa: E402
from bot.rules import registry as rules_registry  # noqa: E402
from storage import open_database  # noqa: E402
from storage.db import _connect  # noqa: E402
from tests.support.guess import GuessRuleset, render_board  # noqa: E402


class WideGuess(GuessRuleset):
    """The test rule set with room for six players."""

    name = "guess6"
    max_seats = 6


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def setup(service: CampaignService, campaigns: int, players: int) -> list[int]:
    gm = Actor(1, "GM")
    ids = []
    for c in range(campaigns):
        channel = 10_000 + c
        info = await service.create(gm, 1, channel, "guess6", f"Bench {c}")
        for p in range(players):
            await service.join(Actor(100 + p, f"P{p}"), channel)
        await service.start(gm, channel)
        ids.append(info.id)
    return ids


async def timed_submit(
    service: CampaignService, cid: int, step: int, seat: int, out: list[float]
) -> None:
    began = time.perf_counter()
    await service.submit(Actor(100 + seat, f"P{seat}"), cid, step, {"type": "guess",
                                                                      "number": "3"})
    out.append(time.perf_counter() - began)


async def burst(
    service: CampaignService, ids: list[int], players: int
) -> tuple[float, list[float]]:
    lat: list[float] = []
    began = time.perf_counter()
    await asyncio.gather(*(timed_submit(service, cid, 1, seat, lat)
                           for seat in range(players) for cid in ids))
    return time.perf_counter() - began, lat


async def paced(
    service: CampaignService, ids: list[int], players: int, step: int, rate: float
) -> list[float]:
    """Campaign by campaign (so every sixth order resolves, as in real play), ``rate``/s."""
    lat: list[float] = []
    tasks = []
    gap = 1.0 / rate
    start = time.perf_counter()
    for i, (cid, seat) in enumerate((c, s) for c in ids for s in range(players)):
        # always yield, so submissions already sent run while this loop paces the next
        await asyncio.sleep(max(0.0, start + i * gap - time.perf_counter()))
        tasks.append(asyncio.ensure_future(timed_submit(service, cid, step, seat, lat)))
    await asyncio.gather(*tasks)
    return lat


async def raw_loop(path: Path, count: int) -> float:
    conn = await _connect(path)
    conn.isolation_level = "DEFERRED"  # plain sqlite3 transaction handling
    await conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, campaign INTEGER, seat INTEGER,"
                       " action TEXT, at REAL)")
    began = time.perf_counter()
    for i in range(count):
        await conn.execute("INSERT INTO t (campaign, seat, action, at) VALUES (?, ?, ?, ?)",
                           (i // 6, i % 6, '{"type": "guess", "number": "3"}', time.time()))
        await conn.commit()
    elapsed = time.perf_counter() - began
    await conn.close()
    return elapsed


async def one_round(tmp: Path, campaigns: int, players: int) -> float:
    count = campaigns * players
    db = await open_database(tmp / "service.db")
    service = CampaignService(db)
    t0 = time.perf_counter()
    ids = await setup(service, campaigns, players)
    print(f"  setup: {campaigns} campaigns x {players} players created, joined, started "
          f"in {time.perf_counter() - t0:.2f} s")
    # a long-running bot freezes what it built at start-up, so the cyclic collector's full
    # passes (tens of ms on a slow machine) do not walk it again and again
    gc.collect()
    gc.freeze()
    elapsed, lat = await burst(service, ids, players)
    rate = count / elapsed
    print(f"  service burst: {count} sealed submissions at once in {elapsed:.3f} s = "
          f"{rate:,.0f}/s; latency p50 {pct(lat, 0.5):.1f} ms, p99 {pct(lat, 0.99):.1f} ms "
          "(mostly queueing behind the one writer)")
    # round 1 resolved: every campaign is at its bank/pass turns; pass them to round 2
    for cid in ids:
        for seat in range(players):
            await service.submit(Actor(100 + seat, f"P{seat}"), cid, 2 + seat, {"type": "pass"})
    lat2 = await paced(service, ids, players, 2 + players, rate / 2)
    print(f"  service paced at {rate / 2:,.0f}/s: latency p50 {pct(lat2, 0.5):.2f} ms, "
          f"p99 {pct(lat2, 0.99):.2f} ms")
    await db.close()
    gc.unfreeze()
    raw_elapsed = await raw_loop(tmp / "raw.db", count)
    raw_rate = count / raw_elapsed
    print(f"  raw aiosqlite insert+commit loop: {count} in {raw_elapsed:.3f} s = "
          f"{raw_rate:,.0f}/s; ratio service/raw {rate / raw_rate:.2f}x")
    return rate / raw_rate


async def main(campaigns: int, players: int, rounds: int) -> None:
    rules_registry.register(WideGuess())
    render_registry.register("guess6", "board", render_board)
    ratios = []
    for n in range(1, rounds + 1):
        print(f"round {n}:")
        with tempfile.TemporaryDirectory() as tmp:
            ratios.append(await one_round(Path(tmp), campaigns, players))
    print(f"median ratio service/raw over {rounds} rounds: {statistics.median(ratios):.2f}x "
          "(target >= 0.5x)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--campaigns", type=int, default=200)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(main(args.campaigns, args.players, args.rounds))
