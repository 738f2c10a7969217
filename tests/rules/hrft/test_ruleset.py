"""The HRFT battle state machine: setup, sealed orders, open fire/repair steps, the end
(H-10, H-11, H-12, H-14, H-15, H-16)."""

from __future__ import annotations

import json

import pytest

from bot.errors import InvalidInput, InvalidState, PermissionDenied, RulesError
from bot.rules.base import Ruleset
from bot.rules.dice import ScriptedDice, SeededDice
from bot.rules.hrft import RULESET, BattleState, HrftOptions, add_ship, convert_design
from bot.rules.hrft.sequence import steps
from tests.rules.hrft.battle_helpers import battle, gunboat, ready_all, to_fire_step

FIRE = {"type": "fire", "weapons": ["1a:s1"], "target": "2a", "range": "5", "arc": "F",
        "bearing": "F"}


def test_ruleset_satisfies_the_protocol():
    assert isinstance(RULESET, Ruleset)
    assert RULESET.name == "hrft" and RULESET.min_seats == 2


def test_h15_nineteen_steps_and_variations():
    base = steps(HrftOptions())
    assert [s.number for s in base] == [str(n) for n in range(1, 20)]
    v1 = [s.key for s in steps(HrftOptions(emergency_maneuver=True))]
    assert v1[v1.index("fire1") + 1] == "emergency"
    v2 = {s.key: s.kind for s in steps(HrftOptions(mid_turn_fire_only=True))}
    assert v2["fire1"] == "fire" and v2["fire2"] == "announce"
    with pytest.raises(InvalidInput, match="cinematic"):
        HrftOptions(movement="vector", mid_turn_fire_only=True)
    with pytest.raises(InvalidInput, match="vector"):
        HrftOptions(vtif=True)


def test_setup_add_ship_ids_and_ready_needs_a_ship():
    state = battle(ships={1: [gunboat(), gunboat()], 2: []})
    assert sorted(state.ships) == ["1a", "1b"]
    with pytest.raises(RulesError, match="at least one ship"):
        RULESET.act(state, 2, {"type": "ready"}, ScriptedDice([]))
    out = RULESET.act(state, 2, {"type": "add_sample", "sample": "lynx"}, ScriptedDice([]))
    assert out.state.ships["2a"].name == "Lynx"
    assert [r.step for r in RULESET.pending(out.state)] == ["setup", "setup"]


def test_h17_setup_adds_ships_from_an_uploaded_file():
    state = battle(ships={1: [gunboat()], 2: []})
    content = json.dumps(gunboat())
    out = RULESET.act(state, 2, {"type": "add_file", "filename": "boat.FTDesign",
                                 "content": content}, ScriptedDice([]))
    assert [s.uid for s in out.state.ships_of(2)] == ["2a"]
    assert "adds" in out.events[0].text and out.events[0].audience.kind == "public"
    with pytest.raises(InvalidInput, match="not valid JSON"):
        RULESET.act(state, 2, {"type": "add_file", "filename": "boat.FTDesign",
                               "content": "{oops"}, ScriptedDice([]))


def test_add_ship_only_during_setup():
    state, _ = to_fire_step(battle())
    with pytest.raises(InvalidState):
        add_ship(state, 1, convert_design(gunboat()))


def test_h15_orders_are_sealed_then_revealed_with_screens_and_speed():
    state, _ = ready_all(battle())
    reqs = RULESET.pending(state)
    assert [(r.seat, r.kind, r.step) for r in reqs] == [(1, "sealed", "orders"),
                                                        (2, "sealed", "orders")]
    names = [f.name for f in reqs[0].actions[0].fields]
    assert names == ["1a.speed", "1a.thrust", "1a.turn", "1a.screens"]
    orders = {1: {"type": "orders", "1a.speed": "3", "1a.thrust": "4", "1a.turn": "P1",
                  "1a.screens": "all:1", "note": "Close in"}, 2: {"type": "orders"}}
    out = RULESET.resolve(state, orders, ScriptedDice([2, 5]))
    reveal = out.events[0]
    assert reveal.audience.kind == "public" and reveal.kind == "orders"
    assert "Kestrel" not in reveal.text
    assert "speed 3, thrust 4, turn P1, screens all arcs 1" in reveal.text
    assert "Close in" in reveal.text
    steps_text = out.events[1].text
    assert "Alice 2, Bob 5 - Bob has the initiative" in steps_text
    # H-D45: no fighters or missiles in this battle: their steps are not listed at all
    assert "fighter" not in steps_text.lower() and "ordnance" not in steps_text.lower()
    assert out.state.step == "fire1"
    assert out.state.screens["1a"]["F"] == 1
    assert [r.kind for r in RULESET.pending(out.state)] == ["open", "open"]


