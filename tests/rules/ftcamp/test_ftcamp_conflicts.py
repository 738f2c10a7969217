"""Conflicts per orbit-sector in the order of E-12, and the battle list (E-13)."""

from __future__ import annotations

from ftcamp_testkit import (
    HEX,
    craft,
    group,
    play_hex,
    public,
    result_of,
    roles,
    sealed,
    static,
)

from bot.rules.ftcamp import RULESET
from bot.rules.ftcamp.model import Craft, Group


def test_e12_1_engage_draws_in_every_group_of_the_sector() -> None:
    out = play_hex(group("A", 1, thrust=1), group("R", 2, thrust=2), group("S", 2, thrust=3),
                   static("St", 2, "B-1"), group("Far", 2, thrust=4),
                   orders={"A": "EE", "R": "RT", "S": "SF", "Far": "SF"},
                   where={"A": "B-1", "R": "B-1", "S": "B-1", "Far": "D-9"})
    assert out.state.run.reserve_groups == ["Far"]
    out = sealed(out.state, {2: {"type": "reserves", "reserve:Far": "stay"}})
    res = result_of(out.state)
    assert roles(res) == {"A": "engaged", "R": "drawn in", "S": "drawn in", "St": "static"}
    assert res.battles[0].rule == "E-12.1" and res.unengaged == ["Far"]


def test_e12_1_engage_with_only_allies_makes_no_battle() -> None:
    out = play_hex(group("A", 1, thrust=1), group("C", 3, thrust=2), group("B", 2, thrust=3),
                   players=3, alliances=((1, 3),), orders={"A": "EE", "C": "SF", "B": "SF"},
                   where={"A": "B-1", "C": "B-1", "B": "D-1"})
    res = result_of(out.state)
    assert res.battles == [] and set(res.unengaged) == {"A", "C", "B"}


def test_e12_ally_attacked() -> None:
    from ftcamp_testkit import engage, orders_in, picks, world
    s = orders_in(world(group("A", 1, thrust=1), group("C", 3, thrust=2),
                        group("B", 2, thrust=3), players=3, alliances=((1, 3),))).state
    out = engage(s, {1: {"betray": ["3"], "order:A": "EE"}, 3: {"order:C": "SF"},
                     2: {"order:B": "SF"}}, [1] * 6)
    out = picks(out.state, ["B-1", "B-1", "D-1"])
    out = sealed(out.state, {})  # B's reserve choice: the default is to stay
    res = result_of(out.state)
    assert roles(res) == {"A": "engaged", "C": "drawn in"}
    assert not out.state.allied(1, 3)


def test_e12_2_standoff_may_chase_retreating_groups() -> None:
    out = play_hex(group("R", 1, thrust=1), group("S", 2, thrust=2),
                   orders={"R": "RT", "S": "SF"}, where={"R": "C-1", "S": "C-1"})
    assert out.state.step == "chase"
    reqs = RULESET.pending(out.state)
    assert [r.seat for r in reqs] == [2] and reqs[0].kind == "sealed"
    assert not any("chase" in t.lower() for t in public(out.events)[-1:])
    done = sealed(out.state, {2: {"type": "chase", "chase:C-1": "attack"}})
    res = result_of(done.state)
    assert roles(res) == {"R": "chased", "S": "chasing"} and res.battles[0].rule == "E-12.2"
    assert next(bg.flags for bg in res.battles[0].groups if bg.group == "R") == ["chase"]


def test_e12_2_no_chase_lets_them_escape() -> None:
    out = play_hex(group("R", 1, thrust=1), group("S", 2, thrust=2),
                   orders={"R": "RT", "S": "SF"}, where={"R": "C-1", "S": "C-1"})
    done = sealed(out.state, {2: {"type": "chase", "chase:C-1": "hold"}})
    res = result_of(done.state)
    assert res.battles == [] and res.escaped == ["R"] and res.unengaged == ["S"]


