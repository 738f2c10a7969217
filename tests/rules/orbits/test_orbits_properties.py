"""Property tests over random legal games played by random legal actions (hypothesis)."""

from __future__ import annotations

import random
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from orbits_testkit import seats

from bot.errors import RulesError
from bot.rules.base import Event, Request
from bot.rules.dice import SeededDice
from bot.rules.orbits import RULESET, OrbitsOptions, OrbitsState, scripted_player
from bot.rules.orbits import cards as C
from tests.support.examples import examples

SHOWN = re.compile(r"(?<![0-9])(10|[2-9AJQK])[♠♥♦♣]|Joker")
CODE = re.compile(r"\b(10|[2-9AJQK])[SHDC]\b|\bJK[12]\b")


def random_action(spec_choice: random.Random, request: Request) -> dict[str, Any]:
    others = [a for a in request.actions if a.type != "pass"]
    if others and spec_choice.random() < 0.7:
        spec = spec_choice.choice(others)
    else:
        spec = spec_choice.choice(request.actions)
    action: dict[str, Any] = {"type": spec.type}
    for f in spec.fields:
        if f.kind == "number":  # typed on the panel: any whole number of its range
            action[f.name] = str(spec_choice.randint(f.minimum, f.maximum))
            continue
        k = spec_choice.randint(f.min_values, min(f.max_values, len(f.options)))
        picked = [o.value for o in spec_choice.sample(f.options, k)]
        action[f.name] = picked[0] if f.max_values == 1 and picked else picked
    return action


def public_codes(state: OrbitsState) -> set[str]:
    """Card identities anyone may know: face up, known (O-17), or discarded."""
    out = {c.code for c in state.table if c.face_up or c.known}
    for pile in state.discards.values():
        out.update(pile)
    return out


def shown_codes(text: str) -> set[str]:
    return {C.parse(m.group(0)) if m.group(0) != "Joker" else "JOKER"
            for m in SHOWN.finditer(text)}


def check_public_text(text: str, state: OrbitsState) -> None:
    known = public_codes(state)
    for code in shown_codes(text):
        if code == "JOKER":
            assert any(C.is_joker(k) for k in known), text
        else:
            assert code in known, f"{code} leaked in: {text}"
    for m in CODE.finditer(text):
        assert m.group(0) in known, f"{m.group(0)} leaked in: {text}"


def check_public_view(state: OrbitsState) -> None:
    view = RULESET.view(state, None)
    assert "mine" not in repr(view)
    public = {(c.owner, c.code) for c in state.table if c.face_up or c.known}
    for area in view["areas"]:
        for stack in area["stacks"]:
            codes = stack["face_up"] + stack["face_down"]["known"]
            assert all((stack["seat"], c) in public for c in codes)
    for g in view["transit"]:
        assert all((g["seat"], c) in public for c in g["cards"]["known"])
    check_public_text(RULESET.status(state, None), state)


def check_conservation(state: OrbitsState) -> None:
    for seat in state.seat_numbers():
        places = list(state.decks[seat]) + [c.code for c in state.table if c.owner == seat]
        places += state.discards[seat]
        assert sorted(places) == sorted(C.full_deck()), f"seat {seat} cards out of place"
    groups = {g.id for g in state.groups}
    for c in state.table:
        assert c.group is None or c.group in groups
        assert not (c.face_up and c.group is not None)
    assert all(state.group_cards(g) for g in groups)


def check_step(state: OrbitsState, events: list[Event], finished: bool) -> None:
    check_conservation(state)
    assert all(v >= 0 for v in state.rp.values())
    for e in events:
        if e.audience.kind == "public":
            check_public_text(e.text, state)
            check_public_text(repr(e.data), state)
    check_public_view(state)
    requests = RULESET.pending(state)
    assert finished == (state.phase == "finished")
    if not finished:
        assert requests, "the game neither ended nor asks anyone"
        for r in requests:
            assert r.actions
            for spec in r.actions:
                assert all(f.min_values <= len(f.options) <= 25 for f in spec.fields
                           if f.kind == "choice")
                assert all(f.minimum <= f.maximum and not f.options for f in spec.fields
                           if f.kind == "number")


@settings(max_examples=examples(15), deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(2, 4), rush=st.booleans(),
       raid=st.booleans(), target=st.integers(6, 25), orbits=st.integers(1, 4))
def test_random_legal_games_keep_invariants(seed: int, n: int, rush: bool, raid: bool,
                                            target: int, orbits: int) -> None:
    options = OrbitsOptions(rush_transit=rush, raid_colonies=raid, target_rp=target,
                            orbits=orbits)
    dice = SeededDice(seed, "engine")
    pick = random.Random(seed)
    out = RULESET.start(options, seats(n), dice)
    players = {s: scripted_player(s) for s in range(n + 1)}
    check_step(out.state, out.events, out.finished)
    for _ in range(400):
        if out.finished:
            break
        requests = RULESET.pending(out.state)
        scripted = pick.random() < 0.5  # half the choices by the scripted players: more battles
        if requests[0].kind == "turn":
            r = requests[0]
            # every offered action (and every scripted choice) is legal: the engine accepts it
            action = (players[r.seat].choose(RULESET.view(out.state, r.seat), r, dice)
                      if scripted else random_action(pick, r))
            out = RULESET.act(out.state, r.seat, action, dice)
        else:
            actions = {}
            for r in requests:
                use_default = r.default is not None and pick.random() < 0.5
                viewer = r.seat or None
                actions[r.seat] = (
                    dict(r.default) if use_default
                    else players[r.seat].choose(RULESET.view(out.state, viewer), r, dice)
                    if scripted else random_action(pick, r))
            try:
                out = RULESET.resolve(out.state, actions, dice)
            except RulesError:  # a random discard or report may break O-15: use safe ones
                out = RULESET.resolve(out.state, _safe(requests), dice)
        check_step(out.state, out.events, out.finished)
    assert out.finished or RULESET.pending(out.state)


def _safe(requests: list[Request]) -> dict[int, Any]:
    """Defaults where they exist; a report of 'no losses, nobody defeated' otherwise."""
    out: dict[int, Any] = {}
    for r in requests:
        if r.default is not None:
            out[r.seat] = dict(r.default)
            continue
        spec = next(a for a in r.actions if a.type == "report")
        out[r.seat] = {"type": "report", "defeated": "none",
                       **{f.name: "0" for f in spec.fields if f.name != "defeated"}}
    return out


def test_act_and_resolve_never_change_their_input() -> None:
    out = RULESET.start(OrbitsOptions(), seats(2), SeededDice(4))
    for _ in range(60):
        if out.finished:
            break
        before = out.state.model_dump_json()
        r = RULESET.pending(out.state)[0]
        action = scripted_player(r.seat).choose(RULESET.view(out.state, r.seat or None), r,
                                                SeededDice(1))
        nxt = (RULESET.act(out.state, r.seat, action, SeededDice(1)) if r.kind == "turn"
               else RULESET.resolve(out.state, {q.seat: scripted_player(q.seat).choose(
                   RULESET.view(out.state, q.seat or None), q, SeededDice(1))
                   for q in RULESET.pending(out.state)}, SeededDice(1)))
        assert out.state.model_dump_json() == before
        out = nxt


def test_json_round_trip_keeps_the_game_playable() -> None:
    out = RULESET.start(OrbitsOptions(), seats(2), SeededDice(3))
    again = OrbitsState.model_validate_json(out.state.model_dump_json())
    assert again == out.state
    assert RULESET.pending(again) == RULESET.pending(out.state)
