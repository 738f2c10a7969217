"""Writer trips per submit (issue 17 item 9): one round trip to the database writer thread
costs about 100 us of hand-over, so an intent gathers its statements and its reads. A
submit that only stores a sealed order costs at most 2 trips (its campaign's other rows read
once, then the COMMIT with every write queued); one that resolves a step at most 5. Counted
by bench/trips.py on the seeded demos (deterministic counts, never times)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
STORE_TRIPS = 2
RESOLVE_TRIPS = 5
# A battle's end proposes its result to its parent in the same transaction: the battle's rows,
# the parent's version (its cached copy), its battle_links rows (read once per transaction,
# ParentLinks.of) and its other rows, then the COMMIT: 5, as any resolution.
BATTLE_END_TRIPS = 5


def _bench() -> Any:
    sys.path.insert(0, str(BENCH))  # (bench/trips.py imports its neighbour _common)
    try:
        spec = importlib.util.spec_from_file_location("bench_trips", BENCH / "trips.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # (its dataclasses look their module up)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCH))


trips = _bench()


@pytest.mark.slow  # (plays whole games)
@pytest.mark.parametrize(("game", "steps"), [("orbits6", 80), ("ftcamp", None), ("hrft", 40)])
async def test_submits_stay_within_their_writer_trips(game: str, steps: int | None) -> None:
    counts = await trips.measure(game, steps)
    assert counts.submits == steps or steps is None
    assert counts.store.trips or game == "orbits6"  # (the demos store sealed orders)
    assert max(counts.store.trips, default=0) <= STORE_TRIPS, counts.store.trips
    assert counts.resolve.trips and max(counts.resolve.trips) <= RESOLVE_TRIPS, \
        sorted(counts.resolve.trips)[-5:]
    assert max(counts.battle_end.trips, default=0) <= BATTLE_END_TRIPS, counts.battle_end.trips
    if game == "ftcamp":  # (the whole game: its battles end in their threads)
        assert counts.battle_end.trips
    # the reads are served by version (test_read_cache.py): a campaign is decoded again only
    # after another writer's change (a battle's end to its parent), not ~3 times a submit
    assert counts.loads <= counts.submits // 10, counts.loads
