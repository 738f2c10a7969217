"""Orbits battles fought in HRFT (O-D17 to O-D20): forces and budgets, the link, the result
proposed from the HRFT battle, the GM's confirmation and what follows it."""

from __future__ import annotations

import pytest
from orbits_testkit import all_pass, at, clear_hands, put, start, texts

from bot.errors import InvalidInput, InvalidState, RulesError
from bot.rules.base import GM_SEAT
from bot.rules.dice import ScriptedDice
from bot.rules.orbits import RULESET
from bot.rules.orbits import forces as F
from bot.rules.orbits import war as W
from bot.rules.orbits.state import OrbitsState

ALICE = ("2C", "3C", "7H", "9D", "10D")  # 31, three suits
BOB = ("5S", "8H", "JK1")  # 13, three suits (the Joker its own)


def battle(areas: tuple[str, ...] = ("orbit:1",), **options):
    """Alice (attack) against Bob (blockade) in each of ``areas``, at the first report."""
    options.setdefault("points_per_value", 10)
    state = start(**options).state
    clear_hands(state)
    state.rp = {1: 5, 2: 5}
    for n, area in enumerate(areas):
        for code in ALICE[n:]:
            put(state, 1, code, area, face_up=True, stance="attack")
        for code in BOB[n:]:
            put(state, 2, code, area, face_up=True, stance="blockade")
    return all_pass(at(state, "deployment", 1))


def resolve(state, actions):
    return RULESET.resolve(state, actions, ScriptedDice())


def linked(state: OrbitsState, ref: str = "Orbit 1") -> OrbitsState:
    return RULESET.link_battle(state, ref, "Battle at Orbit 1").state


def craft(side: str, fate: str, mass: int, hull_total: int = 4, hull_lost: int = 0) -> dict:
    return {"group": "g", "craft": "c", "seat": int(side), "side": side, "fate": fate,
            "mass": mass, "hull_total": hull_total, "hull_lost": hull_lost, "ftl_lost": False,
            "thrust": 4, "thrust_left": 4}


def test_od17_forces_budget_in_mass_and_size_class() -> None:
    state = battle().state
    spec = RULESET.battle_link(state, "orbit 1")
    assert spec is not None
    assert spec.ref == f"Orbit 1, turn {state.turn}"
    assert spec.owners == [1, 2]
    assert [f.model_dump() for f in spec.forces] == [
        {"owner": 1, "side": "1", "label": "Alice's fleet at Orbit 1", "budget": 310,
         "max_class": 3},
        {"owner": 2, "side": "2", "label": "Bob's fleet at Orbit 1", "budget": 130,
         "max_class": 3}]
    assert RULESET.battle_refs(state) == [spec.ref]
    # the size-class cap of the muster is 5 however high the campaign's cap (O-D17)
    assert F.MAX_CLASS == 5


def test_od17_budget_below_the_smallest_design_is_refused_with_the_setting() -> None:
    state = battle(points_per_value=1).state
    name, mass = F.smallest_design()
    with pytest.raises(InvalidState) as err:
        RULESET.battle_link(state, "Orbit 1")
    text = err.value.message
    assert "Bob's budget is 13 MASS" in text and f"{name}, {mass} MASS" in text
    assert "points_per_value" in text and "before a campaign starts" in text
    assert RULESET.demo_battles(state) == []
    assert not texts(battle(points_per_value=1).events, "battle_commands")


def test_od17_references_and_refusals() -> None:
    state = battle().state
    assert RULESET.battle_link(state, "ORBIT 1") is not None
    assert RULESET.battle_link(state, f"orbit 1, turn {state.turn}") is not None
    assert RULESET.battle_link(state, "Sector 4, turn 3 skirmish") is None  # free text
    with pytest.raises(InvalidInput, match="Orbit 1, turn"):
        RULESET.battle_link(state, "Orbit 3")
    with pytest.raises(InvalidInput):
        RULESET.battle_link(state, f"Orbit 1, turn {state.turn + 1}")
    again = linked(state)
    with pytest.raises(InvalidState, match="already fought in its own thread"):
        RULESET.battle_link(again, "Orbit 1")
    assert RULESET.battle_refs(again) == []


