"""The channel reads in order (issue 10, items 1 and 4): a tracker with a post below it
(a reveal, a picture) takes no more lines; they go on in a fresh tracker under that post,
the old one ending with "continued below". Walked through a whole FTCamp round in Discord:
every public line of the log is in the channel, in the log's order from top to bottom."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.campaign import Actor
from bot.campaign.tracker import CONTINUED
from bot.client import AdmiraltyBot
from bot.rules.base import Ruleset
from bot.rules.dice import ScriptedDice
from tests.cogs.conftest import ROLL_DICE
from tests.cogs.ftcamp_support import (
    TWO_PLAYERS,
    SeededBot,
    choose,
    give,
    open_with,
    pick,
    picker,
    submit,
)
from tests.cogs.simworld import World
from tests.cogs.simworld import shown as message_text
from tests.cogs.test_ftcamp_round import fleet_orders

RULING = re.compile(r" \[ruling [^\]]+\]$")


@pytest.fixture
def simcord_bot(db_path: Path, guess_rules: Ruleset) -> AdmiraltyBot:
    return SeededBot(db_path, roll_dice=ScriptedDice(ROLL_DICE))


def plain(text: str) -> str:
    return text.replace("**", "").replace("__", "").strip().rstrip(".")


async def play_round(w: World) -> None:
    await open_with(w, TWO_PLAYERS, ("alice", "bob"))
    await fleet_orders(w)
    await give(w.bob, ("Raiders: parts", "all"))
    await give(w.alice, ("Vanguard: engage order", "EE"))
    for _ in range(2):
        member = picker(w, ("alice", "bob"))
        assert member is not None
        await pick(member, "A", "A-1")
    await choose(w.gm, "Battle", "0202/A-1")
    await submit(w.gm)
    await w.env.settle()


async def test_the_channel_reads_top_to_bottom_in_the_order_things_happened(
    world: World, simcord_bot: AdmiraltyBot
) -> None:
    w = world
    await play_round(w)
    channel = [plain(message_text(m)) for m in w.chan.history()]
    log = await simcord_bot.service.gm_log(Actor(w.gm.user.id, "gm"), w.chan.id, limit=500)
    public = [plain(RULING.sub("", e.text).split("\n", 1)[0]) for e in log
              if e.audience == "public"]
    assert len(public) > 10 and "Round 2" in "\n".join(channel)
    # each public line is in a message at or below the one that holds the line before it
    at = 0
    for line in public:
        # a result shown as an embed is found by its title: the text's head (it rides on
        # its step's message, H-D46, so it follows the tracker's own text)
        head = line.split(": ", 1)[0]
        found = next((i for i in range(at, len(channel))
                      if line in channel[i] or f"\n{head}\n" in f"\n{channel[i]}\n"), None)
        assert found is not None, (line, "above" if any(line in c for c in channel) else
                                   "lost", channel[at - 1:at + 2])
        at = found
    # the picks came after the engage reveal: they went on below it, not into the
    # tracker above it, which says so
    reveal = next(i for i, c in enumerate(channel) if "Engage orders revealed" in c)
    assert not any("is placed in A-1" in c for c in channel[:reveal])
    assert any("is placed in A-1" in c for c in channel[reveal + 1:])
    # the reveal rides on its own step's message (H-D46), which still names that step: the
    # allocation that followed is a tracker message of its own below it
    assert channel[reveal].startswith("Border War: Round 1: engage orders in hex 0202")
    assert any(c.startswith("Border War: Round 1: allocation in hex 0202")
               for c in channel[reveal + 1:])
    assert not any(CONTINUED in c for c in channel[:reveal] if "placed" in c)
