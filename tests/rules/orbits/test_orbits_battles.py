"""Rulings O-14 to O-16 and O-18: battle forces, reports, discards, turn order, options."""

from __future__ import annotations

import pytest
from orbits_testkit import all_pass, at, clear_hands, put, start, texts, where

from bot.errors import InvalidState, RulesError
from bot.rules.base import GM_SEAT
from bot.rules.dice import ScriptedDice
from bot.rules.orbits import RULESET, battle_force, propose_discard
from bot.rules.orbits.battle import check_discard

ALICE = ("2C", "3C", "7H", "9D", "10D")
BOB = ("5S", "8H", "JK1")


def battle(**options):
    """Alice (attack) against Bob (blockade) at Orbit 1, at the battle report step."""
    state = start(**options).state
    clear_hands(state)
    state.rp = {1: 5, 2: 5}
    for code in ALICE:
        put(state, 1, code, "orbit:1", face_up=True, stance="attack")
    for code in BOB:
        put(state, 2, code, "orbit:1", face_up=True, stance="blockade")
    return all_pass(at(state, "deployment", 1))


def report(alice: int, bob: int, defeated: str = "none") -> dict:
    return {"type": "report", "losses_1_tens": str(alice // 10), "losses_1_units":
            str(alice % 10), "losses_2": str(bob), "defeated": defeated}


def resolve(state, actions):
    return RULESET.resolve(state, actions, ScriptedDice())


def test_o14_battle_card_shows_totals_and_size_class() -> None:
    out = battle()
    card = texts(out.events, "battle")[0]
    assert "Alice (ATTACK): 7♥, 9♦, 10♦, 2♣, 3♣ → 31 system boxes, max size class 3" in card
    assert "Bob (BLOCKADE): 5♠, 8♥, Joker → 13 system boxes, max size class 3" in card
    assert battle_force(["AS", "AH", "AD", "AC", "JK1", "JK2"]) == (4, 5)
    assert battle_force(["AS", "AH", "AD", "AC", "JK1"], cap=3) == (4, 3)


def test_o14_points_per_value_option() -> None:
    card = texts(battle(points_per_value=50, points_label="SFB points").events, "battle")[0]
    assert "31 SFB points = 1550 points" in card
    req = RULESET.pending(battle(points_per_value=50).state)[0]
    bob = next(f for f in req.actions[0].fields if f.name == "losses_2")
    assert bob.options[2].label == "2 (51–100 points)"


def test_o15_report_fields_fit_a_select() -> None:
    req = RULESET.pending(battle().state)[0]
    fields = {f.name: f for f in req.actions[0].fields}
    assert set(fields) == {"losses_1", "losses_2", "defeated"}
    assert all(len(f.options) <= 25 for f in fields.values())
    # alice's force totals 31: too wide for one menu, her losses are typed (0..31)
    wide = fields["losses_1"]
    assert (wide.kind, wide.minimum, wide.maximum, wide.options) == ("number", 0, 31, [])
    assert fields["losses_2"].kind == "choice"
    assert [o.value for o in fields["losses_2"].options] == [str(k) for k in range(14)]
    assert req.kind == "sealed" and req.default is None


def test_o15_agreed_reports_accepted_then_discard_with_proposal_default() -> None:
    state = battle().state
    out = resolve(state, {1: report(18, 5, "1"), 2: report(18, 5, "1")})
    assert out.state.phase == "battle_discard"
    assert "(agreed)" in texts(out.events, "battle_result")[0]
    reqs = {r.seat: r for r in RULESET.pending(out.state)}
    assert reqs[1].default == {"type": "discard", "cards": ["9D", "10D"]}
    assert reqs[2].default == {"type": "discard", "cards": ["5S"]}
    with pytest.raises(RulesError, match="short of the losses 18"):
        resolve(out.state, {1: {"type": "discard", "cards": ["10D", "7H"]}, 2: reqs[2].default})
    with pytest.raises(RulesError, match="not needed"):
        resolve(out.state, {1: {"type": "discard", "cards": ["10D", "9D", "2C"]},
                            2: reqs[2].default})
    # another minimal set is fine: 10♦ 7♥ 2♣ reaches 19 and no card can go
    done = resolve(out.state, {1: {"type": "discard", "cards": ["10D", "7H", "2C"]},
                               2: reqs[2].default})
    s = done.state
    assert s.discards[1] == ["7H", "10D", "2C"] and s.discards[2] == ["5S"]
    assert not where(s, 1, "3C").face_up and where(s, 1, "3C").known  # defeated: flipped
    assert where(s, 2, "8H").face_up and s.battles_won == {1: 0, 2: 1}
    assert s.turn == 2  # O-16: the next turn ran once every battle was settled


def test_o15_losses_at_least_total_discard_everything_jokers_too() -> None:
    state = battle().state
    out = resolve(state, {1: report(0, 13, "2"), 2: report(0, 13, "2")})
    assert sorted(out.state.discards[2]) == ["5S", "8H", "JK1"]
    assert out.state.turn == 2 and out.state.battles_won[1] == 1


def test_o15_disagreement_goes_to_the_gm() -> None:
    state = battle().state
    out = resolve(state, {1: report(10, 5, "2"), 2: report(10, 5, "1")})
    assert out.state.phase == "battle_gm"
    assert texts(out.events, "battle_dispute", "public") == [
        "Battle at Orbit 1: the reports differ; the GM will enter the result."]
    assert len(texts(out.events, "battle_reports", "gm")) == 1
    (req,) = RULESET.pending(out.state)
    assert req.seat == GM_SEAT and [a.type for a in req.actions] == ["report", "cancel"]
    done = resolve(out.state, {GM_SEAT: report(0, 0, "none")})
    assert "entered by the GM" in texts(done.events, "battle_result")[0]
    assert done.state.turn == 2


def test_o15_missing_report_goes_to_the_gm() -> None:
    out = resolve(battle().state, {1: report(0, 0)})
    assert out.state.phase == "battle_gm"
    assert "not every side reported" in texts(out.events, "battle_dispute")[0]


def test_o15_report_validation() -> None:
    state = battle().state
    with pytest.raises(RulesError, match="Bob's losses must be 0 to 13"):
        RULESET.check(state, 1, report(0, 14))
    with pytest.raises(InvalidState):
        resolve(state, {3: report(0, 0)})
    with pytest.raises(RulesError, match="Only one side"):
        RULESET.check(state, 1, {**report(0, 0), "defeated": ["1", "2"]})


def test_o15_proposal_rules() -> None:
    assert propose_discard(list(ALICE), 18) == ["9D", "10D"]
    assert propose_discard(list(ALICE), 0) == []
    assert propose_discard(["2C", "JK1"], 5) == ["2C", "JK1"]
    assert propose_discard(["AS", "AH", "5C", "6D"], 2) == ["5C"]  # fewest cards first
    assert propose_discard(["4S", "4H", "4D", "9C"], 8) == ["9C"]
    check_discard(list(ALICE), 18, ["9D", "10D"])
    with pytest.raises(RulesError, match="Jokers included"):
        check_discard(["2C", "JK1"], 5, ["2C"])


def test_o16_next_turn_waits_for_battles_and_gm_may_cancel() -> None:
    out = battle()
    assert out.state.turn == 1 and out.state.phase == "battle_report"
    with pytest.raises(InvalidState):
        RULESET.act(out.state, 1, {"type": "pass"}, ScriptedDice())
    gm = resolve(out.state, {1: report(1, 1), 2: report(2, 2)})
    done = resolve(gm.state, {GM_SEAT: {"type": "cancel"}})
    assert done.state.turn == 2 and done.state.discards == {1: [], 2: []}
    assert texts(done.events, "battle_cancelled")


def test_o18_rush_transit_option() -> None:
    state = start(rush_transit=True).state
    clear_hands(state)
    put(state, 1, "5H", "home:1")
    put(state, 2, "6H", "home:2")
    at(state, "transit", 1)
    state = RULESET.act(state, 1, {"type": "depart", "origin": "home:1", "cards": ["5H"],
                                   "destination": "orbit:1"}, ScriptedDice()).state
    state = RULESET.act(state, 2, {"type": "pass"}, ScriptedDice()).state
    assert "rush" in [a.type for a in RULESET.pending(state)[0].actions]
    out = RULESET.act(state, 1, {"type": "rush", "group": "1"}, ScriptedDice())
    assert out.state.rp[1] == 2 and out.state.groups == []
    assert where(out.state, 1, "5H").group is None and texts(out.events, "arrival")
    plain = start().state
    with pytest.raises(RulesError, match="depart, pass"):
        RULESET.act(plain, 1, {"type": "rush", "group": "1"}, ScriptedDice())


def test_o18_rush_once_per_group_per_turn() -> None:
    state = start(rush_transit=True).state
    clear_hands(state)
    put(state, 1, "5H", "home:1")
    put(state, 1, "6H", "home:1")
    at(state, "transit", 1)
    state = RULESET.act(state, 1, {"type": "depart", "origin": "home:1", "cards": ["5H"],
                                   "destination": "orbit:3"}, ScriptedDice()).state
    state.actor = 1
    state = RULESET.act(state, 1, {"type": "rush", "group": "1"}, ScriptedDice()).state
    state.actor = 1
    with pytest.raises(RulesError, match="once per group per turn"):
        RULESET.act(state, 1, {"type": "rush", "group": "1"}, ScriptedDice())


def test_o18_raid_colonies_option() -> None:
    state = start(raid_colonies=True).state
    clear_hands(state)
    state.rp = {1: 5, 2: 5}
    put(state, 1, "9D", "orbit:1", face_up=True, stance="attack")
    put(state, 2, "2D", "orbit:1", face_up=True, stance="blockade")
    put(state, 2, "QH", "orbit:1", face_up=True)
    state = all_pass(at(state, "deployment", 1)).state
    rep = {"type": "report", "losses_1": "0", "losses_2": "2", "defeated": "2"}
    out = resolve(state, {1: rep, 2: rep})
    assert out.state.phase == "battle_raid"
    (req,) = RULESET.pending(out.state)
    assert req.seat == 1 and req.default == {"type": "no_raid"}
    done = resolve(out.state, {1: {"type": "raid", "card": "2:QH"}})
    assert where(done.state, 2, "QH") is None and done.state.discards[2] == ["2D", "QH"]
    assert texts(done.events, "raid") == [
        "Alice raids Bob's colony at Orbit 1: Q♥ is discarded."]


def test_od10_three_sided_battle_several_defeated() -> None:
    state = start(3, raid_colonies=True).state
    clear_hands(state)
    state.rp = {1: 5, 2: 5, 3: 5}
    put(state, 1, "9D", "orbit:2", face_up=True, stance="attack")
    put(state, 2, "2D", "orbit:2", face_up=True, stance="blockade")
    put(state, 3, "3D", "orbit:2", face_up=True, stance="blockade")
    put(state, 3, "JC", "orbit:2", face_up=True)
    state = all_pass(at(state, "deployment", 1)).state
    reqs = RULESET.pending(state)
    assert [r.seat for r in reqs] == [1, 2, 3]
    field = next(f for f in reqs[0].actions[0].fields if f.name == "defeated")
    assert field.max_values == 3
    rep = {"type": "report", "losses_1": "0", "losses_2": "0", "losses_3": "0",
           "defeated": ["2", "3"]}
    out = resolve(state, {1: rep, 2: rep, 3: rep})
    assert out.state.battles_won == {1: 1, 2: 0, 3: 0}
    assert not where(out.state, 2, "2D").face_up and not where(out.state, 3, "3D").face_up
    assert [r.seat for r in RULESET.pending(out.state)] == [1]  # Alice may raid Carol's J♣
    everyone = {**rep, "defeated": ["1", "2", "3"]}
    out = resolve(state, {1: everyone, 2: everyone, 3: everyone})
    assert out.state.turn == 2  # nobody left to raid: the turn goes on
