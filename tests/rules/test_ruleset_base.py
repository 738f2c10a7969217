"""RulesetBase's optional hooks: each default does nothing, or refuses with a typed,
plain UserError naming the rule set (what the service said when a rule set had no hook)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from bot.errors import InvalidInput, InvalidState, NotFound
from bot.rules.base import ActionSpec, Dice, Outcome, Request, Seat, StepName, step_name
from bot.rules.ruleset_base import RulesetBase


class _Opts(BaseModel):
    pass


class _State(BaseModel):
    n: int = 0


class Bare(RulesetBase):
    """Only the required members: every hook keeps its default."""

    name = "bare"
    title = "Bare game"
    min_seats = 2
    max_seats = 2
    options_model = _Opts
    state_model = _State
    help_text = ""

    def start(self, options: BaseModel, seats: list[Seat], dice: Dice) -> Outcome:
        return Outcome(state=_State())

    def pending(self, state: Any) -> list[Request]:
        return []

    def act(self, state: Any, seat: int, action: dict[str, Any], dice: Dice) -> Outcome:
        return Outcome(state=state)

    def resolve(self, state: Any, actions: dict[int, dict[str, Any]], dice: Dice) -> Outcome:
        return Outcome(state=state)

    def view(self, state: Any, viewer: int | None) -> dict[str, Any]:
        return {"n": state.n, "viewer": viewer}

    def status(self, state: Any, viewer: int | None) -> str:
        return "-"


RULES = Bare()
STATE = _State(n=4)


def _request(step: str) -> Request:
    return Request(seat=1, kind="sealed", step=step, prompt="?",
                   actions=[ActionSpec(type="go", label="Go")])


def test_a_rule_set_missing_a_required_method_cannot_be_built() -> None:
    class Half(RulesetBase):
        name = "half"

    with pytest.raises(TypeError, match="abstract"):
        Half()  # type: ignore[abstract]


def test_the_neutral_defaults_do_nothing() -> None:
    assert RULES.check(STATE, 1, {"type": "go"}) is None
    assert RULES.gm_actions(STATE) == []
    assert RULES.gm_view(STATE) is None
    assert RULES.picture_view(STATE, 2, "board", None) == ({"n": 4, "viewer": 2}, "")
    assert RULES.take_in(STATE, {"roster": [1]}) == Outcome(state=STATE)
    assert RULES.battle_result(STATE, "x") is None
    assert RULES.propose_battle(STATE, "r", {}) is None
    assert RULES.battle_round(STATE) is None
    assert RULES.battle_refs(STATE) == []
    assert RULES.battle_link(STATE, "r") is None
    assert RULES.link_battle(STATE, "r", "n") is None
    assert RULES.demo_battles(STATE) == []
    assert RULES.demo_options == {}
    assert not (RULES.offers_texts or RULES.reads_setup_file or RULES.writes_side_files
                or RULES.takes_battle_results)


def test_the_default_step_name_joins_the_steps_in_plain_words() -> None:
    pending = [_request("sealed_orders"), _request("sealed_orders"), _request("re-roll")]
    assert step_name(RULES, STATE, pending) == StepName(None, "Sealed orders, re roll")
    assert step_name(RULES, STATE, []) == StepName(None, "Waiting")


@pytest.mark.parametrize(("call", "error", "words"), [
    (lambda: RULES.texts(STATE, "battles"), NotFound, "Bare game has no text 'battles'."),
    (lambda: RULES.gm_edit(STATE, "add", {}), InvalidState, "Bare game has no GM edits."),
    (lambda: RULES.load_file("a.toml", ""), InvalidState, "Bare game takes no setup file."),
    (lambda: RULES.export_file(STATE, {}, 2), InvalidState, "Bare game has no file to export."),
    (lambda: RULES.side_file(STATE, 1, "t"), InvalidState,
     "Bare game has no side file to export."),
    (lambda: RULES.upload_names("f.txt", b"", STATE, "add"), InvalidState,
     "Bare game takes no uploads."),
    (lambda: RULES.scripted_player(1), InvalidInput,
     "Rule set 'bare' has no scripted players, so no demo."),
])
def test_a_missing_thing_is_refused_plainly(call: Any, error: type[Exception],
                                           words: str) -> None:
    with pytest.raises(error) as caught:
        call()
    assert str(caught.value) == words
