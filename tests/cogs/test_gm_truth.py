"""Issue 10 items 8 and 10 in simcord: /gm log shows the newest entries (the whole log as a
file on request), /gm undo restores the kept orders before it says anything and tells who is
owed, /battle start autocompletes its parent, and the welcome DM names the campaign."""

from __future__ import annotations

import re

from bot.campaign import Actor
from bot.client import AdmiraltyBot
from tests.cogs.simworld import World, dm_texts, last_dm, last_panel, texts
from tests.cogs.test_cog_lifecycle import guess, open_campaign, start

HOUR = 3600.0


def gm_actor(w: World) -> Actor:
    return Actor(w.gm.user.id, "gm")


async def test_gm_log_shows_the_newest_entries_and_the_whole_log_as_a_file(
    world: World, simcord_bot: AdmiraltyBot
) -> None:
    w = world
    await open_campaign(w)
    await w.gm.slash(w.chan, "campaign settings", key="target", value="20")
    await w.gm.slash(w.chan, "campaign start")
    for _ in range(55):  # guesses and passes, each taken by default: a long log
        await simcord_bot.service.gm_advance(gm_actor(w), w.chan.id)
    await w.env.settle()

    whole = await w.gm.slash(w.chan, "gm log", file=True)
    note = whole.followups[0] if whole.followups else whole.response
    assert note.ephemeral and "The whole log (" in note.content
    [attached] = note.attachments
    assert attached.filename == "campaign-log.txt"
    entries = (await attached.read()).decode("utf-8").split("\n")
    assert len(entries) > 50  # every entry, oldest first
    assert "First to 20 points wins." in entries[0] and " UTC step " in entries[0]
    assert not any("locked as" in e for e in entries)  # a seat's private event stays private
    newest = entries[-1].split(": ", 1)[1]

    shown = await w.gm.slash(w.chan, "gm log", limit=50)
    assert shown.ephemeral
    content = shown.response.content
    assert len(content) <= 2000
    lines = content.split("\n")
    # the oldest are left out, and it says so; the newest entry is the last line
    assert lines[0].startswith("Older entries left out; `/gm log file:True`")
    assert "First to 20 points wins." not in content
    assert lines[-1].endswith(f": {newest}")
    assert len(lines) > 10


async def test_undo_restores_the_kept_orders_before_it_says_who_is_owed(
    world: World, simcord_bot: AdmiraltyBot
) -> None:
    """The issue's case: bob gave orders, alice missed the deadline (default). After /gm undo
    the channel hears that bob's orders are back in and that only alice is owed; alice's
    Submit then resolves the step at once with bob's kept orders, as everyone was told."""
    w = world
    await start(w)
    await guess(w, "bob", "5")
    await w.env.advance_time(48 * HOUR + 60)  # alice takes the default guess, 1
    reveal = [t for t in texts(w.chan) if "the die shows" in t]
    assert len(reveal) == 1 and "alice 1, bob 5" in reveal[0]
    channel_before = len(texts(w.chan))

    undone = await w.gm.slash(w.chan, "gm undo")
    assert undone.ephemeral
    said = texts(w.chan)[channel_before:]
    # the notice, written after the orders were back in, then the step's tracker
    assert len(said) == 2, said
    notice, tracker = said
    assert f"Waiting for <@{w.alice.user.id}>" in tracker
    assert f"<@{w.bob.user.id}>" not in tracker
    reply = undone.followups[0] if undone.followups else undone.response
    assert reply.content == f"Undone. The channel was told:\n{notice}"
    assert "**Dice Cup**: the GM undid the last result (it began: “Round 1: the die shows" in notice
    assert "Kept: the orders bob had given then are back in" in notice
    assert "Waiting for orders from: alice (deadline <t:" in notice
    [owed] = [line for line in notice.split("\n") if "Waiting for orders" in line]
    assert "bob" not in owed  # bob's orders are in: he is not owed
    words = re.sub(r"<t:\d+:R>", "", notice.split("\n", 1)[1])
    assert "5" not in words  # names only: bob's guess stays sealed
    # bob's new panel says his orders are back in; alice's asks for hers
    assert "Your orders from before are back in" in last_panel(w.bob).content
    assert "Guess the roll of a d6." in last_panel(w.alice).content
    orders = await w.bob.user.slash("orders")
    assert "Your orders are in" in orders.response.content

    # alice's Submit resolves at once, with bob's kept guess: exactly what was announced
    await guess(w, "alice", "4")
    reveal = [t for t in texts(w.chan) if t.startswith("Round 1: the die shows")]
    assert len(reveal) == 2 and "alice 4, bob 5" in reveal[-1]


