"""E-D36: the round waits for its battles; a battle's result changes the craft it names.

Pure rules: ``propose``, ``apply_battle_result``, the GM's request and its resolution."""

from __future__ import annotations

import pytest
from ftcamp_testkit import craft, group, world
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import PermissionDenied, RulesError
from bot.rules.base import GM_SEAT
from bot.rules.dice import ScriptedDice
from bot.rules.ftcamp import RULESET, State
from bot.rules.ftcamp.war import apply_battle_result, open_battles
from bot.rules.ftcamp.warmodel import FATES, BattleResult, CraftFate, WarBattle
from tests.support.examples import examples

REF = "0505/B-1"


def waiting(*groups: object) -> State:
    s = world(*groups)  # type: ignore[arg-type]
    return s.model_copy(update={"step": "battles", "war": [WarBattle(ref=REF, round=1)]})


def fate(group_: str, name: str, **kw: object) -> CraftFate:
    return CraftFate(group=group_, craft=name, **kw)  # type: ignore[arg-type]


def two() -> State:
    return waiting(group("A", 1, crafts=[craft("a1", thrust=6), craft("a2", thrust=4),
                                         craft("a3", thrust=4)]),
                   group("B", 2, crafts=[craft("b1")]))


def test_e_d34_each_fate_maps_to_the_ftcamp_craft() -> None:
    s = two()
    result = BattleResult(craft=[
        fate("A", "a1", thrust=4, thrust_left=2, hull_lost=3),  # one drive hit: half thrust
        fate("A", "a2", ftl_lost=True, thrust=4, thrust_left=4, hull_lost=1),
        fate("A", "a3", fate="hulk"),
        fate("B", "b1", fate="destroyed"),  # the last craft: its group goes
        fate("C", "ghost", fate="destroyed"),  # not in the campaign: skipped
    ])
    new, lines = apply_battle_result(s, REF, result)
    a1, a2 = new.groups["A"].craft
    assert (a1.name, a1.thrust, a1.drive, a1.damage, a1.crippled) == ("a1", 3, True, 3, False)
    assert (a2.name, a2.crippled, a2.damage, a2.thrust) == ("a2", True, 1, 4)
    assert "B" not in new.groups
    assert any("ghost" in line and "skipped" in line for line in lines)
    assert new.war[0].status == "applied"
    assert s.groups["A"].craft[0].thrust == 6 and "B" in s.groups  # the input is unchanged


def test_e_d34_a_stopped_drive_puts_the_drive_out() -> None:
    new, _ = apply_battle_result(two(), REF, BattleResult(craft=[
        fate("A", "a1", thrust=4, thrust_left=0)]))
    assert new.groups["A"].craft[0].drive is False


def test_e_d34_a_gm_edit_sets_the_fate_alone() -> None:
    new, _ = apply_battle_result(two(), REF, BattleResult(craft=[
        fate("A", "a1", ftl_lost=True, hull_lost=2, fate="damaged", edited=True),
        fate("A", "a2", fate="destroyed", edited=True)]))
    a1 = new.groups["A"].craft[0]
    assert not a1.crippled and a1.damage == 2 and [c.name for c in new.groups["A"].craft] == [
        "a1", "a3"]


def test_e_d34_the_round_asks_the_gm_only_and_waits() -> None:
    s = two()
    reqs = RULESET.pending(s)
    assert [(r.seat, r.kind, [a.type for a in r.actions]) for r in reqs] == [
        (GM_SEAT, "sealed", ["close"])]
    assert reqs[0].default is None  # no deadline default: the GM decides
    with pytest.raises(PermissionDenied):
        RULESET.check(s, 1, {"type": "close", "battle": REF})
    with pytest.raises(RulesError, match="No battle"):
        RULESET.check(s, GM_SEAT, {"type": "confirm", "battle": REF})  # nothing proposed


def test_e_d34_propose_then_confirm_opens_the_next_round() -> None:
    s = two()
    proposed = RULESET.propose_battle(s, "0505 b-1", {"craft": [
        {"group": "B", "craft": "b1", "fate": "destroyed"}]})
    assert proposed is not None
    # E-D37: the channel gets ONE post of it (an embed: where, each side's craft, who was
    # defeated, the GM confirms it) and the GM its details
    assert [e.audience.kind for e in proposed.events] == ["public", "gm"]
    shown = proposed.events[0].embed
    assert shown is not None and "result proposed" in shown.title
    assert [f.name for f in shown.fields][-1] == "Defeated" and "GM confirms" in shown.footer
    again = RULESET.propose_battle(proposed.state, REF, {"craft": []})
    assert again is None  # only a waiting battle takes a proposal
    p = proposed.state
    assert {a.type for a in RULESET.pending(p)[0].actions} == {"confirm", "edit", "close"}
    assert RULESET.pending(p)[0].step != RULESET.pending(s)[0].step  # a fresh panel
    out = RULESET.resolve(p, {GM_SEAT: {"type": "confirm", "battle": REF}}, ScriptedDice())
    assert out.state.round == 2 and out.state.step == "orders"
    assert "B" not in out.state.groups and open_battles(out.state) == []
    assert any(e.kind == "battle_applied" and e.audience.kind == "public" for e in out.events)


