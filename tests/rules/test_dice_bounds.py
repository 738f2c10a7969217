"""/roll expressions: count, sides, length and nesting bounded; anything else, however
built, is refused with InvalidInput (fuzzed), never another exception."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import InvalidInput
from bot.rules.dice import SeededDice
from bot.rules.dice_roll import MAX_DICE, MAX_EXPRESSION_CHARS, MAX_SIDES, parse, roll
from tests.support.examples import examples


@pytest.mark.parametrize(("expr", "fragment"), [
    ("((1d6))", "'((1d6))' is not a dice term"),  # no nesting in the grammar
    ("[2d6]", "is not a dice term"),
    ("1d" + "9" * 150, f"sides (2 to {MAX_SIDES} allowed)"),
    ("9" * 150 + "d6", f"dice (1 to {MAX_DICE} allowed)"),
    ("1d6+" * 60, f"longer than {MAX_EXPRESSION_CHARS} characters"),
    ("1d6" + "+1" * 25, "at most 20"),
    ("\u0663d6", "is not a dice term"),  # an Arabic-Indic 3 is not a count
    ("1d6kh" + "9" * 100, "keeps"),
])
def test_bounds_are_refused_with_the_reason(expr: str, fragment: str) -> None:
    with pytest.raises(InvalidInput) as info:
        parse(expr)
    assert fragment in info.value.message and "Allowed:" in info.value.message


@pytest.mark.parametrize("value", [None, 5, pytest.param(10**5000, id="5000-digits"),
                                   ["1d6"], {"d": 6}, b"1d6"])
def test_a_value_that_is_not_text_is_refused(value: Any) -> None:
    with pytest.raises(InvalidInput, match="it is not a text"):
        parse(value)


@settings(max_examples=examples(500), deadline=None)
@given(st.one_of(
    st.text(max_size=260),
    st.text(alphabet="0123456789dkhl+- ()[]", max_size=260),
    st.lists(st.sampled_from(["1d6", "d20", "100d1000", "kh", "kl", "+", "-", "(", ")",
                              "9" * 60, "d", "0", "1d6kh2"]), max_size=30).map("".join),
))
def test_fuzz_dice_expressions_roll_or_give_invalid_input(expr: str) -> None:
    try:
        result = roll(expr, SeededDice(1))
    except InvalidInput as exc:
        assert "Allowed:" in exc.message
        return
    low, high = result.expression.bounds()
    assert low <= result.total <= high
    assert len(result.rolls) <= MAX_DICE
