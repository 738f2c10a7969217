"""Forces of a parent campaign fought in HRFT: the budget in MASS and the size classes
(H-D35), the sealed muster step (H-D36) and the result with defeated sides (H-D37)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import InvalidState, PermissionDenied, RulesError
from bot.rules.base import GM_SEAT, Seat
from bot.rules.dice import ScriptedDice, SeededDice
from bot.rules.hrft import RULESET, HrftOptions
from bot.rules.hrft import muster as mu
from bot.rules.hrft.state import MAX_SHIPS_PER_SEAT, BattleState
from tests.support.examples import examples

SEATS = [Seat(number=1, name="Alice"), Seat(number=2, name="Bob")]
SEATS3 = [*SEATS, Seat(number=3, name="Carol")]


def force(seat: int, budget: int, max_class: int, side: str | None = None,
          label: str | None = None) -> dict[str, Any]:
    return {"seat": seat, "side": side or str(seat), "budget": budget, "max_class": max_class,
            "label": f"Fleet {seat} at Orbit 2" if label is None else label}


def fresh(seats: list[Seat] = SEATS) -> BattleState:
    return RULESET.start(HrftOptions(), seats, ScriptedDice([])).state


def mustering(*forces: dict[str, Any], seats: list[Seat] = SEATS):
    return RULESET.take_in(fresh(seats), {"forces": list(forces)})


def picks(**counts: int) -> dict[str, Any]:
    return {"type": "muster", **{k: str(v) for k, v in counts.items()}}


# ---------------------------------------------------------------- H-D35


@pytest.mark.parametrize(("mass", "cls"), [(1, 1), (16, 1), (30, 1), (31, 2), (60, 2),
                                           (61, 3), (72, 3), (100, 3), (101, 4), (160, 4),
                                           (161, 5), (400, 5)])
def test_hd35_size_class_of_a_design_by_its_mass(mass, cls):
    assert mu.size_class(mass) == cls


def test_hd35_samples_fall_in_classes_1_to_3():
    classes = {d.name: mu.size_class(d.mass) for d in mu.designs(fresh()).values()}
    assert classes == {"Kestrel": 1, "Lynx": 1, "Harrier": 2, "Jackal": 2, "Vanguard": 3,
                       "Wolfhound": 3}


@pytest.mark.parametrize(("bad", "why"), [
    ({"budget": -1}, "budget"), ({"budget": 100_001}, "budget"), ({"max_class": 0}, "max_class"),
    ({"max_class": 6}, "max_class"), ({"label": "x" * 81}, "label"), ({"side": ""}, "side"),
    ({"colour": "red"}, "colour"),
])
def test_hd35_a_bad_force_is_refused_with_what_is_allowed(bad, why):
    with pytest.raises(RulesError, match=f"Force 1: {why}.*budget 0..100000 MASS"):
        RULESET.take_in(fresh(), {"forces": [{**force(1, 100, 3), **bad}]})


def test_hd35_forces_must_name_distinct_seats_of_the_battle():
    with pytest.raises(RulesError, match="Force 2 names seat 7; this battle has seats 1, 2"):
        RULESET.take_in(fresh(), {"forces": [force(1, 100, 3), force(7, 100, 3)]})
    with pytest.raises(RulesError, match="Seat 1 has two forces"):
        RULESET.take_in(fresh(), {"forces": [force(1, 100, 3), force(1, 50, 2)]})
    with pytest.raises(RulesError, match="at most 2 entries"):
        RULESET.take_in(fresh(), {"forces": [force(1, 1, 1)] * 3})


def test_hd35_take_in_reads_roster_and_forces_only():
    with pytest.raises(RulesError, match="roster and forces only, not ships"):
        RULESET.take_in(fresh(), {"forces": [], "ships": []})
    with pytest.raises(RulesError, match="roster and forces only."):
        RULESET.take_in(fresh(), [force(1, 10, 1)])  # type: ignore[arg-type]
    out = RULESET.take_in(fresh(), {})
    assert out.events == [] and out.state.linked and out.state.step == "setup"


# ---------------------------------------------------------------- H-D36 requests


def test_hd36_each_force_seat_gets_one_sealed_muster_request():
    out = mustering(force(1, 120, 3), force(2, 50, 2, label=""))
    state = out.state
    assert state.step == "muster" and not out.finished
    reqs = RULESET.pending(state)
    assert [(r.seat, r.kind, r.step) for r in reqs] == [(1, "sealed", "muster"),
                                                        (2, "sealed", "muster")]
    one, two = reqs
    assert one.prompt.startswith("Fleet 1 at Orbit 2: you may field up to 120 MASS, ships "
                                 "up to size class 3 (MASS 61-100), at most 12 ships.")
    assert "secret" in one.prompt
    fields = {f.name: f for f in one.actions[0].fields}
    assert list(fields) == ["vanguard", "wolfhound", "jackal", "harrier", "kestrel", "lynx"]
    assert fields["vanguard"].label == "Vanguard, heavy cruiser, MASS 72: how many?"
    assert fields["kestrel"].label == "Kestrel, frigate, MASS 24: how many?"
    assert [o.value for o in fields["vanguard"].options] == ["0", "1"]
    assert [o.value for o in fields["lynx"].options] == [str(n) for n in range(8)]  # 120//16
    assert all(f.min_values == 0 for f in fields.values())
    # Bob: class 2 and 50 MASS: the destroyers (36, 38) and frigates; no label -> his name
    assert [f.name for f in two.actions[0].fields] == ["jackal", "harrier", "kestrel", "lynx"]
    assert two.prompt.startswith("Bob: you may field up to 50 MASS, ships up to size class "
                                 "2 (MASS 31-60)")
    assert RULESET.step_name(state, reqs) == ("setup", "Setup: each side picks its ships")
    # the GM may only add designs the sides may field (nothing else in a sealed step)
    assert [a.label for a in RULESET.gm_actions(state)] == ["Upload designs the sides may "
                                                            "field"]
    assert "forces" in {e.kind for e in out.events}


def test_hd36_counts_stop_at_the_ship_limit():
    req = RULESET.pending(mustering(force(1, 100_000, 5), force(2, 30, 1)).state)[0]
    assert all(len(f.options) == MAX_SHIPS_PER_SEAT + 1 for f in req.actions[0].fields)
    assert "at most 12 ships" in req.prompt


def test_hd36_a_seat_cannot_act_in_the_muster_step_except_by_its_sealed_choice():
    state = mustering(force(1, 120, 3), force(2, 120, 3)).state
    with pytest.raises(InvalidState, match="muster panel"):
        RULESET.act(state, 1, {"type": "add_sample", "sample": "kestrel"}, ScriptedDice([]))
    with pytest.raises(PermissionDenied, match="cannot 'damage'"):
        RULESET.act(state, GM_SEAT, {"type": "damage", "target": "1a", "kind": "direct",
                                     "arc": "F", "points": "1"}, ScriptedDice([]))


# ---------------------------------------------------------------- H-D36 check


@pytest.mark.parametrize(("action", "why"), [
    (picks(jackal=2, harrier=1, lynx=1), "Your picks total 128 MASS; your budget is 120."),
    (picks(dreadnought=1), "'dreadnought' is not a design your side may field. Yours: "
                           "jackal \\(Jackal\\), harrier"),
    (picks(vanguard=1), "Vanguard is size class 3 \\(MASS 72\\); your side may field ships up "
                        "to size class 2 \\(MASS 31-60\\)."),
    (picks(lynx=0, kestrel=0), "Pick at least one ship: your budget of 120 MASS affords a "
                               "Lynx \\(MASS 16\\)."),
    ({"type": "muster"}, "Pick at least one ship"),
    (picks(lynx=13), "'13' is not a whole number of ships from 0 to 12"),
    (picks(lynx=-1), "'-1' is not a whole number"),
    ({"type": "muster", "lynx": "two"}, "Lynx: 'two' is not a whole number"),
    ({"type": "orders"}, "each side chooses its ships"),
])
def test_hd36_check_refuses_a_bad_choice_with_the_reason(action, why):
    state = mustering(force(1, 120, 2), force(2, 120, 3)).state
    with pytest.raises(RulesError, match=why):
        RULESET.check(state, 1, action)


def test_hd36_check_takes_a_choice_at_the_budget_exactly():
    state = mustering(force(1, 120, 2), force(2, 120, 3)).state
    RULESET.check(state, 1, picks(kestrel=5))  # 5 x 24 = 120
    RULESET.check(state, 1, picks(jackal=2, kestrel=1, lynx=1))  # 76 + 24 + 16 = 116


def test_hd36_check_refuses_too_many_ships():
    state = mustering(force(1, 1000, 1), force(2, 120, 3)).state
    RULESET.check(state, 1, picks(lynx=12))
    with pytest.raises(RulesError, match="You picked 13 ships; your side may field at most "
                                         "12."):
        RULESET.check(state, 1, picks(lynx=7, kestrel=6))


def test_hd36_check_refuses_a_seat_without_a_force_and_takes_panel_lists():
    state = mustering(force(1, 120, 3), seats=SEATS3).state
    with pytest.raises(PermissionDenied, match="Bob has no ships to choose"):
        RULESET.check(state, 2, picks(lynx=1))
    RULESET.check(state, 1, {"type": "muster", "vanguard": ["1"], "lynx": []})


# ---------------------------------------------------------------- H-D36 default


def test_hd36_default_takes_the_largest_design_that_fits_then_smaller_ones():
    state = mustering(force(1, 120, 3), force(2, 50, 2)).state
    one, two = RULESET.pending(state)
    assert one.default == {"type": "muster", "vanguard": "1", "wolfhound": "0", "jackal": "1",
                           "harrier": "0", "kestrel": "0", "lynx": "0"}
    assert two.default == {"type": "muster", "jackal": "1", "harrier": "0", "kestrel": "0",
                           "lynx": "0"}
    for req in (one, two):
        RULESET.check(state, req.seat, req.default)


@settings(max_examples=examples(200), deadline=None)
@given(budget=st.integers(0, 2000), cap=st.integers(1, 5))
def test_hd36_default_is_never_over_budget_nor_over_the_cap(budget, cap):
    state = mustering(force(1, budget, cap), force(2, 60, 2)).state
    known = mu.designs(state)
    mine = [r for r in RULESET.pending(state) if r.seat == 1]
    if not mine:  # nothing affordable: not asked (and fields nothing)
        assert budget < min(d.mass for d in known.values())
        return
    default = mine[0].default
    counts = {k: int(v) for k, v in default.items() if k != "type"}
    assert sum(known[k].mass * n for k, n in counts.items()) <= budget
    assert all(mu.size_class(known[k].mass) <= cap for k, n in counts.items() if n)
    assert 1 <= sum(counts.values()) <= MAX_SHIPS_PER_SEAT
    RULESET.check(state, 1, default)


# ---------------------------------------------------------------- H-D36 secrecy, resolution


def test_hd36_picks_stay_secret_until_every_side_chose():
    """The picks are sealed submissions (kept by the service): no view, status, request or
    public event of the rules names a design before the resolution."""
    out = mustering(force(1, 120, 3), force(2, 120, 3))
    state = out.state
    designs = [d.name for d in mu.designs(state).values()]
    for event in out.events:
        assert not any(name in event.text for name in designs)
    RULESET.check(state, 1, picks(vanguard=1))  # checking changes nothing
    for viewer in (None, 1, 2):
        blob = json.dumps(RULESET.view(state, viewer)) + RULESET.status(state, viewer)
        assert not any(name in blob for name in designs)
        assert RULESET.view(state, viewer)["ships"] == {}
    assert [r.default for r in RULESET.pending(state) if r.seat == 2][0]["vanguard"] == "1"
    assert RULESET.view(state, None)["forces"][0]["budget"] == 120  # budgets are public


def test_hd36_resolution_makes_ships_announces_them_and_opens_turn_1():
    state = mustering(force(1, 120, 3), force(2, 50, 2, label="")).state
    out = RULESET.resolve(state, {1: picks(kestrel=2, vanguard=1), 2: picks(jackal=1)},
                          ScriptedDice([]))
    st_ = out.state
    ships = {u: (s.name, s.seat, s.class_name) for u, s in st_.ships.items()}
    assert ships == {"1a": ("Vanguard 1", 1, "Vanguard"), "1b": ("Kestrel 1", 1, "Kestrel"),
                     "1c": ("Kestrel 2", 1, "Kestrel"), "2a": ("Jackal 1", 2, "Jackal")}
    assert st_.origin["1b"] == ["Fleet 1 at Orbit 2", "Kestrel 1"]
    assert st_.mustered == {"1a": "1", "1b": "1", "1c": "1", "2a": "2"}
    muster_event = next(e for e in out.events if e.kind == "muster")
    assert muster_event.audience.kind == "public"
    assert ("Fleet 1 at Orbit 2 (Alice): Vanguard 1 (1a), Kestrel 1 (1b), Kestrel 2 (1c); "
            "120 of 120 MASS.") in muster_event.text
    assert "Bob: Jackal 1 (2a); 38 of 50 MASS." in muster_event.text
    assert muster_event.embed is not None
    assert [f.name for f in muster_event.embed.fields] == ["Fleet 1 at Orbit 2 (Alice)", "Bob"]
    # the battle goes on as after setup: turn 1, the sealed orders of every side
    assert (st_.turn, st_.step, out.finished) == (1, "orders", False)
    assert [(r.seat, r.step) for r in RULESET.pending(st_)] == [(1, "orders"), (2, "orders")]
    assert any("every side writes orders" in e.text for e in out.events if e.kind == "steps")


def test_hd36_a_missing_choice_takes_the_default():
    state = mustering(force(1, 120, 3), force(2, 50, 2)).state
    out = RULESET.resolve(state, {1: picks(lynx=1)}, ScriptedDice([]))
    assert sorted(s.name for s in out.state.ships_of(2)) == ["Jackal 1"]


def test_hd36_numbers_run_over_the_whole_battle():
    state = mustering(force(1, 50, 1), force(2, 50, 1)).state
    out = RULESET.resolve(state, {1: picks(kestrel=2), 2: picks(kestrel=1, lynx=1)},
                          ScriptedDice([]))
    names = {u: s.name for u, s in out.state.ships.items()}
    assert names == {"1a": "Kestrel 1", "1b": "Kestrel 2", "2a": "Kestrel 3", "2b": "Lynx 1"}


def test_hd36_a_force_that_affords_nothing_is_not_asked_and_loses():
    """Bob's 10 MASS buys no design: only Alice is asked; after her choice the battle has one
    side with ships and ends at once (no step waits for nobody)."""
    out = mustering(force(1, 120, 3), force(2, 10, 5))
    state = out.state
    assert [r.seat for r in RULESET.pending(state)] == [1]
    assert "nothing fits: this side fields no ships" in out.events[-1].text
    done = RULESET.resolve(state, {1: picks(vanguard=1)}, ScriptedDice([]))
    assert done.finished and done.state.finished
    assert "Fleet 2 at Orbit 2 (Bob): no ships" in done.events[0].text
    result = RULESET.battle_result(done.state, "Orbit 2")
    assert result is not None and result.defeated == ["2"]


def test_hd36_when_no_force_affords_a_ship_nothing_is_asked():
    out = mustering(force(1, 0, 5), force(2, 15, 1))
    assert out.finished and RULESET.pending(out.state) == []
    result = RULESET.battle_result(out.state)
    assert result is not None and result.model_dump() == {
        "name": "", "craft": [], "defeated": ["1", "2"], "defeated_seats": [],
        "hand_entered": False, "gm_ended": False}  # gm_ended: the service sets it (P-22)


def test_hd36_other_seats_go_on_with_setup_after_the_muster():
    """Carol has no force: after the muster she adds ships by hand as in setup; the force
    seats may not add more, and the first turn opens when she is ready."""
    state = mustering(force(1, 60, 2), force(2, 60, 2), seats=SEATS3).state
    assert [r.seat for r in RULESET.pending(state)] == [1, 2]
    state = RULESET.resolve(state, {1: picks(jackal=1), 2: picks(harrier=1)},
                            ScriptedDice([])).state
    assert state.step == "setup"
    assert [(r.seat, r.step) for r in RULESET.pending(state)] == [(3, "setup")]
    with pytest.raises(RulesError, match="chosen from its budget"):
        RULESET.act(state, 1, {"type": "add_sample", "sample": "vanguard"}, SeededDice(0))
    state = RULESET.act(state, 3, {"type": "add_sample", "sample": "lynx"}, SeededDice(0)).state
    state = RULESET.act(state, 3, {"type": "ready"}, SeededDice(0)).state
    assert (state.turn, state.step) == (1, "orders")
    assert [r.seat for r in RULESET.pending(state)] == [1, 2, 3]


def test_hd36_catalog_designs_the_battle_keeps_are_offered():
    state = fresh()
    state.catalog = {"fb:x:dn": {"id": "fb:x:dn", "name": "Dread", "type_code": "DN",
                                 "tmf": 180, "hull_boxes": 40, "armour": 4, "thrust": 2}}
    out = RULESET.take_in(state, {"forces": [force(1, 200, 5), force(2, 200, 4)]})
    one, two = RULESET.pending(out.state)
    assert one.actions[0].fields[0].label == "Dread, dreadnought, MASS 180: how many?"
    assert "fb:x:dn" not in [f.name for f in two.actions[0].fields]  # class 5 > cap 4
    with pytest.raises(RulesError, match="Dread is size class 5"):
        RULESET.check(out.state, 2, {"type": "muster", "fb:x:dn": "1"})
    done = RULESET.resolve(out.state, {1: {"type": "muster", "fb:x:dn": "1"},
                                       2: picks(vanguard=2)}, ScriptedDice([]))
    assert done.state.ships["1a"].name == "Dread 1" and done.state.ships["1a"].mass == 180
    assert done.state.catalog == {}  # dropped with the end of setup, as ever (H-D34)


def test_hd36_roster_and_forces_together():
    roster = [{"craft": "Resolute", "group": "G", "seat": 1, "player": "Alice",
               "design": "vanguard"}]
    out = RULESET.take_in(fresh(), {"roster": roster, "forces": [force(1, 40, 1),
                                                                  force(2, 100, 3)]})
    assert [e.kind for e in out.events] == ["bring-in", "forces"]
    req = RULESET.pending(out.state)[0]
    assert "at most 11 ships" in req.prompt  # Resolute takes one of the 12 places
    done = RULESET.resolve(out.state, {1: picks(kestrel=1), 2: picks(vanguard=1)},
                           ScriptedDice([]))
    result = RULESET.battle_result(done.state, "B")
    assert result is not None
    sides = {c.craft: (c.side, c.seat) for c in result.craft}
    assert sides == {"Resolute": ("", 1), "Kestrel 1": ("1", 1), "Vanguard 1": ("2", 2)}


# ---------------------------------------------------------------- H-D37 result


def fought() -> BattleState:
    state = mustering(force(1, 110, 3, side="north"), force(2, 64, 3, side="south")).state
    return RULESET.resolve(state, {1: picks(vanguard=1, jackal=1), 2: picks(wolfhound=1)},
                           ScriptedDice([])).state


def test_hd37_result_gives_sides_masses_hull_and_defeated():
    state = fought()
    state.ships["2a"].destroyed = True  # as if sunk in the battle
    state.ships["1b"].blocks["F"].hull_lost = 2
    result = RULESET.battle_result(state, "Orbit 2")
    assert result is not None and result.name == "Orbit 2"
    rows = {c.craft: c.model_dump() for c in result.craft}
    assert rows["Vanguard 1"] | {} == {
        "group": "Fleet 1 at Orbit 2", "craft": "Vanguard 1", "fate": "intact",
        "ftl_lost": False, "thrust": 4, "thrust_left": 4, "hull_lost": 0, "seat": 1,
        "side": "north", "mass": 72, "hull_total": 66}
    assert (rows["Jackal 1"]["hull_lost"], rows["Jackal 1"]["hull_total"]) == (2, 36)
    assert (rows["Wolfhound 1"]["fate"], rows["Wolfhound 1"]["side"]) == ("destroyed", "south")
    assert result.defeated == ["south"]


def test_hd37_a_concession_defeats_the_side_and_ends_the_battle():
    state, _ = _to_fire(fought())
    out = RULESET.act(state, 1, {"type": "concede"}, SeededDice(1))
    assert out.finished
    result = RULESET.battle_result(out.state)
    assert result is not None and result.defeated == ["north"]


def test_hd37_a_battle_the_gm_ends_with_both_fighting_has_no_defeated_side():
    state, _ = _to_fire(fought())
    result = RULESET.battle_result(state)  # the service asks when the GM ends it
    assert result is not None and result.defeated == []
    assert len(result.craft) == 3


def test_hd37_the_battle_ended_by_its_rules_reports_the_loser():
    """The GM's damage takes out the south's only ship: the battle ends by its rules."""
    state, _ = _to_fire(fought())
    out = RULESET.act(state, GM_SEAT, {"type": "damage", "target": "2a", "kind": "direct",
                                       "arc": "F", "points": "200"}, SeededDice(3))
    assert out.state.ships["2a"].out and not out.finished  # fire is simultaneous (H-D16)
    for seat in (1, 2):
        out = RULESET.act(out.state, seat, {"type": "ready"}, SeededDice(4))
    assert out.finished
    result = RULESET.battle_result(out.state)
    assert result is not None and result.defeated == ["south"]
    assert next(c for c in result.craft if c.side == "south").fate in ("destroyed",
                                                                                  "hulk")


def test_hd37_roster_battles_keep_their_result_and_gain_the_new_keys():
    roster = [{"craft": "Resolute", "group": "G", "seat": 1, "design": "vanguard"},
              {"craft": "Fang", "group": "R", "seat": 2, "design": "lynx"}]
    state = RULESET.take_in(fresh(), {"roster": roster}).state
    result = RULESET.battle_result(state, "0202/A-3")
    assert result is not None and result.defeated == []
    first = result.craft[0].model_dump()
    assert {k: first[k] for k in ("group", "craft", "fate", "side", "seat", "mass")} == {
        "group": "G", "craft": "Resolute", "fate": "intact", "side": "", "seat": 1,
        "mass": 72}
    assert RULESET.battle_result(fresh()) is None  # nothing came from a campaign


def _to_fire(state: BattleState) -> tuple[BattleState, list[Any]]:
    out = RULESET.resolve(state, {1: {"type": "orders"}, 2: {"type": "orders"}},
                          ScriptedDice([3, 4]))
    assert out.state.step == "fire1"
    return out.state, out.events


@settings(max_examples=examples(60), deadline=None)
@given(sides=st.lists(st.tuples(st.integers(0, 400), st.integers(1, 5)), min_size=2,
                      max_size=3),
       extra_seat=st.booleans())
def test_hd36_no_step_asks_nobody_from_take_in_to_turn_1(sides, extra_seat):
    """Whatever the budgets: take_in, the muster (defaults) and a hand-set-up seat lead to
    turn 1's orders or a finished battle; every state on the way asks someone."""
    seats = [Seat(number=n, name=f"P{n}") for n in range(1, len(sides) + 1 + extra_seat)]
    forces = [force(i, budget, cap) for i, (budget, cap) in enumerate(sides, start=1)]
    out = RULESET.take_in(fresh(seats), {"forces": forces})
    state = out.state
    for _ in range(4):
        if out.finished or state.step == "orders":
            break
        pending = RULESET.pending(state)
        assert pending, f"step {state.step} asks nobody"
        if state.step == "muster":
            out = RULESET.resolve(state, {r.seat: r.default for r in pending},
                                  ScriptedDice([]))
        else:
            seat = pending[0].seat
            out = RULESET.act(state, seat, {"type": "add_sample", "sample": "lynx"},
                              SeededDice(0))
            out = RULESET.act(out.state, seat, {"type": "ready"}, SeededDice(0))
        state = out.state
    assert out.finished or (state.step, state.turn) == ("orders", 1)
    assert out.finished or RULESET.pending(state)
    for f in state.forces:
        spent = sum(s.mass for u, s in state.ships.items() if state.mustered.get(u) == f.side)
        assert spent <= f.budget