async def test_undo_when_every_order_was_kept_says_what_resolves_the_step(
    world: World
) -> None:
    w = world
    await start(w)
    await guess(w, "alice", "2")
    await guess(w, "bob", "5")
    await w.gm.slash(w.chan, "gm undo")
    notice = texts(w.chan)[-2]  # then the step's tracker
    assert "Kept: the orders alice and bob had given then are back in" in notice
    assert "Waiting for orders from" not in notice
    assert ("Every order is in again: the step resolves when someone changes theirs, when "
            "the GM advances it, or at the deadline <t:") in notice
    # bob changes his guess: the step resolves at once, as the notice said
    await guess(w, "bob", "6")
    assert "alice 2, bob 6" in [t for t in texts(w.chan) if t.startswith("Round 1")][-1]


async def test_battle_start_autocompletes_the_gms_campaigns_by_name(world: World) -> None:
    w = world
    await w.gm.slash(w.chan, "campaign create", ruleset="guess", name="Dice Cup")
    await w.gm.slash(w.other_chan, "campaign create", ruleset="guess", name="Border War")
    third = w.guild.create_text_channel("carol-front")
    await w.env.settle()
    await w.carol.slash(third, "campaign create", ruleset="guess", name="Carol's Cup")

    everything = await w.gm.autocomplete(w.chan, "battle start", "parent", "")
    assert [c["name"] for c in everything] == ["Dice Cup (guess, id 1)",
                                              "Border War (guess, id 2)"]
    assert [c["value"] for c in everything] == ["1", "2"]
    typed = await w.gm.autocomplete(w.chan, "battle start", "parent", "bord")
    assert [c["value"] for c in typed] == ["2"]
    # another GM's campaign is not offered; an admin sees every one
    assert [c["value"] for c in await w.carol.autocomplete(w.chan, "battle start", "parent",
                                                           "")] == ["3"]
    assert len(await w.admin.autocomplete(w.chan, "battle start", "parent", "")) == 3

    # the value the autocomplete puts in works, and so does the full name
    started = await w.gm.slash(w.chan, "battle start", name="Skirmish", parent="2")
    assert not started.ephemeral and "for **Border War**" in started.response.content
    started = await w.gm.slash(w.other_chan, "battle start", name="Raid", parent="dice cup")
    assert not started.ephemeral and "for **Dice Cup**" in started.response.content
    refused = await w.gm.slash(w.chan, "battle start", name="X", parent="Nowhere")
    assert refused.ephemeral
    assert "No campaign of yours on this server is called 'Nowhere'" in refused.response.content
    # a battle is not offered as the parent of another battle
    after = await w.gm.autocomplete(w.chan, "battle start", "parent", "")
    assert [c["value"] for c in after] == ["1", "2"]


async def test_the_welcome_dm_names_the_campaign_and_links_its_channel(world: World) -> None:
    w = world
    await open_campaign(w, ("alice",))
    welcome = [t for t in dm_texts(w.alice) if "Welcome aboard" in t]
    assert welcome == [f"Welcome aboard! You hold seat 1 in **Dice Cup** (<#{w.chan.id}>). "
                       "Your orders panels will arrive here; `/orders` brings them back."]
    # in a battle thread: the battle's name and the thread
    await w.gm.slash(w.other_chan, "battle start", name="Vega")
    [thread] = w.other_chan.threads
    await w.bob.slash(thread, "battle join")
    assert last_dm(w.bob).content.startswith(
        f"Welcome aboard! You hold seat 1 in **Vega** (<#{thread.id}>).")
    assert "in the campaign in" not in "\n".join(dm_texts(w.bob))
