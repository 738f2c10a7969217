"""Battles that cannot be forged (issue 15 item 2, P-20): every way a stranger could make a
thread speak for a campaign is refused with a clear word, leaves no thread behind, and
NOTHING reaches the campaign's channel."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.client import AdmiraltyBot
from bot.rules.base import Ruleset
from bot.rules.dice import ScriptedDice
from tests.cogs.conftest import ROLL_DICE
from tests.cogs.simworld import World, texts
from tests.cogs.test_battle_campaign import SCENARIO, ftcamp_parent
from tests.cogs.test_battle_commands import refused
from tests.cogs.test_battle_thread import SeededBot, said, thread_of
from tests.cogs.test_orbits_discord import act, panel, public_text
from tests.cogs.test_orbits_war_discord import orbits_battle_waits


@pytest.fixture
def simcord_bot(db_path: Path, guess_rules: Ruleset) -> AdmiraltyBot:
    return SeededBot(db_path, roll_dice=ScriptedDice(ROLL_DICE))


async def test_p20_only_the_parents_gm_or_an_admin_of_its_server_links_a_battle(
    world: World, simcord_bot: AdmiraltyBot
) -> None:
    w = world
    await ftcamp_parent(w, simcord_bot)
    before = texts(w.other_chan)
    # a player of the campaign and a stranger: refused, by the clicker's own rights
    for member in (w.alice, w.carol):
        await refused(member, w.chan, "battle start", "Only the GM of **Border War** (or an "
                      "admin of this server)", name="Forged", parent="1", ref="0202/A-3")
    # an admin of ANOTHER server, where the campaign does not exist
    other = w.env.create_guild("Elsewhere")
    there = other.create_text_channel("war")
    boss = other.create_role("Boss", permissions=discord.Permissions(manage_guild=True))
    admin = other.add_member(w.env.create_user("far-admin"), roles=[boss])
    await w.env.settle()
    await refused(admin, there, "battle start", "There is no parent campaign with id 1 on "
                  "this server", name="Forged", parent="1", ref="0202/A-3")
    assert w.chan.threads == [] and there.threads == []
    assert texts(w.other_chan) == before
    # an admin of the campaign's server may: it is opened whole, for the real players
    started = await w.admin.slash(w.chan, "battle start", name="Battle of 0202", parent="1",
                                  ref="0202/A-3", designs="auto")  # E-D38
    assert not started.ephemeral, said(started)
    thread = thread_of(w)
    await w.env.settle()
    log = "\n".join(texts(thread))
    assert f"<@{w.alice.user.id}>" in log and f"<@{w.bob.user.id}>" in log


async def test_p20_no_free_text_or_look_alike_reference(
    world: World, simcord_bot: AdmiraltyBot
) -> None:
    w = world
    await ftcamp_parent(w, simcord_bot)
    before = texts(w.other_chan)
    for ref in ("the ambush at dawn", "0202/\u0391-3", "0202/A-3 \u200b", "Sector 4"):
        # a Greek capital Alpha, a zero-width space: not the battle the list names
        result = await w.gm.slash(w.chan, "battle start", name="Forged", parent="1", ref=ref)
        assert result.ephemeral, said(result)
        assert "Pick one from the list: 0202/A-3" in said(result), said(result)
    await refused(w.gm, w.chan, "battle start", "Pick one from the list", name="Forged",
                  parent="1")  # no ref at all
    assert w.chan.threads == [] and texts(w.other_chan) == before


async def test_p20_an_orbits_look_alike_area_is_refused(
    world: World, simcord_bot: AdmiraltyBot
) -> None:
    w = world
    await orbits_battle_waits(w, simcord_bot)  # the battle at Orbit 1 waits
    before = texts(w.other_chan)
    # the case: a Greek capital Omicron for the O of "Orbit 1"
    await refused(w.gm, w.chan, "battle start", "Pick one from the list: Orbit 1, turn 1",
                  name="Forged", parent="1", ref="\u039frbit 1")
    await refused(w.carol, w.chan, "battle start", "Only the GM of **Sol**", name="Forged",
                  parent="1", ref="\u039frbit 1")
    assert w.chan.threads == [] and texts(w.other_chan) == before


async def test_p20_a_battle_campaign_is_nobodys_parent(
    world: World, simcord_bot: AdmiraltyBot
) -> None:
    w = world
    await ftcamp_parent(w, simcord_bot)
    started = await w.gm.slash(w.chan, "battle start", name="Battle of 0202", parent="1",
                               ref="0202/A-3", designs="auto")  # E-D38
    assert not started.ephemeral, said(started)
    thread = thread_of(w)
    await w.env.settle()
    before = texts(w.other_chan), texts(thread)
    # the battle's id (2) typed as a parent, with the parent's own ref: refused
    await refused(w.gm, w.other_chan, "battle start", "a battle is nobody's parent",
                  name="Forged", parent="2", ref="0202/A-3")
    await refused(w.carol, w.other_chan, "battle start", "a battle is nobody's parent",
                  name="Forged", parent="2", ref="anything")
    assert w.other_chan.threads == []
    assert (texts(w.other_chan), texts(thread)) == before


async def test_p20_a_battle_made_while_the_parent_is_in_setup_gets_nothing_of_it(
    world: World, simcord_bot: AdmiraltyBot
) -> None:
    """The issue's case: a battle made while its FTCamp parent is in setup no longer keeps a
    real ref that a later /battle begin by any admin turns into the campaign's craft."""
    w = world
    await w.gm.slash(w.other_chan, "campaign create", ruleset="ftcamp", name="Border War")
    await w.gm.slash(w.other_chan, "ftcamp load", file=("war.toml", SCENARIO.encode()))
    before = texts(w.other_chan)
    for member in (w.carol, w.gm):  # a stranger, and the GM too: no battle is listed yet
        result = await member.slash(w.chan, "battle start", name="Forged", parent="1",
                                    ref="0202/A-3")
        assert result.ephemeral, said(result)
        assert "**Border War**" in said(result), said(result)
    assert w.chan.threads == []
    # the stranger's own battle (no parent) begun by an admin: nothing of the campaign
    await w.carol.slash(w.chan, "battle start", name="Carol's battle")
    thread = thread_of(w)
    for member in (w.alice, w.bob):
        await member.slash(thread, "battle join")
    begun = await w.admin.slash(thread, "battle begin")
    assert begun.ephemeral, said(begun)
    await w.env.settle()
    assert "brought in" not in "\n".join(texts(thread))
    ended = await w.carol.slash(thread, "battle end", reason="Border War is ours")
    assert ended.ephemeral, said(ended)
    await w.env.settle()
    assert texts(w.other_chan) == before  # NOTHING reached the campaign's channel


