"""A campaign's battle opened in a thread needs a campaign that is being played (O-D18): a
paused or ended Orbits campaign is refused with the reason and nothing is created. A due
timer of a campaign that is not running is frozen or closed, so the scheduler does not wake
for it again and again. A battle reference is bounded before any rule set reads it."""

from __future__ import annotations

import pytest

from bot.campaign import CampaignService
from bot.errors import InvalidInput, InvalidState
from storage import Database, timers
from storage import campaigns as campaign_rows
from tests.campaign.conftest import GM, GUILD, FakeClock
from tests.campaign.test_orbits_war_loop import PARENT_CHANNEL, THREAD, parent


async def no_thread_campaign(db: Database) -> bool:
    return await campaign_rows.id_in_channel(db, THREAD) is None


async def test_a_paused_campaign_opens_no_battle_thread(service: CampaignService,
                                                         db: Database) -> None:
    pid = await parent(service)
    await service.gm_pause(GM, PARENT_CHANNEL)
    before = await campaign_rows.get(db, pid)
    with pytest.raises(InvalidState, match="paused: resume it"):
        await service.open_battle(GM, GUILD, THREAD, "Battle", pid, "orbit 1")
    after = await campaign_rows.get(db, pid)
    assert await no_thread_campaign(db)
    assert after.state == before.state and after.step_no == before.step_no
    assert not [d for d in await timers.due_deadlines(db, 1e12) if d[0] == pid]


async def test_an_ended_campaign_opens_no_battle_thread(service: CampaignService,
                                                        db: Database) -> None:
    pid = await parent(service)
    await service.end(GM, PARENT_CHANNEL, "the group stops here")
    with pytest.raises(InvalidState, match="is over"):
        await service.open_battle(GM, GUILD, THREAD, "Battle", pid, "orbit 1")
    assert await no_thread_campaign(db)
    assert not [d for d in await timers.due_deadlines(db, 1e12) if d[0] == pid]


async def test_a_due_timer_of_a_paused_campaign_is_frozen_not_left_due(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    pid = await parent(service)
    row = await campaign_rows.get(db, pid)
    async with db.transaction() as tx:  # as if a result came in while paused, before the fix
        await tx.execute("UPDATE campaigns SET status = 'paused' WHERE id = ?", (pid,))
    service._cache.pop(pid, None)
    clock.advance(24 * 30)  # past the deadline of the open step
    assert (pid, row.step_no) in await timers.due_deadlines(db, clock())
    assert await service.run_due() == 0
    assert await timers.due_deadlines(db, clock()) == []
    assert await service.next_wakeup() is None  # nothing left to wake for
    await service.gm_resume(GM, PARENT_CHANNEL)  # and the frozen time comes back
    assert await service.next_wakeup() is not None


async def test_a_battle_reference_is_bounded(service: CampaignService, db: Database) -> None:
    pid = await parent(service)
    with pytest.raises(InvalidInput, match="at most 100 characters"):
        await service.open_battle(GM, GUILD, THREAD, "Battle", pid, "orbit 1 turn " + "9" * 5000)
    assert await no_thread_campaign(db)
