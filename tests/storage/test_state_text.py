"""The state column's text is the same whether the service encoded a new state from its model
(pydantic's ``model_dump_json``) or from a dict (an undo, a GM edit): ``encode_state``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import BaseModel

from bot.rules import registry
from bot.rules.base import Seat
from bot.rules.dice import SeededDice
from storage.campaigns import CampaignRow, encode_state
from storage.status import Status


class Loose(BaseModel):
    data: dict[str, Any]


@pytest.mark.parametrize("name", ["orbits", "ftcamp", "hrft"])
def test_a_started_state_encodes_as_its_model_does(name: str) -> None:
    rules = registry.get(name)
    seats = [Seat(number=i, name=f"Player {i}") for i in (1, 2)]
    state = rules.start(rules.options_model(), seats, SeededDice(3)).state
    model = rules.state_model.model_validate(state)
    assert encode_state(model.model_dump(mode="json")) == model.model_dump_json()


def test_escapes_and_numbers_encode_as_the_model_does() -> None:
    data = {"name": 'Ærø "quoted" \\ tab\t line\n bell\x07 →', "n": -3, "big": 2**62,
            "f": 0.1, "half": 2.5, "none": None, "yes": True, "list": [1, [2, {"k": "v"}]]}
    model = Loose(data=data)
    text = encode_state(model.model_dump(mode="json"))
    assert text == model.model_dump_json()
    assert json.loads(text) == {"data": data}


def row(state: dict[str, Any] | None) -> CampaignRow:
    return CampaignRow(id=1, guild_id=1, channel_id=1, ruleset="guess", name="c", gm_user_id=1,
                       status=Status.RUNNING, step_no=1, options={}, settings={}, state=state,
                       seed=1, resolution_no=0, step_keys=[], version=1, created_at=0.0,
                       updated_at=0.0)


def test_the_text_encoded_with_a_state_is_used_for_that_very_dict_only() -> None:
    state = {"a": 1}
    r = row(state)
    assert r.state_text() == '{"a":1}'
    r.encoded = (state, "FROM THE MODEL")
    assert r.state_text() == "FROM THE MODEL"
    r.state = {"a": 1}  # an equal dict put in later (an undo): encoded again
    assert r.state_text() == '{"a":1}'
    assert row(None).state_text() is None


@pytest.mark.parametrize("name", ["orbits", "ftcamp", "hrft"])
def test_a_state_put_as_its_models_text_is_saved_as_is_and_reads_as_its_dump(name: str) -> None:
    """Issue 17 item 9: a resolution's new state is kept as its model's text, decoded only when
    the dict is read; the dict read is the model's dump, and the text saved stays the same."""
    rules = registry.get(name)
    seats = [Seat(number=i, name=f"Player {i}") for i in (1, 2)]
    model = rules.state_model.model_validate(
        rules.start(rules.options_model(), seats, SeededDice(3)).state)
    r = row({"old": True})
    text = model.model_dump_json()
    r.put_state_text(text)
    assert r.state_text() is text  # not decoded to be saved
    assert r.state == model.model_dump(mode="json")
    assert r.state is r.state  # decoded once
    assert r.state_text() is text
    r.state = {"a": 1}  # a dict put in afterwards is encoded as itself
    assert r.state_text() == '{"a":1}'