def test_h_d48_an_initiative_tie_says_the_lower_seat_wins_it():
    state, _ = ready_all(battle())
    orders = {1: {"type": "orders"}, 2: {"type": "orders"}}
    tied = RULESET.resolve(state, orders, ScriptedDice([4, 4])).events[1].text
    assert ("Alice 4, Bob 4 - Alice has the initiative (a tie at 4: the side with the lower "
            "seat number wins it).") in tied
    clear = RULESET.resolve(state, orders, ScriptedDice([2, 5])).events[1].text
    assert "Bob has the initiative." in clear and "a tie" not in clear


@pytest.mark.parametrize(("order", "message"), [
    ({"1a.thrust": "5"}, "thrust used"),
    ({"1a.thrust": "1", "1a.turn": "P2"}, "needs that much thrust"),
    ({"1a.speed": "5", "1a.thrust": "2"}, "changing speed"),
    ({"1a.screens": "all:2"}, "above the ship's screen level"),
    ({"1a.turn": "X"}, "not allowed"),
])
def test_h15_illegal_orders_are_refused(order, message):
    state, _ = ready_all(battle())
    with pytest.raises(RulesError, match=message):
        RULESET.resolve(state, {1: {"type": "orders", **order}, 2: {"type": "orders"}},
                        ScriptedDice([1, 2]))


def test_h11_damaged_computer_follows_orders_written_a_turn_ahead():
    state, _ = ready_all(battle())
    state.ships["1a"].system("computer").hits = 1
    orders = {1: {"type": "orders", "1a.speed": "2", "1a.thrust": "2"}, 2: {"type": "orders"}}
    out = RULESET.resolve(state, orders, ScriptedDice([1, 2]))
    assert out.state.orders["1a"].speed == 0  # no earlier orders: holds course
    assert out.state.next_orders["1a"].speed == 2
    public = [e for e in out.events if e.audience.kind == "public"]
    assert all("speed 2" not in e.text for e in public)
    private = [e for e in out.events if e.audience.kind == "seat"]
    assert [e.audience.seat for e in private] == [1]
    assert "next_orders" not in RULESET.view(out.state, None)["ships"]["1a"]
    assert RULESET.view(out.state, 1)["ships"]["1a"]["next_orders"]["speed"] == 2


def test_h13_fire_rolls_applies_damage_and_posts_one_event_with_the_sheet():
    state, _ = to_fire_step(battle())
    # class 3 at 5 MU: 3 dice 6,5,4 + reroll 2 = 2+1+1 = 4 -> F block 6 boxes: rows 2/2/2,
    # rows 1 and 2 complete: level 3 threshold; in-arc s1 (F), then groups
    dice = ScriptedDice([6, 5, 4, 2, 1, 1, 1, 1])
    out = RULESET.act(state, 1, FIRE, dice)
    [event] = out.events
    assert event.kind == "fire" and event.audience.kind == "public"
    assert event.image is not None and event.image.name == "sheet"
    assert event.data["sheet_ship"] == "2a" and event.data["damage"] == 4
    assert [d["roll"] for d in event.data["weapon_dice"]] == [6, 5, 4, 2]
    assert "level 3" in event.text
    assert out.state.ships["2a"].blocks["F"].hull_lost == 4
    assert RULESET.view(out.state, None)["sheet_ship"] == "2a"
    assert dice.remaining == 0


def test_h12_declared_screens_ignore_fours_on_that_arc():
    state, _ = to_fire_step(battle(), orders={1: {"type": "orders"},
                                              2: {"type": "orders", "2a.screens": "all:1"}})
    out = RULESET.act(state, 1, FIRE, ScriptedDice([4, 4, 5]))
    assert out.events[0].data["damage"] == 1