async def test_p21_the_threads_seats_follow_gm_replace_and_gm_kick_in_the_parent(
    world: World, simcord_bot: AdmiraltyBot
) -> None:
    w = world
    await ftcamp_parent(w, simcord_bot)
    started = await w.gm.slash(w.chan, "battle start", name="Battle of 0202", parent="1",
                               ref="0202/A-3", designs="auto")  # E-D38
    assert not started.ephemeral, said(started)
    thread = thread_of(w)
    await w.env.settle()
    # the parent's GM hands alice's campaign seat to carol: her battle side goes with it
    await w.gm.slash(w.other_chan, "gm replace", old=w.alice, new=w.carol)
    await w.env.settle()
    log = "\n".join(texts(thread))
    assert "carol takes over seat 1 from alice: the GM of **Border War**" in log, log
    battle = (await simcord_bot.service.snapshot(2))
    assert battle.seat_of(w.carol.user.id) is not None
    assert battle.seat_of(w.alice.user.id) is None
    await refused(w.alice, thread, "battle ready", "seat")
    # the parent's GM frees bob's seat: his battle seat is freed too, said in the thread
    await w.gm.slash(w.other_chan, "gm kick", player=w.bob)
    await w.env.settle()
    log = "\n".join(texts(thread))
    assert "Seat 2 (bob) is freed: the GM of **Border War** took that seat" in log, log
    assert (await simcord_bot.service.snapshot(2)).seat_of(w.bob.user.id) is None
    await refused(w.bob, thread, "battle ready", "seat")
    # the freed seat handed to another member in the parent: its battle side follows
    await w.gm.slash(w.other_chan, "gm replace", old=w.bob, new=w.admin)
    await w.env.settle()
    assert "admin takes over seat 2 from bob" in "\n".join(texts(thread))
    battle = await simcord_bot.service.snapshot(2)
    assert battle.seat_of(w.admin.user.id).seat == 2
    assert [p.seat for p in battle.players if p.user_id == w.carol.user.id] == [1]


