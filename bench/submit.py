"""Benchmark: resolving submits on the real rule sets, against the service's own writer.

    .venv/bin/python bench/submit.py [--only NAME ...] [--repeats 4] [--sequential 2]
                                     [--campaigns 40] [--gc bot|cpython] [--quick]
                                     [--profile TOP] [--rules N]

Scenarios (``--only``): orbits6-early, orbits6-late, ftcamp-20, ftcamp-200, hrft.

For each scenario (6-player Orbits early and late, FTCamp at ~20 and ~200 groups, an HRFT
battle) the rule set's scripted players drive a campaign through the real service on a SQLite
file in a temp folder (bench/_scenarios.py) up to a step whose resolution matters: the submit
that ends an Orbits Deployment (it draws 7 maps), the one that resolves FTCamp's fleet orders
(the last of its pages: at ~200 groups the orders of a seat fill many pages, each a step of
its own), the first HRFT resolution that draws a damage sheet. That campaign is then copied
inside the file so every measured campaign starts from the same state; each round starts
from a fresh copy of that file, with a fresh service whose cache holds the campaign (a GM
deadline move loads it, as the earlier inputs of a real game would).

Measured: the time of each resolving submit (``service.submit`` call to return); the step's
other sealed inputs go first and get a line of their own. Reference: the same transactions the
service committed in that round, replayed through ``storage.db``'s ``Database.transaction``
on a fresh copy of the same file (bench/_replay.py): same rows, same state JSON, same writer.
Service and reference rounds alternate; min, median and the ratio service/reference.

Then under load, on a fresh copy with ``--campaigns`` campaigns: a burst (every input of
every campaign at once) and a paced run (offered at 100 submissions/s); p50/p99 of the
resolving submits, next to the replay of the same transactions under the same schedule.
Where the step has inputs that are only stored (a sealed step's answers before the last),
a burst of those alone: the service's throughput, and its ratio to the replay of the same
transactions back to back and to raw stores (one transaction of one submission upsert per
input, back to back; issue 9's target: a ratio to raw of about 0.2).
Target (issue 9): resolving submits p99 <= 50 ms on every real rule set at 100/s offered.

The garbage collector runs as the bot runs it (``--gc bot``, bot/gc_pacing.py: start-up objects
frozen, full collections rare and otherwise at rest, which a bench with no outbox loop never
reaches) or with CPython's defaults (``--gc cpython``: a full collection about every forty
200-group FTCamp resolutions, inside one of them).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import json
import pstats
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _common import interleave, latency_line, pct, ratio_line
from _replay import SAMPLE, Group, Recorder, replay
from _scenarios import Point, clone, copy_db, deployment_end, drive, ftcamp_scenario, images

from bot import gc_pacing
from bot.campaign import Actor, CampaignService
from bot.campaign.demo import VirtualClock
from bot.rules import registry
from bot.rules.dice import SeededDice
from storage import open_database, turns

PACED_RATE = 100.0
TARGET_P99 = 0.050


@dataclass
class Scenario:
    ruleset: str
    seats: int
    target: Any
    options: dict[str, str] = field(default_factory=dict)


def scenarios(quick: bool) -> dict[str, Scenario]:
    def events(state: Any, out: Any) -> bool:
        return bool(out.events)

    def drawn(state: Any, out: Any) -> bool:
        return images(out) > 0

    found = {
        "orbits6-early": Scenario("orbits", 6, deployment_end(1)),
        "orbits6-late": Scenario("orbits", 6, deployment_end(20)),
        "ftcamp-20": Scenario("ftcamp", 3, events, {"scenario": ftcamp_scenario(20)}),
        "ftcamp-200": Scenario("ftcamp", 3, events, {"scenario": ftcamp_scenario(200)}),
        "hrft": Scenario("hrft", 2, drawn),
    }
    if quick:  # the same paths as orbits6-early and ftcamp-20, only slower to reach
        del found["orbits6-late"], found["ftcamp-200"]
    return found


class Bench:
    """One scenario: its template file and the rounds run on copies of it."""

    def __init__(self, tmp: Path, point: Point, ids: list[int]) -> None:
        self.tmp = tmp
        self.point = point
        self.ids = ids
        self.groups: list[Group] = []
        self._copies = 0

    def _copy(self) -> Path:
        self._copies += 1
        return copy_db(self.point.path, self.tmp / f"round-{self._copies}.db")

    async def _service(self, path: Path) -> tuple[Any, CampaignService]:
        db = await open_database(path)
        clock = VirtualClock(self.point.now)
        return db, CampaignService(db, clock=clock, seed_source=lambda: 1)

    async def _warm(self, service: CampaignService, campaigns: list[int]) -> None:
        """A GM deadline move per campaign: it loads the campaign into the service's cache."""
        for cid in campaigns:
            SAMPLE.set(("warm", cid))
            ctx = await service.snapshot(cid)
            await service.gm_extend(Actor(ctx.row.gm_user_id, "GM"), ctx.row.channel_id, 1.0)

    async def _submit(self, service: CampaignService, cid: int, i: int,
                      out: dict[Any, float], resolved: set[Any]) -> None:
        move = self.point.moves[i]
        SAMPLE.set((cid, i))
        began = time.perf_counter()
        result = await service.submit(move.actor, cid, self.point.step_no, move.action,
                                      seat=move.seat)
        out[(cid, i)] = time.perf_counter() - began
        if result.resolved:
            resolved.add((cid, i))

    async def service_round(self, campaigns: list[int]) -> tuple[list[float], list[float]]:
        """Sequential: each campaign's inputs one after the other. Returns the resolving
        submits' times and the others'."""
        db, service = await self._service(self._copy())
        times: dict[Any, float] = {}
        resolved: set[Any] = set()
        try:
            with Recorder() as rec:
                await self._warm(service, campaigns)
                gc.collect()
                for cid in campaigns:
                    for i in range(len(self.point.moves)):
                        await self._submit(service, cid, i, times, resolved)
            self.groups = rec.groups
        finally:
            await db.close()
        return ([t for k, t in times.items() if k in resolved],
                [t for k, t in times.items() if k not in resolved])

    async def raw_stores(self, keys: list[Any]) -> float:
        """The raw reference of a stored input: one transaction of one upsert of the
        submission row (what a store was before issue 9's features), back to back; wall time."""
        db = await open_database(self._copy())
        try:
            gc.collect()
            began = time.perf_counter()
            for cid, i in keys:
                move = self.point.moves[i]
                async with db.transaction() as tx:
                    await turns.put_submission(tx, cid, self.point.step_no, move.seat,
                                               move.actor.user_id, move.action, 0.0)
            return time.perf_counter() - began
        finally:
            await db.close()

    async def stored_burst(self) -> tuple[float, float, float, int]:
        """Every stored (not resolving) input of every campaign offered at once: (the
        service's wall time, the replay's of the same transactions back to back, the raw
        stores', count)."""
        db, service = await self._service(self._copy())
        keys = [(cid, i) for cid in self.ids for i in range(len(self.point.moves) - 1)]
        times: dict[Any, float] = {}
        resolved: set[Any] = set()
        try:
            with Recorder() as rec:
                await self._warm(service, self.ids)
                gc.collect()
                began = time.perf_counter()
                await asyncio.gather(*(self._submit(service, cid, i, times, resolved)
                                       for cid, i in keys))
                wall = time.perf_counter() - began
        finally:
            await db.close()
        if resolved:
            raise RuntimeError("an input of the stored burst resolved its step")
        db = await open_database(self._copy())
        try:
            mine = set(keys)
            await replay(db, [g for g in rec.groups if g.sample not in mine])  # the warm-up
            gc.collect()
            began = time.perf_counter()
            done = await replay(db, [g for g in rec.groups if g.sample in mine])
            ref = time.perf_counter() - began
        finally:
            await db.close()
        if done.diverged:
            raise RuntimeError(f"replay diverged from the service ({done.diverged} row ids)")
        return wall, ref, await self.raw_stores(keys), len(keys)

    async def profile_round(self, cid: int, top: int) -> str:
        """cProfile of one resolving submit (its step's other inputs go first, unprofiled):
        the ``top`` functions by own time and by cumulative time."""
        db, service = await self._service(self._copy())
        times: dict[Any, float] = {}
        try:
            await self._warm(service, [cid])
            for i in range(len(self.point.moves) - 1):
                await self._submit(service, cid, i, times, set())
            gc.collect()
            prof = cProfile.Profile()
            prof.enable()
            await self._submit(service, cid, len(self.point.moves) - 1, times, set())
            prof.disable()
        finally:
            await db.close()
        out = io.StringIO()
        for order in ("tottime", "cumulative"):
            pstats.Stats(prof, stream=out).strip_dirs().sort_stats(order).print_stats(top)
        return out.getvalue()

    async def reference_round(self, resolving: set[Any]) -> list[float]:
        db = await open_database(self._copy())
        try:
            gc.collect()
            done = await replay(db, self.groups)
        finally:
            await db.close()
        if done.diverged:
            raise RuntimeError(f"replay diverged from the service ({done.diverged} row ids)")
        return [done.ends[s] - done.starts[s] for s in resolving if s in done.ends]

    async def load(self, rate: float | None) -> tuple[list[float], list[float]]:
        """Every input of every campaign offered at once (``rate`` None) or at ``rate``/s,
        campaign by campaign; the service's resolving latencies, then the replay's."""
        db, service = await self._service(self._copy())
        times: dict[Any, float] = {}
        resolved: set[Any] = set()
        keys = [(cid, i) for cid in self.ids for i in range(len(self.point.moves))]
        offered: dict[Any, float] = {}
        try:
            with Recorder() as rec:
                await self._warm(service, self.ids)
                gc.collect()
                start = time.perf_counter()
                tasks = []
                for n, (cid, i) in enumerate(keys):
                    offered[(cid, i)] = start + (n / rate if rate else 0.0)
                    if rate:
                        await asyncio.sleep(max(0.0, offered[(cid, i)] - time.perf_counter()))
                    tasks.append(asyncio.ensure_future(
                        self._submit(service, cid, i, times, resolved)))
                await asyncio.gather(*tasks)
        finally:
            await db.close()
        db = await open_database(self._copy())
        try:
            warm = [g for g in rec.groups if g.sample not in offered]
            await replay(db, warm)
            base = time.perf_counter()
            shift = {k: base + (t - start) for k, t in offered.items()}
            done = await replay(db, [g for g in rec.groups if g.sample in offered], shift)
        finally:
            await db.close()
        if done.diverged:
            raise RuntimeError(f"replay diverged from the service ({done.diverged} row ids)")
        ours = [times[k] for k in keys if k in resolved]
        ref = [done.ends[k] - shift[k] for k in keys if k in resolved and k in done.ends]
        return ours, ref


