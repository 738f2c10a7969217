"""FTCamp's war hooks (H-D28, E-D36): the battle a reference names with its roster, the
battles the GM may still open (autocomplete), and refusals for unknown or settled ones."""

from __future__ import annotations

import pytest
from ftcamp_testkit import craft, group, world

from bot.errors import InvalidInput, InvalidState
from bot.rules.ftcamp import RULESET, State
from bot.rules.ftcamp.model import Battle, BattleGroup, HexResult
from bot.rules.ftcamp.warmodel import WarBattle

REF = "0505/B-1"


def listed(status: str = "waiting") -> State:
    s = world(group("A", 1, "0505", crafts=[craft("Resolute", design="vanguard"),
                                            craft("Scout")]),
              group("B", 2, "0505", crafts=[craft("Fang", design="wolfhound")]))
    battle = Battle(hex="0505", sector="B-1", rule="both engage", groups=[
        BattleGroup(group="A", owner=1, role="attacker"),
        BattleGroup(group="B", owner=2, role="defender")])
    return s.model_copy(update={"step": "battles", "round": 1,
                                "results": [HexResult(round=1, hex="0505", battles=[battle])],
                                "war": [WarBattle(ref=REF, round=1, status=status)]})


def test_h_d28_battle_link_gives_roster_owners_and_preview() -> None:
    # E-D38: Scout names no design: the GM is told what comes in and chooses one for it
    with pytest.raises(InvalidState, match=r"Resolute \(vanguard, P1\), Fang \(wolfhound, "
                       r"P2\) would come in; these craft name no design: Scout \(P1, mass"):
        RULESET.battle_link(listed(), "0505 b-1")
    spec = RULESET.battle_link(listed(), "0505 b-1", "scout = harrier")
    assert spec is not None and spec.ref == REF and spec.owners == [1, 2]
    assert [(e.craft, e.owner, e.design) for e in spec.roster] == [
        ("Resolute", 1, "vanguard"), ("Scout", 1, "harrier"), ("Fang", 2, "wolfhound")]
    assert spec.lines[0].startswith(f"battle {REF} (round 1): Resolute")
    assert spec.name == f"Battle {REF}, round 1"  # P-16: its round in its name
    auto = RULESET.battle_link(listed(), REF, "auto")
    assert auto is not None and all(e.design for e in auto.roster)
    with pytest.raises(InvalidInput, match="designs: write 'auto'"):
        RULESET.battle_link(listed(), REF, "harrier")
    assert RULESET.battle_refs(listed()) == [REF]


def test_e_d37_a_battle_opened_in_a_thread_is_offered_once() -> None:
    linked = RULESET.link_battle(listed(), REF, "Battle 0505/B-1, round 1")
    assert linked is not None and linked.state.war[0].linked == "Battle 0505/B-1, round 1"
    assert RULESET.battle_refs(linked.state) == [] and RULESET.demo_battles(linked.state) == []
    assert RULESET.battles_in_threads(linked.state) == [REF]  # P-18: no deadline meanwhile
    with pytest.raises(InvalidState, match="already being fought in its own thread"):
        RULESET.battle_link(linked.state, REF, "auto")
    asked = RULESET.pending(linked.state)[0]
    assert "being fought in its thread, **Battle 0505/B-1, round 1**" in asked.prompt
    # a battle fought in a thread is never called fought at the table
    assert [a.label for a in asked.actions] == ["Close a battle: losses entered by hand"]
    closed = RULESET.resolve(linked.state, {asked.seat: {
        "type": "close", "battle": REF}}, None)
    assert not any("at the table" in e.text for e in closed.events)


def test_h_d28_battle_link_refusals_and_free_text() -> None:
    assert RULESET.battle_link(listed(), "the big fight") is None
    with pytest.raises(InvalidInput, match="has no battle '0505/A-1'"):
        RULESET.battle_link(listed(), "0505/A-1")
    with pytest.raises(InvalidState, match="no longer waits"):
        RULESET.battle_link(listed("closed"), REF)
    assert RULESET.battle_refs(listed("proposed")) == []
