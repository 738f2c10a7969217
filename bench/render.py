"""Benchmark: milliseconds per picture for every renderer, and the event-loop stall while a
late 6-player Orbits Deployment-ending submit is resolved and its pictures prepared.

    .venv/bin/python bench/render.py [--repeats 5] [--quick]

Pictures: each built-in renderer (bot.render registry) on a late-game view: the public and a
seat's Orbits map after a Deployment at turn 20 of a 6-player game, the FTCamp hexmap of the
~200-group scenario (bench/_scenarios.py tiles the demo), the last FTCamp sector of the demo
round, the last HRFT damage sheet of the demo battle (games driven by the scripted players,
bench/_scenarios.py).
Reference: the renderer's own output decoded and encoded again with Pillow's default PNG
settings (zlib level 6, no optimize). It has the same size and the same pixels, so what
it costs depends on the picture exactly as the renderer's own encode does: a ratio near 1 means
drawing and encoding cost about as much as one plain encode of the result; the issue's slow
path (``optimize=True``, several times a plain encode) shows as a large ratio. A blank canvas
would compress far better than a map and flatter every renderer.

Stall: a probe task sleeps 1 ms in a loop and records how late it wakes (bench/_common.py).
It runs from the start of the submit that ends a late 6-player Orbits Deployment until every
picture that resolution asked for has been handed over the way the dispatcher gets it
(bench/_scenarios.py ``dispatch``: ``outbox_pending``, then the service's draw step
``outbox_files`` where it has one, else the message's own files; each message marked sent),
tried again every 5 ms until all are there. So it covers the submit, whatever the service does
after the commit to draw the pictures (inside submit today; after commit once issue 9 item 1
lands), and the outbox reads and writes. Reference: the same probe over an idle loop for the
same time, rounds interleaved.
Targets (issue 9): stall p99 <= 20 ms; a late 6-player Orbits map <= 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from _common import LoopLagProbe, interleave, latency_line, pct, ratio_line
from _scenarios import copy_db, deployment_end, dispatch, drive, ftcamp_scenario, images
from PIL import Image

from bot.campaign import Actor, CampaignService
from bot.campaign.demo import VirtualClock
from bot.render import registry as render_registry
from bot.rules import registry as rules_registry
from bot.rules.base import Outcome, Seat
from bot.rules.dice import SeededDice
from storage import open_database

MAP_TARGET = 0.100
STALL_TARGET = 0.020
LATE_TURN = 20


def _views(ruleset_name: str, outcome: Outcome, found: dict[str, dict[str, Any]],
           label: str = "") -> None:
    """The view each picture of the outcome is drawn from, as the service draws it."""
    ruleset = rules_registry.get(ruleset_name)
    state = ruleset.state_model.model_validate(outcome.state)
    for ev in outcome.events:
        if ev.image is not None:
            who = "public" if ev.image.viewer is None else "seat"
            found[f"{ruleset_name} {ev.image.name} ({who}{label})"] = (
                ev.image.name, ruleset.view(state, ev.image.viewer))


async def late_views(tmp: Path, quick: bool) -> tuple[dict[str, Any], Any]:
    """Picture name -> (renderer, view); and the late Orbits point for the stall."""
    views: dict[str, Any] = {}
    turn = 2 if quick else LATE_TURN
    orbits = await drive(tmp / "orbits.db", "orbits", 6, deployment_end(turn))
    _views("orbits", orbits.predicted, views, f", turn {orbits.state.turn}")
    # the hexmap at the start of the ~200-group scenario: the rules alone make that state
    ft = rules_registry.get("ftcamp")
    options = ft.options_model(scenario=ftcamp_scenario(24 if quick else 200))
    seats = [Seat(number=n, name=f"P{n}") for n in (1, 2, 3)]
    state = ft.start(options, seats, SeededDice(1, "bench")).state
    views[f"ftcamp hexmap (public, {len(state.groups)} groups)"] = ("hexmap", ft.view(state, None))
    for name, seats in (("ftcamp", 3), ("hrft", 2)):
        seen: dict[str, Any] = {}

        def keep(state: Any, out: Outcome, name: str = name, seen: dict = seen) -> None:
            _views(name, out, seen)  # the last picture of each kind wins: the latest state

        # quick: up to the first picture of the flow other than the hexmap (drawn above), so
        # FTCamp gets to its first sector picture past the fleet-order reveal's map
        await drive(tmp / f"{name}.db", name, seats,
                    lambda s, o, q=quick: o.finished or (q and any(
                        e.image is not None and e.image.name != "hexmap" for e in o.events)),
                    observe=keep)
        views.update(seen)
    return views, orbits


async def pictures(views: dict[str, Any], repeats: int) -> None:
    for label, (name, view) in views.items():
        ruleset = label.split()[0]
        draw = render_registry.get(ruleset, name)
        png = draw(view)
        image = Image.open(io.BytesIO(png))
        image.load()

        async def measured(draw: Any = draw, view: Any = view) -> list[float]:
            began = time.perf_counter()
            draw(view)
            return [time.perf_counter() - began]

        async def reference(image: Image.Image = image) -> list[float]:
            began = time.perf_counter()
            image.save(io.BytesIO(), "PNG")
            return [time.perf_counter() - began]

        ours, ref = await interleave(repeats, measured, reference)
        print(ratio_line(f"  {label} {image.width}x{image.height}, {len(png):,} B", ours, ref,
                         "Pillow default re-encode"), flush=True)
        if ruleset == "orbits" and "public" in label:
            verdict = "met" if statistics.median(ours) <= MAP_TARGET else "NOT met"
            print(f"  target late 6-player Orbits map <= {MAP_TARGET * 1000:.0f} ms "
                  f"(median): {verdict}")


class Stall:
    """Rounds of the late Orbits resolution under the probe, each on a fresh copy."""

    def __init__(self, tmp: Path, point: Any) -> None:
        self.tmp, self.point = tmp, point
        self.expected = images(point.predicted)
        self.copies = 0
        self.covered: list[float] = []

    async def measured(self) -> list[float]:
        self.copies += 1
        path = copy_db(self.point.path, self.tmp / f"stall-{self.copies}.db")
        db = await open_database(path)
        try:
            service = CampaignService(db, clock=VirtualClock(self.point.now),
                                      seed_source=lambda: 1)
            cid = self.point.campaign_id
            ctx = await service.snapshot(cid)  # load it into the cache, as play would have
            await service.gm_extend(Actor(ctx.row.gm_user_id, "GM"), ctx.row.channel_id, 1.0)
            await dispatch(service)
            async with LoopLagProbe() as probe:
                began = time.perf_counter()
                for move in self.point.moves:
                    await service.submit(move.actor, cid, self.point.step_no, move.action,
                                         seat=move.seat)
                await self._pictures_ready(service, began)
                self.covered.append(time.perf_counter() - began)
            return probe.lags
        finally:
            await db.close()

    async def _pictures_ready(self, service: CampaignService, began: float) -> None:
        files = 0
        while True:
            files += await dispatch(service)
            if files >= self.expected:
                return
            if time.perf_counter() - began > 120:
                raise RuntimeError(f"only {files} of {self.expected} pictures in the outbox")
            await asyncio.sleep(0.005)

    async def reference(self) -> list[float]:
        quiet = self.covered[-1] if self.covered else 0.5
        async with LoopLagProbe() as probe:
            await asyncio.sleep(quiet)
        return probe.lags


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-render-") as name:
        tmp = Path(name)
        began = time.perf_counter()
        views, point = await late_views(tmp, args.quick)
        print(f"late-game states built in {time.perf_counter() - began:.1f} s; "
              f"ms per picture (repeats {args.repeats}):")
        await pictures(views, args.repeats)
        stall = Stall(tmp, point)
        if not args.quick:
            await stall.measured()  # warm-up: imports, fonts, first-time costs
        lags: list[float] = []
        idle: list[float] = []
        for _ in range(args.repeats):
            ours, ref = await interleave(1, stall.measured, stall.reference)
            lags, idle = lags + ours, idle + ref
        print(f"event-loop lag while turn {point.state.turn}'s Deployment-ending submit is "
              f"resolved and its {stall.expected} pictures reach the outbox "
              f"(covered {min(stall.covered) * 1000:.0f}..{max(stall.covered) * 1000:.0f} ms"
              f" per round, {args.repeats} rounds):")
        print(latency_line("  loop lag during resolution", lags))
        print(latency_line("  loop lag idle (reference)", idle)
              + f"; ratio p99 {pct(lags, 0.99) / max(pct(idle, 0.99), 1e-6):.2f}x")
        verdict = "met" if pct(lags, 0.99) <= STALL_TARGET else "NOT met"
        print(f"  target stall p99 <= {STALL_TARGET * 1000:.0f} ms: {verdict}")


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="tiny run for the smoke test")
    args = parser.parse_args(argv)
    if args.quick:
        args.repeats = 1
    return args


if __name__ == "__main__":
    asyncio.run(main(parse()))
