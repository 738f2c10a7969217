"""H-D34: Fleet Manager 2 files in their real shape: schema and kind checked, a fleet's ships
with their names and designs, built-in designs only from an uploaded catalog, carried damage
and status, and the .FTFleet export of a side's survivors that reads back the same."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.errors import InvalidInput, RulesError, UserError
from bot.rules.base import GM_SEAT
from bot.rules.dice import ScriptedDice
from bot.rules.hrft import RULESET, BattleState
from bot.rules.hrft.export import side_fleet
from bot.rules.hrft.imports import MAX_CATALOG, catalog_from_file, read_file, ships_from_file
from tests.rules.hrft.battle_helpers import SEATS
from tests.rules.hrft.fm_files import (
    BUILTIN_A,
    BUILTIN_B,
    LANCE,
    PIKE,
    dumps,
    fm_catalog,
    fm_design,
    fm_design_file,
    fm_fleet,
    fm_ship,
    three_ship_fleet,
)

DICE = ScriptedDice([])


def refused(fn: Any, *args: Any) -> str:
    with pytest.raises(InvalidInput) as info:
        fn(*args)
    return str(info.value)


def new_battle() -> BattleState:
    return RULESET.start(RULESET.options_model(), SEATS, DICE).state


def add_file(state: BattleState, seat: int, name: str, obj: Any) -> tuple[BattleState, str]:
    out = RULESET.act(state, seat, {"type": "add_file", "filename": name,
                                    "content": json.dumps(obj)}, DICE)
    return out.state, out.events[0].text


def builtin_fleet() -> dict[str, Any]:
    return fm_fleet([fm_ship("sh1", BUILTIN_A["id"], "Swift"),
                     fm_ship("sh2", BUILTIN_B["id"], "Bastion"),
                     fm_ship("sh3", PIKE["id"], "Resolute")], [PIKE])


def test_a_three_ship_fleet_of_custom_designs_comes_in_as_three_named_ships() -> None:
    ships = ships_from_file("home.FTFleet", dumps(three_ship_fleet()))
    assert [(s.name, s.class_name) for s in ships] == [
        ("Resolute", "Pike"), ("Steadfast", "Pike"), ("Vigilant", "Lance")]
    assert [s.origin.design_id for s in ships if s.origin] == [
        PIKE["id"], PIKE["id"], LANCE["id"]]
    assert [s.hull_left for s in ships] == [36, 36, 54]
    state, text = add_file(new_battle(), 1, "home.FTFleet", three_ship_fleet())
    assert "adds Resolute (1a), Steadfast (1b), Vigilant (1c)" in text
    # the design file Fleet Manager 2 writes still imports as one ship
    [ship] = ships_from_file("pike.FTDesign", dumps(fm_design_file(PIKE)))
    assert ship.name == "Pike" and ship.armour_left == 6


def test_built_in_design_ids_leave_those_ships_out_with_a_remedy_that_works() -> None:
    # H-D55: the ships whose designs are known come in; the others are named with why
    read = read_file("f.FTFleet", dumps(builtin_fleet()))
    assert [s.name for s in read.ships] == ["Resolute"]
    assert read.left_out == ["Swift (built-in design fb:test:alpha-escort)",
                             "Bastion (built-in design fb:test:beta-cruiser)"]
    assert "make a variant" in read.remedy and "/battle design" in read.remedy
    # the Fleet Manager cannot include built-in designs: never advise it
    assert "with its designs included" not in read.remedy
    only = fm_fleet([fm_ship("sh1", BUILTIN_A["id"], "Swift")], [])
    text = refused(ships_from_file, "f.FTFleet", dumps(only))
    assert "no ship that can fight: Swift (built-in design fb:test:alpha-escort)" in text
    assert "make a variant" in text
    # a missing custom design is named too, without the catalog advice
    lost = fm_fleet([fm_ship("sh1", "deadbeef0000", "Ghost")], [])
    text = refused(ships_from_file, "f.FTFleet", dumps(lost))
    assert "Ghost (design not in the file: deadbeef0000)" in text
    assert "/battle design" not in text


def test_with_the_gms_catalog_the_waiting_built_in_ships_come_in() -> None:
    state = new_battle()
    state, text = add_file(state, 1, "f.FTFleet", builtin_fleet())
    assert [s.name for s in state.ships_of(1)] == ["Resolute"]
    assert "Left out: Swift (built-in design fb:test:alpha-escort)" in text
    assert "make a variant" in text
    catalog = fm_catalog(BUILTIN_A, BUILTIN_B, fm_design("ft2:x:gen", "Generic", hull=0))
    names = RULESET.upload_names("book.json", dumps(catalog), state, "add_design")
    assert names == ["Alpha", "Beta"]  # the FT2 design cannot be converted: not kept
    out = RULESET.act(state, GM_SEAT, {"type": "add_design", "filename": "book.json",
                                       "content": json.dumps(catalog)}, DICE)
    state = out.state
    assert set(state.catalog) == {BUILTIN_A["id"], BUILTIN_B["id"]}
    text = out.events[0].text
    assert "2 designs that fleet files may name" in text
    assert "Fleet ships that waited for these designs: Swift for Alice as 1b; Bastion for " \
           "Alice as 1c" in text
    assert "source" not in state.catalog[BUILTIN_A["id"]]  # only what conversion reads
    assert [(s.name, s.class_name) for s in state.ships_of(1)] == [
        ("Resolute", "Pike"), ("Swift", "Alpha"), ("Bastion", "Beta")]
    # the same fleet again would bring its ships twice: refused, nothing changes
    with pytest.raises(UserError, match="already in this battle"):
        add_file(state, 1, "f.FTFleet", builtin_fleet())


def test_catalog_uploads_are_bounded() -> None:
    only_ft2 = fm_catalog({**BUILTIN_A, "id": "ft2:ft:x", "ruleset": "ft2"})
    assert "none of which HRFT can convert" in refused(catalog_from_file, "c.json",
                                                        dumps(only_ft2))
    many = fm_catalog(*[{**BUILTIN_A, "id": f"fb:t:{i}"} for i in range(MAX_CATALOG + 1)])
    assert f"at most {MAX_CATALOG} catalog designs" in refused(catalog_from_file, "c.json",
                                                                dumps(many))
    assert catalog_from_file("pike.FTDesign", dumps(fm_design_file(PIKE))) is None
    # a catalog is read through safe_load like every upload
    assert "nested too deeply" in refused(catalog_from_file, "c.json",
                                          b'{"designs": ' + b"[" * 30 + b"]" * 30 + b"}")
    state = new_battle()
    half = fm_catalog(*[{**BUILTIN_A, "id": f"fb:t:{i}"} for i in range(MAX_CATALOG - 1)])
    state = RULESET.act(state, GM_SEAT, {"type": "add_design", "filename": "a.json",
                                         "content": json.dumps(half)}, DICE).state
    with pytest.raises(RulesError, match=f"at most {MAX_CATALOG} are kept"):
        RULESET.act(state, GM_SEAT, {"type": "add_design", "filename": "b.json",
                                     "content": json.dumps(fm_catalog(BUILTIN_A, BUILTIN_B))},
                    DICE)


def test_a_newer_schema_is_refused_with_the_reason() -> None:
    for obj in (three_ship_fleet() | {"schema_version": 3},
                fm_design_file(PIKE, schema=3)):
        text = refused(ships_from_file, "x.FTFleet", dumps(obj))
        assert ("this file was written by a newer Fleet Manager (schema 3); this bot reads "
                "schema up to 2") in text
    assert "'schema_version' must be a whole number" in refused(
        ships_from_file, "x.FTFleet", dumps(three_ship_fleet() | {"schema_version": "2"}))
    # schema 1 (the plan's unwrapped shapes) still reads
    assert len(ships_from_file("x.FTFleet", dumps(three_ship_fleet() | {"schema_version": 1}))
               ) == 3


def test_a_wrong_kind_is_refused() -> None:
    text = refused(ships_from_file, "x.FTFleet", dumps(three_ship_fleet() | {"kind": "FTShip"}))
    assert "kind 'FTShip'" in text and "FTDesign and FTFleet" in text
    assert "backup" in refused(ships_from_file, "x.json", dumps({"schema_version": 2,
                                                                 "kind": "FTBackup"}))
    # a kind that does not match what the file holds
    assert "FTFleet file without a fleet" in refused(
        ships_from_file, "x.FTFleet", dumps(fm_design_file(PIKE) | {"kind": "FTFleet"}))
    assert "FTDesign file without a design" in refused(
        ships_from_file, "x.FTDesign", dumps(three_ship_fleet() | {"kind": "FTDesign"}))


def test_recorded_damage_and_status_are_carried() -> None:
    fleet = fm_fleet([
        fm_ship("sh1", LANCE["id"], "Scarred", status="damaged", hull=5, armour=2,
                systems_out=["s2", "s6"], drive_hits=1, one_shot_used=["s3"],
                fighters_lost={"h1": 1}),
        fm_ship("sh2", PIKE["id"], "Wreck", status="hulk", hull=12),
        fm_ship("sh3", PIKE["id"], "Gone", status="destroyed"),
        fm_ship("sh4", PIKE["id"], "Docked", status="docked"),
    ], [PIKE, LANCE])
    result = read_file("f.FTFleet", dumps(fleet))
    # H-D54: a docked ship stays out unless the GM brings it in
    assert result.left_out == ["Wreck (hulk)", "Gone (destroyed)",
                               "Docked (docked: the GM may bring it in)"]
    [scarred] = result.ships
    # 5 FT hull boxes = 15 HRFT boxes, spread evenly over six blocks of 9
    lost = [scarred.blocks[n].hull_lost for n in scarred.ring]
    assert sum(lost) == 15 and max(lost) - min(lost) <= 1
    assert sum(b.armour_lost for b in scarred.blocks.values()) == 6
    assert scarred.system("s2").destroyed and not scarred.system("s1").destroyed
    assert scarred.current_thrust == 2  # one drive hit halves thrust 4
    assert scarred.origin and scarred.origin.fighters_lost == {"h1": 1}
    state, text = add_file(new_battle(), 1, "f.FTFleet", fleet)
    assert "Left out: Wreck (hulk), Gone (destroyed), Docked (docked" in text
    assert state.spent["1a"] == ["s3"]  # the submunition was used in an earlier game


def test_damage_the_design_cannot_hold_is_refused() -> None:
    def one(**damage: Any) -> str:
        fleet = fm_fleet([fm_ship("sh1", PIKE["id"], "P", **damage)], [PIKE])
        return refused(ships_from_file, "f.FTFleet", dumps(fleet))

    assert "lost all 12 hull boxes but is not marked hulk" in one(hull=12)
    assert "from 0 to 2" in one(armour=3)
    assert "from 0 to 2" in one(drive_hits=3)
    assert "does not have" in one(systems_out=["s9"])
    assert "status must be one of" in refused(ships_from_file, "f.FTFleet", dumps(fm_fleet(
        [fm_ship("sh1", PIKE["id"], "P", status="sunk")], [PIKE])))
    all_out = fm_fleet([fm_ship("sh1", PIKE["id"], "P", status="destroyed")], [PIKE])
    assert "holds no ship that can fight: P (destroyed)" in refused(
        ships_from_file, "f.FTFleet", dumps(all_out))


def battle_with_damage() -> BattleState:
    """Alice brings a damaged fleet (one built-in design from a catalog) and a sample; the
    battle then knocks out more and destroys one ship."""
    state = new_battle()
    state = RULESET.act(state, GM_SEAT, {"type": "add_design", "filename": "c.json",
                                         "content": json.dumps(fm_catalog(BUILTIN_A))},
                        DICE).state
    fleet = fm_fleet([
        fm_ship("sh1", LANCE["id"], "Scarred", status="damaged", hull=5, armour=1,
                systems_out=["s2"], drive_hits=1, fighters_lost={"h1": 2}),
        fm_ship("sh2", BUILTIN_A["id"], "Swift"),
        fm_ship("sh3", PIKE["id"], "Doomed"),
    ], [PIKE, LANCE])
    state, _ = add_file(state, 1, "f.FTFleet", fleet)
    state = RULESET.act(state, 1, {"type": "add_sample", "sample": "kestrel"}, DICE).state
    state = RULESET.act(state, 2, {"type": "add_sample", "sample": "wolfhound"}, DICE).state
    # what the battle did (set directly: the fire rules have their own tests)
    swift, kestrel = state.ships["1b"], state.ships["1d"]
    swift.blocks[swift.ring[0]].hull_lost += 4
    swift.system("s1").hits = 1
    next(s for s in swift.systems if s.type == "ftl").hits = 1
    kestrel.blocks[kestrel.ring[1]].hull_lost += 1  # a part-lost FT box counts as lost
    state.spent["1a"] = ["s3"]
    state.ships["1c"].destroyed = True
    return state


def carried(doc: dict[str, Any]) -> list[tuple[str, str, str, dict[str, Any]]]:
    return [(s["name"], s["design_id"], s["status"], s["damage"]) for s in doc["fleet"]["ships"]]


def test_export_writes_the_fleet_back_in_the_fleet_managers_shape() -> None:
    doc = side_fleet(battle_with_damage(), 1, "Vega")
    assert {k: doc[k] for k in ("schema_version", "kind", "factions")} == {
        "schema_version": 2, "kind": "FTFleet", "factions": []}
    ships = doc["fleet"]["ships"]
    # H-D51: the destroyed ship stays in the fleet, marked destroyed; the sample is added
    assert [s["name"] for s in ships] == ["Scarred", "Swift", "Doomed", "Kestrel"]
    scarred, swift, doomed, kestrel = ships
    assert scarred["uid"] == "sh1" and scarred["design_id"] == LANCE["id"]
    assert scarred["damage"] == {"hull": 5, "armour": 1, "systems_out": ["s2"],
                                 "drive_hits": 1, "fighters_lost": {"h1": 2},
                                 "salvos_spent": {}, "one_shot_used": ["s3"]}
    assert swift["design_id"] == BUILTIN_A["id"] and swift["status"] == "damaged"
    assert swift["damage"]["hull"] == 2 and swift["damage"]["systems_out"] == ["s1"]
    assert "FTL drive destroyed" in swift["notes"]
    assert doomed["status"] == "destroyed" and doomed["uid"] == "sh3"
    assert kestrel["damage"]["hull"] == 1 and kestrel["status"] == "damaged"
    assert kestrel["uid"].startswith("adm-")
    # the player's designs as they came; the built-in one named by id; the sample written
    ids = [d["id"] for d in doc["designs"]]
    assert ids[:2] == [PIKE["id"], LANCE["id"]] and doc["designs"][:2] == [PIKE, LANCE]
    assert BUILTIN_A["id"] not in ids and kestrel["design_id"] == ids[2]
    assert len(ids) == 3 and len(kestrel["design_id"]) == 12


def test_export_round_trips_through_the_importer() -> None:
    state = battle_with_damage()
    doc = side_fleet(state, 1, "Vega")
    result = read_file("after.FTFleet", dumps(doc), state.catalog)
    before = {s.name: s for s in state.ships_of(1) if not s.destroyed}
    assert [s.name for s in result.ships] == list(before)
    for ship in result.ships:
        old = before[ship.name]
        assert ship.class_name == old.class_name and ship.hull_total == old.hull_total
        assert [(s.uid, s.hits) for s in ship.systems if s.type not in ("ftl",)] == \
            [(s.uid, s.hits) for s in old.systems if s.type not in ("ftl",)]
    # the same ships and damage: a new battle that imports the export exports it again
    again = new_battle()
    again.catalog = dict(state.catalog)
    again, _ = add_file(again, 1, "after.FTFleet", doc)
    assert carried(side_fleet(again, 1, "Vega")) == carried(doc)


def test_export_refuses_an_unknown_side_or_one_with_no_survivors() -> None:
    state = battle_with_damage()
    with pytest.raises(UserError, match="no side 3"):
        side_fleet(state, 3, "Vega")
    for ship in state.ships_of(2):
        ship.destroyed = True
    with pytest.raises(UserError, match="Bob lost every ship"):
        side_fleet(state, 2, "Vega")
    name, text, note = RULESET.side_file(state, 1, "Vega")
    assert name == "Alice.FTFleet" and "3 surviving ship(s), 1 destroyed" in note
    assert "battle goes on" in note and json.loads(text)["kind"] == "FTFleet"
    assert "battle goes on" not in RULESET.side_file(state, 1, "Vega", True)[2]


def test_the_catalog_is_dropped_when_setup_ends() -> None:
    state = battle_with_damage()
    assert state.catalog
    for seat in (1, 2):
        state = RULESET.act(state, seat, {"type": "ready"}, DICE).state
    assert state.step == "orders" and state.catalog == {}
    # built-in designs are named by id in the export, so it needs no catalog
    assert [s["design_id"] for s in side_fleet(state, 1, "Vega")["fleet"]["ships"]][1] == \
        BUILTIN_A["id"]


def test_a_hulk_is_exported_as_a_hulk_and_left_out_when_read_back() -> None:
    state = battle_with_damage()
    swift = state.ships["1b"]
    swift.hulk = True
    for block in swift.blocks.values():
        block.hull_lost = block.hull
    doc = side_fleet(state, 1, "Vega")
    [entry] = [s for s in doc["fleet"]["ships"] if s["name"] == "Swift"]
    assert entry["status"] == "hulk" and entry["damage"]["hull"] == swift.hull_total
    result = read_file("after.FTFleet", dumps(doc), state.catalog)
    assert result.left_out == ["Swift (hulk)", "Doomed (destroyed)"]
    assert [s.name for s in result.ships] == ["Scarred", "Kestrel"]
