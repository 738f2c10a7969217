"""Fleet orders (E-3), scans (E-4), who gets an engage order (E-5), E-2 forces."""

from __future__ import annotations

import pytest
from ftcamp_testkit import HEX, SYS, craft, group, orders_in, public, static, world

from bot.errors import RulesError
from bot.rules.dice import ScriptedDice
from bot.rules.ftcamp import RULESET
from bot.rules.ftcamp.core import min_thrust
from bot.rules.ftcamp.engage import ordered_groups
from bot.rules.ftcamp.fleet import check_order, legal_orders
from bot.rules.ftcamp.scan import contacts, is_contested, scan_report


def test_e2_crippled_craft_cannot_leave_without_a_tug() -> None:
    s = world(group("A", 1, crafts=[craft("x", ftl="crippled"), craft("y")]))
    assert not any(o.startswith("move") for o in legal_orders(s, s.groups["A"]))
    with pytest.raises(RulesError, match="FTL-crippled"):
        check_order(s, s.groups["A"], "move 0506")


def test_e3_moves_are_applied_together_and_reveal_lists_contested_hexes() -> None:
    s = world(group("A", 1, hex_name="0504"), group("B", 2, hex_name="0506"),
              group("C", 2, hex_name="0101"))
    out = orders_in(s, {1: {"type": "fleet_orders", "group:A": "move 0505"},
                        2: {"type": "fleet_orders", "group:B": "move 0505",
                            "group:C": "hold"}})
    assert out.state.groups["A"].hex == HEX and out.state.groups["B"].hex == HEX
    text = public(out.events)[0]
    assert "A (P1): move 0505, 0504 → 0505" in text and "Contested hexes: 0505" in text
    assert "C (P2): hold, at 0101" in text  # E-D35: every group's hex is named
    assert out.state.contested == [HEX]
    # E-D35: the embed has a field per player with each group's hex, and the public map
    (reveal,) = [e for e in out.events if e.kind == "fleet_orders"]
    assert reveal.image is not None and reveal.image.name == "hexmap"
    assert reveal.image.viewer is None
    assert reveal.embed is not None and reveal.embed.image
    fields = {f.name: f.value for f in reveal.embed.fields}
    assert fields["P1"] == "A: move 0505, 0504 → 0505"
    assert fields["P2"] == "B: move 0505, 0506 → 0505\nC: hold, at 0101"
    assert fields["Contested hexes"] == "0505"


def test_e3_support_follows_the_supported_group() -> None:
    s = world(group("A", 1, hex_name="0504"), group("S", 1, hex_name="0504"),
              group("B", 2, hex_name="0101"))
    out = orders_in(s, {1: {"type": "fleet_orders", "group:A": "move 0505",
                            "group:S": "support A"}})
    assert out.state.groups["S"].hex == HEX


def test_e3_illegal_fleet_orders_are_refused() -> None:
    s = world(group("A", 1), group("B", 2, hex_name="0101"))
    g = s.groups["A"]
    with pytest.raises(RulesError, match="adjacent"):
        check_order(s, g, "move 0808")
    with pytest.raises(RulesError, match="system hex"):
        check_order(s, g, "maintain-orbit")
    with pytest.raises(RulesError, match="command"):
        check_order(s, g, "patrol")
    with pytest.raises(RulesError, match="support"):
        check_order(s, g, "support B")
    with pytest.raises(RulesError, match="unknown fleet order"):
        check_order(s, g, "fly away")
    with pytest.raises(RulesError):
        RULESET.check(s, 1, {"type": "fleet_orders", "group:A": "move 0808"})


def test_e3_allied_players_do_not_contest_a_hex() -> None:
    s = world(group("A", 1), group("B", 2), alliances=((1, 2),))
    assert not is_contested(s, HEX)


def test_e3_hex_not_contested_when_nobody_can_scan_anybody() -> None:
    s = world(group("A", 1, crafts=[craft("a", stealth=2)]),
              group("B", 2, crafts=[craft("b", stealth=2)]))
    assert not is_contested(s, HEX)
    s.groups["A"].craft[0].sensors = 2
    assert is_contested(s, HEX)  # E-D7: one side detecting the other is enough


