"""The GM's /ftcamp tools through Discord: loading a scenario file (every problem with its
location, nothing loaded from a bad file), export, and edits between rounds."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import AdmiraltyBot
from bot.rules.base import Ruleset
from bot.rules.dice import ScriptedDice
from bot.rules.ftcamp import build, export_scenario, load_scenario
from tests.cogs.conftest import ROLL_DICE
from tests.cogs.ftcamp_support import (
    TWO_PLAYERS,
    SeededBot,
    channel_text,
    open_with,
)
from tests.cogs.simworld import World


@pytest.fixture
def simcord_bot(db_path: Path, guess_rules: Ruleset) -> AdmiraltyBot:
    return SeededBot(db_path, roll_dice=ScriptedDice(ROLL_DICE))


def bad_groups(n: int) -> str:
    """A scenario whose extra groups each have two problems (an unknown key, a bad MASS)."""
    groups = "".join(f'\n[[groups]]\nname = "G{i}"\nowner = 1\nhex = "0101"\nspeed = 3\n'
                     '[[groups.craft]]\nname = "C"\nmass = -1\n' for i in range(n))
    return TWO_PLAYERS + groups


async def export(w: World) -> str:
    result = await w.gm.slash(w.chan, "ftcamp export")
    assert result.ephemeral
    files = result.response.attachments
    assert [f.filename for f in files] == ["ftcamp.toml"]
    return (await files[0].read()).decode()


async def test_a_bad_file_lists_every_problem_with_its_location_and_loads_nothing(
    world: World,
) -> None:
    w = world
    await w.gm.slash(w.chan, "campaign create", ruleset="ftcamp", name="Border War")
    few = await w.gm.slash(w.chan, "ftcamp load", file=("bad.toml", bad_groups(2).encode()))
    text = few.response.content
    assert few.ephemeral and text.startswith("Nothing was loaded: bad.toml has problems.")
    assert "- groups[3].speed: unknown key" in text and "- groups[4].speed: unknown key" in text
    assert "- groups[3].craft[0].mass: must be a positive integer" in text
    # Hundreds of problems: cut on whole lines under Discord's limit, with a count.
    many = await w.gm.slash(w.chan, "ftcamp load", file=("worse.toml", bad_groups(120).encode()))
    assert many.ephemeral and len(many.response.content) < 2000
    assert "more" in many.response.content.splitlines()[-1]
    broken = await w.gm.slash(w.chan, "ftcamp load", file=("x.toml", b"[map\ncolumns = 3"))
    assert "not valid TOML" in broken.response.content
    # Nothing was stored: the export is still the built-in demo.
    assert "Tau Ceti" in await export(w)
    assert "Loaded" not in channel_text(w)


async def test_only_the_gm_loads_and_only_before_the_start(world: World) -> None:
    w = world
    await w.gm.slash(w.chan, "campaign create", ruleset="ftcamp", name="Border War")
    await w.alice.slash(w.chan, "campaign join")
    denied = await w.alice.slash(w.chan, "ftcamp load", file=("war.toml", TWO_PLAYERS.encode()))
    assert denied.ephemeral and "Only the GM" in denied.response.content
    loaded = await w.gm.slash(w.chan, "ftcamp load", file=("war.toml", TWO_PLAYERS.encode()))
    assert "Skirmish at 0202" in loaded.response.content
    assert "1 player has joined; the campaign starts with exactly 2" in (
        loaded.response.content)
    assert "Skirmish at 0202" in await export(w)  # the stored scenario, before the start
    await w.bob.slash(w.chan, "campaign join")
    await w.gm.slash(w.chan, "campaign start")
    late = await w.gm.slash(w.chan, "ftcamp load", file=("war.toml", TWO_PLAYERS.encode()))
    assert late.ephemeral and "only be loaded before /campaign start" in late.response.content


async def test_export_round_trips_and_is_for_the_gm_only(world: World) -> None:
    w = world
    await open_with(w, TWO_PLAYERS, ("alice", "bob"))
    state = load_scenario(await export(w))
    assert sorted(state.groups) == ["Far Patrol", "Raiders", "Vanguard"]
    denied = await w.alice.slash(w.chan, "ftcamp export")
    assert denied.ephemeral and "Only the GM" in denied.response.content
    assert not denied.response.attachments


async def test_gm_edits_change_the_state_and_stay_out_of_the_channel(world: World) -> None:
    w = world
    await open_with(w, TWO_PLAYERS, ("alice", "bob"))
    before = channel_text(w)
    moved = await w.gm.slash(w.chan, "ftcamp group move", name="Far Patrol", hex="0303")
    assert moved.ephemeral and "Far Patrol moved to hex 0303" in moved.response.content
    await w.gm.slash(w.chan, "ftcamp craft add", group="Vanguard", name="Keen", mass=24,
                     thrust=6)
    await w.gm.slash(w.chan, "ftcamp craft damage", group="Vanguard", craft="Valiant",
                     points=3, drive_lost=True)
    await w.gm.slash(w.chan, "ftcamp craft ftl-loss", group="Raiders", craft="Claw")
    await w.gm.slash(w.chan, "ftcamp flag", group="Raiders", flag="diplomat", value=True)
    await w.gm.slash(w.chan, "ftcamp group add", name="Relief", owner=1, hex="0101",
                     craft="Hope", mass=30, thrust=4)
    await w.gm.slash(w.chan, "ftcamp craft remove", group="Vanguard", craft="Resolute")
    state = load_scenario(await export(w))
    assert state.groups["Far Patrol"].hex == "0303"
    vanguard = {c.name: c for c in state.groups["Vanguard"].craft}
    assert sorted(vanguard) == ["Keen", "Valiant"]
    assert vanguard["Valiant"].damage == 3 and not vanguard["Valiant"].drive
    assert [c.ftl for c in state.groups["Raiders"].craft] == ["working", "crippled"]
    assert state.groups["Raiders"].diplomat
    assert state.groups["Relief"].owner == 1
    # Craft and damage are secret (E-D16): nothing of it reaches the channel.
    after = channel_text(w)[len(before):]
    for secret in ("Keen", "Valiant", "Claw", "diplomat", "Relief", "0303"):
        assert secret not in after


async def test_gm_edits_are_refused_with_the_reason(world: World) -> None:
    w = world
    await open_with(w, TWO_PLAYERS, ("alice", "bob"))
    unknown = await w.gm.slash(w.chan, "ftcamp group remove", name="Ghosts")
    assert unknown.ephemeral and "No group named 'Ghosts'" in unknown.response.content
    last = await w.gm.slash(w.chan, "ftcamp craft remove", group="Far Patrol", craft="Spear")
    assert "last craft of Far Patrol" in last.response.content
    off = await w.gm.slash(w.chan, "ftcamp group move", name="Raiders", hex="0909")
    assert "is not a hex of the map" in off.response.content
    player = await w.alice.slash(w.chan, "ftcamp group remove", name="Raiders")
    assert player.ephemeral and "Only the GM" in player.response.content
    assert "Raiders" in load_scenario(await export(w)).groups


async def test_group_and_craft_names_autocomplete_for_the_gm_only(world: World) -> None:
    w = world
    await open_with(w, TWO_PLAYERS, ("alice", "bob"))
    groups = await w.gm.autocomplete(w.chan, "ftcamp group move", "name", "a")
    assert [c["value"] for c in groups] == ["Far Patrol", "Raiders", "Vanguard"]
    assert await w.alice.autocomplete(w.chan, "ftcamp group move", "name", "") == []
    craft = await w.gm.autocomplete(w.chan, "ftcamp craft damage", "craft", "",
                                    group="Vanguard")
    assert [c["value"] for c in craft] == ["Resolute", "Valiant"]
    hexes = await w.gm.autocomplete(w.chan, "ftcamp group move", "hex", "04")
    assert [c["value"] for c in hexes] == ["0404"]


async def test_ed29_the_gm_names_and_clears_a_groups_tug(world: World) -> None:
    w = world
    state = load_scenario(TWO_PLAYERS)
    state.groups["Tow"] = build.group("Tow", 2, "0404", build.craft("Mule", 40, 3, tug=100))
    await open_with(w, export_scenario(state), ("alice", "bob"))
    refused = await w.gm.slash(w.chan, "ftcamp group tug", name="Far Patrol", tug="Raiders")
    assert refused.ephemeral and "Group Raiders has no craft with a tug rating" in (
        refused.response.content)
    named = await w.gm.slash(w.chan, "ftcamp group tug", name="Far Patrol", tug="Tow")
    assert named.ephemeral and "Far Patrol is towed by Tow." in named.response.content
    assert load_scenario(await export(w)).groups["Far Patrol"].tugged_by == "Tow"
    cleared = await w.gm.slash(w.chan, "ftcamp group tug", name="Far Patrol")
    assert "Far Patrol has no tug now." in cleared.response.content
    assert load_scenario(await export(w)).groups["Far Patrol"].tugged_by is None
    player = await w.bob.slash(w.chan, "ftcamp group tug", name="Far Patrol", tug="Tow")
    assert player.ephemeral and "Only the GM" in player.response.content
