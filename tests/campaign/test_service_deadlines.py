"""Deadlines and reminders on a fake clock: once each, only to those who owe, moved by the
GM, frozen by a pause, and exactly once across a restart."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.campaign import CampaignService
from bot.errors import InvalidInput, InvalidState, PermissionDenied
from storage import Database, open_database
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
    latest,
    outbox,
    started,
)


def reminders(rows: list, actor: object) -> list[str]:  # type: ignore[type-arg]
    return [r.content for r in dms_to(rows, actor) if r.content.startswith("Reminder")]  # type: ignore[arg-type]


async def test_reminders_once_per_offset_only_to_those_who_owe_then_defaults(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    info = await started(service, ALICE, BOB, CAROL)
    assert await service.next_wakeup() == clock.now + timedelta(hours=36)
    await service.submit(ALICE, info.id, 1, guess(4))
    clock.advance(36)
    assert await service.run_due() == 1
    assert await service.run_due() == 0
    rows = await outbox(db)
    assert reminders(rows, ALICE) == []
    assert len(reminders(rows, BOB)) == len(reminders(rows, CAROL)) == 1
    # the reminder carries the panel; the panel message it replaces says so (P-28: never
    # two panels waiting unanswered in one player's DMs)
    bob = dms_to(rows, BOB)
    assert bob[-1].panel == (info.id, 1, 2) and bob[-1].edit_of is None
    [moved] = [r for r in bob if r.edit_of == bob[0].id]
    assert moved.panel is None and moved.id < bob[-1].id  # said first: never two panels
    clock.advance(11)
    assert await service.run_due() == 1
    clock.advance(1)
    assert await service.run_due() == 1  # the deadline: Bob and Carol take the default "1"
    rows = await outbox(db)
    assert len(reminders(rows, BOB)) == 2 and reminders(rows, ALICE) == []
    assert "Guesses: Alice 4, Bob 1, Carol 1" in latest(rows)
    assert await service.run_due() == 0
    status = await service.status(CHANNEL, ALICE.user_id)
    assert status.step_no == 2 and status.deadline == clock.now + timedelta(hours=48)


async def test_due_work_fires_once_after_a_restart(
    db: Database, db_path: Path, clock: FakeClock, guess_rules: object
) -> None:
    first = CampaignService(db, clock=clock, seed_source=lambda: 7)
    info = await started(first, ALICE, BOB)
    clock.advance(100)  # the bot was down through both reminders and the deadline
    reopened = await open_database(db_path)
    try:
        second = CampaignService(reopened, clock=clock)
        # the deadline fires once; the reminders before it are marked done unsent: a
        # reminder for a deadline that has itself passed is only noise
        assert await second.run_due() == 1
        assert await first.run_due() == 0
        assert await second.run_due() == 0
        rows = await outbox(reopened)
        reveals = [t for t in channel_texts(rows) if "the die shows" in t]
        assert len(reveals) == 1
        assert reminders(rows, BOB) == []
        # the old service's cached copy is stale; its next write reloads and still works
        assert (await first.submit(ALICE, info.id, 2, {"type": "pass"})).resolved
    finally:
        await reopened.close()


async def test_extend_moves_the_deadline_and_rearms_reminders(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    await started(service, ALICE, BOB)
    clock.advance(37)
    assert await service.run_due() == 1  # the 12 h reminder
    with pytest.raises(PermissionDenied):
        await service.gm_extend(ALICE, CHANNEL, 24)
    with pytest.raises(InvalidInput):
        await service.gm_extend(GM, CHANNEL, 0)
    await service.gm_extend(GM, CHANNEL, 24)  # deadline now 35 h away
    assert "moved the deadline" in channel_texts(await outbox(db))[-1]
    assert await service.next_wakeup() == clock.now + timedelta(hours=23)
    clock.advance(23)
    assert await service.run_due() == 1  # the 12 h reminder again, for the new deadline
    assert len(reminders(await outbox(db), BOB)) == 2


async def test_shortening_sends_only_the_nearest_missed_reminder(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    await started(service, ALICE, BOB, reminders="24,12,1")
    await service.gm_extend(GM, CHANNEL, -40)  # deadline 8 h away: 24 h and 12 h are past
    assert await service.run_due() == 1
    assert len(reminders(await outbox(db), BOB)) == 1
    assert await service.next_wakeup() == clock.now + timedelta(hours=7)
    with pytest.raises(InvalidInput, match="past"):
        await service.gm_extend(GM, CHANNEL, -9)


async def test_pause_freezes_the_remaining_time_and_resume_restores_it(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    info = await started(service, ALICE, BOB)
    clock.advance(10)
    await service.gm_pause(GM, CHANNEL)
    with pytest.raises(InvalidState, match="paused"):
        await service.gm_pause(GM, CHANNEL)
    with pytest.raises(InvalidState, match="paused"):
        await service.submit(ALICE, info.id, 1, guess(2))
    assert (await service.status(CHANNEL, ALICE.user_id)).paused
    assert await service.next_wakeup() is None
    clock.advance(500)
    assert await service.run_due() == 0
    await service.gm_resume(GM, CHANNEL)
    status = await service.status(CHANNEL, ALICE.user_id)
    assert status.deadline == clock.now + timedelta(hours=38) and not status.paused
    assert await service.next_wakeup() == clock.now + timedelta(hours=26)
    with pytest.raises(InvalidState):
        await service.gm_resume(GM, CHANNEL)


async def test_policy_wait_tells_the_gm_and_waits(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    await started(service, ALICE, BOB, on_deadline="wait", reminders="none")
    clock.advance(48)
    assert await service.run_due() == 1
    note = dms_to(await outbox(db), GM)[-1].content
    assert "still waiting for Alice, Bob" in note and "/gm advance" in note
    assert (await service.status(CHANNEL, ALICE.user_id)).step_no == 1
    await service.gm_advance(GM, CHANNEL)
    assert (await service.status(CHANNEL, ALICE.user_id)).step_no == 2


async def test_a_request_without_default_is_reported_to_the_gm(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    info = await started(service, ALICE, BOB, defaults="false", reminders="none")
    await service.submit(ALICE, info.id, 1, guess(2))
    clock.advance(48)
    assert await service.run_due() == 1
    assert "Bob has no default" in dms_to(await outbox(db), GM)[-1].content
    with pytest.raises(InvalidState, match="No default exists for Bob"):
        await service.gm_advance(GM, CHANNEL)
    assert (await service.submit(BOB, info.id, 1, guess(3))).resolved  # late input still counts


async def test_no_deadline_when_step_hours_is_zero(
    service: CampaignService, clock: FakeClock
) -> None:
    await started(service, ALICE, BOB, step_hours="0")
    assert await service.next_wakeup() is None
    assert (await service.status(CHANNEL, ALICE.user_id)).deadline is None
    await service.gm_extend(GM, CHANNEL, 5)  # gives the step a deadline
    assert await service.next_wakeup() == clock.now  # the 12 h reminder, at once
    assert await service.run_due() == 1
    assert await service.next_wakeup() == clock.now + timedelta(hours=4)
