"""The tracker of a game turn (Orbits: transit and deployment of one turn share one
message): a seat whose turn starts in it is notified by its new DM panel, or, with its DMs
closed, by a short post with the mention (a mention in an edit notifies nobody)."""

from __future__ import annotations

import pytest

from bot.campaign import CampaignService
from bot.campaign import tracker as tracker_module
from storage import Database
from storage import outbox as repo
from tests.campaign.conftest import ALICE, BOB, CHANNEL, GM, GUILD, channel_texts, outbox


async def orbits(service: CampaignService) -> int:
    await service.create(GM, GUILD, CHANNEL, "orbits", "Sol")
    for p in (ALICE, BOB):
        await service.join(p, CHANNEL)
    return (await service.start(GM, CHANNEL)).id


async def whose_turn(service: CampaignService) -> tuple[int, int]:
    status = await service.status(CHANNEL, GM.user_id)
    return (1 if status.pending == ["Alice"] else 2), status.step_no


async def test_turn_steps_share_one_tracker_and_a_dm_less_seat_gets_a_mention(
    service: CampaignService, db: Database
) -> None:
    campaign_id = await orbits(service)
    first, step = await whose_turn(service)
    other = 3 - first
    actor, waiting = (ALICE, BOB) if first == 1 else (BOB, ALICE)
    await service.dm_closed(waiting.user_id)
    before = await outbox(db)
    tracker = await repo.tracker(db, campaign_id)
    assert tracker is not None and tracker.key == "turn-1"
    await service.submit(actor, campaign_id, step, {"type": "pass"})
    new = [r for r in await outbox(db) if r.id > max(r.id for r in before)]
    posts = [r.content for r in new if r.kind == "channel" and not r.edit_of]
    # the same tracker is edited; the seat without DMs is told by a short post that
    # mentions it (the mention in the edit would notify nobody)
    assert (await repo.tracker(db, campaign_id)).outbox_id == tracker.outbox_id  # type: ignore[union-attr]
    assert posts == [f"<@{waiting.user_id}>: your turn in **Sol** (Turn 1: transit). Use "
                     "/orders here."]
    # it pings that player and nobody else (P-34)
    assert [r.mentions for r in new if r.kind == "channel" and not r.edit_of] == [
        [waiting.user_id]]
    assert await whose_turn(service) == (other, step + 1)
    final = channel_texts(await outbox(db))
    [turn_tracker] = [t for t in final if t.startswith("**Sol**: Turn 1")]
    assert f"Waiting for <@{waiting.user_id}>" in turn_tracker
    assert f"{actor.name} passes." in turn_tracker
    assert "step" not in turn_tracker.lower().replace("steps", "")


async def test_a_full_tracker_goes_on_in_a_new_message_and_loses_no_line(
    service: CampaignService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tracker_module, "TRACKER_LIMIT", 200)
    campaign_id = await orbits(service)
    for _ in range(12):  # everyone passes: transit, deployment, the next turn
        seat, step = await whose_turn(service)
        await service.submit(ALICE if seat == 1 else BOB, campaign_id, step, {"type": "pass"})
    texts = channel_texts(await outbox(db))
    trackers = [t for t in texts if t.startswith("**Sol**: Turn 1")]
    assert len(trackers) >= 2 and all(len(t.split("\n\n", 1)[-1]) <= 200 for t in trackers)
    # every public line of the log is in some channel message (a result: as its embed,
    # whose title is the line)
    public = [e.text for e in await service.gm_log(GM, CHANNEL, limit=200)
              if e.audience == "public"]
    joined = "\n".join(texts)
    assert public and all(line in joined or f"**{line.rstrip('.')}**" in joined
                          for line in public)
