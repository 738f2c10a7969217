"""E-D32: the `rounds` option ends the campaign after that many complete rounds."""

from __future__ import annotations

from bot.rules.base import Seat
from bot.rules.dice import SeededDice
from bot.rules.ftcamp import RULESET


def _play_defaults(rounds: int, max_steps: int = 500) -> tuple[object, bool]:
    seats = [Seat(number=n, name=f"p{n}") for n in (1, 2, 3)]
    options = RULESET.options_model(rounds=rounds)
    out = RULESET.start(options, seats, SeededDice(7, "start"))
    state, finished = out.state, out.finished
    for step in range(max_steps):
        if finished:
            break
        requests = RULESET.pending(state)
        assert requests, "an unfinished campaign always asks somebody"
        dice = SeededDice(7, str(step))
        first = requests[0]
        if first.kind == "sealed":
            # E-D36: the GM settles the round's battles (no default: the scripted GM closes)
            actions = {r.seat: r.default or RULESET.scripted_player(r.seat).choose({}, r, dice)
                       for r in requests if r.kind == "sealed"}
            out = RULESET.resolve(state, actions, dice)
        else:
            out = RULESET.act(state, first.seat, first.default, dice)
        state, finished = out.state, out.finished
    return state, finished


def test_ed32_campaign_ends_after_the_set_number_of_rounds() -> None:
    state, finished = _play_defaults(rounds=1)
    assert finished
    assert state.round == 1
    assert RULESET.pending(state) == []


def test_ed32_without_a_limit_the_next_round_opens() -> None:
    state, finished = _play_defaults(rounds=0, max_steps=60)
    assert not finished
    assert state.round >= 2
