"""A whole campaign of the tests-only "guess" rule set, driven as users would, in simcord."""

from __future__ import annotations

from tests.cogs.simworld import (
    World,
    custom_ids,
    dm_texts,
    fresh,
    last_dm,
    last_panel,
    select_id,
    texts,
)


async def open_campaign(w: World, players: tuple[str, ...] = ("alice", "bob")) -> None:
    result = await w.gm.slash(w.chan, "campaign create", ruleset="guess", name="Dice Cup")
    assert not result.ephemeral
    for name in players:
        result = await getattr(w, name).slash(w.chan, "campaign join")
        assert result.ephemeral, result.response
        assert "You joined as seat" in result.response.content


async def start(w: World, players: tuple[str, ...] = ("alice", "bob")) -> None:
    await open_campaign(w, players)
    result = await w.gm.slash(w.chan, "campaign start")
    assert result.ephemeral


async def guess(w: World, member_name: str, number: str) -> None:
    member = getattr(w, member_name)
    panel = last_panel(member)
    await member.user.select(panel, [number], custom_id=select_id(panel))
    await member.user.click(fresh(member, panel), label="Submit")


async def test_create_is_public_and_names_the_next_steps(world: World) -> None:
    result = await world.gm.slash(world.chan, "campaign create", ruleset="guess", name="Dice Cup")
    assert not result.ephemeral
    assert "Dice Cup" in result.response.content
    assert "/campaign join" in result.response.content
    assert result.response.channel_id == world.chan.id


async def test_join_sends_a_welcome_dm(world: World) -> None:
    await open_campaign(world, ("alice",))
    assert any("Welcome aboard" in t for t in dm_texts(world.alice))


async def test_start_sends_each_player_a_panel_by_dm(world: World) -> None:
    await start(world)
    for member in (world.alice, world.bob):
        panel = last_dm(member)
        assert "Guess the roll" in panel.content
        ids = custom_ids(panel)
        assert any(i.startswith("adm:") and ":sel:" in i for i in ids)
        assert any(i.startswith("adm:") and ":sub:" in i for i in ids)
        assert all(len(i) <= 100 for i in ids)
    # The channel says who is awaited, with no panel in it.
    mentions = (f"<@{world.alice.user.id}>", f"<@{world.bob.user.id}>")
    assert any(all(m in t for m in mentions) for t in texts(world.chan))
    assert all(not custom_ids(m) for m in world.chan.history())


async def test_sealed_orders_stay_secret_until_everyone_is_in(world: World) -> None:
    await start(world)
    await guess(world, "alice", "3")
    panel = last_dm(world.alice)
    assert "Your orders are in" in panel.content
    assert "3" in panel.content.split("Your orders are in")[1]
    channel = "\n".join(texts(world.chan))
    assert "alice" in channel  # "alice's orders are in"
    assert "Guesses" not in channel  # but not what she chose
    # She changes her mind; still secret.
    await guess(world, "alice", "4")
    # the lone action's button label is not repeated (bot.campaign.summaries, issue 17 item 7)
    assert "Your orders are in: Your guess: 4." in last_dm(world.alice).content
    assert "Guesses" not in "\n".join(texts(world.chan))

    before = len(world.chan.history())
    bob_panel = last_panel(world.bob)
    await guess(world, "bob", "5")
    new = texts(world.chan)[before:]
    reveal = [t for t in new if "Guesses" in t]
    assert len(reveal) == 1, new
    assert "alice 4" in reveal[0] and "bob 5" in reveal[0]  # the changed order counts
    assert len([t for t in new if t]) <= 4  # reveal and next step, not one message per order
    # bob's panel message, done with, became his news (P-9: no buttons left on it)
    news = fresh(world.bob, bob_panel)
    assert news.content == "Your guess was locked as 5." and not custom_ids(news)


async def test_reveal_carries_the_board_picture(world: World) -> None:
    await start(world)
    await guess(world, "alice", "2")
    await guess(world, "bob", "6")
    reveal = next(m for m in world.chan.history() if "Guesses" in m.content)
    assert reveal.attachments
    data = await reveal.attachments[0].read()
    assert data.startswith(b"\x89PNG")


