"""Writer trips per submit: how many round trips to the database writer thread (each about
100 us of hand-over) and statements a submit costs, on the real rule sets' demos.

    .venv/bin/python bench/trips.py [--steps N] [--only orbits6 ftcamp hrft]

A submit that only stores a sealed order ("store"), one that resolves a step ("resolve": the
rules ran, the resolution number moved) and one that ends a battle fought in its own thread
("battle end": its result goes to its parent campaign in the same transaction) are counted
apart; each line gives the mean and the maximum per submit. ``loads``: campaigns read from
SQLite (decoded and validated) during the whole game, reads included. Counts are
deterministic (seeded demos, virtual clock): tests/campaign/test_writer_trips.py holds the
bounds (issue 17 item 9).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import _common  # noqa: F401, I001  (puts the repository on sys.path)

from bot.campaign import CampaignService
from bot.campaign.demo import DemoFailed, run_demo
from storage import campaigns

GAMES: dict[str, tuple[str, int | None, dict[str, str]]] = {
    "orbits6": ("orbits", 6, {}),
    "ftcamp": ("ftcamp", None, {"rounds": "3"}),
    "hrft": ("hrft", None, {}),
}


@dataclass
class Kind:
    trips: list[int] = field(default_factory=list)
    statements: list[int] = field(default_factory=list)

    def line(self, label: str) -> str:
        if not self.trips:
            return f"  {label}: none"
        n = len(self.trips)
        return (f"  {label}: trips mean {sum(self.trips) / n:.1f} max {max(self.trips)}; "
                f"statements mean {sum(self.statements) / n:.1f} max {max(self.statements)}"
                f" (n={n})")


@dataclass
class Counts:
    store: Kind = field(default_factory=Kind)
    resolve: Kind = field(default_factory=Kind)
    # a battle's last resolution: its result goes to its parent in the same transaction
    battle_end: Kind = field(default_factory=Kind)
    loads: int = 0
    submits: int = 0


class _Enough(Exception):
    """--steps submits were measured."""


@contextmanager
def counting(counts: Counts, steps: int | None) -> Iterator[None]:
    """Wraps ``CampaignService.submit`` (the demo drives every input through it) and counts
    the writer's trips and statements of each call."""
    submit = CampaignService.submit

    async def measured(self: CampaignService, actor: Any, campaign_id: int, step_no: int,
                       action: dict[str, Any], seat: int | None = None) -> Any:
        if steps is not None and counts.submits >= steps:
            raise _Enough
        before = await campaigns.get(self.db, campaign_id)  # (the reader: no writer trip)
        trips0, stmts0 = self.db.writer_counts()
        result = await submit(self, actor, campaign_id, step_no, action, seat=seat)
        trips1, stmts1 = self.db.writer_counts()
        after = await campaigns.get(self.db, campaign_id)
        assert before is not None and after is not None
        kind = (counts.store if after.resolution_no == before.resolution_no
                else counts.battle_end if after.status == "ended" and after.parent_id
                else counts.resolve)
        kind.trips.append(trips1 - trips0)
        kind.statements.append(stmts1 - stmts0)
        counts.submits += 1
        counts.loads = _loads(self)
        return result

    CampaignService.submit = measured  # type: ignore[method-assign]
    try:
        yield
    finally:
        CampaignService.submit = submit  # type: ignore[method-assign]


def _loads(service: CampaignService) -> int:
    engine: Any = service.engine
    return int(getattr(engine, "core", engine).loads)


async def measure(game: str, steps: int | None = None) -> Counts:
    """Plays the named demo (``GAMES``), up to ``steps`` submits, and counts."""
    ruleset, players, options = GAMES[game]
    counts = Counts()
    with tempfile.TemporaryDirectory(prefix="admiralty-trips-") as tmp, \
            counting(counts, steps):
        try:
            await run_demo(ruleset, Path(tmp) / "out", seed=7, players=players,
                           options=options)
        except (_Enough, DemoFailed) as exc:
            if not isinstance(exc, _Enough) and not isinstance(exc.__cause__, _Enough):
                raise
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=None, help="submits per game (all)")
    parser.add_argument("--only", nargs="*", choices=sorted(GAMES), default=list(GAMES))
    args = parser.parse_args()
    for game in args.only:
        counts = asyncio.run(measure(game, args.steps))
        print(f"{game}: {counts.submits} submits, {counts.loads} campaign loads")
        print(counts.store.line("store (non-resolving)"))
        print(counts.resolve.line("resolve"))
        print(counts.battle_end.line("battle end (to its parent)"))


if __name__ == "__main__":
    main()
