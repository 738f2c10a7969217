"""Every message exactly once (issue 16.2, P-33): outbox ids are never reused, so a tracker
edit that supersedes the one being sent is still delivered; a crash between Discord's reply
and the sent-mark posts nothing twice (the stored nonce); an overlong message resumes at
its next piece after a restart (its progress is stored, not held in memory)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest

from bot.campaign import Actor
from cogs.background_loops import EXTRA_COPY
from storage import outbox as outbox_repo
from tests.cogs.conftest import new_bot
from tests.cogs.discord_nonce import honour_nonces
from tests.cogs.simworld import (
    World,
    custom_ids,
    fresh,
    last_panel,
    post_in_two_pieces_failing_the_second,
    texts,
)
from tests.cogs.test_cog_lifecycle import guess, start


class Killed(BaseException):
    """The process dies here (nothing after it runs; the bot is restarted)."""


def channel_posts(w: World) -> list[Any]:
    return [r for r in w.env.http_requests
            if r.method == "POST" and r.path == f"/channels/{w.chan.id}/messages"]


async def test_a_newer_tracker_edit_made_while_the_older_is_sent_is_delivered(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob acts while Alice's tracker edit is on its way to Discord: his edit supersedes
    hers in the outbox. Before 008 it took her row's id and her sent-mark marked it sent, so
    the tracker kept "Waiting for bob" for good."""
    w = world
    await start(w)
    await w.env.settle()
    opening = w.chan.history()[-1]
    service = w.env.bot.service
    campaign_id = await service.campaign_in_channel(w.chan.id)
    real_edit = discord.PartialMessage.edit
    raced: list[str] = []

    async def edit_while_bob_acts(self: Any, **kwargs: Any) -> Any:
        edited = await real_edit(self, **kwargs)
        if not raced and "Acted: alice." in (kwargs.get("content") or ""):
            raced.append(kwargs["content"])
            # the tracker's pending edit is the one just sent: the newest row of the outbox
            rows = await outbox_repo.all_rows(service.db)
            assert rows[-1].status == "pending" and rows[-1].edit_of is not None
            step_no = (await service.snapshot(campaign_id)).row.step_no
            await service.submit(Actor(w.bob.id, "bob"), campaign_id, step_no,
                                 {"type": "guess", "number": "4"})
        return edited

    monkeypatch.setattr(discord.PartialMessage, "edit", edit_while_bob_acts)
    await guess(w, "alice", "3")
    await w.env.settle()
    assert raced, "the race did not happen"
    final = next(m for m in w.chan.history() if m.id == opening.id).content
    assert "Acted: alice, bob." in final and "Waiting" not in final
    ids = [r.id for r in await outbox_repo.all_rows(service.db)]
    assert len(ids) == len(set(ids))


async def test_a_crash_between_discords_reply_and_the_sent_mark_posts_nothing_twice(
    world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reveal reaches Discord, then the bot dies before it records that. After the
    restart the dispatcher sends it again with the nonce stored with its row, and Discord
    answers with the message it already made."""
    nonces = honour_nonces(monkeypatch)
    w = world
    await start(w)
    await w.env.settle()
    service = w.env.bot.service
    real_sent = service.outbox_sent
    killed: list[int] = []

    async def die_after_the_reveal(outbox_id: int, *args: Any) -> bool:
        row = await outbox_repo.get(service.db, outbox_id)
        if not killed and row is not None and "Guesses:" in row.content:
            killed.append(outbox_id)
            raise Killed
        return await real_sent(outbox_id, *args)

    monkeypatch.setattr(service, "outbox_sent", die_after_the_reveal)
    w.expect_bug("Killed")
    await guess(w, "alice", "3")
    await guess(w, "bob", "4")
    await w.env.settle()
    assert killed
    assert sum("Guesses:" in t for t in texts(w.chan)) == 1
    row = await outbox_repo.get(service.db, killed[0])
    assert row is not None and row.status == "pending"  # its sent-mark never happened

    await w.env.restart_bot(new_bot(db_path))
    await w.env.settle()
    assert sum("Guesses:" in t for t in texts(w.chan)) == 1  # posted once, not twice
    row = await outbox_repo.get(w.env.bot.service.db, killed[0])
    assert row is not None and row.status == "sent"
    # the retry carried the first try's nonce, and Discord answered with the first post
    repeated = [n for _c, n, again in nonces if again]
    assert repeated == [f"{row.nonce}.0"]
    assert row.discord_message_id == next(
        m.id for m in w.chan.history() if "Guesses:" in m.content)


async def test_an_overlong_message_goes_on_at_its_next_piece_after_a_restart(
    world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord takes the first piece and refuses the second; the bot restarts before the
    retry. The progress is in the database, so the new process posts the second piece only."""
    w = world
    await start(w)
    await w.env.settle()
    first, second = await post_in_two_pieces_failing_the_second(w, monkeypatch)
    await w.env.settle()
    assert texts(w.chan).count(first) == 1 and second not in texts(w.chan)

    await w.env.restart_bot(new_bot(db_path))
    await w.env.advance_time(600)
    assert texts(w.chan).count(first) == 1 and texts(w.chan).count(second) == 1


async def test_a_panel_dm_posted_twice_anyway_loses_the_extra_copys_buttons(
    world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Beyond Discord's nonce window (no nonce check here) the interrupted panel DM goes out
    again after the restart; the copy the first try left loses its buttons and says where
    the panel is, and the recorded copy is the panel."""
    w = world
    real_sent: list[Any] = []
    killed: list[int] = []

    async def die_after_alices_panel(outbox_id: int, *args: Any) -> bool:
        row = await outbox_repo.get(w.env.bot.service.db, outbox_id)
        if (not killed and row is not None and row.panel is not None
                and row.user_id == w.alice.id):
            killed.append(outbox_id)
            raise Killed
        return await real_sent[0](outbox_id, *args)

    real_sent.append(w.env.bot.service.outbox_sent)
    monkeypatch.setattr(w.env.bot.service, "outbox_sent", die_after_alices_panel)
    w.expect_bug("Killed")
    await start(w)
    await w.env.settle()
    assert killed
    first = last_panel(w.alice)
    orders = await w.alice.user.slash("orders")  # a panel reply of its own, kept

    await w.env.restart_bot(new_bot(db_path))
    await w.env.settle()
    extra = fresh(w.alice, first)
    assert extra.content == EXTRA_COPY and not custom_ids(extra)
    panels = [m for m in w.alice.user.dm_channel.history() if custom_ids(m)]
    assert panels[-1].id != first.id and panels[-1].content == first.content
    # the /orders reply is a panel no outbox row posted: it is not mistaken for a copy
    reply = next(m for m in w.alice.user.dm_channel.history() if m.id == orders.response.id)
    assert custom_ids(reply) and reply.content != EXTRA_COPY
    await guess(w, "alice", "3")
    await guess(w, "bob", "4")
    await w.env.settle()
    assert sum("Guesses:" in t for t in texts(w.chan)) == 1
