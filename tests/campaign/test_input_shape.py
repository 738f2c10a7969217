"""``submit`` and ``save_draft`` check the shape and range of what they get before anything
else (issue 8, parts 5 and 9): every bad input is a typed UserError and the database is
unchanged. Hypothesis drives the real service on a real SQLite file."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bot.campaign import CampaignService
from bot.campaign.inputs import MAX_ENTRIES, MAX_ID, MAX_TEXT
from bot.errors import InvalidInput, UserError
from bot.rules.base import Ruleset
from storage import open_database
from tests.campaign.conftest import ALICE, BOB, SEED, FakeClock, guess, started
from tests.support.dbprint import fingerprint

NUMBERS = [str(n) for n in range(1, 7)]
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(10**12), 10**12),
                    st.text(max_size=12), st.floats(allow_nan=False))
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                  max_size=4),
    max_leaves=8,
)
# Values out of range for an id: beyond SQLite's 64 bits, negative, or no whole number at all.
BAD_IDS = st.one_of(st.integers(min_value=MAX_ID + 1, max_value=2**80),
                    st.integers(max_value=-1, min_value=-(2**70)), st.just(True),
                    st.floats(allow_nan=False), st.text(max_size=5), st.none(),
                    st.lists(st.integers(), max_size=2))


def _not_a_guess(value: Any) -> bool:
    """True unless ``value`` is a legal answer to the guess request's number field."""
    return not (value in NUMBERS or (isinstance(value, list) and len(value) == 1
                                     and value[0] in NUMBERS))


def bad_actions() -> st.SearchStrategy[Any]:
    """Actions the guess step must refuse: each carries at least one defect."""
    not_dict = JSON.filter(lambda v: not isinstance(v, dict)) | st.binary(max_size=8) | st.tuples(
        st.text(max_size=3))
    bad_type = st.fixed_dictionaries(
        {"type": JSON.filter(lambda t: t != "guess")
         | st.text(min_size=65, max_size=80)},
        optional={"number": st.sampled_from(NUMBERS)},
    )
    bad_number = st.fixed_dictionaries({"type": st.just("guess"),
                                        "number": JSON.filter(_not_a_guess)})
    defect = st.one_of(
        st.lists(st.lists(st.text(max_size=2), max_size=2), min_size=1, max_size=2),  # nested
        st.dictionaries(st.text(max_size=3), st.text(max_size=3), min_size=0, max_size=2),
        st.text(min_size=MAX_TEXT + 1, max_size=MAX_TEXT + 3),
        st.integers(min_value=10**9 + 1) | st.integers(max_value=-(10**9) - 1),
        st.floats(allow_nan=False),
        st.lists(st.text(max_size=2), min_size=101, max_size=102),
    )
    bad_extra = st.builds(lambda key, value, n: {"type": "guess", "number": n, key: value},
                          st.text(min_size=1, max_size=8).filter(lambda k: k not in (
                              "type", "number", "content")),  # content: a file's text
                          defect, st.sampled_from(NUMBERS))
    bad_key = st.builds(lambda key, n: {"type": "guess", "number": n, key: "x"},
                        st.integers() | st.none() | st.text(min_size=101, max_size=102)
                        | st.just(""), st.sampled_from(NUMBERS))
    too_many = st.integers(MAX_ENTRIES, MAX_ENTRIES + 3).map(
        lambda n: {"type": "guess", "number": "3", **{f"k{i}": "v" for i in range(n)}})
    return st.one_of(not_dict, bad_type, bad_number, bad_extra, bad_key, too_many)


def draft_cases() -> st.SearchStrategy[tuple[Any, Any, Any]]:
    """(action type, field, values) that a draft of the guess step must refuse."""
    good_values = st.lists(st.sampled_from(NUMBERS), max_size=3, unique=True)
    bad_values = st.one_of(
        JSON.filter(lambda v: not isinstance(v, list)),
        st.lists(JSON.filter(lambda v: not isinstance(v, str)), min_size=1, max_size=3),
        st.lists(st.text(max_size=4).filter(lambda v: v not in NUMBERS), min_size=1,
                 max_size=3),  # not one of the choices offered
        st.lists(st.text(min_size=101, max_size=102), min_size=1, max_size=1),
        st.lists(st.sampled_from(NUMBERS), min_size=26, max_size=30),
    )
    bad_name = JSON.filter(lambda v: v not in ("guess", "number")) | st.text(min_size=101,
                                                                            max_size=102)
    return st.one_of(
        st.tuples(bad_name, st.just("number"), good_values),
        st.tuples(st.just("guess"), bad_name, good_values),
        st.tuples(st.just("guess"), st.just("number"), bad_values),
    )


class Harness:
    """One started guess campaign on a real file, driven from a sync hypothesis test."""

    def __init__(self, runner: asyncio.Runner, tmp_path: Path) -> None:
        self.runner = runner
        self.path = tmp_path / "shape.db"
        self.db = runner.run(open_database(self.path))
        self.service = CampaignService(self.db, clock=FakeClock(), seed_source=lambda: SEED)
        info = runner.run(started(self.service, ALICE, BOB))
        self.cid, self.step = info.id, info.step_no
        # something in every table a panel writes: a draft and a sealed submission
        runner.run(self.service.save_draft(ALICE, self.cid, self.step, "guess", "number", ["5"]))
        runner.run(self.service.submit(ALICE, self.cid, self.step, guess(4)))
        self.before = fingerprint(self.path)
        self.outcomes: Counter[str] = Counter()

    def refused(self, call: Callable[[], Any]) -> UserError:
        with pytest.raises(UserError) as caught:
            self.runner.run(call())
        assert fingerprint(self.path) == self.before
        self.outcomes[type(caught.value).__name__] += 1
        return caught.value

    def close(self) -> None:
        self.runner.run(self.db.close())


