"""One war in simcord (issue 11, E-D36): a battle the FTCamp round waits for, opened from the
battle list with ONE /battle start (seats, start and craft at once), ended by the GM, its
result proposed to the campaign's GM in a DM panel, confirmed there, applied, and the next
round opening with the changed forces; /gm undo in the campaign takes it back."""

from __future__ import annotations

from bot.campaign import Actor
from bot.client import AdmiraltyBot
from bot.rules.ftcamp import State
from bot.rules.ftcamp.warmodel import WarBattle
from storage import campaigns as campaign_rows
from storage import timers
from tests.cogs.ftcamp_support import choose, submit
from tests.cogs.simworld import World, last_dm, texts
from tests.cogs.test_battle_campaign import ftcamp_parent, with_battle
from tests.cogs.test_battle_commands import refused
from tests.cogs.test_battle_thread import said, thread_of


def waiting_for_battle(state: State) -> State:
    """Round 1's battle list holds 0202/A-3 and the round waits for it (E-D36)."""
    listed = with_battle(state)
    return listed.model_copy(update={"step": "battles",
                                     "war": [WarBattle(ref="0202/A-3", round=1)]})


async def test_e_d34_battle_from_the_list_to_the_next_round(
    world: World, simcord_bot: AdmiraltyBot
) -> None:
    w = world
    await ftcamp_parent(w, simcord_bot)
    gm = Actor(w.gm.user.id, "gm")
    await simcord_bot.service.gm_edit_state(gm, w.other_chan.id, waiting_for_battle,
                                            "round waits for its battle")
    await w.env.settle()
    assert "Round 1 waits for its battles" in last_dm(w.gm).content

    # P-17: the battle is offered until it is opened, then not; opening it twice is refused
    # with a link to its thread (and leaves no second thread)
    offered = await w.gm.autocomplete(w.chan, "battle start", "ref", "", parent="1")
    assert [c["value"] for c in offered] == ["0202/A-3"]
    started = await w.gm.slash(w.chan, "battle start", parent="1", ref="0202/A-3",
                               designs="auto")  # E-D38: Valiant names no design
    assert not started.ephemeral, said(started)
    thread = thread_of(w)
    assert thread.name == "Battle 0202/A-3, round 1"  # P-16: its round in its name
    await w.env.settle()
    assert "brought in Resolute (Vanguard) for alice as 1a" in "\n".join(texts(thread))
    assert await w.gm.autocomplete(w.chan, "battle start", "ref", "", parent="1") == []
    await refused(w.gm, w.chan, "battle start", f"being fought in its thread, <#{thread.id}>",
                  parent="1", ref="0202/A-3", designs="auto")
    assert [t.id for t in w.chan.threads] == [thread.id]

    # P-18: while it is fought, the campaign's step has no deadline; its tracker says it
    # waits for the battle and links the thread
    service = simcord_bot.service
    row = await campaign_rows.get(service.db, 1)
    assert row is not None and await timers.get(service.db, 1, row.step_no) is None
    assert f"Waiting for the battle fought in <#{thread.id}>" in texts(w.other_chan)[-1]
    before = len(texts(w.other_chan))

    ended = await w.gm.slash(thread, "battle end", reason="the Raiders withdrew")
    assert ended.ephemeral, said(ended)
    await w.env.settle()
    # P-15: the campaign's channel gets ONE post, the proposal; the thread keeps its closing
    # words and ship report
    new = texts(w.other_chan)[before:]
    assert len(new) == 1 and "Battle 0202/A-3, round 1: result proposed\nHex 0202, sector " \
        "A-3. Fought in its thread, **Battle 0202/A-3, round 1**." in new[0], new
    assert "Resolute (Vanguard): no damage" in new[0] and "Defeated" in new[0]
    assert not any("withdrew" in t or "is over" in t for t in texts(w.other_chan))
    assert "Its result is proposed to **Border War**" in "\n".join(texts(thread))
    panel = last_dm(w.gm)
    assert "0202/A-3, result proposed:" in panel.content, panel.content
    assert "Resolute (Vanguard): no damage" in panel.content

    # The GM edits Fang's fate in the panel (destroyed), then confirms.
    await w.gm.user.click(panel, label="Change a craft's fate")
    await choose(w.gm, "Craft", "0:2")
    await choose(w.gm, "Fate", "destroyed")
    await submit(w.gm)
    await w.env.settle()
    panel = last_dm(w.gm)
    assert "Fang (Raiders): destroyed (removed)" in panel.content, panel.content
    await w.gm.user.click(panel, label="Confirm a battle's result")
    await choose(w.gm, "Battle", "0202/A-3")
    await submit(w.gm)
    await w.env.settle()
    confirmed = [t for t in texts(w.other_chan) if "0202/A-3" in t and "confirmed by" in t]
    assert len(confirmed) == 1 and "with changes" in confirmed[0]  # the GM's edit
    channel = "\n".join(texts(w.other_chan))
    assert "group Raiders is gone" in channel
    assert "**Round 2**" in channel
    state = (await simcord_bot.service.snapshot(1)).state
    assert "Raiders" not in state.groups and state.round == 2

    undone = await w.gm.slash(w.other_chan, "gm undo")
    assert undone.ephemeral
    state = (await simcord_bot.service.snapshot(1)).state
    assert "Raiders" in state.groups and state.step == "battles"
    assert state.war[0].status == "proposed"
