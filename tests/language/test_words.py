"""The one plural helper (bot/rules/words.py): counts, plurals and possessives."""

from __future__ import annotations

import pytest

from bot.campaign.summaries import describe_action
from bot.rules.base import Request
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


def _request() -> Request:
    from bot.rules.base import ActionSpec, InputField, Option
    card = InputField(name="card", label="Card", options=[Option(value="7h", label="7♥")])
    stance = InputField(name="stance", label="Stance", min_values=0, options=[
        Option(value="attack", label="Attack"), Option(value="blockade", label="Blockade")])
    return Request(seat=1, kind="turn", step="deploy", prompt="Deploy", actions=[
        ActionSpec(type="deploy", label="Deploy a fleet card", fields=[card, stance]),
        ActionSpec(type="pass", label="Pass")])


def test_summaries_use_the_labels_and_skip_empty_fields() -> None:
    req = _request()
    assert describe_action(req, {"type": "deploy", "card": "7h", "stance": "attack"}) == (
        "Deploy a fleet card (Card: 7♥; Stance: Attack)")
    assert describe_action(req, {"type": "deploy", "card": "7h", "stance": []}) == (
        "Deploy a fleet card (Card: 7♥)")  # no "Stance: none"
    assert describe_action(req, {"type": "pass"}) == "Pass"


@pytest.mark.parametrize("empty", [[], None, "", [""], [None]])
def test_an_empty_field_is_left_out_whatever_form_empty_takes(empty: object) -> None:
    req = _request()
    assert describe_action(req, {"type": "deploy", "card": "7h", "stance": empty}) == (
        "Deploy a fleet card (Card: 7♥)")
    assert describe_action(req, {"type": "deploy", "card": empty, "stance": empty}) == (
        "Deploy a fleet card")  # nothing chosen in any field: the button's words alone
    assert describe_action(req, {"type": "deploy", "card": "7h"}) == (
        "Deploy a fleet card (Card: 7♥)")  # a field missing from the action


def test_the_panel_and_the_service_say_a_choice_with_one_function() -> None:
    from cogs import panel_view
    assert panel_view.describe_action is describe_action


def test_a_lone_action_is_summarised_by_its_fields_not_its_button() -> None:
    from bot.rules.base import ActionSpec, InputField, Option
    order = InputField(name="order:Raiders", label="Raiders", options=[
        Option(value="SF", label="SF StandOff")])
    req = Request(seat=1, kind="sealed", step="engage", prompt="Engage", actions=[
        ActionSpec(type="submit", label="Submit", fields=[order])])
    assert describe_action(req, {"type": "submit", "order:Raiders": "SF"}) == (
        "Raiders: SF StandOff")