def test_h5_h15_one_attack_per_ship_and_target_per_step_and_weapons_fire_once():
    state, _ = to_fire_step(battle())
    state = RULESET.act(state, 1, FIRE, ScriptedDice([1, 1, 1])).state
    with pytest.raises(RulesError, match="already fired at"):
        RULESET.act(state, 1, {**FIRE, "weapons": ["1a:s2"], "bearing": "A"},
                    ScriptedDice([1]))
    state, _ = ready_all(state)  # on to step 18
    assert state.step == "fire2"
    with pytest.raises(RulesError, match="has fired this turn"):
        RULESET.act(state, 1, FIRE, ScriptedDice([1]))


def test_h15_fire_control_tracks_one_target_per_turn():
    state, _ = to_fire_step(battle(ships={1: [gunboat()], 2: [gunboat(), gunboat()]}))
    state.ships["1a"].system("s4").hits = 1  # one working fire control left
    state = RULESET.act(state, 1, FIRE, ScriptedDice([1, 1, 1])).state
    with pytest.raises(RulesError, match="no free fire control"):
        RULESET.act(state, 1, {**FIRE, "weapons": ["1a:s2"], "target": "2b",
                               "bearing": "A"}, ScriptedDice([1]))


def test_fire_refuses_weapons_that_do_not_cover_the_bearing_and_own_ships():
    state, _ = to_fire_step(battle())
    with pytest.raises(RulesError, match="does not cover AS"):
        RULESET.act(state, 1, {**FIRE, "bearing": "AS"}, ScriptedDice([]))
    with pytest.raises(RulesError, match="not your ship"):
        RULESET.act(state, 2, FIRE, ScriptedDice([]))
    with pytest.raises(RulesError, match="out of range"):
        RULESET.act(state, 1, {**FIRE, "range": "37"}, ScriptedDice([]))


def test_h14_aft_fire_after_using_the_main_drive_counts_as_stealth_2():
    orders = {1: {"type": "orders", "1a.thrust": "1"}, 2: {"type": "orders"}}
    state, _ = to_fire_step(battle(), orders=orders)
    aft = {**FIRE, "weapons": ["1a:s2"], "bearing": "A", "range": "9"}
    with pytest.raises(RulesError, match="bands of 8 MU"):
        RULESET.act(state, 1, aft, ScriptedDice([]))
    out = RULESET.act(state, 1, {**aft, "range": "8"}, ScriptedDice([5]))
    assert "Stealth 2" in out.events[0].text and "H-14" not in out.events[0].text


def test_h11_sensors_damaged_target_one_band_further():
    state, _ = to_fire_step(battle())
    state.ships["1a"].system("sensors").hits = 1
    out = RULESET.act(state, 1, FIRE, ScriptedDice([1, 1]))  # band 2: two dice
    assert len(out.events[0].data["weapon_dice"]) == 2


def test_h11_damaged_communications_fire_after_the_others():
    state, _ = to_fire_step(battle())
    state.ships["1a"].system("communications").hits = 1
    with pytest.raises(RulesError, match="damaged communications"):
        RULESET.act(state, 1, FIRE, ScriptedDice([]))
    state = RULESET.act(state, 2, {"type": "ready"}, ScriptedDice([])).state
    state = RULESET.act(state, 1, {"type": "ready"}, ScriptedDice([])).state
    assert state.step == "fire1" and state.fire_phase == 1
    assert [(r.seat, r.step) for r in RULESET.pending(state)] == [(1, "fire1-late")]
    out = RULESET.act(state, 1, FIRE, ScriptedDice([1, 1, 1]))
    assert out.events[0].kind == "fire"


def test_h16_vtif_failed_roll_bars_the_weapon_for_the_turn():
    options = HrftOptions(movement="vector", vtif=True)
    state, _ = to_fire_step(battle(options=options))
    # target in A, weapon F/FS/FP: two arcs out +3; d6 1 + 3 = 4 > 3 arcs: cannot fire
    out = RULESET.act(state, 1, {**FIRE, "bearing": "A"}, ScriptedDice([1]))
    assert "cannot fire this turn" in out.events[0].text
    assert "s1" in out.state.vtif_barred["1a"]
    assert out.events[0].data["damage"] == 0


