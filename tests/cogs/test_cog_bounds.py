"""Bounded storage seen from Discord: /gm undo beyond the kept depth, a restart after
pruning, and /campaign list (deferred, one query)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import AdmiraltyBot
from bot.rules.base import Ruleset
from bot.rules.dice import ScriptedDice
from bot.settings import ServiceSettings, Settings
from tests.cogs.conftest import ROLL_DICE
from tests.cogs.simworld import World, dm_texts, texts
from tests.cogs.test_cog_lifecycle import guess, open_campaign, start

DEPTH = 2


def bounded_bot(db_path: Path) -> AdmiraltyBot:
    settings = Settings(database_path=db_path, service=ServiceSettings(undo_depth=DEPTH))
    return AdmiraltyBot(settings, roll_dice=ScriptedDice(ROLL_DICE))


@pytest.fixture
def simcord_bot(db_path: Path, guess_rules: Ruleset) -> AdmiraltyBot:
    return bounded_bot(db_path)


async def resolve_three(world: World) -> None:
    """The guesses (resolution 1), then each player's bank turn by /gm advance (2 and 3)."""
    await start(world)
    await guess(world, "alice", "4")
    await guess(world, "bob", "5")
    for _ in range(2):
        advanced = await world.gm.slash(world.chan, "gm advance")
        assert advanced.response.content == "Step resolved."


async def test_undo_beyond_the_kept_depth_is_refused_with_a_clear_message(
    world: World, db_path: Path
) -> None:
    await resolve_three(world)
    for _ in range(2):
        result = await world.gm.slash(world.chan, "gm undo")
        # the GM reads what the channel was told: the notice, then the step's tracker
        assert result.response.content == ("Undone. The channel was told:\n"
                                           + texts(world.chan)[-2])
        assert "the GM undid the last result" in texts(world.chan)[-2]
    channel = texts(world.chan)
    refused = await world.gm.slash(world.chan, "gm undo")
    assert refused.ephemeral
    assert refused.response.content == (
        f"I keep only the last {DEPTH} resolutions; nothing older can be undone.")
    assert texts(world.chan) == channel  # nothing was said in the channel


async def test_a_restart_after_pruning_sends_nothing_twice(world: World, db_path: Path) -> None:
    await resolve_three(world)
    channel = texts(world.chan)
    dms = (dm_texts(world.alice), dm_texts(world.bob))
    await world.env.restart_bot(bounded_bot(db_path))
    await world.env.settle()
    assert texts(world.chan) == channel
    assert (dm_texts(world.alice), dm_texts(world.bob)) == dms
    # the kept snapshots survived the restart: the newest resolution can still be undone
    result = await world.gm.slash(world.chan, "gm undo")
    assert result.response.content.startswith("Undone. The channel was told:")
    assert len(texts(world.chan)) == len(channel) + 2  # the notice and the step's tracker
    assert texts(world.chan)[:-3] == channel[:-1]  # only the last tracker was edited
    assert "the GM undid the last result" in texts(world.chan)[-2]


async def test_campaign_list_defers_and_lists_each_live_campaign(world: World) -> None:
    await open_campaign(world, ("alice",))
    await world.gm.slash(world.other_chan, "campaign create", ruleset="guess", name="Second")
    before = len(world.env.http_requests)
    result = await world.carol.slash(world.other_chan, "campaign list")
    [callback] = [r for r in world.env.http_requests[before:] if r.path.endswith("/callback")]
    assert callback.json["type"] == 5  # deferred first, answered by the follow-up
    assert result.ephemeral
    assert result.response.content == (
        f"**Dice Cup** (guess, setup) in <#{world.chan.id}>\n"
        f"**Second** (guess, setup) in <#{world.other_chan.id}>")
