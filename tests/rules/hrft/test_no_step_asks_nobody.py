"""No step asks nobody (issue 8): every HRFT state that is not over asks some seat.

A concession or damage can take away the only seat an open step still waits for (the one late
firer of H-11 concedes; the GM's damage removes the last ship of the one side not yet ready):
the step then ends by itself instead of waiting for nobody forever."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.errors import UserError
from bot.rules.base import GM_SEAT, Request, Seat
from bot.rules.dice import ScriptedDice, SeededDice
from bot.rules.hrft import RULESET, BattleState, HrftOptions, add_ship, convert_design
from bot.rules.hrft.directions import KINDS
from tests.rules.hrft.battle_helpers import gunboat
from tests.support.examples import examples

ARCS = ["F", "FS", "AS", "A", "AP", "FP"]
STATS: Counter[str] = Counter()  # battles, decisions, concessions, ends (for the report)


def three_sides(options: HrftOptions | None = None) -> BattleState:
    seats = [Seat(number=n, name=name) for n, name in ((1, "Ann"), (2, "Ben"), (3, "Cy"))]
    state = RULESET.start(options or HrftOptions(), seats, ScriptedDice([])).state
    for seat in (1, 2, 3):
        state = add_ship(state, seat, convert_design(gunboat()))
    for seat in (1, 2, 3):
        state = RULESET.act(state, seat, {"type": "ready"}, SeededDice(0)).state
    orders = {seat: {"type": "orders"} for seat in (1, 2, 3)}
    return RULESET.resolve(state, orders, ScriptedDice([3, 4, 5])).state


def asked(state: BattleState) -> list[tuple[int, str]]:
    return [(r.seat, r.step) for r in RULESET.pending(state)]


def test_the_only_late_firer_conceding_ends_the_late_phase_h11():
    """The stall of issue 8: three sides, the one ship with damaged communications (H-11)
    is the only one asked in the late phase; its side concedes."""
    state = three_sides()
    assert state.step == "fire1"
    state.ships["1a"].system("communications").hits = 1
    for seat in (2, 3, 1):
        state = RULESET.act(state, seat, {"type": "ready"}, SeededDice(1)).state
    assert (state.fire_phase, asked(state)) == (1, [(1, "fire1-late")])
    out = RULESET.act(state, 1, {"type": "concede"}, SeededDice(2))
    assert not out.finished
    assert out.state.step == "fire2" and out.state.fire_phase == 0
    assert asked(out.state) == [(2, "fire2"), (3, "fire2")]


def test_gm_damage_taking_out_the_side_not_yet_ready_ends_the_step():
    """Turn end (step 19): Ann and Ben are ready, Cy is not; the GM's damage destroys Cy's
    only ship. Nobody is left to wait for: the turn ends and the next one asks for orders."""
    state = three_sides()
    for step in ("fire1", "fire2"):
        assert state.step == step
        for seat in (1, 2, 3):
            state = RULESET.act(state, seat, {"type": "ready"}, SeededDice(1)).state
    assert state.step == "end" and asked(state) == [(1, "end"), (2, "end"), (3, "end")]
    for seat in (1, 2):
        state = RULESET.act(state, seat, {"type": "ready"}, SeededDice(1)).state
    assert asked(state) == [(3, "end")]
    boom = {"type": "damage", "target": "3a", "kind": "direct", "arc": "F", "points": "99"}
    out = RULESET.act(state, GM_SEAT, boom, SeededDice(3))
    assert out.state.ships["3a"].out and not out.finished
    assert out.state.step == "orders" and out.state.turn == 2
    assert asked(out.state) == [(1, "orders"), (2, "orders")]


def _fleet(rng: random.Random) -> list[dict[str, Any]]:
    return [gunboat(hull=rng.choice([12, 18, 24])) for _ in range(rng.randint(1, 2))]


def _damage(state: BattleState, rng: random.Random, seat: int) -> dict[str, Any] | None:
    targets = [s.uid for s in state.ships.values() if not s.out and s.seat != seat]
    if not targets:
        return None
    return {"type": "damage", "target": rng.choice(targets), "kind": rng.choice(sorted(KINDS)),
            "arc": rng.choice(ARCS), "points": str(rng.choice([1, 2, 3, 4, 6, 9, 25]))}


def _choose(state: BattleState, req: Request, rng: random.Random,
            concede_rate: float) -> dict[str, Any]:
    """A legal-looking action: mostly the scripted player's, sometimes a concession or
    manual damage (which speeds up destruction and H-11 late phases)."""
    roll = rng.random()
    late = state.fire_phase == 1 and concede_rate > 0  # H-11 late phase: the issue-8 stall
    if (roll < concede_rate or (late and roll < 0.3)) and any(
            a.type == "concede" for a in req.actions):
        return {"type": "concede"}
    if roll < 0.3:
        action = _damage(state, rng, req.seat)
        if action is not None:
            return action
    return RULESET.scripted_player(req.seat).choose(RULESET.view(state, req.seat), req,
                                                    SeededDice(rng.randint(0, 99)))


def play(rng: random.Random, sides: int, concede_rate: float, gm_rate: float) -> None:
    options = HrftOptions(max_turns=rng.choice([2, 4, 6]),
                          emergency_maneuver=rng.random() < 0.3,
                          mid_turn_fire_only=rng.random() < 0.3)
    seats = [Seat(number=n, name=f"Side {n}") for n in range(1, sides + 1)]
    state = RULESET.start(options, seats, SeededDice(0)).state
    for seat in range(1, sides + 1):
        for ship in _fleet(rng):
            state = add_ship(state, seat, convert_design(ship))
    dice = SeededDice(rng.randint(0, 2**31), "battle")
    STATS["battles"] += 1
    for _ in range(2000):
        pending = RULESET.pending(state)
        if state.finished:
            STATS["ended"] += 1
            assert pending == []
            return
        assert pending, (f"step {state.step} (phase {state.fire_phase}) asks nobody: ready "
                         f"{state.ready}, conceded {state.conceded}, "
                         f"living {state.living_seats()}")
        STATS["decisions"] += 1
        STATS["late phases"] += state.fire_phase == 1
        sealed = [r for r in pending if r.kind == "sealed"]
        if sealed:
            out = RULESET.resolve(state, {r.seat: dict(r.default or {}) for r in sealed}, dice)
        elif rng.random() < gm_rate and RULESET.gm_actions(state):
            action = _damage(state, rng, GM_SEAT) or {"type": "none"}
            try:
                out = RULESET.act(state, GM_SEAT, action, dice)
            except UserError:
                continue
        else:
            req = rng.choice(pending)
            action = _choose(state, req, rng, concede_rate)
            STATS["concessions"] += action["type"] == "concede"
            STATS["late concessions"] += action["type"] == "concede" and state.fire_phase == 1
            try:
                out = RULESET.act(state, req.seat, action, dice)
            except UserError:
                out = RULESET.act(state, req.seat, {"type": "ready"}, dice)
        assert out.finished == out.state.finished
        state = out.state
    raise AssertionError("the battle did not end within 2000 decisions despite its turn limit")


# A seed rather than st.randoms(): a long battle would run out of hypothesis' data buffer
# and be dropped silently; a seed plays every battle to its end.
@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), sides=st.integers(2, 4),
       concede_rate=st.sampled_from([0.0, 0.02, 0.08, 0.25]),
       gm_rate=st.sampled_from([0.0, 0.05, 0.2]))
def test_a_random_battle_always_asks_someone_or_ends(
    seed: int, sides: int, concede_rate: float, gm_rate: float
) -> None:
    play(random.Random(seed), sides, concede_rate, gm_rate)
