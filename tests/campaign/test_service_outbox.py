"""The outbox API, pictures on events, closed DMs, and the 2000-character split."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.campaign import CampaignService, OutboxMessage
from bot.campaign.messages import MESSAGE_LIMIT, split
from bot.campaign.outbox import RetryPolicy
from storage import Database
from tests.campaign.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GM,
    FakeClock,
    channel_texts,
    dms_to,
    guess,
    outbox,
    started,
)
from tests.support.examples import examples

PNG = b"\x89PNG\r\n\x1a\n"


async def test_dispatcher_api_pending_sent_retry_failed(
    service: CampaignService, clock: FakeClock, wakes: list[int], db: Database
) -> None:
    await started(service, ALICE, BOB)
    assert wakes  # every commit that queued messages woke the dispatcher
    pending = await service.outbox_pending(100)
    # one message per destination at a time: the channel's oldest, then each DM's
    assert [m.kind for m in pending] == ["channel", "dm", "dm"]
    channel, to_alice, to_bob = pending
    assert to_alice.user_id == ALICE.user_id and to_alice.panel is not None
    assert to_alice.panel.seat == 1
    await service.outbox_sent(channel.id, 1234)
    await service.outbox_retry_later(to_alice.id, "HTTP 503")
    await service.outbox_failed(to_bob.id, "HTTP 403 code 50001")
    left = [m.id for m in await service.outbox_pending(100)]
    assert not {channel.id, to_alice.id, to_bob.id} & set(left)
    clock.advance(1)
    assert to_alice.id in [m.id for m in await service.outbox_pending(100)]


async def _drain_until(service: CampaignService, text: str) -> OutboxMessage:
    """Marks messages sent, as the dispatcher would, until one containing ``text`` is due."""
    for _ in range(50):
        for m in await service.outbox_pending(100):
            if text in m.content:
                return m
            await service.outbox_sent(m.id, None)
    raise AssertionError(f"no message with {text!r}")


async def test_reveal_carries_the_picture_drawn_after_commit(
    service: CampaignService, db: Database
) -> None:
    info = await started(service, ALICE, BOB)
    await service.submit(ALICE, info.id, 1, guess(3))
    await service.submit(BOB, info.id, 1, guess(5))
    reveal = await _drain_until(service, "the die shows")
    # the transaction stored only the request: renderer and view, no PNG
    assert [(p.name, p.ruleset, p.renderer, p.data) for p in reveal.pictures] == [
        ("board.png", "guess", "board", None)]
    files = await service.outbox_files(reveal)
    assert [name for name, _ in files] == ["board.png"] and files[0][1].startswith(PNG)
    stored = await db.fetchall("SELECT view, data FROM outbox_files")
    assert stored and all(r["data"] is None for r in stored)
    await service.outbox_sent(reveal.id, 1)
    gone = await db.fetchone("SELECT COUNT(*) FROM outbox_files WHERE outbox_id = ?",
                             (reveal.id,))
    assert gone is not None and gone[0] == 0  # sent: its picture is on Discord, not here
    logged = await db.fetchall("SELECT audience, seat, kind FROM events WHERE kind != 'start'")
    assert sorted(tuple(r) for r in logged) == [
        ("public", None, "roll"), ("seat", 1, "locked"), ("seat", 2, "locked")]


async def test_closed_dms_stop_dms_and_tell_the_channel_once(
    service: CampaignService, db: Database
) -> None:
    info = await started(service, ALICE, BOB, CAROL)
    await service.dm_closed(ALICE.user_id)
    await service.dm_closed(ALICE.user_id)  # already known: nothing new
    notes = [t for t in channel_texts(await outbox(db)) if "cannot send you direct" in t]
    assert notes == ["Alice: I cannot send you direct messages. Use /orders here to see and "
                     "give your orders."]
    assert all(r.status == "failed" for r in dms_to(await outbox(db), ALICE))
    status = await service.status(CHANNEL, ALICE.user_id)
    assert [s.dm_ok for s in status.seats] == [False, True, True]
    sent_before = len(dms_to(await outbox(db), ALICE))
    for p, n in ((ALICE, 1), (BOB, 2), (CAROL, 3)):
        await service.submit(p, info.id, 1, guess(n))
    assert len(dms_to(await outbox(db), ALICE)) == sent_before  # no more DMs to Alice
    assert len(await service.panels_for(info.id, ALICE.user_id)) == 1  # /orders still works


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.one_of(st.text(alphabet="ab \n", max_size=2500),
                          st.sampled_from([" " * 30, "x" * 1999, "y" * 4001])), max_size=6))
def test_split_fits_discord_and_keeps_every_character(lines: list[str]) -> None:
    text = "\n".join(lines)
    parts = split(text)
    assert all(len(p) <= MESSAGE_LIMIT and p.strip() for p in parts)
    # every visible character survives, in order
    assert "".join("".join(parts).split()) == "".join(text.split())


def test_split_keeps_short_texts_whole_and_cuts_on_lines() -> None:
    assert split("a\n\nb") == ["a\n\nb"]
    assert split("   ") == []
    assert split("a" * 1500 + "\n" + "b" * 1500) == ["a" * 1500, "b" * 1500]


def test_retry_policy_doubles_from_the_base_up_to_the_cap() -> None:
    policy = RetryPolicy(max_attempts=8, base_seconds=10, max_seconds=1800)
    assert [policy.delay(n) for n in range(1, 10)] == [
        10, 20, 40, 80, 160, 320, 640, 1280, 1800]


async def test_retry_later_follows_the_policy_then_gives_up_and_tells_the_gm(
    db: Database, clock: FakeClock, guess_rules: object
) -> None:
    service = CampaignService(db, clock=clock, seed_source=lambda: 1,
                              outbox_policy=RetryPolicy(3, base_seconds=5, max_seconds=7))
    await started(service, ALICE, BOB)
    channel = (await service.outbox_pending(100))[0]
    assert channel.kind == "channel"
    now = clock().timestamp()
    assert await service.outbox_retry_later(channel.id, "HTTP 503") == now + 5
    assert await service.outbox_retry_later(channel.id, "HTTP 503") == now + 7
    assert await service.outbox_retry_later(channel.id, "HTTP 503") is None  # the 3rd try
    rows = await outbox(db)
    failed = next(r for r in rows if r.id == channel.id)
    assert failed.status == "failed" and failed.attempts == 3
    assert "after 3 tries" in (failed.last_error or "")
    [note] = [r for r in rows if r.notice]
    assert note.kind == "dm" and note.user_id == GM.user_id and "could not post" in note.content
    # a notice that fails in turn tells nobody (no chain of notices)
    await service.outbox_failed(note.id, "HTTP 403 code 50007")
    assert len([r for r in await outbox(db) if r.notice]) == 1