DREAD = """
name = "Dread"
type_code = "DN"
mass = 180
hull = 40
armour = 4
thrust = 2
ftl = true
"""


def upload(state: BattleState, filename: str, content: str):
    return RULESET.act(state, GM_SEAT, {"type": "add_design", "filename": filename,
                                        "content": content}, ScriptedDice([]))


def test_hd36_the_gm_uploads_a_design_and_every_side_chooses_again():
    state = mustering(force(1, 200, 5), force(2, 200, 4)).state
    before = RULESET.pending(state)
    assert {r.step for r in before} == {"muster"}
    out = upload(state, "dread.toml", DREAD)
    assert out.events[0].text == ("**The GM adds designs the sides may field**: Dread, "
                                  "dreadnought, MASS 180 (size class 5). Every side chooses "
                                  "its ships again.")
    one, two = RULESET.pending(out.state)
    assert {one.step, two.step} == {"muster-2"}  # a new step: stored choices do not carry
    assert one.actions[0].fields[0].name == "up:dread"
    assert "up:dread" not in [f.name for f in two.actions[0].fields]  # class 5 > cap 4
    done = RULESET.resolve(out.state, {1: {"type": "muster", "up:dread": "1"},
                                       2: picks(vanguard=2)}, ScriptedDice([]))
    assert (done.state.ships["1a"].name, done.state.ships["1a"].mass) == ("Dread 1", 180)
    assert done.state.uploaded == {} and done.state.step == "orders"


