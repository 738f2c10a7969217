"""A full FTCamp round through Discord (issue 4): scenario file, fleet orders by DM panel,
private scans, sealed engage orders, one public reveal, orbit-sector picks, battle list."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import AdmiraltyBot
from bot.rules.base import Ruleset
from bot.rules.dice import ScriptedDice
from tests.cogs.conftest import ROLL_DICE
from tests.cogs.ftcamp_support import (
    SECRETS,
    THREE_PLAYERS,
    TWO_PLAYERS,
    SeededBot,
    channel_text,
    choose,
    give,
    nothing_to_do,
    open_with,
    pick,
    picker,
    placeholder_ids,
    submit,
)
from tests.cogs.simworld import World, dm_texts, fresh, last_dm, texts
from tests.cogs.simworld import shown as message_text

PNG = b"\x89PNG"


@pytest.fixture
def simcord_bot(db_path: Path, guess_rules: Ruleset) -> AdmiraltyBot:
    return SeededBot(db_path, roll_dice=ScriptedDice(ROLL_DICE))


def assert_sealed(w: World) -> None:
    """No craft, scan or engage order has reached the channel (E-4, E-10, E-D16)."""
    log = channel_text(w)
    leaked = [s for s in SECRETS if s in log]
    assert not leaked, (leaked, log)


async def fleet_orders(w: World) -> None:
    """Every group holds: 0202 is contested (E-3, E-D7)."""
    assert "Round 1: fleet orders" in last_dm(w.alice).content
    await give(w.alice, ("Vanguard (0202)", "hold"))
    assert "Vanguard" not in channel_text(w)  # sealed until everyone is in (E-3)
    await give(w.bob, ("Far Patrol (0404)", "hold"), ("Raiders (0202)", "hold"))
    # E-D33: both are asked for special acts, kit or none, so the channel learns nothing.
    await nothing_to_do(w.alice, w.bob)


async def test_e3_e10_e11_e13_a_two_player_round_from_file_to_battle_list(world: World) -> None:
    w = world
    await open_with(w, TWO_PLAYERS, ("alice", "bob"))
    assert "Round 1" in channel_text(w)
    await fleet_orders(w)

    # E-3: one public reveal of the fleet orders, with the contested hex.
    reveal = [t for t in texts(w.chan) if "Fleet orders revealed" in t]
    assert len(reveal) == 1 and "Contested hexes: 0202" in reveal[0]
    assert "Terran Union: Vanguard: hold, at 0202" in reveal[0]  # a field per player, E-D35
    # E-4: each player's scan arrives by DM, with the engage panel.
    assert any("Long-range scans, hex 0202" in t for t in dm_texts(w.alice))
    assert any("Long-range scans, hex 0202" in t for t in dm_texts(w.bob))
    assert "Round 1: engage orders in hex 0202" in last_dm(w.alice).content
    assert_sealed(w)
    bob_scan = [m for m in w.bob.user.dm_channel.history()
                if "Long-range scans, hex 0202" in m.content]
    assert len(bob_scan) == 1 and "Engage orders" not in bob_scan[0].content

    # Sealed engage orders: Bob's SF split in two parts is refused at once (E-7) and not
    # stored; Alice engages.
    progress = len([t for t in texts(w.chan) if "bob's orders are in" in t])
    await choose(w.bob, "Raiders: engage order", "SF")
    await choose(w.bob, "Raiders: parts", "0|1")
    refused = await submit(w.bob)
    note = refused.followups[0] if refused.followups else refused.response  # after the defer
    assert note.ephemeral
    assert "Raiders may split into at most 1 part on SF; 2 given" in note.content
    assert len([t for t in texts(w.chan) if "bob's orders are in" in t]) == progress
    assert_sealed(w)  # the refusal revealed nothing
    # P-9: the scan is a DM of its own; working the panel below it leaves it readable.
    assert [fresh(w.bob, m).content for m in bob_scan] == [m.content for m in bob_scan]
    await give(w.bob, ("Raiders: parts", "all"))
    assert_sealed(w)
    await give(w.alice, ("Vanguard: engage order", "EE"))

    # E-10: ONE public message with every order and both dice of each roll.
    reveals = [t for t in texts(w.chan) if "Engage orders revealed, hex 0202" in t]
    assert len(reveals) == 1
    assert "Vanguard (Terran Union): EE (Engage) in 1 part\ndice" in reveals[0]  # E-D44
    assert "Raiders (Kravak Horde): SF (StandOff) in 1 part\ndice" in reveals[0]
    assert reveals[0].count("dice ") == 2
    # E-D33: the craft of each part go by DM to the owner only.
    assert "Fang" not in reveals[0] and "Resolute" not in reveals[0]
    assert any("Raiders: SF (StandOff) in 1 part [Fang, Claw]" in t for t in dm_texts(w.bob))
    assert not any("Fang" in t for t in dm_texts(w.alice))

    # E-11: lowest engage value picks first, one public line per pick.
    for _ in range(2):
        member = picker(w, ("alice", "bob"))
        assert member is not None, dm_texts(w.alice)[-1:] + dm_texts(w.bob)[-1:]
        await pick(member, "A", "A-1")
    picks = [line for t in texts(w.chan) for line in t.split("\n") if "is placed in A-1" in line]
    assert len(picks) == 2 and all("engage value" in p for p in picks)
    allocation = [m for m in w.chan.history() if "Allocation, hex 0202" in message_text(m)]
    assert len(allocation) == 1
    assert allocation[0].embeds[0].image.url == "attachment://sector.png"
    sector_png = await allocation[0].attachments[0].read()
    assert sector_png.startswith(PNG)

    # E-12.1/E-13: the battle list is one public message; round 2 opens (E-D30).
    lists = [t for t in texts(w.chan) if "Battle list, hex 0202" in t]
    assert len(lists) == 1
    assert "Battle in A-1: " in lists[0]
    assert "**Vanguard** (Terran Union): engaged EE" in lists[0]
    assert "**Raiders** (Kravak Horde): drawn in SF" in lists[0]
    # E-D36: the round waits for its battle; the GM alone is asked, in a DM panel, and
    # closes it as fought at the table; then round 2 opens (E-D30).
    assert "Round 1** waits for its battles (0202/A-1)" in channel_text(w)
    assert "Round 2" not in channel_text(w)
    panel = last_dm(w.gm)
    assert "Round 1 waits for its battles" in panel.content, panel.content
    await choose(w.gm, "Battle", "0202/A-1")
    await submit(w.gm)
    await w.env.settle()
    assert "was fought at the table" in channel_text(w)
    assert "Round 2" in channel_text(w)
    assert "fleet orders" in last_dm(w.alice).content

    # /ftcamp battles posts the list again, publicly.
    again = await w.carol.slash(w.chan, "ftcamp battles")
    assert not again.ephemeral
    assert "Battle in A-1:" in again.response.content
    assert again.response.channel_id == w.chan.id

    # Pictures: the public hex map and the contested hex's orbit-sectors.
    shown = await w.bob.slash(w.chan, "ftcamp map")
    assert not shown.ephemeral
    assert (await shown.response.attachments[0].read()).startswith(PNG)
    sector = await w.bob.slash(w.chan, "ftcamp hex", hex="0202")
    assert not sector.ephemeral and "0202" in sector.response.content
    assert (await sector.response.attachments[0].read()).startswith(PNG)
    choices = await w.bob.autocomplete(w.chan, "ftcamp hex", "hex", "02")
    assert [c["value"] for c in choices] == ["0202"]


async def test_e6_e12_a_three_player_hex_with_an_alliance_and_a_diplomat(world: World) -> None:
    w = world
    players = ("alice", "bob", "carol")
    await open_with(w, THREE_PLAYERS, players)
    await give(w.alice, ("Vanguard (0202)", "hold"))
    await give(w.bob, ("Far Patrol (0404)", "hold"), ("Raiders (0202)", "hold"))
    await give(w.carol, ("Convoy (0202)", "hold"))
    assert "Engage phase, hex 0202" in channel_text(w)
    await nothing_to_do(w.alice, w.bob, w.carol)
    for member in (w.alice, w.bob, w.carol):
        assert any("Long-range scans, hex 0202" in t for t in dm_texts(member))
    assert_sealed(w)

    # E-12: Alice may declare an attack on her ally; E-6: the diplomat's panel has no EE.
    alice_panel = placeholder_ids(last_dm(w.alice))
    assert "Attack an ally? (leave empty: no attack)" in alice_panel
    carol_panel = last_dm(w.carol)
    orders = next(c for row in carol_panel.components for c in row.children
                  if getattr(c, "placeholder", "") == "Convoy: engage order")
    assert [o.value for o in orders.options] == ["SF", "RT"]

    await give(w.bob, ("Raiders: engage order", "EE"))
    await give(w.alice, ("Vanguard: engage order", "SF"))
    assert_sealed(w)
    await give(w.carol, ("Convoy: engage order", "SF"))

    reveals = [t for t in texts(w.chan) if "Engage orders revealed, hex 0202" in t]
    assert len(reveals) == 1
    for line in ("Vanguard (Terran Union): SF", "Raiders (Kravak Horde): EE",
                 "Convoy (Free Colonies): SF"):
        assert line in reveals[0]

    for _ in range(3):
        member = picker(w, players)
        assert member is not None
        await pick(member, "B", "B-2")
    lists = [t for t in texts(w.chan) if "Battle list, hex 0202" in t]
    assert len(lists) == 1
    assert "Battle in B-2: " in lists[0]
    for name in ("Vanguard", "Raiders", "Convoy"):
        assert f"**{name}** (" in lists[0]


async def test_displays_before_any_battle_and_outside_ftcamp(world: World) -> None:
    w = world
    early = await w.alice.slash(w.chan, "ftcamp map")
    assert early.ephemeral and "no campaign" in early.response.content.lower()
    await open_with(w, TWO_PLAYERS, ("alice", "bob"))
    none_yet = await w.alice.slash(w.chan, "ftcamp battles")
    assert not none_yet.ephemeral and "No battle list yet" in none_yet.response.content
    refused = await w.alice.slash(w.chan, "ftcamp hex", hex="0101")
    assert refused.ephemeral and "Hex 0101 has no orbit-sector picture" in (
        refused.response.content)
    await fleet_orders(w)
    # During the engage phase the contested hex already has its picture (statics, picks).
    during = await w.alice.slash(w.chan, "ftcamp hex", hex="0202")
    assert not during.ephemeral
    assert (await during.response.attachments[0].read()).startswith(PNG)
    await w.gm.slash(w.other_chan, "campaign create", ruleset="guess", name="Dice Cup")
    other = await w.gm.slash(w.other_chan, "ftcamp export")
    assert other.ephemeral and "plays guess, not FTCamp" in other.response.content
