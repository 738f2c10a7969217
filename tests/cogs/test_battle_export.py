"""/battle export (H-D34) in simcord: a player gets their own side's surviving ships as an
ephemeral .FTFleet attachment, never another side; the GM gets any side, also after the end."""

from __future__ import annotations

import json
from typing import Any

import simcord

from tests.cogs.simworld import World
from tests.cogs.test_battle_commands import refused
from tests.cogs.test_battle_thread import open_battle, said
from tests.rules.hrft.fm_files import (
    BUILTIN_A,
    BUILTIN_B,
    PIKE,
    dumps,
    fm_catalog,
    fm_fleet,
    fm_ship,
    full_fleet,
)


async def exported(member: simcord.MemberActor, thread: simcord.ChannelHandle,
                   **options: object) -> tuple[str, dict[str, Any]]:
    result = await member.slash(thread, "battle export", **options)
    assert result.ephemeral, said(result)
    messages = [result.response, *result.followups] if result.response else result.followups
    files = [a for m in messages for a in m.attachments]
    assert len(files) == 1, said(result)
    return files[0].filename, json.loads(await files[0].read())


async def test_battle_export_own_side_for_a_player_any_side_for_the_gm(world: World) -> None:
    w = world
    thread = await open_battle(w)
    await refused(w.alice, thread, "battle export", "brought no ships")
    fleet = fm_fleet([fm_ship("sh1", PIKE["id"], "Resolute", status="damaged", hull=3,
                              systems_out=["s1"]),
                      fm_ship("sh2", PIKE["id"], "Steadfast")], [PIKE])
    added = await w.alice.slash(thread, "battle add", file=("home.FTFleet", dumps(fleet)))
    assert "Added Resolute, Steadfast" in said(added), said(added)
    added = await w.bob.slash(thread, "battle add", sample="wolfhound")
    assert "Added the sample" in said(added)

    name, doc = await exported(w.alice, thread)
    assert name == "alice.FTFleet" and doc["kind"] == "FTFleet"
    ships = doc["fleet"]["ships"]
    assert [s["name"] for s in ships] == ["Resolute", "Steadfast"]
    assert ships[0]["damage"]["hull"] == 3 and ships[0]["damage"]["systems_out"] == ["s1"]
    assert [d["id"] for d in doc["designs"]] == [PIKE["id"]]
    # a player never gets another side; nobody else sees a player's file
    await refused(w.alice, thread, "battle export", "only your own side", side=2)
    await refused(w.carol, thread, "battle export", "hold no seat", side=1)
    assert all(not m.attachments for m in thread.history())

    # the GM holds no seat: names the side, and may take any
    await refused(w.gm, thread, "battle export", "Name the side to export")
    _, bobs = await exported(w.gm, thread, side=2)
    assert [s["name"] for s in bobs["fleet"]["ships"]] == ["Wolfhound"]
    await refused(w.gm, thread, "battle export", "no side 3", side=3)

    # after the GM ends the battle the files are still there
    await w.gm.slash(thread, "battle end", reason="called off")
    _, after = await exported(w.alice, thread)
    assert [s["name"] for s in after["fleet"]["ships"]] == ["Resolute", "Steadfast"]
    result = await w.alice.slash(thread, "battle export")
    assert "battle goes on" not in said(result) and "2 surviving ship(s)" in said(result)


async def test_a_fleet_of_built_in_designs_needs_the_gms_catalog(world: World) -> None:
    w = world
    thread = await open_battle(w)
    fleet = fm_fleet([fm_ship("sh1", BUILTIN_A["id"], "Swift"),
                      fm_ship("sh2", BUILTIN_B["id"], "Bastion")], [])
    # H-D55: a remedy that works in the Fleet Manager (it cannot include built-in designs)
    await refused(w.alice, thread, "battle add", "make a variant of each",
                  file=("f.FTFleet", dumps(fleet)))
    await refused(w.alice, thread, "battle add", "newer Fleet Manager (schema 3)",
                  file=("f.FTFleet", dumps(fleet | {"schema_version": 3})))
    done = await w.gm.slash(thread, "battle design",
                            file=("book.json", dumps(fm_catalog(BUILTIN_A, BUILTIN_B))))
    assert done.ephemeral, said(done)
    assert any("2 designs that fleet files may name" in m.content for m in thread.history())
    added = await w.alice.slash(thread, "battle add", file=("f.FTFleet", dumps(fleet)))
    assert "Added Swift, Bastion" in said(added), said(added)
    assert any("adds Swift (1a), Bastion (1b)" in m.content for m in thread.history())


async def test_export_is_an_update_of_the_uploaded_fleet_and_the_gm_undocks(
        world: World) -> None:
    """H-D51, H-D54 in simcord: the docked ship stays out until the GM's /battle undock; the
    export keeps the fleet's id, header and ships, and stamps it newer."""
    w = world
    thread = await open_battle(w)
    original = full_fleet()
    # saved before the simulated clock's now (the export stamps the service's clock: the
    # rules read none, issue 17)
    original["fleet"]["modified"] = "2025-12-31T10:00:00+00:00"
    added = await w.alice.slash(thread, "battle add", file=("vega.FTFleet", dumps(original)))
    assert "Added Indomitable, Picket, Lookout" in said(added), said(added)
    assert any("Sleeper (docked: the GM may bring it in)" in m.content
               for m in thread.history())
    await refused(w.alice, thread, "battle undock", "GM", ship="Sleeper")
    await refused(w.gm, thread, "battle undock", "Docked ships: Sleeper (alice)", ship="Nope")
    done = await w.gm.slash(thread, "battle undock", ship="Sleeper")
    assert done.ephemeral and "brought in" in said(done), said(done)
    assert any("brings Sleeper out of dock** for alice as 1d" in m.content
               for m in thread.history())
    await refused(w.gm, thread, "battle undock", "No docked ship waits", ship="Sleeper")

    _, doc = await exported(w.alice, thread)
    fleet, before = doc["fleet"], original["fleet"]
    assert {k: v for k, v in fleet.items() if k not in ("ships", "modified")} == {
        k: v for k, v in before.items() if k not in ("ships", "modified")}
    assert fleet["modified"] > before["modified"]  # the ship left its dock: a newer copy
    assert [s["uid"] for s in fleet["ships"]] == ["sh1", "sh2", "sh3", "sh4", "sh5"]
    assert fleet["ships"][3]["status"] == "ready"
    assert fleet["ships"][:3] == before["ships"][:3] and fleet["ships"][4] == before["ships"][4]
    assert doc["designs"] == original["designs"]
    result = await w.alice.slash(thread, "battle export")
    assert "update of the fleet you uploaded" in said(result)


async def test_a_fleet_all_in_dock_waits_for_the_gm(world: World) -> None:
    w = world
    thread = await open_battle(w)
    fleet = fm_fleet([fm_ship("sh1", PIKE["id"], "Sleeper", status="docked")], [PIKE])
    added = await w.alice.slash(thread, "battle add", file=("dock.FTFleet", dumps(fleet)))
    assert "its ships are all in dock" in said(added) and "/battle undock" in said(added)
    done = await w.gm.slash(thread, "battle undock", ship="Sleeper")
    assert "brought in" in said(done), said(done)
    _, doc = await exported(w.alice, thread)
    assert [(s["name"], s["status"]) for s in doc["fleet"]["ships"]] == [("Sleeper", "ready")]