def rules_lines(name: str, scn: Scenario, point: Point, repeats: int) -> list[str]:
    """The rule set's own calls for the step, no service: the resolution (resolve or act),
    then on its state the requests, every viewer's view and status text, the state's JSON.
    Each timed ``repeats`` times; min and median."""
    rules = registry.get(scn.ruleset)
    state = point.state
    sealed = rules.pending(state)[0].kind == "sealed"

    def step() -> Any:
        dice = SeededDice(1, "bench")
        if sealed:
            return rules.resolve(state, {m.seat: m.action for m in point.moves}, dice).state
        return rules.act(state, point.moves[0].seat, point.moves[0].action, dice).state

    after = rules.state_model.model_validate(step())
    viewers = [None, *range(1, scn.seats + 1)]
    parts = {
        "resolution": step,
        "requests": lambda: rules.pending(after),
        f"{len(viewers)} views": lambda: [rules.view(after, v) for v in viewers],
        f"{len(viewers)} status texts": lambda: [rules.status(after, v) for v in viewers],
        "state JSON": lambda: json.dumps(after.model_dump(mode="json")),
    }
    lines = []
    for label, fn in parts.items():
        fn()  # warm
        times = []
        for _ in range(repeats):
            began = time.perf_counter()
            fn()
            times.append(time.perf_counter() - began)
        lines.append(f"  {name} rules only, {label}: min {min(times) * 1000:.2f} ms, "
                     f"median {statistics.median(times) * 1000:.2f} ms (n={repeats})")
    return lines