def test_e12_3_all_retreat_sector_escapes_and_must_move_away() -> None:
    out = play_hex(group("R1", 1, thrust=1), group("R2", 2, thrust=2), group("E", 2, thrust=3),
                   orders={"R1": "RT", "R2": "RT", "E": "EE"},
                   where={"R1": "D-1", "R2": "D-1", "E": "A-1"})
    res = result_of(out.state)
    assert res.escaped == ["R1", "R2"] and res.battles == []
    assert out.state.groups["R1"].must_leave == HEX
    assert "Escaped (must move away next Fleet Orders): R1, R2" in public(out.events)[-2]


def _battle_plus_idle(idle: Group) -> tuple:  # type: ignore[type-arg]
    return (group("A", 1, thrust=1), group("B", 2, thrust=2), idle)


def test_e12_4_reserves_joining() -> None:
    out = play_hex(*_battle_plus_idle(group("Res", 1, thrust=3)),
                   orders={"A": "EE", "B": "EE", "Res": "SF"},
                   where={"A": "B-1", "B": "B-1", "Res": "D-5"})
    assert out.state.step == "reserves"
    field = RULESET.pending(out.state)[0].actions[0].fields[0]
    assert field.name == "reserve:Res" and [o.value for o in field.options] == ["stay", "B-1"]
    done = sealed(out.state, {1: {"type": "reserves", "reserve:Res": "B-1"}})
    entry = next(bg for bg in result_of(done.state).battles[0].groups if bg.group == "Res")
    assert entry.role == "reserve" and entry.flags == ["late"]
    assert done.state.groups["Res"].sector == "B-1"


def test_e12_4_crippled_groups_cannot_join_as_reserves() -> None:
    idle = group("Res", 1, thrust=3, sector="D-5", crafts=[craft("w", thrust=3,
                                                                 ftl="crippled")])
    out = play_hex(*_battle_plus_idle(idle), orders={"A": "EE", "B": "EE", "Res": "EE"},
                   where={"A": "B-1", "B": "B-1", "Res": "D-5"})
    assert out.state.step != "reserves"
    assert result_of(out.state).unengaged == ["Res"]


def test_e12_5_locked_standoffs() -> None:
    out = play_hex(group("S1", 1, thrust=1), group("S2", 2, thrust=2),
                   orders={"S1": "SF", "S2": "SF"}, where={"S1": "C-2", "S2": "C-2"})
    res = result_of(out.state)
    assert res.locked == {"C-2": ["S1", "S2"]} and res.battles == []
    assert "Locked standoff in C-2: S1, S2" in public(out.events)[-2]


def test_e12_6_armed_static_makes_a_battle() -> None:
    out = play_hex(static("Fort", 1, "A-3"), group("B", 2, thrust=2), orders={"B": "SF"},
                   where={"B": "A-3"})
    res = result_of(out.state)
    assert roles(res) == {"Fort": "static", "B": "drawn in"} and res.battles[0].rule == "E-12.6"
    assert next(bg.engage_value for bg in res.battles[0].groups if bg.group == "Fort") == -1


def test_e12_6_unarmed_static_makes_no_battle() -> None:
    out = play_hex(static("Dock", 1, "A-3", armed=False, kind="civilian"),
                   group("B", 2, thrust=2), orders={"B": "EE"}, where={"B": "A-3"})
    res = result_of(out.state)
    assert res.battles == [] and res.exposed == ["Dock"] and res.statics == ["Dock"]


def test_e12_6_opposing_statics_alone_make_no_battle() -> None:
    out = play_hex(static("F1", 1, "A-3"), static("F2", 2, "A-3"), group("B", 2, thrust=2),
                   orders={"B": "SF"}, where={"B": "C-1"})
    res = result_of(out.state)
    assert res.battles == [] and set(res.statics) == {"F1", "F2"}


