"""Decisions where no ruling speaks (E-D ids in docs/rules/ftcamp.md) and special acts."""

from __future__ import annotations

from ftcamp_testkit import (
    HEX,
    craft,
    engage,
    group,
    orders_in,
    play_hex,
    result_of,
    roles,
    sealed,
    static,
    world,
)

from bot.rules.dice import ScriptedDice
from bot.rules.ftcamp import RULESET
from bot.rules.ftcamp.scan import contacts


def test_ed20_retreat_escapes_past_an_armed_static() -> None:
    out = play_hex(static("Fort", 1, "C-1"), group("R", 2, thrust=2), orders={"R": "RT"},
                   where={"R": "C-1"})
    res = result_of(out.state)
    assert res.escaped == ["R"] and res.battles == []


def test_ed14_armed_static_breaks_a_locked_standoff() -> None:
    out = play_hex(static("Fort", 1, "C-1"), group("S1", 1, thrust=1), group("S2", 2, thrust=2),
                   orders={"S1": "SF", "S2": "SF"}, where={"S1": "C-1", "S2": "C-1"})
    res = result_of(out.state)
    assert res.locked == {} and roles(res) == {"Fort": "static", "S1": "drawn in",
                                               "S2": "drawn in"}


def test_ed24_supporter_follows_a_retreat_and_escapes() -> None:
    out = play_hex(group("A", 1, thrust=1), group("S", 1, order="support A"),
                   group("B", 2, thrust=2), orders={"A": "RT", "B": "SF"},
                   where={"A": "D-2", "B": "A-1"})
    res = result_of(out.state)
    assert set(res.escaped) == {"A", "S"}
    assert out.state.groups["S"].must_leave == HEX


def test_ed28_dropping_a_hold_special_ends_it() -> None:
    s = orders_in(world(group("H", 1, order="hold-special tug", thrust=1),
                        group("B", 2, thrust=2))).state
    out = engage(s, {1: {"order:H": "RT+drop"}}, [1, 1, 1, 1])
    assert out.state.groups["H"].order.kind == "hold"
    assert "hold-special abandoned" in next(e.text for e in out.events
                                            if e.kind == "engage_reveal")


def test_e4_weasel_setting_is_chosen_at_special_acts_and_resets_next_round() -> None:
    s = orders_in(world(group("W", 1, crafts=[craft("w", mass=30, weasel=2)], thrust=1),
                        group("B", 2, thrust=2)), skip_special=False).state
    req = next(r for r in RULESET.pending(s) if r.seat == 1)
    assert [f.name for f in req.actions[0].fields] == ["weasel:W#0"]
    out = sealed(s, {1: {"type": "special_acts", "weasel:W#0": "2"}})
    scan_b = next(e.text for e in out.events if e.kind == "scan" and e.audience.seat == 2)
    assert "W (P1): 1 contact: class 4" in scan_b
    out = engage(out.state, {1: {"order:W": "SF"}, 2: {"order:B": "SF"}}, [1, 1, 1, 1])
    while RULESET.pending(out.state) and out.state.step == "allocate":
        out = RULESET.act(out.state, RULESET.pending(out.state)[0].seat,
                          RULESET.pending(out.state)[0].default or {}, ScriptedDice())
    assert out.state.round == 2 and out.state.groups["W"].craft[0].weasel_on == 0


def test_e4_decoys_added_to_a_group_show_and_are_spent_after_the_hex() -> None:
    s = orders_in(world(group("A", 1, crafts=[craft("a", mass=10, decoys=2)], thrust=1),
                        group("B", 2, thrust=2)), skip_special=False).state
    out = sealed(s, {1: {"type": "special_acts", "decoy:A": "add:2:5"}})
    assert contacts(out.state, 2, out.state.groups["A"]) == ["class 1", "class 5", "class 5"]
    assert out.state.groups["A"].craft[0].decoys == 0
    out = engage(out.state, {}, [1, 1, 1, 1])
    out = RULESET.act(out.state, 2, {"type": "place", "sector": "A-4"}, ScriptedDice())
    out = RULESET.act(out.state, 1, {"type": "place", "sector": "A-1"}, ScriptedDice())
    assert out.state.round == 2
    assert [c.name for c in out.state.groups["A"].craft] == ["a"]


def test_e5_a_launched_decoy_group_gets_an_engage_order() -> None:
    s = orders_in(world(group("A", 1, crafts=[craft("a", decoys=1)], thrust=1),
                        group("B", 2, thrust=2)), skip_special=False).state
    out = sealed(s, {1: {"type": "special_acts", "decoy:A": "new:1:3"}})
    decoy = next(n for n, g in out.state.groups.items() if g.craft[0].is_decoy)
    fields = [f.name for r in RULESET.pending(out.state) if r.seat == 1
              for f in r.actions[0].fields]
    assert f"order:{decoy}" in fields
    assert "launched as" in next(e.text for e in out.events if e.kind == "special")
    assert all(e.audience.kind == "seat" for e in out.events)


def test_ed31_betrayal_needs_an_engage_order() -> None:
    s = orders_in(world(group("A", 1, thrust=1), group("C", 3, thrust=2),
                        group("B", 2, thrust=3), players=3, alliances=((1, 3),))).state
    out = engage(s, {1: {"betray": ["3"], "order:A": "SF"}}, [1] * 6)
    assert out.state.alliances == [(1, 3)]
    assert "the alliance stands" in next(e.text for e in out.events
                                                 if e.kind == "engage_reveal")


def test_e12_7_a_group_is_dispatched_to_one_interception_only() -> None:
    from bot.errors import RulesError
    from bot.rules.ftcamp.model import Craft, Group
    hq = Group(name="HQ", owner=2, hex="0101", sector="A-1", static="military",
               craft=[Craft(name="hq", mass=100, command=True)])
    s = orders_in(world(group("A", 1, thrust=1), group("P1", 2, order="patrol"),
                        group("P2", 2, order="patrol"),
                        group("Wing", 2, hex_name="0102", order="patrol"), hq),
                  skip_special=False).state
    fields = {r.seat: [f.name for f in r.actions[0].fields] for r in RULESET.pending(s)}
    assert fields == {1: ["idle"], 2: ["dispatch:P1", "dispatch:P2"]}  # E-D33: both asked
    try:
        RULESET.check(s, 2, {"type": "special_acts", "dispatch:P1": ["Wing"],
                             "dispatch:P2": ["Wing"]})
    except RulesError as exc:
        assert "one interception only." in exc.message and exc.ruling == "E-12"
    else:
        raise AssertionError("a double dispatch was accepted")
