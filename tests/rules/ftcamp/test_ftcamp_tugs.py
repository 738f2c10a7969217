"""Tugs (seed 3.1.2, 5.3): a tugged group whose tug is in another group (E-5, E-9, E-D29)."""

from __future__ import annotations

import pytest
from ftcamp_testkit import HEX, craft, group, orders_in, play_hex, result_of, roles, sealed, world

from bot.errors import InvalidInput, NotFound, RulesError
from bot.rules.ftcamp import RULESET, export_scenario, load_scenario, remove_craft, remove_group
from bot.rules.ftcamp.core import min_thrust
from bot.rules.ftcamp.engage import check_choice, order_options
from bot.rules.ftcamp.fleet import check_order, legal_orders
from bot.rules.ftcamp.gm import mark_ftl_lost, move_group, set_tug
from bot.rules.ftcamp.model import Group


def tug(name: str = "T", owner: int = 1, thrust: int = 3, **kw: object) -> Group:
    return group(name, owner, crafts=[craft(f"{name}-tug", thrust=thrust, tug=100)],
                 **kw)  # type: ignore[arg-type]


def hulks(name: str = "X", owner: int = 1, tugged_by: str | None = "T", **kw: object) -> Group:
    """A group of two FTL-crippled craft without a drive, waiting for its tug."""
    return group(name, owner, crafts=[craft("hulk", thrust=0, ftl="crippled"),
                                      craft("barge", thrust=0, ftl="crippled")],
                 tugged_by=tugged_by, **kw)  # type: ignore[arg-type]


def reveal(out) -> str:  # type: ignore[no-untyped-def]
    return next(e.text for e in out.events if e.kind == "engage_reveal")


def test_e5_e9_ed29_tugged_group_goes_with_its_retreating_tug() -> None:
    out = play_hex(tug(), hulks(), group("E", 2, thrust=2),
                   orders={"T": "RT", "X": "EE", "E": "SF"},
                   where={"T": "D-7", "E": "A-1"})
    res = result_of(out.state)
    assert set(res.escaped) == {"T", "X"} and res.battles == []
    assert out.state.groups["X"].sector == "D-7"  # placed with its tug, not where it was
    # The tug carries the crippled craft: nothing is abandoned (E-6 applies to lone RT).
    assert [c.name for c in out.state.groups["X"].craft] == ["hulk", "barge"]
    assert out.state.groups["X"].must_leave == HEX
    assert "X (P1): goes with its tug T (RT)" in reveal(out)  # no roll of its own


def test_e6_ed29_tugged_group_cannot_retreat_without_its_tug() -> None:
    s = orders_in(world(tug(), hulks(), group("E", 2))).state
    assert not any(v.startswith("RT") for v in
                   [o.value for o in order_options(s, s.groups["X"])])
    with pytest.raises(RulesError) as info:
        RULESET.check(s, 1, {"type": "engage_orders", "order:T": "SF", "order:X": "RT"})
    assert info.value.message == (
        "Retreat is not allowed: group X is tugged by T and cannot retreat without its tug; "
        "order RT for T and X goes with it (E-6, E-D29).")
    assert "tugged by T" in RULESET.pending(s)[0].actions[0].confirm


def test_ed29_tug_standing_firm_keeps_the_tugged_group_in_its_sector() -> None:
    slow_tug = group("T", 1, crafts=[craft("tug", thrust=3, tug=100), craft("tender", thrust=1)])
    out = play_hex(slow_tug, hulks(sector="B-2"), group("E", 2, thrust=2),
                   orders={"T": "SF", "X": "SF", "E": "SF"},
                   where={"T": "D-7", "E": "A-1", "X": "B-2"})
    res = result_of(out.state)
    assert res.escaped == [] and out.state.groups["X"].sector == "B-2"  # E-11 crippled
    assert "X (P1): SF in 1 part; dice 1, 1 + bonus 0 + thrust 3" in (
        reveal(out))  # its own roll with the tug's thrust (E-9)


