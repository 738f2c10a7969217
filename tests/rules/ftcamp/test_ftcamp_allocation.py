"""Allocation to orbit-sectors (E-11)."""

from __future__ import annotations

import pytest
from ftcamp_testkit import (
    HEX,
    SYS,
    craft,
    engage,
    group,
    orders_in,
    pick,
    play_hex,
    public,
    static,
    world,
)

from bot.errors import PermissionDenied, RulesError
from bot.rules.dice import ScriptedDice
from bot.rules.ftcamp import RULESET


def test_e11_lowest_engage_value_picks_first() -> None:
    s = orders_in(world(group("A", 1, thrust=6), group("B", 2, thrust=1))).state
    out = engage(s, {1: {"order:A": "EE"}, 2: {"order:B": "EE"}}, [1, 1, 1, 1])
    req = RULESET.pending(out.state)[0]
    assert req.seat == 2 and req.kind == "turn" and "Place B (engage value 2" in req.prompt
    assert out.state.run.queue == ["B", "A"]


def test_e11_ties_roll_off() -> None:
    s = orders_in(world(group("A", 1), group("B", 2), group("C", 2))).state
    # All three tie at 5; roll-off A 4, B 2, C 4 -> B first; A and C re-roll 6 and 3.
    out = engage(s, {}, [1, 1, 1, 1, 1, 1, 4, 2, 4, 6, 3])
    assert out.state.run.queue == ["B", "C", "A"]
    ties = [e for e in out.events if e.kind == "tie"]
    assert len(ties) == 2 and all(e.audience.kind == "public" for e in ties)
    assert "A rolls 4, B rolls 2, C rolls 4" in ties[0].text


def test_e11_each_pick_is_one_public_line_and_later_pickers_see_it() -> None:
    s = orders_in(world(group("A", 1, thrust=6), group("B", 2, thrust=1))).state
    out = engage(s, {}, [1, 1, 1, 1])
    after = pick(out.state, "B-2")
    assert [e.text for e in after.events] == ["B (P2) is placed in B-2 (engage value 2)"]
    req = RULESET.pending(after.state)[0]
    orbit_b = next(a for a in req.actions if a.type == "place-B").fields[0].options
    assert next(o for o in orbit_b if o.value == "B-2").description == "B"
    assert all(len(a.fields[0].options) <= 25 for a in req.actions)


def test_e11_illegal_and_out_of_turn_picks_are_refused() -> None:
    s = orders_in(world(group("A", 1, thrust=6), group("B", 2, thrust=1))).state
    out = engage(s, {}, [1, 1, 1, 1])
    with pytest.raises(PermissionDenied):
        RULESET.act(out.state, 1, {"type": "place", "sector": "A-1"}, ScriptedDice())
    with pytest.raises(RulesError, match="cannot go to 'Z-9'"):
        RULESET.act(out.state, 2, {"type": "place", "sector": "Z-9"}, ScriptedDice())


def test_e11_crippled_group_kept_in_its_sector() -> None:
    out = play_hex(group("A", 1, thrust=2, sector="D-7",
                         crafts=[craft("w", ftl="crippled", thrust=2)]),
                   group("B", 2, thrust=3), orders={"A": "SF", "B": "EE"},
                   where={"A": "D-7", "B": "A-1"})
    assert out.state.groups["A"].sector == "D-7"
    # E-D33: crippled craft are secret, so the group is asked like any other and the public
    # line does not say why it stayed.
    lines = public(out.events)
    assert any("A (P1) is placed in D-7 (engage value" in t for t in lines)
    assert not any("crippled" in t for t in lines)


def test_e_d33_a_crippled_group_is_asked_with_its_one_sector() -> None:
    s = orders_in(world(group("A", 1, thrust=2, sector="D-7",
                              crafts=[craft("w", ftl="crippled", thrust=2)]),
                        group("B", 2, thrust=3))).state
    s = engage(s, {1: {"order:A": "SF"}, 2: {"order:B": "EE"}}, [1, 1, 1, 1]).state
    req = RULESET.pending(s)[0]
    assert req.seat == 1 and "A" in req.prompt
    assert [o.value for a in req.actions for o in a.fields[0].options] == ["D-7"]
    assert "crippled" in req.prompt  # the owner is told why


def test_e11_support_goes_with_the_supported_group() -> None:
    out = play_hex(group("A", 1, thrust=5), group("S", 1, order="support A"),
                   group("B", 2, thrust=3), orders={"A": "EE", "B": "SF"},
                   where={"A": "C-4", "B": "A-1"})
    assert out.state.groups["S"].sector == "C-4"


def test_e11_maintain_orbit_forced_to_standoff_in_system_sector() -> None:
    out = play_hex(group("M", 1, hex_name=SYS, order="maintain-orbit", thrust=2),
                   group("B", 2, hex_name=SYS, thrust=3), orders={"M": "SF", "B": "EE"},
                   where={"B": "A-2"})
    assert out.state.groups["M"].sector == "A-2"
    roles = {bg.group: bg.role for bg in out.state.results[-1].battles[0].groups}
    assert roles == {"M": "drawn in", "B": "engaged"}


def test_e11_hold_maintain_groups_of_a_player_share_one_sector() -> None:
    out = play_hex(group("H1", 1, order="hold-special maintain", thrust=1),
                   group("H2", 1, order="hold-special maintain", thrust=2),
                   group("B", 2, thrust=3), orders={"H1": "SF", "H2": "SF", "B": "SF"},
                   where={"H1": "B-5", "B": "A-1"})
    assert out.state.groups["H2"].sector == "B-5"


def test_e11_statics_are_fixed() -> None:
    out = play_hex(static("St", 1, "B-3"), group("B", 2, thrust=3), orders={"B": "SF"},
                   where={"B": "A-1"})
    assert out.state.groups["St"].sector == "B-3"
    assert out.state.sector_layout == {"St": "B-3", "B": "A-1"}


def test_e11_deadline_default_picks() -> None:
    s = orders_in(world(group("R", 1, thrust=1), group("K", 2, thrust=2, sector="C-5"),
                        group("N", 2, thrust=3, hex_name=HEX))).state
    out = engage(s, {1: {"order:R": "RT"}}, [1] * 6)
    assert RULESET.pending(out.state)[0].default == {"type": "place-D", "sector": "D-1"}
    out = pick(out.state, "D-1")
    assert RULESET.pending(out.state)[0].default["sector"] == "C-5"  # where it was
    out = pick(out.state, "C-5")
    # N has no previous sector; deep space has no `system`: fallback A-1 (E-D2).
    assert RULESET.pending(out.state)[0].default["sector"] == "A-1"


def test_e11_retreat_default_takes_an_empty_outer_sector() -> None:
    s = orders_in(world(group("X", 2, thrust=1), group("R", 1, thrust=2))).state
    out = engage(s, {1: {"order:R": "RT"}}, [1] * 4)
    out = pick(out.state, "D-1")
    assert RULESET.pending(out.state)[0].default["sector"] == "D-2"


def test_e11_allocation_complete_posts_the_public_sector_picture() -> None:
    out = play_hex(group("A", 1, thrust=1), group("B", 2, thrust=2),
                   orders={"A": "SF", "B": "SF"}, where={"A": "A-1", "B": "A-3"})
    done = [e for e in out.events if e.kind == "allocation"]
    assert len(done) == 1 and done[0].image is not None
    assert done[0].image.name == "sector" and done[0].image.viewer is None
