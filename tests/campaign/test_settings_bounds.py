"""P-12: timing settings have bounds. A bad value through the service on a real SQLite file
is refused with a typed UserError saying what is allowed, and changes nothing (fuzzed); a
value stored before the bounds existed is read at the bound, so deadlines keep working."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.campaign import CampaignService
from bot.campaign.settings import MAX_STEP_HOURS, parse_timing, timing
from bot.errors import InvalidInput, UserError
from bot.rules.base import Ruleset
from storage import Database, open_database
from tests.campaign.conftest import ALICE, BOB, CHANNEL, GM, GUILD, SEED, FakeClock
from tests.support.examples import examples


@pytest.mark.parametrize(("key", "value", "fragment"), [
    ("step_hours", "1e9", "a number from 0.1 to 720 (30 days)"),
    ("step_hours", "721", "from 0.1 to 720"),
    ("step_hours", "nan", "from 0.1 to 720"),
    ("step_hours", "inf", "from 0.1 to 720"),
    ("step_hours", "-1", "from 0.1 to 720"),
    ("step_hours", "0.01", "from 0.1 to 720"),
    ("step_hours", "9" * 101, "101 characters"),
    ("reminders", "1000", "at most 720"),
    ("reminders", "nan", "above 0 and at most 720"),
    ("reminders", "1,2,3,4,5,6", "up to 5 comma-separated numbers"),
    ("reminders", "0", "above 0"),
])
def test_p12_out_of_range_timing_values_are_refused(key: str, value: str, fragment: str) -> None:
    with pytest.raises(InvalidInput) as info:
        parse_timing(key, value)
    assert info.value.message.startswith("Bad value") and fragment in info.value.message


def test_p12_values_at_the_bounds_are_accepted() -> None:
    assert parse_timing("step_hours", "720") == MAX_STEP_HOURS
    assert parse_timing("step_hours", "0") == 0.0
    assert parse_timing("step_hours", "0.1") == 0.1
    assert parse_timing("reminders", "720, 48, 12, 1, 0.5") == [720.0, 48.0, 12.0, 1.0, 0.5]


def test_p12_a_stored_value_from_before_the_bounds_is_read_at_the_bound() -> None:
    read = timing({"step_hours": 1e9, "reminders": [1e9, math.nan, -3, 2.0, 2.0]})
    assert read["step_hours"] == MAX_STEP_HOURS
    assert read["reminders"] == [MAX_STEP_HOURS, 2.0]
    assert timing({"step_hours": math.inf})["step_hours"] == 48.0
    assert timing({"step_hours": "x", "reminders": "12"})["reminders"] == []
    assert timing({"step_hours": 0})["step_hours"] == 0.0


async def test_p12_a_huge_step_from_the_config_still_gives_a_deadline(
    db: Database, guess_rules: Ruleset
) -> None:
    """The issue's case: 1e9 hours made `start` fail with 'year 116109 is out of range'. A
    campaign created with such a default (a config file, or a row stored before the bounds)
    starts with the deadline at the bound."""
    del guess_rules
    clock = FakeClock()
    service = CampaignService(db, clock=clock, timing_defaults={"step_hours": 1e9},
                              seed_source=lambda: SEED)
    await service.create(GM, GUILD, CHANNEL, "guess", "Dice Cup")
    for p in (ALICE, BOB):
        await service.join(p, CHANNEL)
    await service.start(GM, CHANNEL)
    status = await service.status(CHANNEL, ALICE.user_id)
    assert status.deadline is not None
    assert (status.deadline - clock.now).total_seconds() == MAX_STEP_HOURS * 3600
    shown = await service.settings(GM, CHANNEL, {})
    assert shown["step_hours"] == "720"


# ---------------------------------------------------------------- fuzz through the service

def _bad_hours(text: str) -> bool:
    """Not a legal number of hours (0, or 0.1 to 720)."""
    try:
        number = float(text)
    except ValueError:
        return True
    return not (number == 0 or 0.1 <= number <= 720)


def _bad_offset(text: str) -> bool:
    """Not a legal reminder offset (above 0, at most 720)."""
    try:
        number = float(text)
    except ValueError:
        return True
    return not 0 < number <= 720


RAW_HOURS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.floats(min_value=720.0001, max_value=1e300).map(str),
    st.floats(max_value=-1e-9).map(str),
    st.floats(min_value=1e-300, max_value=0.0999).map(str),
    st.integers(min_value=721, max_value=10**4000).map(str).map(lambda s: s[:4000]),
    st.text(max_size=30).filter(lambda t: "," not in t
                                and t.strip().lower() not in ("", "none", "off")),
    st.sampled_from(["1e9", "nan", "-inf", "Infinity", "0x10", "1_000_000", "--1"]),
)
HOURS_TEXT = RAW_HOURS.filter(_bad_hours)
BAD_OFFSET = RAW_HOURS.filter(_bad_offset)
DEEP = st.recursive(st.one_of(st.integers(), st.text(max_size=5), st.none()),
                    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(
                        st.text(max_size=3), kids, max_size=3), max_leaves=20)


def _deep_list(depth: int) -> list[Any]:
    out: list[Any] = []
    for _ in range(depth):
        out = [out]
    return out


NOT_TEXT = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), DEEP,
                     st.integers(1, 5000).map(_deep_list), st.just(10**5000))


def _bad_reminders(parts: list[str]) -> str:
    return ",".join(parts)


BAD_CHANGES = st.one_of(
    st.fixed_dictionaries({"step_hours": HOURS_TEXT}),
    st.fixed_dictionaries({"reminders": st.tuples(
        st.lists(st.sampled_from(["12", "1", "0.5"]), max_size=2), BAD_OFFSET)
        .map(lambda p: _bad_reminders([*p[0], p[1]]))}),
    st.fixed_dictionaries({"reminders": st.lists(st.just("2"), min_size=6, max_size=40)
                           .map(_bad_reminders)}),
    st.fixed_dictionaries({"on_deadline": st.text(max_size=20).filter(
        lambda t: t.strip().lower() not in ("default", "wait"))}),
    st.fixed_dictionaries({st.sampled_from(["step_hours", "reminders", "on_deadline"]):
                           NOT_TEXT}),
    st.fixed_dictionaries({st.sampled_from(["target", "defaults"]): st.one_of(
        st.none(), DEEP.filter(lambda v: isinstance(v, list | dict)),
        st.integers(1, 5000).map(_deep_list), st.just(10**5000))}),
    st.fixed_dictionaries({"target": st.one_of(st.integers(21, 10**30).map(str),
                                               st.just("9" * 5000), HOURS_TEXT)}),
    st.fixed_dictionaries({"target": st.just("x" * 200_001)}),
    # one good change beside a bad one: nothing of either is kept
    st.fixed_dictionaries({"step_hours": st.just("5"), "reminders": BAD_OFFSET}),
    st.dictionaries(st.one_of(st.integers(), st.none(), st.text(max_size=8)),
                    st.text(max_size=5), min_size=1, max_size=3).filter(
        lambda d: not all(k in ("step_hours", "reminders", "on_deadline", "target", "defaults")
                          for k in d)),
    # not a dict at all (an empty value means "no change" and is not drawn)
    st.one_of(st.lists(st.text(max_size=5), min_size=1, max_size=3), st.text(min_size=1),
              st.integers().filter(bool)),
)


async def _dump(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    tables = await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table' "
                               "ORDER BY name")
    return {t[0]: [tuple(r) for r in await db.fetchall(f"SELECT * FROM {t[0]}")]  # noqa: S608
            for t in tables}


@pytest.mark.parametrize("status", ["setup", "running"])
def test_fuzz_p12_bad_settings_through_the_service_change_nothing(
    tmp_path: Path, guess_rules: Ruleset, status: str
) -> None:
    """Each example goes through CampaignService.settings on one real SQLite file; the whole
    database (every table) is compared before and after."""
    del guess_rules  # registered for the service
    loop = asyncio.new_event_loop()
    db = loop.run_until_complete(open_database(tmp_path / f"{status}.db"))
    try:
        service = CampaignService(db, clock=FakeClock(), wake=lambda: None,
                                  seed_source=lambda: SEED)

        async def setup() -> None:
            await service.create(GM, GUILD, CHANNEL, "guess", "Dice Cup")
            for p in (ALICE, BOB):
                await service.join(p, CHANNEL)
            if status == "running":
                await service.start(GM, CHANNEL)

        loop.run_until_complete(setup())
        before = loop.run_until_complete(_dump(db))
        counts = {"examples": 0}

        @settings(max_examples=examples(300), deadline=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
        @given(BAD_CHANGES)
        @example({"step_hours": 10**5000})  # repr() of it raises ValueError
        @example({"target": 10**5000})
        @example({"reminders": _deep_list(100)})
        @example({"step_hours": "5", "on_deadline": "later"})
        def check(changes: Any) -> None:
            counts["examples"] += 1
            with pytest.raises(UserError) as info:
                loop.run_until_complete(service.settings(GM, CHANNEL, changes))
            assert info.value.message and len(info.value.message) < 2000
            assert loop.run_until_complete(_dump(db)) == before

        check()
        assert counts["examples"] >= examples(300)
    finally:
        loop.run_until_complete(db.close())
        loop.close()
