"""Uploaded files through the service on a real SQLite file: an HRFT ship file submitted as
`add_file`, and an FTCamp scenario that `start` reads. Every bad file is a typed UserError
and no table changes (fuzzed; H-D33, P-12)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.campaign import CampaignService
from bot.errors import UserError
from storage import Database, open_database
from tests.campaign.conftest import ALICE, BOB, CHANNEL, GM, GUILD, SEED, FakeClock
from tests.campaign.test_settings_bounds import _dump
from tests.rules.hrft.fixtures import design
from tests.rules.hrft.test_design_caps import TREE
from tests.support.examples import examples


def _on_a_real_file(tmp_path: Path, setup: Callable[[CampaignService], Coroutine[Any, Any, Any]],
                    strategy: st.SearchStrategy[Any], attempt: Callable[..., Any],
                    examples: list[Any], max_examples: int,
                    prepare: Callable[..., Any] | None = None) -> int:
    """Runs ``attempt(service, info, value)`` for each drawn value on one database; each
    must raise a UserError and leave every table as it was (as ``prepare(service, value)``
    left them, when given). Returns the examples run."""
    loop = asyncio.new_event_loop()
    db: Database = loop.run_until_complete(open_database(tmp_path / "upload.db"))
    try:
        service = CampaignService(db, clock=FakeClock(), wake=lambda: None,
                                  seed_source=lambda: SEED)
        info = loop.run_until_complete(setup(service))
        before = loop.run_until_complete(_dump(db))
        count = [0]

        def check(value: Any) -> None:
            count[0] += 1
            expected = before
            if prepare is not None:
                loop.run_until_complete(prepare(service, value))
                expected = loop.run_until_complete(_dump(db))
            with pytest.raises(UserError) as raised:
                loop.run_until_complete(attempt(service, info, value))
            assert raised.value.message
            assert loop.run_until_complete(_dump(db)) == expected

        for value in examples:
            check(value)
        settings(max_examples=max_examples, deadline=None, database=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])(
            given(strategy)(check))()
        return count[0]
    finally:
        loop.run_until_complete(db.close())
        loop.close()


async def _hrft_setup(service: CampaignService) -> Any:
    await service.create(GM, GUILD, CHANNEL, "hrft", "Skirmish")
    for p in (ALICE, BOB):
        await service.join(p, CHANNEL)
    return await service.start(GM, CHANNEL)


async def _add_file(service: CampaignService, info: Any, value: tuple[str, Any]) -> None:
    name, content = value
    await service.submit(ALICE, info.id, info.step_no,
                         {"type": "add_file", "filename": name, "content": content})


BAD_SHIP_TEXT = st.one_of(
    st.text(max_size=300),
    TREE.map(lambda t: json.dumps({"ships": t})),  # no designs carried: never a ship
    TREE.map(lambda t: json.dumps({**design(), "systems": t, "tmf": 0})),
    st.integers(1, 3000).map(lambda n: "[" * n + "]" * n),
    st.integers(1, 5000).map(lambda n: '{"tmf": ' + "9" * n + "}"),
    st.integers(3, 40).map(lambda n: json.dumps(design(mass=10**n, hull=10**n, armour=10**n))),
    st.integers(61, 200).map(lambda n: json.dumps(design(
        systems=[{"uid": f"s{i}", "type": "pds"} for i in range(n)]))),
    st.integers(13, 40).map(lambda n: json.dumps({
        "ships": [{"design_id": "d1"}] * n, "designs": [{**design(), "id": "d1"}]})),
    st.integers(1, 3000).map(lambda n: "a" + ".a" * n + " = 1"),
)
FILE_NAMES = st.sampled_from(["x.FTDesign", "x.FTFleet", "x.json", "x.toml"])


def test_fuzz_bad_ship_files_submitted_change_nothing(tmp_path: Path) -> None:
    count = _on_a_real_file(
        tmp_path, _hrft_setup, st.tuples(FILE_NAMES, BAD_SHIP_TEXT), _add_file,
        examples=[("deep.json", "[" * 100_000 + "]" * 100_000),
                  ("huge.json", "9" * 5000), ("big.json", " " * 200_001),
                  ("x.json", ["not", "text"]), ("x.FTDesign", json.dumps(design(mass=10**7)))],
        max_examples=examples(300))
    assert count >= examples(300) + 5  # the 5 written out and every one drawn


async def _ftcamp_setup(service: CampaignService) -> Any:
    await service.create(GM, GUILD, CHANNEL, "ftcamp", "Border War")
    for p in (ALICE, BOB):
        await service.join(p, CHANNEL)


async def _store(service: CampaignService, scenario: str) -> None:
    """The GM's /ftcamp load or /campaign settings stores the text; start reads it."""
    await service.settings(GM, CHANNEL, {"scenario": scenario})


async def _start(service: CampaignService, info: Any, scenario: str) -> None:
    del info, scenario
    await service.start(GM, CHANNEL)


BAD_SCENARIOS = st.one_of(
    st.text(max_size=200).filter(lambda t: t.strip() != ""),
    st.integers(1, 3000).map(lambda n: "a = " + "[" * n + "]" * n),
    st.integers(21, 3000).map(lambda n: "a" + ".a" * n + " = 1"),
    st.integers(16, 5000).map(lambda n: "[campaign]\nround = " + "9" * n),
    st.sampled_from(["[map]\ncolumns = inf", "x = nan", "[[groups]]\n" * 201]),
)


def test_fuzz_bad_scenarios_refused_at_start_change_nothing(tmp_path: Path) -> None:
    count = _on_a_real_file(
        tmp_path, _ftcamp_setup, BAD_SCENARIOS, _start, prepare=_store,
        examples=["a = " + "[" * 30_000 + "]" * 30_000, "x" + ".x" * 30_000 + " = 1",
                  "round = " + "9" * 5000, "#" * 64_001, "[[players]]\n" * 300],
        max_examples=examples(150))
    assert count >= examples(150) + 5
