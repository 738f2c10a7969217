"""Benchmark: database bytes per campaign after whole demo games, and memory per cached campaign.

    .venv/bin/python bench/footprint.py [--cached 200] [--quick]

Database: each demo game (Orbits with 3 and with 6 players, FTCamp's demo round with 3, the
HRFT demo battle) is played to its end by the scripted players through the real service on
its own SQLite file, pictures drawn for real, every outbox message marked sent as the
dispatcher would (bench/_scenarios.py). Then the file is closed and measured: its size less
an empty migrated database's, and per table (its indexes included) the bytes from SQLite's
``dbstat`` table, or, where SQLite lacks it, the sum of the rows' column lengths.
Reference: the size of the campaign's final state JSON (the one thing a campaign must keep);
the ratio says how many states' worth of bytes one game leaves behind.
Target (issue 9): at most 1 MB of database per 6-player Orbits demo game.

Memory: a 6-player Orbits campaign at turn 10, copied ``--cached`` times in one file; a fresh
service loads them into its cache (one GM deadline move each, the cheapest intent that loads)
in four batches, and the growth per campaign of each batch is measured twice, as process RSS
and as tracemalloc's traced bytes (separate passes: tracing has its own cost). Reference: the
campaign's state JSON size. Min and median over the batches.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sqlite3
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

from _scenarios import clone, deployment_end, drive

from bot.campaign import Actor, CampaignService
from bot.campaign.demo import VirtualClock
from storage import open_database

TARGET_BYTES = 1_000_000
BATCHES = 4


def table_bytes(path: Path) -> tuple[dict[str, int], str]:
    """Bytes per table (indexes counted with their table) and how they were counted."""
    con = sqlite3.connect(path)
    try:
        owner = {r[0]: r[1] for r in con.execute("SELECT name, tbl_name FROM sqlite_master")}
        sizes: dict[str, int] = {}
        try:
            for name, size in con.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"):
                table = owner.get(name, name)
                sizes[table] = sizes.get(table, 0) + size
            return sizes, "dbstat pages"
        except sqlite3.OperationalError:  # SQLite built without the dbstat table
            for table in {t for t in owner.values() if not t.startswith("sqlite_")}:
                cols = [r[1] for r in con.execute(f"PRAGMA table_info({table})")]
                total = " + ".join(f"IFNULL(LENGTH({c}), 0)" for c in cols) or "0"
                sizes[table] = con.execute(f"SELECT SUM({total}) FROM {table}").fetchone()[0] or 0
            return sizes, "sum of column lengths"
    finally:
        con.close()


def file_bytes(path: Path) -> int:
    con = sqlite3.connect(path)
    try:
        count = con.execute("PRAGMA page_count").fetchone()[0]
        return count * con.execute("PRAGMA page_size").fetchone()[0]
    finally:
        con.close()


async def empty_bytes(path: Path) -> int:
    db = await open_database(path)
    await db.close()
    return file_bytes(path)


def kib(n: float) -> str:
    return f"{n / 1024:,.1f} KiB"


async def games(tmp: Path, quick: bool) -> None:
    empty = await empty_bytes(tmp / "empty.db")
    plays = [("orbits", 3), ("ftcamp", 3)] if quick else \
        [("orbits", 3), ("orbits", 6), ("ftcamp", 3), ("hrft", 2)]
    for ruleset, seats in plays:
        began = time.perf_counter()
        path = tmp / f"{ruleset}-{seats}.db"
        point = await drive(path, ruleset, seats, None, stub=False,
                            max_steps=40 if quick else 3000)
        total = file_bytes(path) - empty
        sizes, how = table_bytes(path)
        state = point.state_json_bytes
        top = sorted(sizes.items(), key=lambda kv: -kv[1])
        print(f"{ruleset} {seats} players ({'cut short' if quick else 'whole game'}, "
              f"played in {time.perf_counter() - began:.0f} s): database {kib(total)} "
              f"above an empty one; final state JSON {kib(state)}; ratio {total / state:,.0f}x")
        print(f"  by table ({how}): " + ", ".join(f"{t} {kib(b)}" for t, b in top if b))
        if ruleset == "orbits" and seats == 6:
            verdict = "met" if total <= TARGET_BYTES else "NOT met"
            print(f"  target <= {TARGET_BYTES / 1e6:.0f} MB per 6-player Orbits demo game: "
                  f"{verdict}")


def rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


async def cache_growth(path: Path, ids: list[int], traced: bool) -> list[float]:
    """Bytes of growth per campaign for each batch, loading them into one service."""
    db = await open_database(path)
    try:
        service = CampaignService(db, clock=VirtualClock(), seed_source=lambda: 1)
        batch = max(1, len(ids) // BATCHES)
        growth: list[float] = []
        if traced:
            tracemalloc.start()
        gc.collect()
        before = tracemalloc.get_traced_memory()[0] if traced else rss()
        for start in range(0, batch * BATCHES, batch):
            for cid in ids[start:start + batch]:
                ctx = await service.snapshot(cid)
                await service.gm_extend(Actor(ctx.row.gm_user_id, "GM"), ctx.row.channel_id, 1)
            gc.collect()
            now = tracemalloc.get_traced_memory()[0] if traced else rss()
            growth.append((now - before) / batch)
            before = now
        if traced:
            tracemalloc.stop()
        return growth
    finally:
        await db.close()


async def memory(tmp: Path, cached: int, quick: bool) -> None:
    point = await drive(tmp / "cache.db", "orbits", 6, deployment_end(2 if quick else 10))
    ids = clone(point.path, point.campaign_id, cached)
    by_rss = await cache_growth(point.path, ids, traced=False)
    by_trace = await cache_growth(point.path, ids, traced=True)
    state = point.state_json_bytes
    print(f"cache: {len(ids)} 6-player Orbits campaigns at turn {point.state.turn} loaded in "
          f"{BATCHES} batches; state JSON {kib(state)} each")
    for label, values in (("RSS", by_rss), ("tracemalloc", by_trace)):
        print(f"  {label} growth per cached campaign: min {kib(min(values))}, median "
              f"{kib(statistics.median(values))}; ratio to state JSON min "
              f"{min(values) / state:.1f}x, median {statistics.median(values) / state:.1f}x")


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-footprint-") as name:
        tmp = Path(name)
        await games(tmp, args.quick)
        await memory(tmp, args.cached, args.quick)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cached", type=int, default=200, help="campaigns loaded into the cache")
    parser.add_argument("--quick", action="store_true", help="tiny run for the smoke test")
    args = parser.parse_args(argv)
    if args.quick:
        args.cached = 8
    return args


if __name__ == "__main__":
    asyncio.run(main(parse()))