def test_e_d34_a_closed_battle_changes_no_craft() -> None:
    s = two()
    out = RULESET.resolve(s, {GM_SEAT: {"type": "close", "battle": REF}}, ScriptedDice())
    assert out.state.groups == s.groups and out.state.war[0].status == "closed"
    assert out.state.round == 2


names = st.sampled_from(["a1", "a2", "a3", "b1", "zz"])
fates = st.builds(CraftFate, group=st.sampled_from(["A", "B", "C"]), craft=names,
                  fate=st.sampled_from(list(FATES)), ftl_lost=st.booleans(),
                  thrust=st.integers(0, 8), thrust_left=st.integers(0, 8),
                  hull_lost=st.integers(0, 40), edited=st.booleans())


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(fates, max_size=8))
def test_e_d34_a_result_never_creates_craft_and_leaves_the_earlier_state(
    craft_fates: list[CraftFate],
) -> None:
    s = two()
    before = s.model_dump_json()
    new, _ = apply_battle_result(s, REF, BattleResult(craft=craft_fates))
    old_craft = {(g.name, c.name) for g in s.groups.values() for c in g.craft}
    new_craft = {(g.name, c.name) for g in new.groups.values() for c in g.craft}
    assert new_craft <= old_craft
    assert set(new.groups) <= set(s.groups)
    assert all(g.craft for g in new.groups.values())  # no group left empty
    for g in new.groups.values():
        for c in g.craft:
            old = next(k for k in s.groups[g.name].craft if k.name == c.name)
            assert c.thrust <= old.thrust and c.damage >= old.damage
    # the earlier state is untouched, so an undo to it is exact
    assert s.model_dump_json() == before
    assert State.model_validate_json(new.model_dump_json()) == new


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.sampled_from(list(FATES))), max_size=4),
       st.lists(fates, max_size=6))
def test_e_d34_gm_edits_then_confirm_never_create_craft_nor_change_earlier_states(
    edits: list[tuple[int, str]], craft_fates: list[CraftFate],
) -> None:
    """Through the GM's step (propose, any edits, confirm): every earlier state stays as it
    was (what /gm undo goes back to), and the campaign never gains a craft."""
    start = two()
    out = RULESET.propose_battle(start, REF, BattleResult(craft=craft_fates).model_dump())
    assert out is not None
    states = [start, out.state]
    frozen = [s.model_dump_json() for s in states]
    for j, fate_ in edits:
        specs = [a for a in RULESET.pending(states[-1])[0].actions if a.type == "edit"]
        if not specs:  # the result names no craft
            break
        options = [o.value for o in specs[0].fields[0].options]
        action = {"type": "edit", "craft": options[j % len(options)], "fate": fate_}
        RULESET.check(states[-1], GM_SEAT, action)
        states.append(RULESET.resolve(states[-1], {GM_SEAT: action}, ScriptedDice()).state)
        frozen.append(states[-1].model_dump_json())
    done = RULESET.resolve(states[-1], {GM_SEAT: {"type": "confirm", "battle": REF}},
                           ScriptedDice()).state
    assert [s.model_dump_json() for s in states] == frozen
    before = {(g.name, c.name) for g in start.groups.values() for c in g.craft}
    assert {(g.name, c.name) for g in done.groups.values() for c in g.craft} <= before
    assert done.round == 2 and done.war[0].status == "applied"


def test_e_d34_a_big_result_fits_one_panel() -> None:
    s = waiting(group("A", 1, n=40), group("B", 2, n=40))
    result = {"craft": [{"group": g, "craft": f"{g}-{i}", "fate": "destroyed"}
                        for g in ("A", "B") for i in range(40)]}
    out = RULESET.propose_battle(s, REF, result)
    assert out is not None
    req = RULESET.pending(out.state)[0]
    assert len(req.prompt) <= 2000 and req.prompt.endswith("(the full list is in your DMs)")
    edit = next(a for a in req.actions if a.type == "edit")
    assert len(edit.fields[0].options) == 25  # one Select: the first 25 craft


def test_p22_a_hand_entered_or_gm_ended_result_is_never_confirmed_by_default() -> None:
    """P-22: FTCamp's GM step for a proposed result has no deadline default at all."""
    s = two()
    proposed = RULESET.propose_battle(s, REF, {"craft": [], "hand_entered": True,
                                               "gm_ended": True})
    assert proposed is not None
    assert [r.default for r in RULESET.pending(proposed.state)] == [None]