def test_od17_gm_gets_the_command_that_opens_each_battle() -> None:
    out = battle(("orbit:1", "orbit:2"))
    (dm,) = [e for e in out.events if e.kind == "battle_commands"]
    assert dm.audience.kind == "gm"
    assert "`/battle start parent:<this campaign> ref:Orbit 1`" in dm.text
    assert "`/battle start parent:<this campaign> ref:Orbit 2`" in dm.text
    assert "O-" not in dm.text


def test_od18_linked_battle_asks_the_gm_not_the_players() -> None:
    state = linked(battle().state)
    (req,) = RULESET.pending(state)
    assert req.seat == GM_SEAT and req.default is None and req.step == "battle1_linked"
    assert {a.type for a in req.actions} == {"report", "cancel"}
    assert "fought in its own thread" in req.prompt and "proposed here" in req.prompt
    with pytest.raises(InvalidState):
        RULESET.check(state, 1, {"type": "report", "losses_1": "0", "losses_2": "0",
                                 "defeated": "none"})
    with pytest.raises(RulesError, match="No result is proposed"):
        RULESET.check(state, GM_SEAT, {"type": "confirm"})
    out = resolve(state, {GM_SEAT: {"type": "report", "losses_1": "3", "losses_2": "13",
                                    "defeated": "2"}})
    assert out.state.phase == "battle_discard"
    assert out.state.battles[0].result.losses == {1: 3, 2: 13}


def test_od18_gm_may_cancel_a_linked_battle() -> None:
    state = linked(battle().state)
    out = resolve(state, {GM_SEAT: {"type": "cancel"}})
    assert texts(out.events, "battle_cancelled") and out.state.turn == state.turn + 1


def test_od19_losses_from_mass_lost_rounded_up_capped_defeated_from_result() -> None:
    state = linked(battle().state)
    ref = f"Orbit 1, turn {state.turn}"
    result = {"name": "b", "defeated": ["2"], "craft": [
        craft("1", "destroyed", 38),                      # whole MASS: 38
        craft("1", "intact", 72, hull_total=12, hull_lost=5),  # 72 * 5 // 12 = 30
        craft("1", "intact", 16, hull_total=4),           # nothing lost
        craft("2", "hulk", 64), craft("2", "destroyed", 72), craft("2", "destroyed", 36)]}
    out = RULESET.propose_battle(state, ref, result)
    assert out is not None
    b = out.state.battles[0]
    assert b.proposal.losses == {1: 7, 2: 13}  # ceil(68 / 10); 172 MASS capped at 13
    assert b.proposal.defeated == [2]
    assert state.battles[0].proposal is None  # the given state is not changed
    (req,) = RULESET.pending(out.state)
    assert req.step == "battle1_confirm"
    assert [a.type for a in req.actions] == ["confirm", "report", "cancel"]
    assert req.default == {"type": "report", "losses_1": "7", "losses_2": "13",
                           "defeated": "2"}  # the edit page is pre-filled
    done = resolve(out.state, {GM_SEAT: {"type": "confirm"}})
    assert done.state.battles[0].result == b.proposal
    assert done.state.phase == "battle_discard"  # Alice: 7 of 31; Bob loses all at once
    assert "confirmed by the GM" in texts(done.events, "battle_result")[0]
    assert [r.seat for r in RULESET.pending(done.state)] == [1]


def test_od19_gm_edits_the_proposal() -> None:
    state = linked(battle().state)
    out = RULESET.propose_battle(state, "Orbit 1", {"craft": [craft("2", "destroyed", 16)],
                                                    "defeated": []})
    edited = resolve(out.state, {GM_SEAT: {"type": "report", "losses_1": "0",
                                           "losses_2": "5", "defeated": "2"}})
    assert edited.state.battles[0].result.losses == {1: 0, 2: 5}
    assert edited.state.battles[0].result.defeated == [2]