def test_h9_manual_damage_for_missiles_rolls_each_direction():
    state, _ = to_fire_step(battle())
    action = {"type": "damage", "target": "2a", "kind": "missile", "arc": "F",
              "points": "1,1", "source": "salvo"}
    out = RULESET.act(state, 1, action, ScriptedDice([1, 6]))
    blocks = out.state.ships["2a"].blocks
    assert blocks["FS"].hull_lost == 1 and blocks["FP"].hull_lost == 1
    assert out.events[0].image.name == "sheet"


def test_h9_manual_fighter_damage_split_over_three_arcs():
    state, _ = to_fire_step(battle())
    action = {"type": "damage", "target": "2a", "kind": "fighter", "arc": "A", "points": "3"}
    out = RULESET.act(state, 2, action, ScriptedDice([]))
    lost = {n: b.hull_lost for n, b in out.state.ships["2a"].blocks.items()}
    assert lost == {"F": 0, "FS": 0, "AS": 1, "A": 1, "AP": 1, "FP": 0}


def _to_repair(state: BattleState) -> BattleState:
    while state.step != "end":
        state, _ = ready_all(state)
    return state


def test_h10_repair_step_dcps_once_a_turn_and_one_medic_roll():
    state, _ = to_fire_step(battle())
    state = _to_repair(state)
    ship = state.ships["1a"]
    ship.system("s1").hits = 1
    ship.system("dcp1").hits = 1
    req = next(r for r in RULESET.pending(state) if r.seat == 1)
    assert "repair" in [a.type for a in req.actions]
    out = RULESET.act(state, 1, {"type": "repair", "target": "1a|system:dcp1", "parties": "1",
                                 "medic": "yes"}, ScriptedDice([5]))
    assert out.state.ships["1a"].system("dcp1").hits == 0
    with pytest.raises(RulesError, match="medic roll"):
        RULESET.act(out.state, 1, {"type": "repair", "target": "1a|system:s1",
                                   "parties": "1", "medic": "yes"}, ScriptedDice([6]))
    with pytest.raises(RulesError, match="2 DCP"):
        RULESET.act(out.state, 1, {"type": "repair", "target": "1a|system:s1",
                                   "parties": "3"}, ScriptedDice([6]))
    out = RULESET.act(out.state, 1, {"type": "repair", "target": "1a|system:s1",
                                     "parties": "1"}, ScriptedDice([2]))
    assert out.state.ships["1a"].system("s1").hits == 1
    with pytest.raises(RulesError, match="already tried that repair this turn"):
        RULESET.act(out.state, 1, {"type": "repair", "target": "1a|system:s1",
                                   "parties": "1"}, ScriptedDice([6]))


def test_h15_turn_end_starts_the_next_turn_and_clears_the_turn_bookkeeping():
    state, _ = to_fire_step(battle())
    state = RULESET.act(state, 1, FIRE, ScriptedDice([1, 1, 1])).state
    state = _to_repair(state)
    state, events = ready_all(state)
    assert state.step == "orders" and state.turn == 2 and state.fired == {}
    assert "Turn 2" in events[-1].text


def test_battle_ends_with_a_report_of_every_ship():
    state, _ = to_fire_step(battle(ships={1: [gunboat()], 2: [gunboat(), gunboat()]}))
    for uid in ("2a", "2b"):
        for block in state.ships[uid].blocks.values():
            block.hull_lost = block.hull - (1 if block.name == "F" else 0)
    state = RULESET.act(state, 1, FIRE, ScriptedDice([6, 1, 1, 1, 3])).state
    out = RULESET.act(state, 1, {**FIRE, "target": "2b", "weapons": ["1a:s2"],
                                 "bearing": "A"}, ScriptedDice([6, 1, 1]))
    assert not out.finished  # fire is simultaneous: Bob's ships may still fire (H-D16)
    out = RULESET.act(out.state, 2, {"type": "ready"}, ScriptedDice([]))
    out = RULESET.act(out.state, 1, {"type": "ready"}, ScriptedDice([]))
    assert out.finished and out.state.finished and RULESET.pending(out.state) == []
    report = out.events[-1]
    assert report.kind == "report" and "only Alice has ships fighting" in report.text
    assert {s["uid"] for s in report.data["ships"]} == {"1a", "2a", "2b"}
    assert "hulk" in report.text and "destroyed" in report.text
    with pytest.raises(InvalidState):
        RULESET.act(out.state, 1, {"type": "ready"}, ScriptedDice([]))