async def test_turn_step_goes_in_seat_order(world: World) -> None:
    await start(world)
    await guess(world, "alice", "2")
    await guess(world, "bob", "6")
    panel = last_dm(world.alice)
    assert "Bank" in panel.content or any(":sub:" in i for i in custom_ids(panel))
    # Bob is not on turn: his /orders has nothing but his finished guess panel.
    result = await world.bob.slash(world.chan, "orders")
    assert result.ephemeral
    assert "Nothing is waiting" in result.response.content
    await world.alice.user.click(panel, label="Pass")
    assert "Done" in last_dm(world.alice).content
    assert any("alice passes" in t for t in texts(world.chan))
    bob_panel = last_dm(world.bob)
    await world.bob.user.click(bob_panel, label="Pass")
    assert any("bob passes" in t for t in texts(world.chan))
    # Round 2 opens: new guess panels.
    assert "Guess the roll" in last_dm(world.alice).content


async def test_status_is_ephemeral_and_shows_pending_names(world: World) -> None:
    await start(world)
    result = await world.alice.slash(world.chan, "campaign status")
    assert result.ephemeral
    content = result.response.content
    assert "Dice Cup" in content and "alice" in content and "bob" in content


async def test_list_shows_the_campaign(world: World) -> None:
    await open_campaign(world, ("alice",))
    result = await world.carol.slash(world.other_chan, "campaign list")
    assert result.ephemeral
    assert "Dice Cup" in result.response.content


async def test_leave_before_start(world: World) -> None:
    await open_campaign(world, ("alice", "bob"))
    result = await world.bob.slash(world.chan, "campaign leave")
    assert result.ephemeral
    assert "bob leaves" in texts(world.chan)[-1]
    result = await world.gm.slash(world.chan, "campaign start")
    assert result.ephemeral  # refused: one player is not enough
    assert "Guess the roll" not in "\n".join(dm_texts(world.alice))


async def test_settings_show_and_change(world: World) -> None:
    await open_campaign(world)
    shown = await world.gm.slash(world.chan, "campaign settings")
    assert shown.ephemeral
    assert "target" in shown.response.content
    choices = await world.gm.autocomplete(world.chan, "campaign settings", "key", "tar")
    assert [c["value"] for c in choices] == ["target"]
    changed = await world.gm.slash(world.chan, "campaign settings", key="target", value="5")
    assert "Changed `target` to 5" in changed.response.content
    bad = await world.gm.slash(world.chan, "campaign settings", key="target", value="zero")
    assert bad.ephemeral and "target" in bad.response.content


async def test_end_closes_the_campaign(world: World) -> None:
    await start(world)
    result = await world.gm.slash(world.chan, "campaign end", reason="rain")
    assert result.ephemeral
    assert "rain" in texts(world.chan)[-1]
    listed = await world.gm.slash(world.chan, "campaign list")
    assert "Dice Cup" not in listed.response.content
    # A new campaign may open in the same channel.
    again = await world.gm.slash(world.chan, "campaign create", ruleset="guess", name="Cup 2")
    assert not again.ephemeral


async def test_orders_in_dm_reopens_the_panel(world: World) -> None:
    await start(world)
    result = await world.alice.user.slash("orders")
    assert not result.ephemeral
    assert "Guess the roll" in result.response.content
    # The re-opened panel works like the first one.
    await world.alice.user.select(result.response, ["6"], custom_id=select_id(result.response))
    await world.alice.user.click(result.response, label="Submit")
    assert "Your orders are in" in last_dm(world.alice).content


async def test_orders_in_channel_sends_to_dm(world: World) -> None:
    await start(world)
    count = len(dm_texts(world.alice))
    result = await world.alice.slash(world.chan, "orders")
    assert result.ephemeral and "DM" in result.response.content
    assert len(dm_texts(world.alice)) == count + 1
    assert "Guess the roll" in last_dm(world.alice).content


async def test_orders_autocomplete_lists_my_campaigns(world: World) -> None:
    await start(world)
    choices = await world.alice.user.autocomplete("orders", "campaign", "")
    assert [c["name"] for c in choices] == ["Dice Cup"]
