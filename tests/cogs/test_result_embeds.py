"""Results arrive as embeds in the channel message, each picture inside the embed it belongs
to and attached to the same message (issue 10, items 4 and 6): the FTCamp fleet-order reveal
with the hexes and the hex map (E-D35), the engage reveal, the hex's allocation with its own
sector picture, the battle list."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.client import AdmiraltyBot
from bot.rules.base import Ruleset
from bot.rules.dice import ScriptedDice
from tests.cogs.conftest import ROLL_DICE
from tests.cogs.ftcamp_support import (
    TWO_PLAYERS,
    SeededBot,
    give,
    nothing_to_do,
    open_with,
    pick,
    picker,
)
from tests.cogs.simworld import World, embed_text

PNG = b"\x89PNG"


@pytest.fixture
def simcord_bot(db_path: Path, guess_rules: Ruleset) -> AdmiraltyBot:
    return SeededBot(db_path, roll_dice=ScriptedDice(ROLL_DICE))


def with_embed(w: World, title: str) -> list[tuple[discord.Message, discord.Embed]]:
    return [(m, e) for m in w.chan.history() for e in m.embeds
            if e.title and e.title.startswith(title)]


async def image_inside(message: discord.Message, embed: discord.Embed, name: str) -> None:
    """The embed shows the file ``name`` of its own message (simcord keeps the
    attachment:// URL as sent)."""
    assert embed.image.url == f"attachment://{name}"
    files = {a.filename: a for a in message.attachments}
    assert name in files, list(files)
    assert (await files[name].read()).startswith(PNG)


async def test_e_d34_ftcamp_results_are_embeds_with_their_pictures_inside(world: World) -> None:
    w = world
    await open_with(w, TWO_PLAYERS, ("alice", "bob"))
    await give(w.alice, ("Vanguard (0202)", "hold"))
    await give(w.bob, ("Far Patrol (0404)", "hold"), ("Raiders (0202)", "hold"))

    # The fleet-order reveal: a field per player naming each group's hex, the contested
    # hexes, and the public hex map inside the embed (E-D35).
    ((message, reveal),) = with_embed(w, "Fleet orders revealed, round 1")
    fields = {f.name: f.value for f in reveal.fields}
    assert fields["Terran Union"] == "Vanguard: hold, at 0202"
    assert fields["Kravak Horde"] == "Far Patrol: hold, at 0404\nRaiders: hold, at 0202"
    assert fields["Contested hexes"] == "0202"
    await image_inside(message, reveal, "hexmap.png")
    assert message.channel.id == w.chan.id

    await nothing_to_do(w.alice, w.bob)
    await give(w.bob, ("Raiders: engage order", "SF"), ("Raiders: parts", "all"))
    await give(w.alice, ("Vanguard: engage order", "EE"))

    # The engage reveal: a field per group with its order, parts and both dice; no craft.
    ((_, engage),) = with_embed(w, "Engage orders revealed, hex 0202")
    rolls = {f.name: f.value for f in engage.fields}
    assert set(rolls) == {"Vanguard (Terran Union)", "Raiders (Kravak Horde)"}
    assert rolls["Vanguard (Terran Union)"].startswith("EE (Engage) in 1 part\ndice ")  # E-D44
    assert "part(s)" not in embed_text(engage)
    assert not [c for c in ("Resolute", "Valiant", "Fang", "Claw") if c in embed_text(engage)]

    for _ in range(2):
        member = picker(w, ("alice", "bob"))
        assert member is not None
        await pick(member, "A", "A-1")

    # The hex's allocation carries that hex's sector picture, in the same message.
    ((message, allocation),) = with_embed(w, "Allocation, hex 0202")
    assert {f.name: f.value for f in allocation.fields} == {
        "Terran Union": "Vanguard: A-1", "Kravak Horde": "Raiders: A-1"}
    await image_inside(message, allocation, "sector.png")
    assert [a.filename for a in message.attachments] == ["sector.png"]

    # The battle list: a field per battle, no ruling id in what players read.
    ((_, battles),) = with_embed(w, "Battle list, hex 0202, round 1")
    (battle,) = [f for f in battles.fields if f.name.startswith("Battle in")]
    assert battle.name == "Battle in A-1"
    assert "**Vanguard** (Terran Union): engaged EE" in battle.value
    assert "**Raiders** (Kravak Horde): drawn in SF" in battle.value
    assert "E-1" not in embed_text(battles)
    assert battles.image.url is None  # no picture of its own