async def run(name: str, scn: Scenario, args: argparse.Namespace, tmp: Path) -> list[str]:
    began = time.perf_counter()
    point = await drive(tmp / "template.db", scn.ruleset, scn.seats, scn.target,
                        options=scn.options)
    ids = clone(point.path, point.campaign_id, max(args.campaigns, args.sequential))
    kinds = {m.action.get("type") for m in point.moves}
    print(f"{name}: {scn.ruleset}, {scn.seats} seats, step {point.step_no}, "
          f"{len(point.moves)} input(s) {sorted(kinds)}, state JSON {point.state_json_bytes:,} B,"
          f" {images(point.predicted)} picture(s), {len(point.predicted.events)} events; "
          f"built in {time.perf_counter() - began:.1f} s")
    if args.rules:
        lines = rules_lines(name, scn, point, args.rules)
        print("\n".join(lines), flush=True)
        return lines
    bench = Bench(tmp, point, ids)
    seq = ids[:args.sequential]
    # a first round warms imports and caches, and gives the reference its transactions
    await bench.service_round(seq)
    if args.profile:
        print(await bench.profile_round(seq[0], args.profile), flush=True)
        return []
    resolving = {(cid, len(point.moves) - 1) for cid in seq}
    other: list[float] = []

    async def measured() -> list[float]:
        done, rest = await bench.service_round(seq)
        other.extend(rest)
        return done

    ours, ref = await interleave(args.repeats, measured, lambda: bench.reference_round(resolving))
    lines = [ratio_line(f"  {name} resolving submit", ours, ref, "writer replay")]
    if other:
        lines.append(f"  {name} other inputs of the step (stored, not resolving): "
                     f"median {pct(other, 0.5) * 1000:.1f} ms")
    if len(point.moves) > 1:  # inputs that are stored, not resolved: their burst
        walls, refs, raws = [], [], []
        for _ in range(args.repeats):
            wall, ref, raw, count = await bench.stored_burst()
            walls.append(wall)
            refs.append(ref)
            raws.append(raw)
        best, typical = min(walls), statistics.median(walls)
        lines.append(f"  {name} burst of stored inputs (not resolving), service: "
                     f"{count / best:,.0f}/s best, {count / typical:,.0f}/s median ({count} "
                     f"inputs, n={len(walls)}); writer replay {count / min(refs):,.0f}/s, raw "
                     f"store {count / min(raws):,.0f}/s best; throughput ratio to the replay "
                     f"{min(refs) / best:.2f}x, to raw {min(raws) / best:.2f}x best "
                     f"({statistics.median(raws) / typical:.2f}x median)")
    for label, rate in (("burst", None), (f"paced {PACED_RATE:.0f}/s", PACED_RATE)):
        ours, ref = await bench.load(rate)
        lines.append(latency_line(f"  {name} {label} resolving, service", ours)
                     + f"; writer replay p99 {pct(ref, 0.99) * 1000:.1f} ms; "
                     f"ratio p99 {pct(ours, 0.99) / pct(ref, 0.99):.2f}x")
        if rate:
            verdict = "met" if pct(ours, 0.99) <= TARGET_P99 else "NOT met"
            lines.append(f"  {name} target p99 <= {TARGET_P99 * 1000:.0f} ms at "
                         f"{PACED_RATE:.0f}/s offered: {verdict}")
    for line in lines:
        print(line, flush=True)
    return lines


