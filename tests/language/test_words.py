"""The one plural helper (bot/rules/words.py): counts, plurals and possessives."""

from __future__ import annotations

import pytest

from bot.rules.words import count_of, listing, plural, plural_of, possessive, singular_of


@pytest.mark.parametrize(("n", "word", "text"), [
    (1, "part", "1 part"), (2, "part", "2 parts"), (0, "part", "0 parts"),
    (1, "battle", "1 battle"), (3, "battle", "3 battles"),
    (1, "system box", "1 system box"), (2, "system box", "2 system boxes"),
    (2, "face-down card", "2 face-down cards"), (2, "DCP", "2 DCPs"), (1, "DCP", "1 DCP"),
    (1, "die", "1 die"), (3, "die", "3 dice"), (2, "craft", "2 craft"),
    (2, "sky", "2 skies"), (2, "day", "2 days"), (2, "match", "2 matches"),
])
def test_plural_says_the_right_number(n: int, word: str, text: str) -> None:
    assert plural(n, word) == text


def test_an_explicit_plural_wins() -> None:
    assert plural(2, "person", "people") == "2 people"
    assert plural(1, "person", "people") == "1 person"


@pytest.mark.parametrize("word", ["part", "system box", "battle", "die", "craft", "DCP",
                                  "contact", "point", "sky"])
def test_singular_undoes_plural(word: str) -> None:
    assert singular_of(plural_of(word)) == word


def test_a_label_given_in_the_plural_is_counted() -> None:
    # O-14: points_label is a setting written in the plural ("system boxes").
    assert count_of(1, "system boxes") == "1 system box"
    assert count_of(7, "system boxes") == "7 system boxes"
    assert count_of(1, "points") == "1 point"
    assert count_of(0, "points") == "0 points"


@pytest.mark.parametrize(("name", "text"), [
    ("Alice", "Alice's"), ("Pickets", "Pickets'"), ("HQS", "HQS'"), ("Bob", "Bob's")])
def test_possessive(name: str, text: str) -> None:
    assert possessive(name) == text


def test_listing() -> None:
    assert listing([]) == "none"
    assert listing([], empty="nobody") == "nobody"
    assert listing(["a"]) == "a"
    assert listing(["a", "b"]) == "a and b"
    assert listing(["a", "b", "c"]) == "a, b and c"
