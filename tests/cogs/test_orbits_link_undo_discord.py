"""P-14, O-D21 in simcord: the GM undoes the deployment that listed a battle being fought in
its HRFT thread; the same deployment lists it again and it is still the thread's (the GM's
panel waits for it, the players are not asked); then the thread's result reaches the
campaign's GM as before."""

from __future__ import annotations

from pathlib import Path

import pytest
from simcord import MemberActor

from bot.client import AdmiraltyBot
from bot.rules.base import Ruleset
from bot.rules.dice import ScriptedDice
from tests.cogs.conftest import ROLL_DICE
from tests.cogs.simworld import World
from tests.cogs.test_battle_thread import SeededBot, said, thread_of
from tests.cogs.test_orbits_discord import labels, panel, pass_turn, public_text
from tests.cogs.test_orbits_war_discord import orbits_battle_waits


@pytest.fixture
def simcord_bot(db_path: Path, guess_rules: Ruleset) -> AdmiraltyBot:
    return SeededBot(db_path, roll_dice=ScriptedDice(ROLL_DICE))


def report_panels(member: MemberActor) -> int:
    """The DMs that ask the member to report the battle at Orbit 1."""
    return sum("battle at Orbit 1, losses" in m.content for m in member.user.dm_channel.history())


def latest_dm(member: MemberActor) -> str:
    last = member.user.dm_channel.last_message
    return last.content if last is not None else ""


def gm_waits(w: World) -> int:
    """The GM's panels that wait for the thread's result."""
    return sum("being fought in its own thread (Battle at Orbit 1)" in m.content
               for m in w.gm.user.dm_channel.history())


async def test_p14_undo_in_the_campaign_keeps_the_battle_its_threads(
    world: World, simcord_bot: AdmiraltyBot
) -> None:
    w = world
    await orbits_battle_waits(w, simcord_bot)  # the battle at Orbit 1 waits
    started = await w.gm.slash(w.chan, "battle start", name="Battle at Orbit 1", parent="1",
                               ref="Orbit 1, turn 1")
    assert not started.ephemeral, said(started)
    thread = thread_of(w)
    await w.env.settle()
    asked = {m: report_panels(m) for m in (w.alice, w.bob)}
    waits = gm_waits(w)
    assert all(asked.values())  # each was asked to report before the thread was opened

    undone = await w.gm.slash(w.other_chan, "gm undo")  # back into the deployment
    await w.env.settle()
    assert undone.ephemeral, said(undone)
    assert ("The **Battle at Orbit 1** (Orbit 1, turn 1) is still being fought in its "
            "thread: it is linked again as soon as that battle comes up.") in public_text(
        w.other_chan)
    await pass_turn(w.bob)  # the same pass lists the same battle
    await w.env.settle()
    # the GM waits for the thread again: in the panel message the undo had changed (P-28:
    # the GM has not acted since that DM, so it is edited, not sent anew)
    assert gm_waits(w) == waits == 1
    # nobody asked again: no new report panel, and none shown now (an active player's
    # panel message is edited into their next request, so an old one may be gone)
    assert all(report_panels(m) <= asked[m] for m in (w.alice, w.bob))
    assert not any("battle at Orbit 1, losses" in latest_dm(m) for m in (w.alice, w.bob))
    pending = (await simcord_bot.service.snapshot(1)).pending
    assert [r.seat for r in pending] == [0]

    # The thread ends (the GM ends it): its result is proposed to the campaign's GM.
    ended = await w.gm.slash(thread, "battle end", reason="the sides part")
    assert ended.ephemeral, said(ended)
    await w.env.settle()
    gm_panel = panel(w.gm)
    assert "Proposed result" in gm_panel.content, gm_panel.content
    assert "Confirm this result" in labels(gm_panel)