def test_od19_both_sides_defeated_in_two_sided_battle_means_nobody() -> None:
    state = linked(battle().state)
    out = RULESET.propose_battle(state, "Orbit 1", {"craft": [], "defeated": ["1", "2"]})
    assert out.state.battles[0].proposal.defeated == []
    assert out.state.battles[0].proposal.losses == {1: 0, 2: 0}


def test_od19_damaged_ship_counts_its_share_of_hull_rounded_down() -> None:
    assert W._lost_mass(W.HrftCraft(fate="intact", mass=38, hull_total=8, hull_lost=3)) == 14
    assert W._lost_mass(W.HrftCraft(fate="hulk", mass=38, hull_total=8, hull_lost=3)) == 38
    assert W._lost_mass(W.HrftCraft(fate="intact", mass=38, hull_total=0, hull_lost=3)) == 0


def test_od20_early_proposal_is_kept_until_its_battle_comes() -> None:
    state = battle(("orbit:1", "orbit:2")).state
    assert len(state.battles) == 2
    state = RULESET.link_battle(state, "Orbit 2", "Battle at Orbit 2").state
    before = RULESET.pending(state)
    assert {r.seat for r in before} == {1, 2}  # the first battle: the players report
    out = RULESET.propose_battle(state, "orbit 2", {"craft": [craft("1", "destroyed", 40)],
                                                    "defeated": ["1"]})
    assert out is not None and RULESET.pending(out.state) == before
    assert "kept until that battle's turn comes" in texts(out.events, audience="gm")[0]
    first = {"type": "report", "losses_1": "0", "losses_2": "0", "defeated": "none"}
    nxt = resolve(out.state, {1: first, 2: first})
    assert nxt.state.battle_index == 1
    (req,) = RULESET.pending(nxt.state)
    assert req.seat == GM_SEAT and req.step == "battle2_confirm"
    assert nxt.state.battles[1].proposal.losses == {1: 4, 2: 0}


def test_od20_proposal_for_a_settled_battle_or_another_turn_changes_nothing() -> None:
    state = linked(battle().state)
    cancelled = state.clone()
    cancelled.battles[0].cancelled = True
    assert RULESET.propose_battle(cancelled, "Orbit 1", {"craft": []}) is None
    over = resolve(state, {GM_SEAT: {"type": "cancel"}}).state  # the next turn
    assert RULESET.propose_battle(over, f"Orbit 1, turn {state.turn}", {"craft": []}) is None
    assert RULESET.propose_battle(state, f"Orbit 1, turn {state.turn + 1}",
                                  {"craft": []}) is None
    with pytest.raises(InvalidInput):
        RULESET.propose_battle(state, "Orbit 1", {"craft": "nonsense"})


def test_od18_scripted_gm_confirms_a_proposal() -> None:
    state = linked(battle().state)
    out = RULESET.propose_battle(state, "Orbit 1", {"craft": [], "defeated": []})
    (req,) = RULESET.pending(out.state)
    gm = RULESET.scripted_player(GM_SEAT)
    assert gm.choose(RULESET.view(out.state, None), req, ScriptedDice()) == {"type": "confirm"}


@pytest.mark.parametrize(("flags", "why"), [
    ({"hand_entered": True}, "damage was entered by hand"),
    ({"gm_ended": True}, "the battle's GM ended it"),
    ({"hand_entered": True, "gm_ended": True},
     "damage was entered by hand and the battle's GM ended it"),
])
def test_p22_a_hand_entered_or_gm_ended_result_has_no_deadline_default(flags, why) -> None:
    state = linked(battle().state)
    out = RULESET.propose_battle(state, "Orbit 1", {"craft": [craft("2", "destroyed", 16)],
                                                    "defeated": [], **flags})
    (req,) = RULESET.pending(out.state)
    assert req.step == "battle1_confirm" and req.default is None
    assert f"not confirmed at the deadline ({why}): only you confirm it" in req.prompt
    done = resolve(out.state, {GM_SEAT: {"type": "confirm"}})
    assert "confirmed by the GM" in texts(done.events, "battle_result")[0]
