"""Scenario files that would crash or stall a parser (deep nesting, huge numbers, bytes that
are not UTF-8, oversize) are refused with InvalidInput saying why; fuzzed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import InvalidInput, UserError
from bot.rules.ftcamp import build, export_scenario, load_scenario
from bot.rules.ftcamp.scenario import MAX_SCENARIO
from bot.rules.safe_load import MAX_DEPTH, MAX_INT_DIGITS
from tests.support.examples import examples

MINIMAL = export_scenario(build.scenario("Minimal", (4, 4), ["One", "Two"],
                                         [build.group("A", 1, "0101", build.craft("a", 10))]))


def problems(text: str) -> str:
    with pytest.raises(InvalidInput) as info:
        load_scenario(text)
    return info.value.message


def test_deep_nesting_is_refused_with_the_limit() -> None:
    deep = MINIMAL + "\nextra = " + "[" * 30_000 + "]" * 30_000
    assert problems(deep) == (f"Scenario is nested too deeply; at most {MAX_DEPTH} levels of "
                              "lists, tables or dotted keys are allowed.")
    keys = MINIMAL + "\n" + "x" + ".x" * 30_000 + " = 1"
    assert "nested too deeply" in problems(keys)
    tables = MINIMAL + "\nextra = " + "{a = " * 5000 + "1" + "}" * 5000
    assert "nested too deeply" in problems(tables)


def test_huge_integers_are_refused_with_the_limit() -> None:
    text = MINIMAL.replace("round = 1", "round = " + "9" * 5000)
    assert "round = " + "9" * 5000 in text
    assert problems(text) == ("Scenario holds a number with too many digits; whole numbers "
                              f"may have at most {MAX_INT_DIGITS} digits.")
    big = MINIMAL.replace("round = 1", "round = " + "9" * 100)
    assert f"at most {MAX_INT_DIGITS} digits" in problems(big)


def test_size_limit_and_not_finite_numbers() -> None:
    padded = MINIMAL + "#" * MAX_SCENARIO
    assert "at most 64 kB is allowed" in problems(padded)
    assert "finite" in problems(MINIMAL + "\nx = nan")


# ---------------------------------------------------------------- fuzz

PIECES = st.sampled_from([
    "[campaign]", "name = 'X'", "round = 2", "round = " + "9" * 5000, "round = -1",
    "[map]", "columns = 4", "rows = 4", "columns = 1e400", "columns = inf", "rows = [1]",
    "[[players]]", "seat = 1", "seat = 2", "name = 'P'", "[[groups]]", "owner = 1",
    "hex = '0101'", "hex = 101", "[[groups.craft]]", "mass = 10", "mass = 'x'",
    "thrust = " + "1" * 40, "x" + ".x" * 40 + " = 1", "a = " + "[" * 900 + "]" * 900,
    "a = " + "{b = " * 60 + "1" + "}" * 60, "[rules]", "alliances = [[1, 2]]",
    "alliances = [[[[1]]]]", "speed = 3", "name = \"\\u0000\"",
])


@settings(max_examples=examples(400), deadline=None)
@given(st.one_of(
    st.lists(PIECES, max_size=20).map("\n".join),
    st.lists(PIECES, max_size=6).map(lambda p: MINIMAL + "\n" + "\n".join(p)),
    st.text(max_size=300),
    st.binary(max_size=300).map(lambda b: b.decode("utf-8", "replace")),
))
def test_fuzz_scenarios_load_or_give_a_user_error(text: str) -> None:
    try:
        state = load_scenario(text)
    except UserError as exc:
        assert exc.message
        return
    assert state.players


def test_more_groups_than_a_campaign_can_use_are_refused_before_checking() -> None:
    many = MINIMAL + "\n" + "[[statics]]\n" * 201
    assert problems(many) == "Scenario has 201 statics; at most 200 are allowed."
