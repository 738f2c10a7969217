"""E-D33: the engage reveal names no craft, and who is asked tells nothing (E-4, E-10,
E-D16)."""

from __future__ import annotations

from typing import Any

from ftcamp_testkit import (
    HEX,
    craft,
    engage,
    group,
    orders_in,
    play_hex,
    public,
    sealed,
    world,
)

from bot.rules.base import Event
from bot.rules.dice import ScriptedDice
from bot.rules.ftcamp import RULESET
from bot.rules.ftcamp.model import Craft, Group, State


def asked(state: State) -> dict[int, list[str]]:
    return {r.seat: [f.name for f in r.actions[0].fields] for r in RULESET.pending(state)}


def parts_for(events: list[Event], seat: int) -> str:
    return "\n".join(e.text for e in events if e.kind == "engage_parts"
                     and e.audience.seat == seat)


def _three(**kw: Any) -> State:
    """P1 (stealthy Shade, decoys) and its ally P3 against P2 in one hex."""
    a = group("A", 1, crafts=[craft("Shade", stealth=3, thrust=4),
                              craft("Lure", thrust=4, decoys=1)])
    return orders_in(world(a, group("B", 2, thrust=3), group("C", 3, thrust=2), players=3,
                           alliances=((1, 3),)), skip_special=False, **kw).state


def test_e_d33_reveal_names_no_craft_and_parts_go_to_owner_and_allies() -> None:
    s = _three()
    s = sealed(s, {1: {"type": "special_acts", "decoy:A": "add:1:3"}}).state
    decoy = next(c.name for c in s.groups["A"].craft if c.is_decoy)
    out = engage(s, {1: {"order:A": "EE", "split:A": "0|1,2"}, 2: {"order:B": "SF"},
                     3: {"order:C": "SF"}}, [1] * 6)
    reveal = next(e for e in out.events if e.kind == "engage_reveal")
    assert ("- A (P1): EE (Engage) in 2 parts; dice 1, 1 + bonus 1 + thrust 4 = **6**"  # E-D44
            in reveal.text)
    for hidden in ("Shade", "Lure", decoy):
        assert hidden not in reveal.text and hidden not in str(reveal.data)
    assert reveal.data["choices"]["A"] == {"order": "EE", "parts": 2, "follows": None,
                                           "drop_hold": False}
    mine = parts_for(out.events, 1)
    assert f"- A: EE (Engage) in 2 parts [Shade | Lure, {decoy}]" in mine
    assert f"[Shade | Lure, {decoy}]" in parts_for(out.events, 3)  # the ally (E-D16)
    assert "Shade" not in parts_for(out.events, 2) and "- A:" not in parts_for(out.events, 2)
    assert "- B: SF (StandOff) in 1 part [B-0]" in parts_for(out.events, 2)


def test_e_d33_a_betrayed_ally_gets_no_parts() -> None:
    s = sealed(_three(), {}).state
    out = engage(s, {1: {"order:A": "EE", "betray": ["3"]}, 2: {"order:B": "SF"},
                     3: {"order:C": "SF"}}, [1] * 6)
    assert "P1 declares an attack on P3" in public(out.events)[0]
    assert "Shade" in parts_for(out.events, 1) and "Shade" not in parts_for(out.events, 3)


def test_e_d33_special_acts_ask_every_seat_in_the_hex_even_without_kit() -> None:
    s = orders_in(world(group("A", 1), group("B", 2), group("Far", 2, hex_name="0101")),
                  skip_special=False).state
    assert s.step == "special"  # asked although nobody carries any kit
    assert asked(s) == {1: ["idle"], 2: ["idle"]}
    req = RULESET.pending(s)[0]
    assert req.default == {"type": "special_acts", "idle": "none"}
    RULESET.check(s, 1, {"type": "special_acts", "idle": "none"})
    out = RULESET.resolve(s, {1: {"type": "special_acts", "idle": "none"}}, ScriptedDice())
    assert out.state.step == "engage" and [e.kind for e in out.events] == ["scan", "scan"]


def test_e_d33_kit_and_no_kit_are_asked_alike() -> None:
    s = orders_in(world(group("A", 1, crafts=[craft("W", weasel=2)]), group("B", 2)),
                  skip_special=False).state
    assert asked(s) == {1: ["weasel:A#0"], 2: ["idle"]}
    assert "Waiting for: P1, P2" in RULESET.status(s, None)


def test_e_d33_every_page_asks_every_seat() -> None:
    kit = [craft(f"W{i}", weasel=1) for i in range(5)]
    s = orders_in(world(group("A", 1, crafts=kit), group("B", 2)), skip_special=False).state
    assert asked(s) == {1: [f"weasel:A#{i}" for i in range(4)], 2: ["idle"]}
    second = sealed(s, {}).state
    assert second.page == 2 and asked(second) == {1: ["weasel:A#4"], 2: ["idle"]}
    assert "page 2 of 2" in RULESET.pending(second)[1].prompt


def test_e_d33_reserves_ask_every_seat_and_hide_a_crippled_group() -> None:
    # P1's Res may not join (crippled), P2's X may: both owners are asked alike.
    out = play_hex(group("A", 1, thrust=1), group("B", 2, thrust=2),
                   group("Res", 1, thrust=3, sector="D-5",
                         crafts=[craft("w", thrust=3, ftl="crippled")]),
                   group("X", 2, thrust=4),
                   orders={"A": "EE", "B": "EE", "Res": "SF", "X": "SF"},
                   where={"A": "B-1", "B": "B-1", "Res": "D-5", "X": "C-3"})
    assert out.state.step == "reserves" and out.state.run.reserve_groups == ["X"]
    assert asked(out.state) == {1: ["idle"], 2: ["reserve:X"]}


def test_e_d33_no_reserves_step_when_nobody_could_join() -> None:
    out = play_hex(group("A", 1, thrust=1), group("B", 2, thrust=2),
                   orders={"A": "EE", "B": "EE"}, where={"A": "B-1", "B": "B-1"})
    # E-D36: straight to the round's battles, which wait for their result
    assert out.state.step == "battles" and out.state.round == 1


def _patrol(sector: str) -> State:
    """Up to the first request after allocation, without settling idle steps."""
    hq = Group(name="HQ", owner=2, hex="0101", sector="A-1", static="military",
               craft=[Craft(name="hq", mass=100, command=True)])
    s = orders_in(world(group("A", 1, thrust=1), group("Pick", 2, order="patrol", thrust=3),
                        group("Wing", 2, hex_name="0102", order="patrol", thrust=5), hq)).state
    s = engage(s, {1: {"order:A": "EE"}, 2: {"order:Pick": "SF"}}, [1] * 4).state
    for where in ("B-1", sector):  # A (value 2) picks first, then Pick (value 4)
        seat = RULESET.pending(s)[0].seat
        s = RULESET.act(s, seat, {"type": "place", "sector": where}, ScriptedDice()).state
    return s


def test_e_d33_patrol_step_without_a_dispatch_asks_every_seat() -> None:
    # The interceptor fights, nobody was dispatched: the step is still asked, of both.
    s = _patrol("B-1")
    assert s.step == "patrol" and s.run.patrol_groups == []
    assert asked(s) == {1: ["idle"], 2: ["idle"]}
    done = sealed(s, {})
    assert done.state.step == "battles" and done.state.groups["Wing"].hex == "0102"


def test_e_d33_no_patrol_step_when_the_interceptor_does_not_fight() -> None:
    s = _patrol("C-1")
    assert s.step == "orders" and s.run is None
    assert HEX in {r.hex for r in s.results}
