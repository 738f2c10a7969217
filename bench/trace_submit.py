"""Which project modules and functions one resolving Submit runs (issue 17's closing note).

    .venv/bin/python bench/trace_submit.py [--quick]

For Orbits (2 seats) and FTCamp (~20 groups), the rule set's scripted players drive a campaign
(bench/_scenarios.py) to its first sealed step with two inputs; on a fresh service the first
input goes in untraced, the second (the one that resolves the step) under ``sys.setprofile``.
Prints the project modules and functions it entered, and the campaign war modules among them
(none in a campaign with no battles: the war is called only for those, issue 17 item 1).
Counts, not times: ``--quick`` changes nothing (the smoke test passes it).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

from _scenarios import drive, ftcamp_scenario

from bot.campaign import CampaignService
from bot.campaign.demo import VirtualClock
from bot.rules import registry
from storage import open_database

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tuple(str(ROOT / part) + "/" for part in ("bot", "cogs", "storage"))


async def trace(name: str, seats: int, options: dict[str, str]) -> str:
    rules = registry.get(name)

    def two_sealed(state: Any, _out: Any) -> bool:
        return sum(r.kind == "sealed" for r in rules.pending(state)) == 2

    with tempfile.TemporaryDirectory(prefix="bench-trace-") as tmp:
        point = await drive(Path(tmp) / "t.db", name, seats, two_sealed, options=options)
        first, last = point.moves
        db = await open_database(point.path)
        try:
            service = CampaignService(db, clock=VirtualClock(point.now), seed_source=lambda: 1)
            await service.submit(first.actor, point.campaign_id, point.step_no, first.action,
                                 seat=first.seat)
            seen: set[tuple[str, int, str]] = set()

            def entered(frame: Any, event: str, _arg: Any) -> None:
                path = frame.f_code.co_filename
                if event == "call" and path.startswith(PROJECT):
                    seen.add((str(Path(path).relative_to(ROOT)), frame.f_code.co_firstlineno,
                              frame.f_code.co_name))

            sys.setprofile(entered)
            try:
                result = await service.submit(last.actor, point.campaign_id, point.step_no,
                                              last.action, seat=last.seat)
            finally:
                sys.setprofile(None)
        finally:
            await db.close()
    if not result.resolved:
        raise RuntimeError(f"the traced {name} submit did not resolve its step")
    modules = sorted({path for path, _, _ in seen})
    war = [m for m in modules if m.startswith("bot/campaign/war")]
    return (f"{name} resolving submit: {len(modules)} project modules, {len(seen)} functions; "
            f"campaign war modules run: {', '.join(war) or 'none'}")


async def main() -> None:
    print(await trace("orbits", 2, {}), flush=True)
    print(await trace("ftcamp", 3, {"scenario": ftcamp_scenario(20)}), flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="accepted for the smoke test; changes nothing")
    parser.parse_args()
    asyncio.run(main())
