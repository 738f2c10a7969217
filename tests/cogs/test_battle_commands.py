"""/battle refusals, autocomplete, uploads and the parent campaign, in simcord (issue 5)."""

from __future__ import annotations

from importlib import resources

import simcord

from tests.cogs.simworld import World, texts
from tests.cogs.test_battle_thread import (
    ORDERS_A,
    ORDERS_B,
    add_ships,
    open_battle,
    said,
    thread_of,
    write_orders,
)


async def refused(member: simcord.MemberActor, where: simcord.ChannelHandle, command: str,
                  expected: str, **options: object) -> None:
    result = await member.slash(where, command, **options)
    assert result.ephemeral, said(result)
    assert expected in said(result), said(result)


async def test_commands_outside_a_battle_thread_say_what_to_do(world: World) -> None:
    w = world
    await refused(w.alice, w.chan, "battle fire", "No battle is running here", ship="1a",
                  weapons="all", target="2a", range=6, arc="F")
    await refused(w.gm, w.chan, "battle start", "1 to 80 characters", name=" ")
    assert w.chan.threads == []  # a refused start leaves no thread behind
    thread = await open_battle(w)
    # A battle cannot be started inside a thread; the thread's campaign is HRFT only.
    await refused(w.gm, thread, "battle start", "normal text channel", name="Again")
    await w.gm.slash(w.other_chan, "campaign create", ruleset="guess", name="Dice Cup")
    await refused(w.alice, w.other_chan, "battle status", "plays guess, not HRFT")


async def test_setup_refusals_and_uploads(world: World) -> None:
    w = world
    started = await w.gm.slash(w.chan, "battle start", name="Setup trouble")
    thread = thread_of(w)
    assert not started.ephemeral
    await w.alice.slash(thread, "battle join")
    await refused(w.alice, thread, "battle add", "has not begun", sample="kestrel")
    await w.bob.slash(thread, "battle join")
    await refused(w.alice, thread, "battle begin", "Only the GM")
    await w.gm.slash(thread, "battle begin")
    await refused(w.alice, thread, "battle add", "either a sample design or a file")
    await refused(w.alice, thread, "battle add", "No sample 'titanic'", sample="titanic")
    await refused(w.alice, thread, "battle ready", "Add at least one ship")
    choices = await w.alice.autocomplete(thread, "battle add", "sample", "ha")
    assert [c["value"] for c in choices] == ["harrier"]
    await refused(w.alice, thread, "battle add", "is not valid JSON",
                  file=("fleet.FTFleet", b"{not json"))
    await refused(w.alice, thread, "battle add", "upload a .FTDesign",
                  file=("fleet.docx", b"PK"))
    # A good TOML design is added: the thread is told, the parent channel is not.
    toml = (resources.files("bot.rules.hrft") / "samples" / "lynx.toml").read_bytes()
    result = await w.alice.slash(thread, "battle add", file=("lynx.toml", toml))
    assert result.ephemeral and "Added Lynx" in said(result)
    assert any("adds Lynx (1a)" in line for line in texts(thread))
    assert "Lynx" not in "\n".join(texts(w.chan))


async def test_fire_autocomplete_and_refusals(world: World) -> None:
    w = world
    thread = await open_battle(w)
    await add_ships(w, thread)
    await refused(w.alice, thread, "battle fire", "You cannot fire now (Write orders", ship="1a",
                  weapons="all", target="2a", range=6, arc="F")
    await write_orders(w.alice, "1a", ORDERS_A)
    await write_orders(w.bob, "2a", ORDERS_B)

    own = await w.alice.autocomplete(thread, "battle fire", "ship", "")
    assert [c["value"] for c in own] == ["1a"]
    enemy = await w.alice.autocomplete(thread, "battle fire", "target", "")
    assert [c["value"] for c in enemy] == ["2a"]
    weapons = await w.alice.autocomplete(thread, "battle fire", "weapons", "", ship="1a")
    values = [c["value"] for c in weapons]
    assert values[0] == "all" and "s1" in values and "s9" not in values  # s9: fire control
    more = await w.alice.autocomplete(thread, "battle fire", "weapons", "s1,s", ship="1a")
    assert more and all(c["value"].startswith("s1,s") for c in more)
    assert "s1,s1" not in [c["value"] for c in more]
    sheets = await w.carol.autocomplete(thread, "battle sheet", "ship", "wolf")
    assert [c["value"] for c in sheets] == ["2a"]

    await refused(w.alice, thread, "battle fire", "'s9' cannot fire now from 1a", ship="1a",
                  weapons="s9", target="2a", range=6, arc="F")
    await refused(w.alice, thread, "battle fire", "beyond every fire table", ship="1a",
                  weapons="s1", target="2a", range=60, arc="F")
    await refused(w.bob, thread, "battle fire", "Target", ship="2a", weapons="s1",
                  target="2a", range=6, arc="F")
    # The engine's own refusal (a RulesError) reaches the player as it is: Beam-3 (F/FS/FP)
    # does not cover the aft arc.
    await refused(w.alice, thread, "battle fire", "does not cover A", ship="1a", weapons="s1",
                  target="2a", range=6, arc="F", bearing="A")
    await refused(w.carol, thread, "battle fire", "no seat", ship="1a", weapons="s1",
                  target="2a", range=6, arc="F")
    await refused(w.alice, thread, "battle repair", "You cannot repair now",
                  target="1a|hull:F")
    await refused(w.alice, thread, "battle status", "No ship 'zz'", ship="zz")
    await refused(w.carol, thread, "battle sheet", "No ship 'zz'", ship="zz")


async def test_a_battle_for_a_parent_campaign_reports_back(world: World) -> None:
    w = world
    parent = await w.gm.slash(w.other_chan, "campaign create", ruleset="guess", name="War")
    assert not parent.ephemeral
    listed = await w.gm.slash(w.other_chan, "campaign list")
    assert "War" in said(listed)
    # The parent's id is the first campaign of this fresh database.
    started = await w.gm.slash(w.chan, "battle start", name="Vega", parent="1", ref="Sector 4")
    assert "for **War** (Sector 4)" in said(started)  # its name, never its id
    thread = thread_of(w)
    await refused(w.gm, w.chan, "battle start", "no parent campaign", name="X", parent="99")
    assert [t.id for t in w.chan.threads] == [thread.id]  # the refused start's thread is gone
    ended = await w.gm.slash(thread, "battle end", reason="called off")
    assert ended.ephemeral
    assert any("Battle **Vega** (Sector 4) is over" in t and "called off" in t
               for t in texts(w.other_chan))
