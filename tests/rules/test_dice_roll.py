"""Dice expressions for /roll: grammar, limits, keep-highest/lowest, formatting."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import InvalidInput
from bot.rules.dice import ScriptedDice, SeededDice
from bot.rules.dice_roll import MAX_DICE, parse, roll
from tests.support.examples import examples


def test_keep_highest_plus_constant_formats_like_the_example() -> None:
    result = roll("2d6kh1+3", ScriptedDice([5, 2]))
    assert result.total == 8
    assert result.rolls == [5, 2]
    assert result.kept_rolls == [5]
    assert result.format() == "2d6kh1+3: [5, ~~2~~] + 3 = **8**"


def test_keep_lowest_minus_constant() -> None:
    result = roll("3d6kl1-1", ScriptedDice([4, 2, 6]))
    assert result.total == 1
    assert result.format() == "3d6kl1-1: [~~4~~, 2, ~~6~~] - 1 = **1**"


def test_four_d6_keep_three_drops_the_lowest() -> None:
    result = roll("4d6kh3", ScriptedDice([3, 1, 6, 5]))
    assert result.kept_rolls == [3, 6, 5]
    assert result.total == 14


def test_ties_keep_the_earlier_die() -> None:
    result = roll("3d6kh1", ScriptedDice([4, 4, 2]))
    assert result.format() == "3d6kh1: [4, ~~4~~, ~~2~~] = **4**"


def test_several_dice_terms_and_spaces_and_case() -> None:
    result = roll(" D20 + 2D4 - 1 ", ScriptedDice([14, 3, 2]))
    assert result.expression.text() == "1d20+2d4-1"
    assert result.total == 18
    assert result.format() == "1d20+2d4-1: [14] + [3, 2] - 1 = **18**"


def test_subtracted_dice_and_leading_minus() -> None:
    assert roll("10-1d4", ScriptedDice([3])).total == 7
    result = roll("-1d4+5", ScriptedDice([3]))
    assert result.total == 2
    assert result.format() == "-1d4+5: - [3] + 5 = **2**"


def test_plain_d6_means_one_die() -> None:
    assert roll("d6", ScriptedDice([6])).format() == "1d6: [6] = **6**"


@pytest.mark.parametrize(
    ("expr", "fragment"),
    [
        ("", "empty"),
        ("2d6!", "'2d6!' is not a dice term"),
        ("101d6", "101 dice"),
        ("60d6+60d6", "120 dice"),
        ("2d1", "1 sides"),
        ("2d1001", "1001 sides"),
        ("2d6kh3", "keeps 3 of 2"),
        ("2d6kh0", "keeps 0 of 2"),
        ("2d6+", "no term after it"),
        ("2d6++1", "no term after it"),
        ("5", "rolls no dice"),
        ("2d6+99999", "too large"),
        ("x" * 300, "longer than"),
        ("+".join(["d6"] * 21), "21 terms"),
        ("0d6", "0 dice"),
        ("2 d 6 x", "is not a dice term"),
    ],
)
def test_bad_expressions_say_what_is_wrong_and_what_is_allowed(expr: str, fragment: str) -> None:
    with pytest.raises(InvalidInput) as info:
        parse(expr)
    message = info.value.message
    assert fragment in message
    assert "Allowed:" in message and "2d6kh1+3" in message and "4d6kh3" in message


def test_bounds() -> None:
    assert parse("2d6kh1+3").bounds() == (4, 9)
    assert parse("1d20+2d4-1").bounds() == (2, 27)
    assert parse("10-1d4").bounds() == (6, 9)


_term = st.one_of(
    st.builds(
        lambda n, s, k, mode: f"{n}d{s}{mode}{min(k, n)}" if mode else f"{n}d{s}",
        st.integers(1, 8),
        st.integers(2, 30),
        st.integers(1, 8),
        st.sampled_from(["", "kh", "kl"]),
    ),
    st.integers(0, 50).map(str),
)


@settings(max_examples=examples(80), deadline=None)
@given(
    first=_term.filter(lambda t: "d" in t),
    rest=st.lists(st.tuples(st.sampled_from("+-"), _term), max_size=4),
    seed=st.integers(0, 10_000),
)
def test_total_within_bounds_and_kept_count(
    first: str, rest: list[tuple[str, str]], seed: int
) -> None:
    expr = first + "".join(sign + term for sign, term in rest)
    parsed = parse(expr)
    result = roll(expr, SeededDice(seed, "roll"))
    low, high = parsed.bounds()
    assert low <= result.total <= high
    for term_result in result.terms:
        assert len(term_result.rolls) == (term_result.term.count if term_result.term.is_dice else 0)
        assert sum(term_result.kept) == (term_result.term.kept if term_result.term.is_dice else 0)
        assert all(1 <= r <= term_result.term.sides for r in term_result.rolls)
    # The canonical text parses back to the same expression.
    assert parse(parsed.text()) == parsed
    assert len(result.format()) < 2000


def test_largest_expression_fits_a_discord_message() -> None:
    result = roll(f"{MAX_DICE}d1000kh50", SeededDice(1))
    assert len(result.format()) < 2000
