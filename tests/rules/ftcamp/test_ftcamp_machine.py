"""The state machine as the service drives it: start, pending, resolve/act, views, demo."""

from __future__ import annotations

import json

import pytest
from ftcamp_testkit import HEX, craft, group, orders_in, world

from bot.errors import InvalidInput, InvalidState
from bot.rules import registry
from bot.rules.base import Request, Ruleset, ScriptedPlayer, Seat
from bot.rules.dice import ScriptedDice, SeededDice
from bot.rules.ftcamp import RULESET, FTCampOptions, State
from bot.rules.ftcamp.demo import demo_scenario


def seats(n: int) -> list[Seat]:
    return [Seat(number=i, name=f"user{i}") for i in range(1, n + 1)]


def check_discord_limits(req: Request) -> None:
    """What a generic panel can show: 4 Selects an action, 25 options, 100-char values."""
    assert len(req.actions) <= 5 and len(req.prompt) <= 2000
    for spec in req.actions:
        assert len(spec.fields) <= 4 and len(spec.type) <= 40
        for f in spec.fields:
            assert 1 <= len(f.options) <= 25 and len(f.label) <= 100
            assert f.max_values <= len(f.options)
            for o in f.options:
                assert len(o.value) <= 100 and len(o.label) <= 100
                assert len(o.description) <= 100


def play_round(seed: int, n: int = 3) -> tuple[State, list]:  # type: ignore[type-arg]
    dice = SeededDice(seed, "demo")
    out = RULESET.start(FTCampOptions(), seats(n), dice)
    state, events = out.state, list(out.events)
    # seat 0: the GM, who settles the round's battles (E-D36: here, fought at the table)
    players = {i: RULESET.scripted_player(i) for i in range(0, n + 1)}
    for _ in range(300):
        if state.round > 1:
            break
        reqs = RULESET.pending(state)
        for r in reqs:
            check_discord_limits(r)
        if reqs[0].kind == "sealed":
            acts = {r.seat: players[r.seat].choose(RULESET.view(state, r.seat), r, dice)
                    for r in reqs}
            for seat, act in acts.items():
                RULESET.check(state, seat, act)
            out = RULESET.resolve(state, acts, dice)
        else:
            r = reqs[0]
            out = RULESET.act(state, r.seat, players[r.seat].choose(
                RULESET.view(state, r.seat), r, dice), dice)
        state = out.state
        events += out.events
    return state, events


def test_ruleset_protocol_and_registry() -> None:
    assert isinstance(RULESET, Ruleset)
    assert registry.get("ftcamp") is RULESET
    assert isinstance(RULESET.scripted_player(1), ScriptedPlayer)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_demo_round_with_three_contested_hexes_completes(seed: int) -> None:
    state, events = play_round(seed)
    assert state.round == 2 and state.step == "orders"
    assert [r.hex for r in state.results] == ["0304", "0505", "0602"]
    assert sum(1 for e in events if e.kind == "battle_list") == 3
    json.loads(state.model_dump_json())  # the state is JSON-serialisable
    assert State.model_validate_json(state.model_dump_json()) == state


def test_demo_round_with_two_players_completes() -> None:
    state, _ = play_round(7, n=2)
    assert state.round == 2 and len(state.results) == 3


def test_start_reads_the_scenario_option_and_checks_seats() -> None:
    out = RULESET.start(FTCampOptions(scenario=demo_scenario(2)), seats(2), ScriptedDice())
    assert out.state.step == "orders" and len(out.state.players) == 2
    with pytest.raises(InvalidInput, match="must match"):
        RULESET.start(FTCampOptions(scenario=demo_scenario(2)), seats(3), ScriptedDice())


def test_fleet_order_requests_are_paged_at_four_selects_with_25_options() -> None:
    s = world(*[group(f"G{i}", 1, hex_name="0303") for i in range(9)],
              group("B", 2, hex_name="0101"))
    reqs = RULESET.pending(s)
    mine = next(r for r in reqs if r.seat == 1)
    assert "page 1 of 3" in mine.prompt and len(mine.actions[0].fields) == 4
    assert all(len(f.options) <= 25 for f in mine.actions[0].fields)
    assert mine.default is not None and mine.default["group:G0"] == "hold"


def test_act_outside_allocation_is_refused() -> None:
    s = world(group("A", 1), group("B", 2))
    with pytest.raises(InvalidState):
        RULESET.act(s, 1, {"type": "place", "sector": "A-1"}, ScriptedDice())


def test_views_show_each_player_only_what_they_may_see() -> None:
    s = orders_in(world(group("A", 1, crafts=[craft("secret-ship", decoys=1)]),
                        group("B", 2)), skip_special=False).state
    out = RULESET.resolve(s, {1: {"type": "special_acts", "decoy:A": "new:1:4"}},
                          ScriptedDice())
    decoy = next(n for n, g in out.state.groups.items() if g.craft[0].is_decoy)
    own = RULESET.view(out.state, 1)
    other = RULESET.view(out.state, 2)
    public = RULESET.view(out.state, None)
    assert decoy in {g["name"] for g in own["groups"]}
    assert decoy not in {g["name"] for g in other["groups"]}
    assert decoy not in {g["name"] for g in public["groups"]}
    assert "secret-ship" in json.dumps(own) and "secret-ship" not in json.dumps(other)
    assert "secret-ship" not in json.dumps(public)
    a_for_b = next(g for g in other["groups"] if g["name"] == "A")
    assert a_for_b["contacts"] == ["class 2"] and "craft" not in a_for_b
    assert "A" in RULESET.status(out.state, 1) and HEX in RULESET.status(out.state, None)


def test_a_state_with_sealed_list_answers_loads_again() -> None:
    # Dispatches and betrayals are lists; a paged step keeps them in ``secret`` (E-D17).
    s = world(group("A", 1), group("B", 2))
    s.secret = {2: {"dispatch:P1": ["Wing", "Lance"], "idle": "none"}}
    assert State.model_validate_json(s.model_dump_json()) == s