def test_ed29_tugged_group_may_retreat_when_its_tug_supports_it() -> None:
    s = orders_in(world(tug(order="support X"), hulks(), group("E", 2))).state
    assert check_choice(s, s.groups["X"], "RT").abandoned == []
    out = play_hex(tug(order="support X"), hulks(), group("E", 2, thrust=2),
                   orders={"X": "RT", "E": "SF"}, where={"X": "D-1", "E": "A-1"})
    res = result_of(out.state)
    assert set(res.escaped) == {"T", "X"}
    assert len(out.state.groups["X"].craft) == 2


def test_ed29_a_supporter_led_away_stays_with_its_tug() -> None:
    out = play_hex(group("R", 1, thrust=1), tug(thrust=3),
                   hulks(order="support R"), group("E", 2, thrust=2),
                   orders={"R": "RT", "T": "SF", "E": "SF"},
                   where={"R": "D-1", "T": "C-3", "E": "A-1"})
    res = result_of(out.state)
    assert res.escaped == ["R"]
    assert out.state.groups["X"].sector == "C-3" and out.state.groups["X"].must_leave is None


def test_e12_2_ed29_a_chased_tug_drags_its_tugged_group_into_the_battle() -> None:
    out = play_hex(tug(), hulks(), group("E", 2, thrust=2),
                   orders={"T": "RT", "X": "SF", "E": "SF"},
                   where={"T": "C-1", "E": "C-1"})
    assert out.state.step == "chase"
    done = sealed(out.state, {2: {"type": "chase", "chase:C-1": "attack"}})
    res = result_of(done.state)
    assert roles(res) == {"T": "chased", "X": "tugged", "E": "chasing"}
    assert next(bg.flags for bg in res.battles[0].groups if bg.group == "X") == ["chase"]


def test_ed29_tug_elsewhere_leaves_the_tugged_group_crippled() -> None:
    s = world(tug(hex_name="0101"), hulks(sector="B-2"), group("E", 2))
    x = s.groups["X"]
    assert min_thrust(s, x) == 0  # its own thrust, not the absent tug's (E-9)
    assert not any(o.startswith("move") for o in legal_orders(s, x))
    with pytest.raises(RulesError, match=r"its tug T is not with it .*\(E-D4, E-D29\)"):
        check_order(s, x, "move 0506")
    s = orders_in(s).state
    with pytest.raises(RulesError, match="E-D10"):  # RT would abandon every crippled craft
        check_choice(s, s.groups["X"], "RT")


def test_ed29_tug_craft_destroyed_leaves_the_tugged_group_crippled() -> None:
    s = world(group("T", 1, crafts=[craft("tug", tug=50), craft("escort")]), hulks(),
              group("E", 2))
    assert any(o.startswith("move") for o in legal_orders(s, s.groups["X"]))
    s = remove_craft(s, "T", "tug")
    assert not any(o.startswith("move") for o in legal_orders(s, s.groups["X"]))


def test_ed29_removing_the_tug_group_strands_the_tugged_group_and_stays_loadable() -> None:
    s = remove_group(world(tug(), hulks(), group("E", 2)), "T")
    assert s.groups["X"].tugged_by is None
    assert not any(o.startswith("move") for o in legal_orders(s, s.groups["X"]))
    assert load_scenario(export_scenario(s)).groups == s.groups


def test_ed29_the_gm_names_and_clears_a_tug() -> None:
    s = world(tug(hex_name="0101"), hulks(tugged_by=None), group("E", 2))
    assert not any(o.startswith("move") for o in legal_orders(s, s.groups["X"]))
    s = set_tug(move_group(s, "T", HEX), "X", "T")  # recovery: the tug arrives (seed 5.3.2)
    assert any(o.startswith("move") for o in legal_orders(s, s.groups["X"]))
    with pytest.raises(InvalidInput, match="no craft with a tug rating"):
        set_tug(s, "X", "E")
    with pytest.raises(NotFound):
        set_tug(s, "X", "Nobody")
    assert set_tug(s, "X", None).groups["X"].tugged_by is None


def test_ed29_an_ftl_crippled_tug_tows_nobody() -> None:
    s = world(tug(), hulks(), group("E", 2))
    assert min_thrust(s, s.groups["X"]) == 3
    s = mark_ftl_lost(s, "T", "T-tug")  # seed 5.3.2: only non-crippled tug capacity counts
    assert min_thrust(s, s.groups["X"]) == 0
    assert not any(o.startswith("move") for o in legal_orders(s, s.groups["X"]))
