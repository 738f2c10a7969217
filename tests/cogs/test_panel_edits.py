"""DM panels updated, not re-sent (issue 10 item 2; P-1, P-9): an active player's next
request EDITS their panel message; after idle time, for reminders and for a new holder of
the seat it is a new DM; news takes the panel message's place and the panel goes below.

The "relay" rule set (tests/support/relay.py): alice (seat 1) and bob (seat 2) take turns,
every turn a new step."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import discord
import pytest

from bot.campaign.panel_delivery import moved_text
from tests.cogs.conftest import new_bot
from tests.cogs.panel_forgery import assert_refused, forge_dm, panel_parts, press
from tests.cogs.simworld import World, custom_ids, fresh, last_panel
from tests.support import relay

STALE = "This panel is for a step that is over"
HOUR = 3600.0


@pytest.fixture(autouse=True)
def relay_rules() -> Iterator[None]:
    relay.register()
    yield


def dms(w: World, member_name: str) -> list[discord.Message]:
    return list(getattr(w, member_name).user.dm_channel.history())


def dm_patches(w: World, member_name: str) -> list[str]:
    channel = getattr(w, member_name).user.dm_channel.id
    return [r.path for r in w.env.http_requests
            if r.method == "PATCH" and r.path.startswith(f"/channels/{channel}/messages/")]


async def open_relay(w: World, players: tuple[str, ...] = ("alice", "bob")) -> None:
    result = await w.gm.slash(w.chan, "campaign create", ruleset="relay", name="Relay Race")
    assert "Relay Race" in result.response.content
    for name in players:
        await getattr(w, name).slash(w.chan, "campaign join")
    await w.gm.slash(w.chan, "campaign start")
    await w.env.settle()


async def run(w: World, member_name: str, label: str = "Go") -> discord.Message:
    """The member answers their newest panel; returns that panel message."""
    member = getattr(w, member_name)
    panel = last_panel(member)
    await member.user.click(panel, label=label)
    await w.env.settle()
    return panel


async def test_an_active_players_next_request_edits_her_panel(world: World) -> None:
    w = world
    await open_relay(w)
    panel = await run(w, "alice")  # leg 1
    before = len(dms(w, "alice"))
    old_ids = custom_ids(panel)
    await run(w, "bob")  # leg 2: alice's turn again, a moment after she acted
    # no new DM: the same message now shows leg 2, with the new step's buttons
    assert len(dms(w, "alice")) == before
    now = fresh(w.alice, panel)
    assert "Leg 3: your turn." in now.content
    new_ids = custom_ids(now)
    assert new_ids and not set(new_ids) & set(old_ids)
    assert panel_parts(now)[1] > panel_parts(panel)[1]  # a later step
    assert last_panel(w.alice).id == panel.id
    # the old step's ids answer that their step is over (a copy of them, as if kept)
    copy = await forge_dm(w, w.alice.user, old_ids)
    for custom_id in old_ids:
        assert_refused(await press(w.alice.user, copy, custom_id), STALE)
    # the edited panel answers its seat alone (bob is refused), and works for alice
    copy = await forge_dm(w, w.bob.user, new_ids)
    assert_refused(await press(w.bob.user, copy, new_ids[0]))
    await w.alice.user.click(fresh(w.alice, panel), label="Go")
    await w.env.settle()
    assert "alice runs leg 3." in "\n".join(m.content for m in w.chan.history())


async def test_an_idle_player_gets_a_new_dm(world: World) -> None:
    w = world
    await open_relay(w)
    panel = await run(w, "alice")
    await w.env.advance_time(11 * 60)  # the default panel_idle_minutes is 10
    before = len(dms(w, "alice"))
    await run(w, "bob")
    assert len(dms(w, "alice")) == before + 1
    newest = last_panel(w.alice)
    assert newest.id != panel.id and "Leg 3: your turn." in newest.content
    # the old panel kept its own last word; its buttons (the old step) were taken off
    assert not custom_ids(fresh(w.alice, panel))


async def test_a_reminder_is_a_new_dm_and_the_panel_from_then_on(world: World) -> None:
    w = world
    await open_relay(w)
    await run(w, "alice")
    await run(w, "bob")  # alice's leg 3 is an edit of her panel message
    panel = last_panel(w.alice)
    before = len(dms(w, "alice"))
    await w.env.advance_time(36 * HOUR + 1)  # 12 hours before the 48-hour deadline
    assert len(dms(w, "alice")) == before + 1
    reminder = dms(w, "alice")[-1]
    assert reminder.content.startswith("Reminder:") and custom_ids(reminder)
    assert last_panel(w.alice).id == reminder.id
    bob_before = len(dms(w, "bob"))
    await run(w, "alice")  # she answers the reminder: active again
    assert len(dms(w, "bob")) == bob_before + 1  # bob was idle 36 hours: a new DM
    await run(w, "bob")
    # her next request edits the reminder, the message she answered last
    assert "Leg 5: your turn." in fresh(w.alice, reminder).content
    assert len(dms(w, "alice")) == before + 1
    # the message before the reminder says the panel moved and has no buttons left (P-28:
    # never two panels waiting in one player's DMs)
    old = fresh(w.alice, panel)
    assert panel.id != reminder.id and old.content == moved_text("Relay Race")
    assert not custom_ids(old)


async def test_a_restart_between_commit_and_edit_edits_once(
    world: World, db_path: Path
) -> None:
    w = world
    await open_relay(w)
    panel = await run(w, "alice")
    loops = w.env.bot.get_cog("Loops")
    assert loops is not None
    await loops.stop()  # type: ignore[attr-defined]  # the bot goes down after the commit
    bob = next(m for m in dms(w, "bob") if custom_ids(m))
    cid, step, seat = panel_parts(bob)
    service = w.env.bot.service  # type: ignore[attr-defined]
    from bot.campaign import Actor

    await service.submit(Actor(w.bob.user.id, "bob"), cid, step, {"type": "go"}, seat=seat)
    patched = len(dm_patches(w, "alice"))
    await w.env.restart_bot(new_bot(db_path))
    await w.env.settle()
    await w.env.advance_time(5)
    assert "Leg 3: your turn." in fresh(w.alice, panel).content
    assert len(dm_patches(w, "alice")) == patched + 1  # once, not again after the restart
    await w.env.restart_bot(new_bot(db_path))
    await w.env.settle()
    assert len(dm_patches(w, "alice")) == patched + 1
    assert custom_ids(fresh(w.alice, panel))


async def test_a_deleted_panel_message_is_posted_anew(world: World) -> None:
    w = world
    await open_relay(w)
    panel = await run(w, "alice")
    channel = w.alice.user.dm_channel.id
    w.env.inject_error("PATCH", f"/channels/{channel}/messages/{panel.id}", status=404,
                       code=10008, message="Unknown Message", times=None)
    before = len(dms(w, "alice"))
    await run(w, "bob")
    assert len(dms(w, "alice")) == before + 1
    again = last_panel(w.alice)
    assert again.id != panel.id and "Leg 3: your turn." in again.content
    # later versions edit the new message
    await run(w, "alice")
    await run(w, "bob")
    assert len(dms(w, "alice")) == before + 1
    assert "Leg 5: your turn." in fresh(w.alice, again).content


async def test_replace_gives_the_new_holder_a_fresh_dm(world: World) -> None:
    w = world
    await open_relay(w)
    await run(w, "alice")
    await run(w, "bob")  # alice, active, has leg 3 in her panel message
    panel = last_panel(w.alice)
    result = await w.gm.slash(w.chan, "gm replace", old=w.alice, new=w.carol)
    assert "takes over" in result.response.content
    await w.env.settle()
    handed = fresh(w.alice, panel)
    assert "handed to another player" in handed.content and not custom_ids(handed)
    assert "Leg" not in handed.content and relay.TIP not in handed.content
    fresh_dm = last_panel(w.carol)
    assert "you now hold seat 1" in fresh_dm.content
    await run(w, "carol")
    await run(w, "bob")
    # carol acted just now: her next request edits her own panel message, never alice's
    assert "Leg 5: your turn." in fresh(w.carol, fresh_dm).content
    assert "handed to another player" in fresh(w.alice, panel).content


async def test_news_takes_the_panel_message_and_the_panel_goes_below(world: World) -> None:
    """P-9: bob, active, is tipped off: his panel message (done with) becomes the news and
    has no buttons, so no click can rewrite it; his next panel is a new DM just below."""
    w = world
    await open_relay(w)
    await run(w, "alice")
    bob_panel = await run(w, "bob")
    before = len(dms(w, "bob"))
    await run(w, "alice", label="Tip")
    messages = dms(w, "bob")
    assert len(messages) == before + 1  # one new DM: the panel; the news took the old one
    news = fresh(w.bob, bob_panel)
    assert news.content == relay.TIP and not custom_ids(news)
    panel = messages[-1]
    assert custom_ids(panel) and "Leg 4: your turn." in panel.content
    assert [m.id for m in messages].index(news.id) == len(messages) - 2  # right above it
    # a click on the new panel leaves the news as it is
    await run(w, "bob")
    assert fresh(w.bob, bob_panel).content == relay.TIP


async def test_news_for_an_idle_player_is_its_own_dm_above_the_panel(world: World) -> None:
    w = world
    await open_relay(w)
    alice_panel = await run(w, "alice", label="Tip")  # bob has never acted: idle
    messages = dms(w, "bob")
    assert messages[-2].content == relay.TIP and not custom_ids(messages[-2])
    assert custom_ids(messages[-1]) and "Leg 2: your turn." in messages[-1].content
    assert relay.TIP not in "\n".join(m.content for m in dms(w, "alice"))
    assert relay.TIP not in "\n".join(m.content for m in w.chan.history())
    assert alice_panel.id not in {m.id for m in messages}
