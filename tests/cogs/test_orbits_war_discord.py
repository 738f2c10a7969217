"""One Orbits war in simcord (issue 11, O-D17 to O-D20): a battle card, the GM's DM with the
command, the HRFT thread opened from it by the GM (autocomplete), both sides mustering in
secret, the battle fought to its end (a concession), its losses proposed to the campaign's
GM, confirmed in the DM panel, the discards done, and the next turn opening."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.campaign import Actor
from bot.client import AdmiraltyBot
from bot.rules.base import Ruleset
from bot.rules.dice import ScriptedDice
from bot.rules.orbits.state import OrbitsState, TableCard, stance_key
from tests.cogs.conftest import ROLL_DICE
from tests.cogs.simworld import World, texts
from tests.cogs.test_battle_thread import SeededBot, said, thread_of
from tests.cogs.test_orbits_discord import act, labels, panel, pass_turn, public_text

ALICE_FLEET = ("7H", "9D")  # 16: Orbit 1's attacker, budget 160 MASS, size class 2
BOB_FLEET = ("5S", "3S")  # 8: 80 MASS, size class 1


@pytest.fixture
def simcord_bot(db_path: Path, guess_rules: Ruleset) -> AdmiraltyBot:
    return SeededBot(db_path, roll_dice=ScriptedDice(ROLL_DICE))


def at_deployment(state: OrbitsState) -> OrbitsState:
    """Deployment, Alice to act; her fleet (attack) and Bob's (blockade) face up at Orbit 1,
    every other card back in its deck: two passes open the battle (O-13)."""
    st = state.clone()
    for c in [c for c in st.table if not c.face_up]:
        st.decks[c.owner].insert(0, c.code)
    st.table = [c for c in st.table if c.face_up]
    st.groups = []
    for seat, fleet, stance in ((1, ALICE_FLEET, "attack"), (2, BOB_FLEET, "blockade")):
        st.decks[seat] = [c for c in st.decks[seat] if c not in fleet]
        st.table += [TableCard(owner=seat, code=c, area="orbit:1", face_up=True, known=True)
                     for c in fleet]
        st.stances[stance_key(seat, "orbit:1")] = stance  # type: ignore[assignment]
    st.phase, st.actor, st.passes = "deployment", 1, 0
    return st


async def orbits_parent(w: World, bot: AdmiraltyBot) -> None:
    await w.gm.slash(w.other_chan, "campaign create", ruleset="orbits", name="Sol")
    set_ppv = await w.gm.slash(w.other_chan, "campaign settings", key="points_per_value",
                               value="10")
    assert set_ppv.ephemeral, said(set_ppv)
    for member in (w.alice, w.bob):
        await member.slash(w.other_chan, "campaign join")
    await w.gm.slash(w.other_chan, "campaign start")
    await bot.service.gm_edit_state(Actor(w.gm.user.id, "gm"), w.other_chan.id,
                                    at_deployment, "the battle position for the test")
    await w.env.settle()


async def orbits_battle_waits(w: World, bot: AdmiraltyBot) -> None:
    """The Orbits parent of ``orbits_parent`` after both pass: the battle at Orbit 1 waits."""
    await orbits_parent(w, bot)
    await pass_turn(w.alice)
    await w.env.settle()
    await pass_turn(w.bob)
    await w.env.settle()


async def test_od17_to_od20_orbits_battle_from_its_card_to_the_next_turn(
    world: World, simcord_bot: AdmiraltyBot
) -> None:
    w = world
    await orbits_battle_waits(w, simcord_bot)  # the battle at Orbit 1 waits
    channel = public_text(w.other_chan)
    assert "Battle at Orbit 1" in channel
    # The GM (only) gets the command that opens it in a thread, in a DM.
    command = next(m.content for m in w.gm.user.dm_channel.history()
                   if "/battle start" in m.content)
    assert "ref:Orbit 1" in command and "O-" not in command
    assert "/battle start" not in channel

    # ref: autocompletes the waiting battle for the campaign's GM, nothing for a player.
    offered = await w.gm.autocomplete(w.chan, "battle start", "ref", "orb", parent="1")
    assert [c["name"] for c in offered] == ["Orbit 1, turn 1"], offered
    assert await w.alice.autocomplete(w.chan, "battle start", "ref", "", parent="1") == []

    started = await w.gm.slash(w.chan, "battle start", name="Battle at Orbit 1", parent="1",
                               ref=offered[0]["value"])
    assert not started.ephemeral, said(started)
    thread = thread_of(w)
    await w.env.settle()
    intro = "\n".join(texts(thread))
    assert f"<@{w.alice.user.id}>" in intro and f"<@{w.bob.user.id}>" in intro
    assert "picks its ships within its budget" in intro
    # The campaign's report step asks the GM now, not the players.
    gm_panel = panel(w.gm)
    assert "being fought in its own thread" in gm_panel.content, gm_panel.content
    assert "fought in its own thread" in public_text(w.other_chan)
    pending = (await simcord_bot.service.snapshot(1)).pending
    assert [r.seat for r in pending] == [0]  # the GM alone; no step asks nobody

    before = len(texts(w.other_chan))
    await muster_and_concede(w, thread)

    # P-15, O-D22: the campaign's channel gets ONE post of it, the proposal; the ship
    # report and "the campaign is over" stay out of it
    new = texts(w.other_chan)[before:]
    assert len(new) == 1 and new[0].startswith("Battle at Orbit 1, turn 1: result proposed")
    assert "bob: lost 30 points" in new[0] and "Defeated: bob" in new[0], new[0]
    assert not any("campaign is over" in t.lower() for t in texts(w.other_chan))
    # The losses come back to the campaign's GM as a result to confirm.
    gm_panel = panel(w.gm)
    assert "Proposed result" in gm_panel.content, gm_panel.content
    # a Kestrel (24 MASS) destroyed: 3 card values at 10 MASS each, rounded up (O-D19)
    assert "alice lost 0 points; bob lost 30 points; defeated: bob" in gm_panel.content
    assert {"Confirm this result", "Edit the result"} <= set(labels(gm_panel))
    before = len(texts(w.other_chan))
    await act(w.gm, "Confirm this result")
    await w.env.settle()
    channel = public_text(w.other_chan)
    assert "fought in its thread, confirmed by the GM" in channel
    assert sum("confirmed by the GM" in t for t in texts(w.other_chan)[before:]) == 1
    # Bob discards cards worth at least 3 (the proposal, pre-filled: 3♠); Alice lost nothing
    discard = panel(w.bob)
    assert "discard fleet cards worth at least 3" in discard.content.lower(), discard.content
    await act(w.bob, "Discard")
    await w.env.settle()
    channel = public_text(w.other_chan)
    assert "bob discards 3♠" in channel
    assert "remaining fleet card at Orbit 1 flips face down" in channel
    # the next turn opens (O-16): its transit asks a player again
    state = (await simcord_bot.service.snapshot(1)).state
    assert state.discards[2] == ["3S"] and state.discards[1] == []
    assert state.turn == 2 and state.phase in ("transit", "deployment")
    assert "Turn 2" in channel


async def muster_and_concede(w: World, thread) -> None:
    """Each side fields the proposed ships in its DM panel (secret until both chose); then
    Bob concedes and the battle ends."""
    for member in (w.alice, w.bob):
        muster = panel(member)
        assert "secret until every side has chosen" in muster.content, muster.content
        await act(member, "Field these ships")
        await w.env.settle()
        if member is w.alice:  # her picks are not shown before Bob has chosen
            assert not any("Jackal" in t for t in texts(thread))
    log = "\n".join(texts(thread))
    assert "The sides have chosen their ships" in log and "Jackal" in log
    for _ in range(6):  # the sides write their orders (the defaults) up to a step with Concede
        if "Concede" in labels(panel(w.bob)):
            break
        for member in (w.alice, w.bob):
            if "Submit" in labels(panel(member)):
                await member.user.click(panel(member), label="Submit")
        await w.env.settle()
    # The GM's own damage (a mine field) wrecks one of Bob's Kestrels; then Bob concedes.
    hit = await w.gm.slash(thread, "battle damage", target="2a", kind="enveloping", arc="F",
                           points="30", source="mine field")
    assert hit.ephemeral, said(hit)
    await w.env.settle()
    await w.bob.user.click(panel(w.bob), label="Concede")
    await w.bob.user.click(panel(w.bob), label="Confirm: Concede")
    await w.env.settle()
    assert any("concedes" in t for t in texts(thread))


async def test_p17_the_gm_opens_the_battle_from_its_card(
    world: World, simcord_bot: AdmiraltyBot
) -> None:
    """P-17, O-D23: the battle card carries a button that opens the battle in a thread; only
    the campaign's GM may use it (the clicker is checked); once opened, the button (like a
    second /battle start) is refused with a link to the thread (P-17)."""
    w = world
    await orbits_battle_waits(w, simcord_bot)  # the battle at Orbit 1 waits
    card = next(m for m in w.other_chan.history()
                if any(e.title == "Battle at Orbit 1" for e in m.embeds))
    label = "Open Orbit 1, turn 1 in a thread"
    tried = await w.alice.click(card, label=label)
    assert "Only the GM of **Sol**" in said(tried) and tried.ephemeral
    assert w.other_chan.threads == []
    opened = await w.gm.click(card, label=label)
    assert not opened.ephemeral, said(opened)
    [thread] = w.other_chan.threads
    assert thread.name == "Battle at Orbit 1, turn 1"  # P-16: its turn in its name
    await w.env.settle()
    assert any("each side picks its ships" in t.lower() or "picks its ships" in t
               for t in texts(thread))
    again = await w.gm.click(card, label=label)
    assert again.ephemeral and f"<#{thread.id}>" in said(again)
    assert [t.id for t in w.other_chan.threads] == [thread.id]