def test_e3_opposing_statics_alone_do_not_contest() -> None:
    s = world(static("S1", 1, "A-1"), static("S2", 2, "A-2"))
    assert not is_contested(s, HEX)


def test_e4_scan_classes_weasel_decoy_stealth_ecm() -> None:
    s = world(group("A", 1, crafts=[craft("big", mass=100), craft("w", mass=30, weasel=2,
                                                                   weasel_on=2),
                                    craft("st", stealth=2), craft("e", ecm=True),
                                    craft("d", mass=0, decoy_class=4)]),
              group("B", 2, crafts=[craft("eye", sensors=1)]))
    assert contacts(s, 2, s.groups["A"]) == ["class 4", "class 4", "unknown", "class 4"]
    s.groups["B"].craft[0].sensors = 2
    assert "class 2" in contacts(s, 2, s.groups["A"])


def test_e4_weasel_never_lowers_and_stops_at_class_5() -> None:
    s = world(group("A", 1, crafts=[craft("w", mass=150, weasel=3, weasel_on=3)]), group("B", 2))
    assert contacts(s, 2, s.groups["A"]) == ["class 5"]


def test_e4_statics_show_location_and_mass_only() -> None:
    s = world(static("Dock", 1, "B-1", kind="civilian", armed=False), group("B", 2))
    s.groups["Dock"].show_civilian = True
    text, data = scan_report(s, 2, HEX)
    assert "Dock (P1) at B-1: 1 contact: static, MASS 100, civilian" in text
    s.groups["Dock"].show_civilian = False
    assert contacts(s, 2, s.groups["Dock"]) == ["static, MASS 100"]


def test_e4_decoy_only_group_looks_like_a_normal_group() -> None:
    s = world(group("D", 1, crafts=[craft("d1", mass=0, decoy_class=3),
                                    craft("d2", mass=0, decoy_class=3)]), group("B", 2))
    real = world(group("D", 1, crafts=[craft("r1", mass=60), craft("r2", mass=70)]),
                 group("B", 2))
    assert contacts(s, 2, s.groups["D"]) == contacts(real, 2, real.groups["D"])


def test_e4_scan_reports_go_to_each_seat_privately() -> None:
    s = world(group("A", 1, crafts=[craft("a", decoys=1)]), group("B", 2))
    out = orders_in(s, skip_special=False)
    assert out.state.step == "special"
    out = RULESET.resolve(out.state, {1: {"type": "special_acts", "decoy:A": "new:1:5"}},
                          ScriptedDice())
    scans = [e for e in out.events if e.kind == "scan"]
    assert {e.audience.seat for e in scans} == {1, 2} and all(
        e.audience.kind == "seat" for e in scans)
    seat2 = next(e.text for e in scans if e.audience.seat == 2)
    assert "class 5" in seat2
    assert not any("class" in t for t in public(out.events))


def test_e5_statics_and_supporters_get_no_engage_order_decoys_do() -> None:
    s = world(group("A", 1), group("S", 1, order="support A"), static("St", 1, "A-1"),
              group("D", 1, crafts=[craft("d", mass=0, decoy_class=2)]), group("B", 2))
    assert [g.name for g in ordered_groups(s, HEX, 1)] == ["A", "D"]


def test_e5_e9_tugged_group_uses_the_tugs_thrust() -> None:
    s = world(group("T", 1, crafts=[craft("tug", thrust=3, tug=100)]),
              group("X", 1, crafts=[craft("hulk", thrust=0, ftl="crippled")], tugged_by="T"))
    assert min_thrust(s, s.groups["X"]) == 3
    assert any(o.startswith("move") for o in legal_orders(s, s.groups["X"]))


def test_e9_thrust_is_zero_when_a_drive_is_out() -> None:
    s = world(group("A", 1, crafts=[craft("a", thrust=6), craft("b", thrust=4, drive=False)]))
    assert min_thrust(s, s.groups["A"]) == 0


def test_e13_escaped_group_must_move_away() -> None:
    s = world(group("A", 1, hex_name=SYS, must_leave=SYS), group("B", 2, hex_name="0101"))
    opts = legal_orders(s, s.groups["A"])
    assert opts and all(o.startswith("move") for o in opts)
    with pytest.raises(RulesError, match="must move away this round"):
        check_order(s, s.groups["A"], "hold")
