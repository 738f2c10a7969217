"""Issue 10 items 7 and 10 for FTCamp in simcord: each battle list shows the GM (and only the
GM) the command that opens that battle, and a campaign that ended after its last round stays
readable: its status says it is over, its battle lists and map still answer."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import AdmiraltyBot
from bot.rules.base import Ruleset
from bot.rules.dice import ScriptedDice
from tests.cogs.conftest import ROLL_DICE
from tests.cogs.ftcamp_support import (
    TWO_PLAYERS,
    SeededBot,
    channel_text,
    choose,
    give,
    pick,
    picker,
    submit,
)
from tests.cogs.simworld import World, dm_texts, last_dm
from tests.cogs.test_ftcamp_round import fleet_orders

PNG = b"\x89PNG"


@pytest.fixture
def simcord_bot(db_path: Path, guess_rules: Ruleset) -> AdmiraltyBot:
    return SeededBot(db_path, roll_dice=ScriptedDice(ROLL_DICE))


async def one_round_campaign(w: World) -> None:
    """The two-player skirmish, ending after round 1 (E-D32), played to its battle list."""
    await w.gm.slash(w.chan, "campaign create", ruleset="ftcamp", name="Border War")
    await w.gm.slash(w.chan, "ftcamp load", file=("war.toml", TWO_PLAYERS.encode()))
    changed = await w.gm.slash(w.chan, "campaign settings", key="rounds", value="1")
    assert "rounds" in changed.response.content
    for member in (w.alice, w.bob):
        await member.slash(w.chan, "campaign join")
    await w.gm.slash(w.chan, "campaign start")
    await fleet_orders(w)
    await give(w.bob, ("Raiders: engage order", "SF"), ("Raiders: parts", "all"))
    await give(w.alice, ("Vanguard: engage order", "EE"))
    for _ in range(2):
        member = picker(w, ("alice", "bob"))
        assert member is not None
        await pick(member, "A", "A-1")
    await w.env.settle()


async def test_the_battle_list_shows_the_gm_the_command_and_the_end_stays_readable(
    world: World
) -> None:
    w = world
    await one_round_campaign(w)
    channel = channel_text(w)
    assert "Battle list, hex 0202" in channel and "Battle in A-1" in channel

    # E-D37, P-17: the battle list carries the GM's button to open the battle in a thread;
    # a player's click is refused and opens nothing
    listing = next(m for m in w.chan.history()
                   if any((e.title or "").startswith("Battle list, hex 0202") for e in m.embeds))
    tried = await w.alice.click(listing, label="Open 0202/A-1 in a thread")
    assert tried.ephemeral and "Only the GM of **Border War**" in tried.response.content
    assert w.chan.threads == []
    # The GM alone is shown the command that opens the battle (E-13 list, H-D28 link).
    command = "`/battle start parent:<this campaign> ref:0202/A-1`"
    gm_dms = "\n".join(dm_texts(w.gm))
    assert "to fight a battle of hex 0202 in its own thread" in gm_dms
    assert command in gm_dms
    assert "/battle start" not in channel
    assert not any("/battle start" in t for t in dm_texts(w.alice) + dm_texts(w.bob))
    # The command does what it says: the GM picks this campaign, the battle is found. The
    # round waits for it (E-D36), so the campaign is still live.
    [choice] = await w.gm.autocomplete(w.other_chan, "battle start", "parent", "border")
    assert choice["name"] == "Border War (ftcamp, id 1)"
    started = await w.gm.slash(w.other_chan, "battle start", name="Battle of 0202",
                               parent=choice["value"], ref="0202/A-1")
    # E-D38: no craft of this scenario names a design, so the start is refused with what
    # would come in (not opened with stock ships); the GM fights it at the table: the
    # panel's one choice is to close it (it opens on it), which ends round 1
    assert started.ephemeral and "name no design" in started.response.content
    assert w.other_chan.threads == []
    assert "Round 1 waits for its battles" in last_dm(w.gm).content
    await choose(w.gm, "Battle", "0202/A-1")
    await submit(w.gm)
    await w.env.settle()
    channel = channel_text(w)
    [choice] = await w.gm.autocomplete(w.other_chan, "battle start", "parent", "border")
    assert choice["name"] == "Border War (ftcamp, id 1, finished)"

    # Round 1 was the last: the campaign is over, and still readable.
    assert "it ends here" in channel
    status = (await w.carol.slash(w.chan, "campaign status")).response.content
    assert status.startswith("**Border War** (ftcamp): finished. Round 1 complete.")
    assert "The campaign is over (after round 1)." in status
    assert "contested:" not in status
    battles = await w.carol.slash(w.chan, "ftcamp battles")
    assert not battles.ephemeral and "Battle in A-1" in battles.response.content
    shown = await w.bob.slash(w.chan, "ftcamp map")
    assert not shown.ephemeral
    assert (await shown.response.attachments[0].read()).startswith(PNG)
    listed = (await w.gm.slash(w.chan, "campaign list", finished=True)).response.content
    assert listed.startswith("**Border War** (ftcamp) in ")
    assert ": finished: Round 1 complete." in listed