async def main(args: argparse.Namespace) -> None:
    if args.gc == "bot":
        gc_pacing.freeze_startup_objects()
        gc_pacing.install()
    print(f"garbage collector: {args.gc} (thresholds {gc.get_threshold()}, "
          f"{gc.get_freeze_count():,} start-up objects frozen)", flush=True)
    for name, scn in scenarios(args.quick).items():
        if args.only and name not in args.only:
            continue
        with tempfile.TemporaryDirectory(prefix="bench-submit-") as tmp:
            await run(name, scn, args, Path(tmp))


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="scenario names (default: all)")
    parser.add_argument("--repeats", type=int, default=4, help="service/reference round pairs")
    parser.add_argument("--sequential", type=int, default=2,
                        help="campaigns resolved one after the other per round")
    parser.add_argument("--campaigns", type=int, default=40,
                        help="campaigns in the burst and the paced run")
    parser.add_argument("--gc", choices=("bot", "cpython"), default="bot",
                        help="the garbage collector as the bot runs it, or CPython's default")
    parser.add_argument("--quick", action="store_true", help="tiny run for the smoke test")
    parser.add_argument("--rules", type=int, default=0, metavar="N",
                        help="instead of measuring the service: the rule set's own calls for "
                             "the step (resolution, requests, views, status, state JSON), "
                             "each timed N times")
    parser.add_argument("--profile", type=int, default=0, metavar="TOP",
                        help="instead of measuring: cProfile one resolving submit, its TOP "
                             "functions by own and by cumulative time")
    args = parser.parse_args(argv)
    if args.quick:
        args.repeats, args.sequential, args.campaigns = 2, 1, 2
    return args


if __name__ == "__main__":
    asyncio.run(main(parse()))