def test_hd36_the_gm_uploads_a_catalog_during_the_muster():
    catalog = {"schema_version": 1, "designs": [
        {"id": "fb:x:bb", "ruleset": "fb", "name": "Bastion", "type_code": "BB", "tmf": 120,
         "hull_boxes": 36, "armour": 6, "thrust": 4, "systems": []}]}
    state = mustering(force(1, 150, 4), force(2, 150, 3)).state
    out = upload(state, "fb1.json", json.dumps(catalog))
    assert "Bastion, battleship, MASS 120 (size class 4)" in out.events[0].text
    assert out.state.catalog.keys() == {"fb:x:bb"}
    req = RULESET.pending(out.state)[0]
    assert req.actions[0].fields[0].label == "Bastion, battleship, MASS 120: how many?"


def test_hd36_a_fleet_is_no_design_upload():
    fleet = {"schema_version": 2, "kind": "FTFleet", "fleet": {"name": "F", "ships": [
        {"name": "Ship A", "design_id": "d1"}]}, "designs": [
        {"id": "d1", "ruleset": "fb", "name": "Dx", "tmf": 20, "hull_boxes": 6,
         "armour": 0, "thrust": 4, "systems": []}], "factions": []}
    state = mustering(force(1, 150, 4), force(2, 150, 3)).state
    with pytest.raises(RulesError, match="That is a fleet"):
        upload(state, "f.FTFleet", json.dumps(fleet))


def test_p22_a_result_with_damage_entered_by_hand_says_so():
    """P-22: the parent's GM confirms a result with hand-entered damage (the GM's or a
    player's): the result carries it; fire from the tables does not set it."""
    state, _ = _to_fire(fought())
    assert RULESET.battle_result(state).hand_entered is False
    after = RULESET.act(state, GM_SEAT, {"type": "damage", "target": "2a", "kind": "direct",
                                         "arc": "F", "hits": "3"}, SeededDice(1)).state
    assert RULESET.battle_result(after).hand_entered is True
    assert state.hand_entered is False  # the given state is not changed