def test_concede_ends_the_battle():
    state, _ = to_fire_step(battle())
    out = RULESET.act(state, 2, {"type": "concede"}, ScriptedDice([]))
    assert out.finished and "only Alice" in out.events[-1].text


def test_max_turns_ends_the_battle_at_turn_end():
    state, _ = to_fire_step(battle(options=HrftOptions(max_turns=1)))
    state = _to_repair(state)
    out = RULESET.act(state, 1, {"type": "ready"}, ScriptedDice([]))
    out = RULESET.act(out.state, 2, {"type": "ready"}, ScriptedDice([]))
    assert out.finished and "turn limit" in out.events[-1].text


def test_wrong_step_and_wrong_seat_refused():
    state, _ = ready_all(battle())
    with pytest.raises(InvalidState, match="sealed"):
        RULESET.act(state, 1, FIRE, ScriptedDice([]))
    state, _ = to_fire_step(battle())
    with pytest.raises(PermissionDenied):
        RULESET.act(state, 3, {"type": "ready"}, ScriptedDice([]))
    with pytest.raises(RulesError, match="Allowed"):
        RULESET.act(state, 1, {"type": "repair"}, ScriptedDice([]))


def test_state_round_trips_through_json():
    state, _ = to_fire_step(battle(ships={1: [gunboat(hull=4)], 2: [gunboat()]}))
    again = BattleState.model_validate_json(state.model_dump_json())
    assert again == state
    assert again.ships["1a"].blocks["FS+AS"].name == "AS+FS"
    json.dumps(RULESET.view(again, None))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_demo_battle_of_scripted_players_finishes(seed):
    dice = SeededDice(seed)
    out = RULESET.start(HrftOptions(), [s for s in battle().seats], dice)
    state, players = out.state, {s: RULESET.scripted_player(s) for s in (1, 2)}
    public = list(out.events)
    for _ in range(2000):
        reqs = RULESET.pending(state)
        if not reqs:
            break
        if reqs[0].kind == "sealed":
            acts = {r.seat: players[r.seat].choose(RULESET.view(state, r.seat), r, dice)
                    for r in reqs}
            out = RULESET.resolve(state, acts, dice)
        else:
            r = reqs[0]
            out = RULESET.act(state, r.seat, players[r.seat].choose(
                RULESET.view(state, r.seat), r, dice), dice)
        state = out.state
        public += out.events
    assert out.finished
    assert {s.name for s in state.ships.values()} == {
        "Kestrel", "Harrier", "Vanguard", "Lynx", "Jackal", "Wolfhound"}
    assert public[-1].kind == "report"
    assert len(RULESET.status(state, None)) <= 2000


def test_h9_gm_may_enter_manual_damage_at_an_open_step():
    state, _ = to_fire_step(battle())
    out = RULESET.act(state, 0, {"type": "damage", "target": "1a", "kind": "area", "arc": "F",
                                 "points": "1"}, ScriptedDice([]))
    assert "entered by the GM" in out.events[0].text
    assert out.state.ships["1a"].blocks["F"].hull_lost == 1
    with pytest.raises(PermissionDenied):
        RULESET.act(state, 0, {"type": "ready"}, ScriptedDice([]))


def test_h_d16_fire_is_simultaneous_a_destroyed_ship_still_fires_in_that_step():
    state, _ = to_fire_step(battle())
    for block in state.ships["2a"].blocks.values():
        block.hull_lost = block.hull - (1 if block.name == "F" else 0)
    out = RULESET.act(state, 1, FIRE, ScriptedDice([5, 1, 1, 2]))  # 1 damage, overkill d6 2
    assert out.state.ships["2a"].out and not out.finished
    back = {"type": "fire", "weapons": ["2a:s1"], "target": "1a", "range": "5", "arc": "F",
            "bearing": "F"}
    out = RULESET.act(out.state, 2, back, ScriptedDice([5, 1, 1]))
    assert out.state.ships["1a"].blocks["F"].hull_lost == 1
    out = RULESET.act(out.state, 1, {"type": "ready"}, ScriptedDice([]))
    out = RULESET.act(out.state, 2, {"type": "ready"}, ScriptedDice([]))
    assert out.finished and "only Alice" in out.events[-1].text