@pytest.fixture
def harness(tmp_path: Path, guess_rules: Ruleset) -> Any:
    with asyncio.Runner() as runner:
        h = Harness(runner, tmp_path)
        yield h
        h.close()


FUZZ = settings(max_examples=300, deadline=None,  # every kind of refusal must come up
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow, HealthCheck.filter_too_much])


def test_fuzz_bad_actions_are_refused_and_change_nothing(harness: Harness) -> None:
    h = harness

    @FUZZ
    @given(bad_actions())
    def check(action: Any) -> None:
        h.refused(lambda: h.service.submit(ALICE, h.cid, h.step, action))

    check()
    print(f"\nsubmit actions: {dict(h.outcomes)} ({sum(h.outcomes.values())} examples)")
    assert h.outcomes["InvalidInput"] > 0 and h.outcomes["RulesError"] > 0


def test_fuzz_bad_ids_are_refused_and_change_nothing(harness: Harness) -> None:
    h = harness

    @FUZZ
    @given(st.integers(0, 2), BAD_IDS | st.integers(10**6, MAX_ID))
    def check(which: int, bad: Any) -> None:
        assume(not (which == 2 and bad is None))  # no seat named: a valid call
        ids = [h.cid, h.step, 1]
        ids[which] = bad
        error = h.refused(lambda: h.service.submit(ALICE, ids[0], ids[1], guess(2),
                                                   seat=ids[2]))
        if not isinstance(bad, int) or isinstance(bad, bool) or not 0 <= bad <= MAX_ID:
            assert isinstance(error, InvalidInput) and "whole number" in error.message
        h.refused(lambda: h.service.save_draft(ALICE, ids[0], ids[1], "guess", "number",
                                               ["2"], seat=ids[2]))

    check()
    print(f"\nids: {dict(h.outcomes)} ({sum(h.outcomes.values())} calls)")
    assert h.outcomes["InvalidInput"] > 0 and h.outcomes["NotFound"] > 0


def test_fuzz_bad_drafts_are_refused_and_change_nothing(harness: Harness) -> None:
    h = harness

    @FUZZ
    @given(draft_cases())
    def check(case: tuple[Any, Any, Any]) -> None:
        action_type, field, values = case
        h.refused(lambda: h.service.save_draft(ALICE, h.cid, h.step, action_type, field,
                                               values))

    check()
    print(f"\ndrafts: {dict(h.outcomes)} ({sum(h.outcomes.values())} examples)")
    assert h.outcomes["InvalidInput"] > 0


@pytest.mark.parametrize(("action", "says"), [
    (["guess", "3"], "set of named fields, not a list"),
    ({"type": ["guess"], "number": "3"}, "action type must be text"),
    ({"type": "guess", "number": [["3"]]}, "or a list of those; got a list"),
    ({"type": "guess", "number": {"v": "3"}}, "got a set of fields"),
    ({"type": "guess", "number": "3", "note": "x" * (MAX_TEXT + 1)}, "at most 1000 characters"),
])
async def test_each_shape_refusal_says_what_is_allowed(
    service: CampaignService, action: Any, says: str
) -> None:
    info = await started(service, ALICE, BOB)
    with pytest.raises(InvalidInput, match=says.replace("(", r"\(")):
        await service.submit(ALICE, info.id, info.step_no, action)


async def test_a_campaign_id_beyond_64_bits_is_refused_not_overflowed(
    service: CampaignService,
) -> None:
    info = await started(service, ALICE, BOB)
    for call in (
        service.submit(ALICE, 2**63, info.step_no, guess(3)),
        service.save_draft(ALICE, 2**63, info.step_no, "guess", "number", ["3"]),
        service.panel(2**63, info.step_no, 1),
    ):
        with pytest.raises(InvalidInput, match="whole number from 0 to"):
            await call


def test_an_uploaded_files_text_may_be_as_long_as_an_upload() -> None:
    """A Fleet Manager fleet is several kB: the file's 'content' field may hold an upload
    (safe_load.MAX_BYTES); every other text keeps the short limit."""
    from bot.campaign.inputs import MAX_FILE_TEXT, check_action
    from bot.rules.safe_load import MAX_BYTES

    assert MAX_FILE_TEXT == MAX_BYTES
    check_action({"type": "add_file", "filename": "f.FTFleet", "content": "x" * MAX_BYTES})
    with pytest.raises(InvalidInput, match="'content' holds at most 200000 characters"):
        check_action({"type": "add_file", "content": "x" * (MAX_BYTES + 1)})
    with pytest.raises(InvalidInput, match="'filename' holds at most 1000 characters"):
        check_action({"type": "add_file", "filename": "x" * 1001, "content": "{}"})
