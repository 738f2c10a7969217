"""Issue 16 item 1: a Fleet Manager round trip that loses nothing (H-D51..H-D55).

A fleet in the Fleet Manager's own shape (every header field, every ship field, every system
type its Fleet Book picker writes) is imported, fought (GM damage through the rules, one ship
destroyed) and exported; the export is compared field by field with what was imported."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.errors import InvalidInput, PermissionDenied, RulesError, UserError
from bot.rules.base import GM_SEAT
from bot.rules.dice import ScriptedDice, SeededDice
from bot.rules.hrft import RULESET, BattleState, fm_keep
from bot.rules.hrft.convert import convert_design
from bot.rules.hrft.export import _hex_id, side_fleet
from bot.rules.hrft.imports import read_file
from bot.rules.hrft.view import ship_view
from tests.rules.hrft.battle_helpers import SEATS, to_fire_step
from tests.rules.hrft.fm_files import (
    BUILTIN_A,
    ESCORT,
    EVERY_TYPE,
    FLAGSHIP,
    NOT_MODELLED,
    PIKE,
    dumps,
    fm_catalog,
    fm_design,
    fm_fleet,
    fm_ship,
    full_fleet,
)

DICE = ScriptedDice([])
WHEN = datetime(2026, 12, 2, 18, 5, 7, 123, tzinfo=UTC)
STAMP = "2026-12-02T18:05:07+00:00"


def is_design(uid: str) -> bool:
    return uid[:1] == "s" and uid[1:].isdigit()


def new_battle() -> BattleState:
    return RULESET.start(RULESET.options_model(), SEATS, DICE).state


def add_file(state: BattleState, seat: int, obj: Any, name: str = "f.FTFleet",
             ) -> tuple[BattleState, str]:
    out = RULESET.act(state, seat, {"type": "add_file", "filename": name,
                                    "content": json.dumps(obj)}, DICE)
    return out.state, out.events[0].text


def gm(state: BattleState, action: dict[str, Any], dice: Any = DICE) -> tuple[BattleState, str]:
    out = RULESET.act(state, GM_SEAT, action, dice)
    return out.state, out.events[0].text


def fought() -> tuple[BattleState, dict[str, Any]]:
    """Alice imports the full fleet, Bob a sample; the GM's damage hurts the flagship in
    three steps and destroys the Picket."""
    original = full_fleet()
    state, _ = add_file(new_battle(), 1, original)
    state = RULESET.act(state, 2, {"type": "add_sample", "sample": "wolfhound"}, DICE).state
    state, _ = to_fire_step(state)
    flagship, picket = state.ships_of(1)[:2]
    for n, (arc, points) in enumerate((("F", "9"), ("FS", "6"), ("A", "12"))):
        state, _ = gm(state, {"type": "damage", "target": flagship.uid, "kind": "direct",
                              "arc": arc, "points": points}, SeededDice(n))
    state, _ = gm(state, {"type": "damage", "target": picket.uid, "kind": "direct",
                          "arc": "F", "points": "200"}, SeededDice(9))
    state.ships[picket.uid].hulk = False  # whichever the dice gave: destroyed it is
    state.ships[picket.uid].destroyed = True
    return state, original


def test_every_fleet_manager_system_type_imports() -> None:
    ship = convert_design(FLAGSHIP)
    types = {s.type for s in ship.systems}
    modelled = {s["type"] for s in EVERY_TYPE} - set(NOT_MODELLED) - {"hold"}
    assert modelled <= types and not types & set(NOT_MODELLED)
    # H-D52: carried and named on the sheet (picture and text), never thresholded
    assert ship.not_used == ["Needle beam (F)", "Nova cannon (F)", "Wave gun (F)",
                             "MT missile", "Ortillery", "Minesweeper", "Reflex field",
                             "Cloak", "Tug drive", "Lab hold", "Cargo hold"]
    state, _ = add_file(new_battle(), 1, full_fleet())
    view = ship_view(state, state.ships["1a"], 1)
    assert view["not_used"] == ship.not_used
    from cogs.battle_read import ship_text
    assert "Not used in HRFT: Needle beam (F), Nova cannon (F)" in ship_text(view)
    from bot.render.hrft_sheet import layout
    canvas = layout({"ship": view})
    assert "Not used in HRFT" in " ".join(lb.text.strip() for lb in canvas.labels)
    from tests.render.label_checks import assert_clean
    assert_clean(canvas)  # the extra section overlaps nothing
    # an unknown type is refused, naming what a Fleet Manager file may hold: not ecm/sensor
    bad = fm_design("aaaaaaaaaaaa", "Odd", hull=9, systems=[{"uid": "s1", "type": "warp"}])
    with pytest.raises(InvalidInput) as info:
        convert_design(bad)
    text = str(info.value)
    assert "'warp' cannot be converted" in text and "needle_beam" in text
    assert "ecm" not in text and "sensor" not in text


def test_import_fight_export_loses_nothing() -> None:
    state, original = fought()
    doc = side_fleet(state, 1, "Vega", WHEN)
    imported = copy.deepcopy(original)
    # the file around the fleet and the player's designs: exactly as they came
    assert {k: v for k, v in doc.items() if k != "fleet"} == {
        k: v for k, v in imported.items() if k != "fleet"}
    assert doc["designs"] == [FLAGSHIP, ESCORT]
    fleet, before = doc["fleet"], imported["fleet"]
    # the header: same id, admiral, faction, limit, options, squadrons, log, notes
    assert fleet["modified"] == STAMP > before["modified"]
    assert {k: v for k, v in fleet.items() if k not in ("ships", "modified")} == {
        k: v for k, v in before.items() if k not in ("ships", "modified")}
    assert fleet["options"]["mt_systems"] is True
    ships, was = fleet["ships"], before["ships"]
    assert [s["uid"] for s in ships] == ["sh1", "sh2", "sh3", "sh4", "sh5"]
    same = ("uid", "design_id", "name", "table_id", "squadron", "location", "loadout")
    for now, then in zip(ships, was, strict=True):
        assert {k: now[k] for k in same} == {k: then[k] for k in same}
    flag, picket, lookout, sleeper, lost = ships
    # untouched ships (and the docked one, and the one lost before) written back as they came
    assert lookout == was[2] and sleeper == was[3] and lost == was[4]
    # the flagship: its damage as fought, in Fleet Manager boxes
    ship = state.ships["1a"]
    hull_lost = sum(b.hull_lost for b in ship.blocks.values())
    assert flag["damage"]["hull"] == -(-hull_lost // 3) > 3
    assert flag["damage"]["armour"] == -(-sum(b.armour_lost for b in ship.blocks.values())
                                        // 3)
    out = [s.uid for s in ship.systems if s.destroyed and is_design(s.uid)]
    # what HRFT does not model stays out (the cloak, the cargo hold), in its old order
    assert flag["damage"]["systems_out"][:2] == ["s20", "s24"]
    assert flag["damage"]["systems_out"][2:] == [u for u in out if u not in ("s20", "s24")]
    assert flag["damage"]["fighters_lost"] == {"s12": 1}
    assert flag["damage"]["salvos_spent"] == {"s6": 1}
    assert flag["status"] == "damaged" and flag["notes"].startswith("Indomitable: veteran")
    # the destroyed ship is kept, marked destroyed, every hull box lost
    assert picket["status"] == "destroyed" and picket["damage"]["hull"] == ESCORT["hull_boxes"]
    # the sample Bob brought is not Alice's; her file holds her ships only
    assert all(not s["uid"].startswith("adm-") for s in ships)


def test_the_export_reads_back_as_the_same_ships_and_a_later_export_is_newer() -> None:
    state, _ = fought()
    doc = side_fleet(state, 1, "Vega", WHEN)
    read = read_file("back.FTFleet", dumps(doc))
    assert [s.name for s in read.ships] == ["Indomitable", "Lookout"]
    assert read.left_out == ["Picket (destroyed)", "Sleeper (docked: the GM may bring it in)",
                             "Lost Cause (destroyed)"]
    back, fought_ship = read.ships[0], state.ships["1a"]
    assert [(s.uid, s.destroyed) for s in back.systems if is_design(s.uid)] == [
        (s.uid, s.destroyed) for s in fought_ship.systems if is_design(s.uid)]
    assert back.hull_left <= fought_ship.hull_left  # a part-lost box counts as lost
    later = side_fleet(state, 1, "Vega", datetime(2026, 12, 2, 19, 0, tzinfo=UTC))
    assert later["fleet"]["modified"] > doc["fleet"]["modified"]
    # a second battle of the exported fleet exports it again unchanged when nothing happens
    again, _ = add_file(new_battle(), 1, doc)
    assert side_fleet(again, 1, "Vega", WHEN) == doc


def test_ships_from_elsewhere_never_take_a_fleet_uid_or_design_id() -> None:
    state = new_battle()
    sample_uid = f"adm-{_hex_id('Vega', '1c')[:8]}"  # what the sample would be given
    fleet = fm_fleet([fm_ship("sh1", PIKE["id"], "Resolute"),
                      fm_ship(sample_uid, PIKE["id"], "Squatter")], [PIKE])
    state, _ = add_file(state, 1, fleet)
    state = RULESET.act(state, 1, {"type": "add_sample", "sample": "kestrel"}, DICE).state
    # a second fleet file of the same side, whose ship has the first fleet's uid
    other = fm_fleet([fm_ship("sh1", "bbbbbbbbbbbb", "Stray")],
                     [fm_design("bbbbbbbbbbbb", "Stray", hull=9, mass=20)])
    other["fleet"]["id"] = "0123456789ab"
    state, _ = add_file(state, 1, other, "other.FTFleet")
    doc = side_fleet(state, 1, "Vega", WHEN)
    uids = [s["uid"] for s in doc["fleet"]["ships"]]
    assert uids[:2] == ["sh1", sample_uid] and len(set(uids)) == len(uids) == 4
    assert f"{sample_uid}-2" in uids and "sh1-2" in uids
    ids = [d["id"] for d in doc["designs"]]
    assert len(set(ids)) == len(ids) == 3 and "bbbbbbbbbbbb" in ids
    # every ship names a design in the file
    assert {s["design_id"] for s in doc["fleet"]["ships"]} <= set(ids)


def test_docked_ships_stay_out_until_the_gm_brings_one_in() -> None:
    state, text = add_file(new_battle(), 1, full_fleet())
    assert [s.name for s in state.ships_of(1)] == ["Indomitable", "Picket", "Lookout"]
    assert "Sleeper (docked: the GM may bring it in)" in text
    spec = next(s for s in RULESET.gm_actions(state) if s.type == "bring_docked")
    [option] = spec.fields[0].options
    assert option.label == "Sleeper (Alice)"
    with pytest.raises((PermissionDenied, RulesError)):  # a GM action only
        RULESET.act(state, 1, {"type": "bring_docked", "ship": option.value}, DICE)
    with pytest.raises(RulesError, match="Docked ships: Sleeper"):
        gm(state, {"type": "bring_docked", "ship": "0.9"})
    state, text = gm(state, {"type": "bring_docked", "ship": option.value})
    assert "brings Sleeper out of dock** for Alice as 1d" in text
    assert [s.type for s in RULESET.gm_actions(state)] == ["add_design"]
    state.ships["1d"].blocks["F"].hull_lost = 3  # what the battle did
    sleeper = side_fleet(state, 1, "Vega", WHEN)["fleet"]["ships"][3]
    assert sleeper["status"] == "damaged" and sleeper["damage"]["hull"] == 1
    assert sleeper["location"] == "Vega orbit, berth sh4"


def test_a_catalog_upload_names_each_design_it_skipped() -> None:
    state = new_battle()
    catalog = fm_catalog(BUILTIN_A, fm_design("ft2:ft:gen", "Generic", hull=0) | {
        "ruleset": "ft2"}, fm_design("fb:t:broken", "Broken", hull=0), {"name": "No id"})
    state, text = gm(state, {"type": "add_design", "filename": "book.json",
                             "content": json.dumps(catalog)})
    assert "1 designs that fleet files may name" in text
    assert "Skipped: Generic (not a Fleet Book design: HRFT converts ruleset 'fb' only); " \
           "Broken (hull boxes ('hull_boxes') must be a whole number from 1 to 200" in text
    assert "No id (it has no id)" in text
    none = fm_catalog({**BUILTIN_A, "ruleset": "ft2"})
    with pytest.raises(UserError, match=r"none of which HRFT can convert.*Alpha \(not a Fleet"):
        gm(state, {"type": "add_design", "filename": "c.json", "content": json.dumps(none)})


def test_names_up_to_80_characters_come_in_and_go_back_whole() -> None:
    long = "The Very Long Named Battlecruiser Of The Vega Home Fleet Reserve Squadron Nine"
    long += "X" * (80 - len(long))
    fleet = fm_fleet([fm_ship("sh1", PIKE["id"], long)], [PIKE])
    state, _ = add_file(new_battle(), 1, fleet)
    state.ships["1a"].blocks["F"].hull_lost = 1
    [entry] = side_fleet(state, 1, "Vega", WHEN)["fleet"]["ships"]
    assert entry["name"] == long and len(long) == 80
    with pytest.raises(UserError, match="at most 80 characters"):
        add_file(new_battle(), 1, fm_fleet([fm_ship("sh1", PIKE["id"], long + "Y")], [PIKE]))


def test_the_kept_fleets_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    state, _ = add_file(new_battle(), 1, full_fleet())
    size = len(state.fm_fleets[0].doc)
    assert size < 20_000  # a campaign fleet is a few kB
    monkeypatch.setattr(fm_keep, "MAX_KEPT_CHARS", size + 100)
    other = fm_fleet([fm_ship("sh1", PIKE["id"], "Second")], [PIKE])
    other["fleet"]["id"] = "0123456789ab"
    with pytest.raises(UserError, match=r"keeps at most \d+ kB of Fleet Manager fleets"):
        add_file(state, 2, other)
    assert len(state.fm_fleets) == 1 and not state.ships_of(2)


def test_a_destroyed_sample_does_not_join_the_players_fleet() -> None:
    state, _ = add_file(new_battle(), 1, fm_fleet([fm_ship("sh1", PIKE["id"], "Resolute")],
                                                  [PIKE]))
    for sample in ("kestrel", "lynx"):
        state = RULESET.act(state, 1, {"type": "add_sample", "sample": sample}, DICE).state
    state.ships["1b"].destroyed = True
    doc = side_fleet(state, 1, "Vega", WHEN)
    assert [s["name"] for s in doc["fleet"]["ships"]] == ["Resolute", "Lynx"]
    assert len(doc["designs"]) == 2  # Pike as it came, and the Lynx written
    assert doc["designs"][0] == PIKE and doc["designs"][1]["modified"] == STAMP


def test_a_fleet_all_in_dock_is_kept_for_the_gm() -> None:
    fleet = fm_fleet([fm_ship("sh1", PIKE["id"], "Sleeper", status="docked")], [PIKE])
    state, text = add_file(new_battle(), 1, fleet)
    assert "brings a fleet whose ships are all in dock" in text and not state.ships_of(1)
    assert len(state.fm_fleets) == 1
    value = next(s for s in RULESET.gm_actions(state)
                 if s.type == "bring_docked").fields[0].options[0].value
    state, text = gm(state, {"type": "bring_docked", "ship": value})
    assert [s.name for s in state.ships_of(1)] == ["Sleeper"]
    # a fleet with nothing to fight and nothing docked is still refused
    gone = fm_fleet([fm_ship("sh1", PIKE["id"], "Gone", status="destroyed")], [PIKE])
    with pytest.raises(UserError, match="no ship that can fight: Gone"):
        add_file(new_battle(), 1, gone)
