"""The step tracker in Discord (issue 10.1, 10.3): one public message per step, posted when
it opens and edited as players act; who is owed is mentioned in the post that notifies; the
deadline in absolute and relative time; defaults said in public; an edit of a deleted
message posts it anew; no stale reminders after the bot was down past a deadline."""

from __future__ import annotations

import re
from pathlib import Path

import discord
import simcord

from tests.cogs.conftest import new_bot
from tests.cogs.simworld import World, dm_texts, texts
from tests.cogs.test_cog_lifecycle import guess, start

DEADLINE = re.compile(r"deadline <t:(\d+):f> \(<t:\1:R>\)")


def tracker_now(w: World, message_id: int) -> discord.Message:
    return next(m for m in w.chan.history() if m.id == message_id)


def patches(env: simcord.Env, channel_id: int) -> list[str]:
    return [r.path for r in env.http_requests
            if r.method == "PATCH" and r.path.startswith(f"/channels/{channel_id}/messages/")]


async def test_one_post_per_step_edited_as_players_act(world: World) -> None:
    w = world
    await start(w)
    await w.env.settle()
    opening = w.chan.history()[-1]
    alice, bob = f"<@{w.alice.user.id}>", f"<@{w.bob.user.id}>"
    # the post that notifies mentions everyone owed, and the deadline both ways
    assert opening.content.startswith("**Dice Cup**: Guess")
    assert f"Waiting for {alice}, {bob}; deadline <t:" in opening.content
    due = int(DEADLINE.search(opening.content).group(1))  # type: ignore[union-attr]
    assert 47 * 3600 < due - discord.utils.utcnow().timestamp() <= 48 * 3600
    assert "**Dice Cup** begins" in opening.content  # the start is its first line
    posts = len(w.chan.history())

    await guess(w, "alice", "3")
    await w.env.settle()
    # no new post: the same message now says alice is in (names only), bob is owed
    assert len(w.chan.history()) == posts
    now = tracker_now(w, opening.id).content
    assert "Acted: alice." in now and f"Waiting for {bob}" in now and alice not in now
    assert "3" not in now.split("\n", 3)[2]  # her guess stays sealed
    assert patches(w.env, w.chan.id) == [f"/channels/{w.chan.id}/messages/{opening.id}"]

    await guess(w, "bob", "4")
    await w.env.settle()
    # the reveal is a post of its own, then the next step's tracker mentions alice
    reveal, nxt = w.chan.history()[posts:]
    assert "Guesses: alice 3, bob 4" in reveal.content
    assert nxt.content.startswith("**Dice Cup**: Bank") and f"Waiting for {alice}" in nxt.content
    closed = tracker_now(w, opening.id).content
    assert "Acted: alice, bob." in closed and "Waiting" not in closed
    assert not DEADLINE.search(closed)  # a closed step has no deadline any more


async def test_an_edit_of_a_deleted_tracker_posts_it_anew(world: World) -> None:
    w = world
    await start(w)
    await w.env.settle()
    opening = w.chan.history()[-1]
    posts = len(w.chan.history())
    w.env.inject_error("PATCH", f"/channels/{w.chan.id}/messages/{opening.id}", status=404,
                       code=10008, message="Unknown Message", times=None)
    await guess(w, "alice", "3")
    await w.env.settle()
    # the tracker came back as a new message with the latest content
    assert len(w.chan.history()) == posts + 1
    again = w.chan.history()[-1]
    assert "Acted: alice." in again.content and "Waiting for" in again.content
    await guess(w, "bob", "4")
    await w.env.settle()
    # later versions edit the new message, never the lost one again
    assert patches(w.env, w.chan.id).count(
        f"/channels/{w.chan.id}/messages/{again.id}") == 1
    assert "Acted: alice, bob." in tracker_now(w, again.id).content


async def test_a_missed_deadline_is_said_and_the_gm_is_told(world: World) -> None:
    w = world
    await start(w)
    await w.env.settle()
    opening = w.chan.history()[-1]
    await guess(w, "alice", "3")
    await w.env.advance_time(48 * 3600 + 5)
    await w.env.settle()
    closed = tracker_now(w, opening.id).content
    assert "bob missed the deadline: default orders were used." in closed
    assert "alice missed" not in closed
    gm = [t for t in dm_texts(w.gm) if "missed the deadline" in t]
    assert gm == ["**Dice Cup**, Guess. The deadline passed.\n"
                  "bob missed the deadline; the default was taken: Your guess: 1."]


async def test_no_stale_reminders_after_downtime_past_the_deadline(
    world: World, db_path: Path
) -> None:
    w = world
    await start(w)
    await w.env.settle()
    reminders_before = [t for m in (w.alice, w.bob) for t in dm_texts(m) if "Reminder" in t]
    assert reminders_before == []
    loops = w.env.bot.get_cog("Loops")
    assert loops is not None
    await loops.stop()  # type: ignore[attr-defined]  # the bot is down ...
    await w.env.advance_time(50 * 3600)  # ... through both reminders and the deadline
    await w.env.restart_bot(new_bot(db_path))
    await w.env.settle()
    await w.env.advance_time(60)
    # the deadline took the defaults; the reminders for it were not sent afterwards
    assert not [t for m in (w.alice, w.bob) for t in dm_texts(m) if "Reminder" in t]
    assert any("Guesses: alice 1, bob 1" in t for t in texts(w.chan))
    assert [t for t in dm_texts(w.gm) if "missed the deadline" in t] == [
        "**Dice Cup**, Guess. The deadline passed.\n"
        "alice missed the deadline; the default was taken: Your guess: 1.\n"
        "bob missed the deadline; the default was taken: Your guess: 1."]