def test_e12_6_statics_do_not_stop_reserves() -> None:
    out = play_hex(group("A", 1, thrust=1), group("B", 2, thrust=2), static("Fort", 1, "C-3"),
                   group("X", 2, thrust=3),
                   orders={"A": "EE", "B": "EE", "X": "SF"},
                   where={"A": "B-1", "B": "B-1", "X": "C-3"})
    assert out.state.step == "reserves" and out.state.run.reserve_groups == ["X"]
    stayed = sealed(out.state, {2: {"type": "reserves", "reserve:X": "stay"}})
    res = result_of(stayed.state)
    assert [b.rule for b in res.battles] == ["E-12.1", "E-12.6"]
    assert roles(res)["X"] == "drawn in"


def _patrol_world(reserve: bool) -> tuple:  # type: ignore[type-arg]
    hq = Group(name="HQ", owner=2, hex="0101", sector="A-1", static="military",
               craft=[Craft(name="hq", mass=100, command=True)])
    wing = group("Wing", 2, hex_name="0102", order="patrol", thrust=5)
    pick = group("Pick", 2, order="patrol", thrust=3)
    extra = (group("X", 2, thrust=2),) if reserve else ()
    return (group("A", 1, thrust=1), pick, wing, hq, *extra)


def test_e12_7_patrol_reserves_join_the_interceptors_battle() -> None:
    out = play_hex(*_patrol_world(False), orders={"A": "EE", "Pick": "EE"},
                   where={"A": "B-1", "Pick": "B-1"},
                   special={2: {"dispatch:Pick": ["Wing"]}})
    assert out.state.step == "patrol"
    done = sealed(out.state, {2: {"type": "patrol_reserves", "patrol:Wing": "join"}})
    entry = next(bg for bg in result_of(done.state).battles[0].groups if bg.group == "Wing")
    assert entry.role == "patrol reserve" and entry.flags == ["patrol penalty"]
    assert done.state.groups["Wing"].hex == HEX


def test_e12_7_patrol_reserves_of_a_reserve_interceptor_take_both_penalties() -> None:
    out = play_hex(*_patrol_world(True), orders={"A": "EE", "Pick": "SF", "X": "EE"},
                   where={"A": "B-1", "X": "B-1", "Pick": "D-4"},
                   special={2: {"dispatch:Pick": ["Wing"]}})
    out = sealed(out.state, {2: {"type": "reserves", "reserve:Pick": "B-1"}})
    done = sealed(out.state, {2: {"type": "patrol_reserves", "patrol:Wing": "join"}})
    entry = next(bg for bg in result_of(done.state).battles[0].groups if bg.group == "Wing")
    assert entry.flags == ["patrol penalty", "reserve penalty"]


def test_e12_7_no_patrol_reserves_without_a_battle() -> None:
    out = play_hex(*_patrol_world(False), orders={"A": "SF", "Pick": "SF"},
                   where={"A": "B-1", "Pick": "C-1"},
                   special={2: {"dispatch:Pick": ["Wing"]}})
    assert out.state.step == "orders" and out.state.groups["Wing"].hex == "0102"


def test_e13_battle_list_is_one_public_event_and_kept_in_state() -> None:
    out = play_hex(group("A", 1, thrust=1, n=2), group("B", 2, thrust=2),
                   orders={"A": "EE", "B": "EE"}, where={"A": "B-1", "B": "B-1"})
    lists = [e for e in out.events if e.kind == "battle_list"]
    assert len(lists) == 1 and lists[0].audience.kind == "public"
    assert lists[0].data["battles"][0]["sector"] == "B-1"
    assert out.state.results[-1].battles[0].groups[0].engage_value == 2
    text = lists[0].text
    # E-D44: an order's short name is spelled out where it first appears in a post
    assert "- A (P1): engaged EE (Engage), engage value 2; arrival: 1) A-0, A-1" in text
    assert RULESET.view(out.state, None)["battles"][0]["hex"] == HEX
