"""The optional overload rule (H-D31) and the manoeuvre support (H-D32) in a battle thread,
driven in simcord: the option set with /campaign settings, a note with the written orders,
a declaration after mid-turn."""

from __future__ import annotations

from tests.cogs.simworld import World, last_dm, shown, texts
from tests.cogs.test_battle_thread import ORDERS_B, said, thread_of, write_orders


async def test_hd31_hd32_overload_option_orders_note_and_mid_turn_manoeuvre(world: World):
    w = world
    await w.gm.slash(w.chan, "battle start", name="Redline run")
    thread = thread_of(w)
    for member in (w.alice, w.bob):
        await member.slash(thread, "battle join")
    changed = await w.gm.slash(thread, "campaign settings", key="overload", value="true")
    assert "Changed `overload`" in said(changed)
    await w.gm.slash(thread, "battle begin")
    assert "weapon overload thresholds" in "\n".join(texts(thread))
    for member, sample in ((w.alice, "vanguard"), (w.bob, "wolfhound")):
        await member.slash(thread, "battle add", sample=sample)
        await member.slash(thread, "battle ready")

    # Step 1: the note joins alice's orders (the panel's choices so far), sealed till step 2.
    noted = await w.alice.slash(thread, "battle note", text="1a: Corkscrew, Hard About later")
    assert noted.ephemeral and "Note added to your orders" in said(noted)
    assert "Corkscrew" not in "\n".join(texts(thread))
    assert "Write orders for Wolfhound" in last_dm(w.bob).content
    await write_orders(w.bob, "2a", ORDERS_B)
    log = "\n".join(texts(thread))
    assert "orders revealed" in log and "_1a: Corkscrew, Hard About later_" in log

    # Step 10: a declaration after mid-turn, announced in the thread (no sheet).
    choices = await w.alice.autocomplete(thread, "battle maneuver", "kinds", "ha")
    assert [c["value"] for c in choices] == ["hard_about"]
    bad = await w.alice.slash(thread, "battle maneuver", ship="1a", kinds="hard about",
                              evasive=2)
    assert bad.ephemeral and "only count with VTIF" in said(bad)
    bad = await w.alice.slash(thread, "battle maneuver", ship="1a", kinds="barrel roll")
    assert bad.ephemeral and "'barrel roll' is not a manoeuvre" in said(bad)
    before = len(thread.history())
    done = await w.alice.slash(thread, "battle maneuver", ship="1a", kinds="hard about",
                               thrust=1)
    assert done.ephemeral and "result is in the thread" in said(done)
    # a routine line of the step: the turn's tracker in the thread is edited, no new post
    assert len(thread.history()) == before
    assert any("**Vanguard** declares after mid-turn: Hard About; thrust 1 of" in shown(m)
               for m in thread.history())
    status = await w.bob.slash(thread, "battle status", ship="1a")
    assert "After mid-turn: hard_about, thrust 1" in said(status)
    again = await w.alice.slash(thread, "battle maneuver", ship="1a", kinds="roll")
    assert again.ephemeral and "cannot declare a manoeuvre now" in said(again)


async def test_hd32_vtif_fire_takes_the_targets_evasive_points(world: World):
    w = world
    await w.gm.slash(w.chan, "battle start", name="Vector duel")
    thread = thread_of(w)
    for member in (w.alice, w.bob):
        await member.slash(thread, "battle join")
    for key, value in (("movement", "vector"), ("vtif", "true")):
        await w.gm.slash(thread, "campaign settings", key=key, value=value)
    await w.gm.slash(thread, "battle begin")
    for member, sample in ((w.alice, "vanguard"), (w.bob, "wolfhound")):
        await member.slash(thread, "battle add", sample=sample)
        await member.slash(thread, "battle ready")
    # a note alone submits the panel's default orders with it
    for member in (w.alice, w.bob):
        noted = await member.slash(thread, "battle note", text="evasive 2 plotted")
        assert "Note added" in said(noted), said(noted)
    assert "Ships fire (simultaneous)**: act" in "\n".join(texts(thread))
    before = len(thread.history())
    fired = await w.alice.slash(thread, "battle fire", ship="1a", weapons="all", target="2a",
                                range=6, arc="F", bearing="F", evasive=2)
    assert fired.ephemeral and "result is in the thread" in said(fired), said(fired)
    # the result rides on the fire step's post, the thread's last message (H-D46)
    assert len(thread.history()) - before <= 1
    message = shown(thread.history()[-1])
    # in arc -3, evasive +2: every weapon covering F shows a modifier of -1 (H-16)
    assert "VTIF d6" in message and " -1 = " in message, message