async def test_p22_a_result_the_battles_gm_ended_waits_for_the_gms_own_confirm(
    world: World, simcord_bot: AdmiraltyBot
) -> None:
    """P-22: an Orbits battle ended by its thread's GM proposes its result, but no deadline
    default confirms it: the campaign's step waits for the GM."""
    w = world
    await orbits_battle_waits(w, simcord_bot)  # the battle at Orbit 1 waits
    started = await w.gm.slash(w.chan, "battle start", name="Battle at Orbit 1", parent="1",
                               ref="Orbit 1, turn 1")
    assert not started.ephemeral, said(started)
    thread = thread_of(w)
    await w.env.settle()
    for member in (w.alice, w.bob):
        await act(member, "Field these ships")
        await w.env.settle()
    ended = await w.gm.slash(thread, "battle end", reason="the table called it")
    assert ended.ephemeral, said(ended)
    await w.env.settle()
    gm_panel = panel(w.gm)
    assert "Proposed result" in gm_panel.content, gm_panel.content
    assert ("not confirmed at the deadline (the battle's GM ended it): only you confirm it"
            in gm_panel.content), gm_panel.content
    await w.env.advance_time(60 * 3600)  # past the step's deadline
    await w.env.settle()
    parent = await simcord_bot.service.snapshot(1)
    battle = parent.state.battles[0]
    assert battle.result is None and battle.proposal is not None
    assert "proposed result" not in public_text(w.other_chan).lower()
    await act(w.gm, "Confirm this result")
    await w.env.settle()
    assert "fought in its thread, confirmed by the GM" in public_text(w.other_chan)


async def test_p23_an_undo_past_the_muster_reveal_brings_the_picks_back_locked(
    world: World, simcord_bot: AdmiraltyBot
) -> None:
    """The issue's case: a GM undo past the muster reveal reopened the muster with both
    sides' picks kept, so each side could re-pick knowing the other's. Now the picks come
    back locked, the undo's announcement says so, and only the GM reopens one side's."""
    w = world
    await orbits_battle_waits(w, simcord_bot)  # the battle at Orbit 1 waits
    await w.gm.slash(w.chan, "battle start", name="Battle at Orbit 1", parent="1",
                     ref="Orbit 1, turn 1")
    thread = thread_of(w)
    await w.env.settle()
    for member in (w.alice, w.bob):
        await act(member, "Field these ships")
        await w.env.settle()
    assert "The sides have chosen their ships" in "\n".join(texts(thread))
    parent_before = texts(w.other_chan)
    undone = await w.gm.slash(thread, "gm undo")
    assert undone.ephemeral, said(undone)
    await w.env.settle()
    notice = next(t for t in reversed(texts(thread)) if "the GM undid" in t)
    assert ("Kept: the orders alice and bob had given then are back in, locked: they were "
            "revealed, so they stand as given (only the GM can reopen one seat's, with /gm "
            "reopen)") in notice, notice
    # bob saw alice's ships: he cannot pick again
    changed = await act(w.bob, "Field these ships")
    assert "revealed before the GM's undo, so they stand as you gave them" in said(changed)
    # the GM reopens bob's picks; the thread hears it; his change then resolves the muster
    reopened = await w.gm.slash(thread, "gm reopen", player=w.bob)
    assert reopened.ephemeral and "reopened bob's orders" in said(reopened)
    assert any("The GM reopened bob's orders" in t for t in texts(thread))
    await act(w.bob, "Field these ships")
    await w.env.settle()
    reveals = [t for t in texts(thread)
               if "The sides have chosen their ships" in t and "the GM undid" not in t]
    assert len(reveals) == 2  # the first reveal, then the muster resolved again
    assert texts(w.other_chan) == parent_before
