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
    spec = RULESET.battle_link(listed(), "0505 b-1")
    assert spec is not None and spec["ref"] == REF and spec["owners"] == [1, 2]
    assert [(e["craft"], e["owner"], e["design"]) for e in spec["roster"]] == [
        ("Resolute", 1, "vanguard"), ("Scout", 1, None), ("Fang", 2, "wolfhound")]
    assert spec["lines"][0].startswith(f"battle {REF} (round 1): Resolute")
    assert any("not brought in: Scout" in line for line in spec["lines"])
    assert RULESET.battle_refs(listed()) == [REF]


def test_h_d28_battle_link_refusals_and_free_text() -> None:
    assert RULESET.battle_link(listed(), "the big fight") is None
    with pytest.raises(InvalidInput, match="has no battle '0505/A-1'"):
        RULESET.battle_link(listed(), "0505/A-1")
    with pytest.raises(InvalidState, match="no longer waits"):
        RULESET.battle_link(listed("closed"), REF)
    assert RULESET.battle_refs(listed("proposed")) == []
