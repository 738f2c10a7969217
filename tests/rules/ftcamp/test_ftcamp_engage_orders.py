"""Engage orders: restrictions (E-6), subdivisions (E-7), the reveal (E-10)."""

from __future__ import annotations

import pytest
from ftcamp_testkit import (
    HEX,
    SYS,
    craft,
    engage,
    group,
    orders_in,
    picks,
    public,
    result_of,
    world,
)

from bot.errors import RulesError
from bot.rules.ftcamp import RULESET
from bot.rules.ftcamp.engage import check_choice, order_options


def at_engage(*groups, **kw):  # type: ignore[no-untyped-def]
    state = orders_in(world(*groups, **kw)).state
    assert state.step == "engage"
    return state


def refuse(state, seat: int, **orders: str) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(RulesError) as info:
        RULESET.check(state, seat, {"type": "engage_orders", **orders})
    return info.value.message


def values(state, name: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [o.value for o in order_options(state, state.groups[name])]


def test_e6_engage_refused_with_a_diplomat() -> None:
    s = at_engage(group("Vanguard", 1, diplomat=True), group("B", 2))
    assert refuse(s, 1, **{"order:Vanguard": "EE"}) == (
        "Engage is not allowed: group Vanguard carries a diplomat.")
    assert "EE" not in values(s, "Vanguard") and "RT" in values(s, "Vanguard")


def test_e6_lost_group_may_neither_retreat_nor_engage() -> None:
    s = at_engage(group("L", 1, lost=True), group("B", 2))
    assert "is lost" in refuse(s, 1, **{"order:L": "RT"})
    assert "is lost" in refuse(s, 1, **{"order:L": "EE"})
    assert values(s, "L") == ["SF"]


def test_e6_hold_special_must_be_abandoned_to_retreat_or_engage() -> None:
    s = at_engage(group("H", 1, order="hold-special tug"), group("B", 2))
    assert "RT+drop" in refuse(s, 1, **{"order:H": "RT"})
    assert "EE+drop" in refuse(s, 1, **{"order:H": "EE"})
    assert set(values(s, "H")) == {"SF", "RT+drop", "EE+drop"}
    assert check_choice(s, s.groups["H"], "RT+drop").drop_hold


def test_e6_drop_and_abandon_only_where_they_apply() -> None:
    s = at_engage(group("A", 1), group("B", 2))
    assert "not on hold-special" in refuse(s, 1, **{"order:A": "EE+drop"})
    assert "no FTL-crippled" in refuse(s, 1, **{"order:A": "EE+abandon"})
    assert "not an engage order" in refuse(s, 1, **{"order:A": "XX"})


def test_e6_maintain_orbit_must_take_standoff() -> None:
    s = at_engage(group("M", 1, hex_name=SYS, order="maintain-orbit"),
                  group("B", 2, hex_name=SYS))
    assert "maintain-orbit" in refuse(s, 1, **{"order:M": "RT"})
    assert "maintain-orbit" in refuse(s, 1, **{"order:M": "EE"})
    assert values(s, "M") == ["SF"]


def test_e6_standoff_is_always_allowed() -> None:
    s = at_engage(group("X", 1, hex_name=SYS, lost=True, diplomat=True,
                        order="hold-special other"), group("B", 2, hex_name=SYS))
    assert check_choice(s, s.groups["X"], "SF").order == "SF"


def test_e6_retreat_abandons_crippled_craft_named_in_confirm() -> None:
    s = at_engage(group("A", 1, crafts=[craft("Wreck", ftl="crippled", thrust=0),
                                        craft("Fine", thrust=5)]), group("B", 2))
    req = next(r for r in RULESET.pending(s) if r.seat == 1)
    assert "Wreck" in req.actions[0].confirm and "RT abandons" in req.actions[0].confirm
    out = engage(s, {1: {"order:A": "RT"}, 2: {"order:B": "SF"}}, [3, 4, 2, 2])
    assert [c.name for c in out.state.groups["A"].craft] == ["Fine"]
    reveal = next(e.text for e in out.events if e.kind == "engage_reveal")
    # Abandoned before the roll: thrust 5 counts, not the wreck's 0.
    assert "thrust 5 = **9**" in reveal and "Wreck" not in reveal  # E-D33: no craft named
    own = next(e for e in out.events if e.kind == "engage_parts" and e.audience.seat == 1)
    assert "A: RT (Retreat) in 1 part [Fine]; abandoned Wreck (lost with crew)" in own.text  # E-D44
    assert not any(e.kind == "engage_parts" and e.audience.seat == 2 and "Wreck" in e.text
                   for e in out.events)


def test_e6_group_of_only_crippled_craft_cannot_retreat() -> None:
    s = at_engage(group("A", 1, crafts=[craft("W", ftl="crippled")]), group("B", 2))
    assert "would abandon every craft; all are FTL-crippled" in refuse(s, 1, **{"order:A": "RT"})


def test_e6_engage_with_crippled_keeps_sector_unless_abandoned() -> None:
    crafts = [craft("W", ftl="crippled"), craft("F")]
    s = at_engage(group("A", 1, crafts=crafts, sector="C-3"), group("B", 2))
    out = engage(s, {1: {"order:A": "EE"}, 2: {"order:B": "SF"}}, [6, 1, 1, 1])
    # B (value 5) picks first, then A may only take C-3 (asked all the same, E-D33).
    out = picks(out.state, ["A-1", "C-3"])
    assert "A (P1) is placed in C-3 (engage value" in "\n".join(public(out.events))
    s2 = at_engage(group("A", 1, crafts=[craft("W", ftl="crippled"), craft("F")],
                         sector="C-3"), group("B", 2))
    out2 = engage(s2, {1: {"order:A": "EE+abandon"}, 2: {"order:B": "SF"}}, [6, 1, 1, 1])
    assert [c.name for c in out2.state.groups["A"].craft] == ["F"]
    req = RULESET.pending(picks(out2.state, ["A-1"]).state)[0]
    assert req.seat == 1 and len(req.actions) == 4  # free to pick any orbit


def test_e6_hold_maintain_may_engage_and_is_flagged() -> None:
    s = at_engage(group("H", 1, order="hold-special maintain"), group("B", 2))
    assert "EE" in values(s, "H")
    out = engage(s, {1: {"order:H": "EE"}, 2: {"order:B": "SF"}}, [2, 2, 5, 5])
    out = picks(out.state, ["B-1", "B-1"])
    battle = result_of(out.state).battles[0]
    flags = {bg.group: bg.flags for bg in battle.groups}
    assert flags["H"] == ["hold-maintain penalty"] and flags["B"] == []


def test_e7_engage_split_limited_by_group_size() -> None:
    s = at_engage(group("A", 1, n=4), group("B", 2, n=3))
    assert check_choice(s, s.groups["A"], "EE", "0|1|2,3").parts == [
        ["A-0"], ["A-1"], ["A-2", "A-3"]]
    assert "at most 3" in refuse(s, 1, **{"order:A": "EE", "split:A": "0|1|2|3"})
    assert "at most 2" in refuse(s, 2, **{"order:B": "EE", "split:B": "0|1|2"})


def test_e7_retreat_at_most_three_parts_standoff_none() -> None:
    s = at_engage(group("A", 1, n=8), group("B", 2))
    assert len(check_choice(s, s.groups["A"], "RT", "0,1|2,3|4,5,6,7").parts) == 3
    assert "at most 3" in refuse(s, 1, **{"order:A": "RT", "split:A": "0|1|2|3,4,5,6,7"})
    assert "at most 1" in refuse(s, 1, **{"order:A": "SF", "split:A": "0|1,2,3,4,5,6,7"})


def test_e7_split_must_place_every_craft_once() -> None:
    s = at_engage(group("A", 1, n=3), group("B", 2))
    assert "exactly one part" in refuse(s, 1, **{"order:A": "EE", "split:A": "0|1"})
    assert "exactly one part" in refuse(s, 1, **{"order:A": "EE", "split:A": "0|0,1,2"})
    assert "craft numbers" in refuse(s, 1, **{"order:A": "EE", "split:A": "0|9"})


def test_e7_bonus_and_random_arrival_order() -> None:
    s = at_engage(group("A", 1, n=2), group("B", 2))
    out = engage(s, {1: {"order:A": "EE", "split:A": "0|1"}, 2: {"order:B": "EE"}},
                 [1, 2, 1, 1])
    assert out.state.run.rolls["A"].value == 2 + 1 + 4  # highest die + 1 split + thrust
    out = picks(out.state, ["A-1", "A-1"], shuffles=[[["A-1"], ["A-0"]]])
    entry = next(bg for bg in result_of(out.state).battles[0].groups if bg.group == "A")
    assert entry.parts == [["A-1"], ["A-0"]]
    assert "1) A-1 then 2) A-0" in public(out.events)[-2]


def test_e10_missing_orders_become_standoff_without_split() -> None:
    s = at_engage(group("A", 1, n=3), group("B", 2))
    out = engage(s, {2: {"order:B": "EE"}}, [1, 1, 2, 2])
    assert out.state.run.choices["A"].order == "SF"
    assert out.state.run.choices["A"].parts == [["A-0", "A-1", "A-2"]]


def test_e10_reveal_is_one_public_event_with_both_dice() -> None:
    s = at_engage(group("A", 1), group("B", 2))
    out = engage(s, {1: {"order:A": "RT"}, 2: {"order:B": "EE"}}, [2, 6, 5, 3])
    reveals = [e for e in out.events if e.kind == "engage_reveal"]
    assert len(reveals) == 1 and reveals[0].audience.kind == "public"
    assert "dice 2, 6" in reveals[0].text and "dice 5, 3" in reveals[0].text


def test_e10_sealed_submissions_produce_no_public_event_until_all_pages_are_in() -> None:
    many = [group(f"G{i}", 1) for i in range(6)]
    s = at_engage(*many, group("B", 2))
    reqs = {r.seat: r for r in RULESET.pending(s)}
    assert "page 1 of 2" in reqs[1].prompt and len(reqs[1].actions[0].fields) == 4
    first = engage(s, {1: {f"order:G{i}": "EE" for i in range(4)}, 2: {"order:B": "EE"}}, [])
    assert first.events == [] and first.state.page == 2
    # E-D33: page 2 asks both seats; P2 has nothing left to do there.
    page2 = {r.seat: [f.name for f in r.actions[0].fields] for r in RULESET.pending(first.state)}
    assert page2 == {1: ["order:G4", "order:G5"], 2: ["idle"]}
    rolls = [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 6, 6, 1, 2]  # G5 and B tie, then roll off
    final = engage(first.state, {1: {"order:G4": "RT", "order:G5": "EE"}}, rolls)
    reveal = next(e.text for e in final.events if e.kind == "engage_reveal")
    assert "G0 (P1): EE" in reveal and "G4 (P1): RT" in reveal


def test_e12_betrayal_declared_in_engage_orders() -> None:
    s = at_engage(group("A", 1), group("C", 3), group("B", 2), players=3,
                  alliances=((1, 3),))
    field = next(f for f in RULESET.pending(s)[0].actions[0].fields if f.name == "betray")
    assert [o.value for o in field.options] == ["3"]
    out = engage(s, {1: {"betray": ["3"], "order:A": "EE"}}, [1, 1, 2, 2, 3, 3])
    assert out.state.alliances == []
    assert "P1 declares an attack on P3" in public(out.events)[0]
    assert out.state.run.hex == HEX


def test_ed34_an_ally_without_a_group_to_order_is_not_offered_the_attack() -> None:
    """Before: P3, whose only asset in the hex is a static, was held up by a bare "Declare an
    attack on an ally" menu that could do nothing (a betrayal needs an EE order, E-D31).
    Now P3 gets the one "nothing to do" input (still asked, E-D33); P4, with nothing in the
    hex, is not asked at all; P1, who has a group to order, keeps the choice, labelled."""
    from ftcamp_testkit import static

    s = at_engage(group("A", 1), static("Base", 3, "A-1"), group("B", 2), players=4,
                  alliances=((1, 3),))
    fields = {r.seat: [f for f in r.actions[0].fields] for r in RULESET.pending(s)}
    assert sorted(fields) == [1, 2, 3]
    assert [f.name for f in fields[3]] == ["idle"]
    betray = next(f for f in fields[1] if f.name == "betray")
    assert betray.label == "Attack an ally? (leave empty: no attack)"
    assert betray.min_values == 0 and [o.label for o in betray.options] == ["attack P3"]
    # the idle answer is the deadline default, so P3 is never what the hex waits on
    req = next(r for r in RULESET.pending(s) if r.seat == 3)
    assert req.default == {"type": "engage_orders", "idle": "none"}
