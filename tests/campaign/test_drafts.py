"""What a draft amounts to (bot/campaign/drafts.py): per-field defaults, the drafted action a
deadline takes, number fields."""

from __future__ import annotations

import pytest

from bot.campaign.drafts import build_action, check_number, drafted_actions, number_range
from bot.errors import InvalidInput
from bot.rules.base import ActionSpec, InputField, Option, Request


def menu(name: str, values: list[str], **kw: object) -> InputField:
    return InputField(name=name, label=name.title(),
                      options=[Option(value=v, label=v) for v in values], **kw)  # type: ignore[arg-type]


def request(*specs: ActionSpec, default: dict | None = None) -> Request:  # type: ignore[type-arg]
    return Request(seat=1, kind="turn", step="s", prompt="p", actions=list(specs),
                   default=default)


def test_number_fields_and_wide_ranges_of_whole_numbers_are_typed() -> None:
    typed = InputField(name="n", label="N", options=[], kind="number", minimum=2, maximum=9)
    assert number_range(typed) == (2, 9)
    assert number_range(menu("w", [str(k) for k in range(5, 45)])) == (5, 44)
    assert number_range(menu("w", [str(k) for k in range(25)])) is None  # fits one menu
    assert number_range(menu("w", [str(k) for k in range(0, 80, 2)])) is None  # gaps
    assert number_range(menu("w", [f"v{k}" for k in range(40)])) is None
    assert number_range(menu("w", [str(k) for k in range(40)], max_values=3)) is None
    assert check_number(typed, " 07 ") == "7"
    for bad, why in (("10", "10 is out of range"), ("1", "1 is out of range"),
                     ("x", "'x' is not a whole number"), ("", "'nothing' is not")):
        with pytest.raises(InvalidInput, match=why):
            check_number(typed, bad)


def test_a_field_keeps_its_default_whatever_the_others_hold() -> None:
    spec = ActionSpec(type="o", label="O", fields=[menu("a", ["1", "2"]), menu("b", ["1", "2"]),
                                                   menu("c", ["x"])])
    req = request(spec, default={"type": "o", "a": "2", "b": "1"})
    assert build_action(req, spec, {"o": {"b": ["2"]}}) == {"type": "o", "a": "2", "b": "2",
                                                           "c": "x"}
    # a default that is not legal for the field is not offered
    odd = request(spec, default={"type": "o", "a": "9", "b": "1"})
    with pytest.raises(InvalidInput, match="Choose A first"):
        build_action(odd, spec, {})


def test_the_drafted_action_is_the_last_touched_type_on_its_best_fitting_spec() -> None:
    from_a = ActionSpec(type="depart", label="From A", fields=[
        menu("origin", ["A"]), menu("cards", ["a1", "a2"], max_values=2)])
    from_b = ActionSpec(type="depart", label="From B", fields=[
        menu("origin", ["B"]), menu("cards", ["b1"], min_values=0, max_values=1)])
    concede = ActionSpec(type="concede", label="Concede", destructive=True)
    req = request(from_b, from_a, concede, ActionSpec(type="pass", label="Pass"),
                  default={"type": "pass"})
    draft = {"pass": {}, "depart": {"cards": ["a2"]}}
    actions = drafted_actions(req, draft)
    assert actions[0] == {"type": "depart", "origin": "A", "cards": ["a2"]}
    assert drafted_actions(req, {"depart": {"cards": ["a2"]}, "concede": {}}) == []
    assert drafted_actions(req, {}) == []
