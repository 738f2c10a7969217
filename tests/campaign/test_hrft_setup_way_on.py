"""H-D38 through the service: an HRFT battle's setup never stays stuck. A side that added
no ships has no default, so at the deadline the step waits and the GM's one DM names the
way on; /gm advance keeps that side out and the battle goes on (here: it is over). A side
with ships that never said Ready is ready at the deadline."""

from __future__ import annotations

import pytest

from bot.campaign import CampaignService
from storage import Database
from storage import campaigns as campaign_rows
from tests.campaign.conftest import (
    ALICE,
    BOB,
    CHANNEL,
    GM,
    GUILD,
    FakeClock,
    channel_texts,
    dms_to,
    outbox,
)
from tests.support.demos import Demos


async def _battle(service: CampaignService) -> int:
    info = await service.create(GM, GUILD, CHANNEL, "hrft", "Skirmish")
    for p in (ALICE, BOB):
        await service.join(p, CHANNEL)
    await service.settings(GM, CHANNEL, {"reminders": "none"})
    info = await service.start(GM, CHANNEL)
    return info.id


async def _add(service: CampaignService, campaign_id: int, who, sample: str) -> None:  # type: ignore[no-untyped-def]
    status = await service.status(CHANNEL, who.user_id)
    await service.submit(who, campaign_id, status.step_no,
                         {"type": "add_sample", "sample": sample})


async def test_hd38_a_side_without_ships_waits_for_the_gm_who_is_told_the_way_on(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    campaign_id = await _battle(service)
    await _add(service, campaign_id, ALICE, "vanguard")
    step = (await service.status(CHANNEL, ALICE.user_id)).step_no
    await service.submit(ALICE, campaign_id, step, {"type": "ready"})
    clock.advance(48)
    assert await service.run_due() == 1
    row = await campaign_rows.get(db, campaign_id)
    assert row is not None and row.status == "running"  # no side is dropped by itself
    note = dms_to(await outbox(db), GM)[-1].content
    assert "Bob has no default to take, so the step waits." in note
    assert ("/gm advance moves the game on now: for Bob it takes “Stay out of this battle "
            "(no ships)”.") in note
    await service.gm_advance(GM, CHANNEL)
    row = await campaign_rows.get(db, campaign_id)
    assert row is not None and row.status == "ended"
    channel = "\n".join(channel_texts(await outbox(db)))
    # P-30: the default in one line, from the rule set's own event
    assert ("Bob missed the deadline and by default stays out of this battle: their side has "
            "no ships.") in channel
    assert "only Alice has ships fighting" in channel


async def test_hd38_sides_with_ships_are_ready_at_the_deadline(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    campaign_id = await _battle(service)
    await _add(service, campaign_id, ALICE, "vanguard")
    await _add(service, campaign_id, BOB, "kestrel")
    clock.advance(48)
    assert await service.run_due() == 1
    row = await campaign_rows.get(db, campaign_id)
    assert row is not None and row.state["step"] == "orders" and row.state["turn"] == 1
    channel = "\n".join(channel_texts(await outbox(db)))
    assert "Alice missed the deadline: ready by default." in channel
    assert "Bob missed the deadline: ready by default." in channel


@pytest.mark.slow
async def test_hd38_the_demo_with_an_absent_side_ends_through_the_gms_advance(
    demos: Demos,
) -> None:
    """`python -m bot demo hrft --absent 2`: Bob never adds ships; the scripted GM does what
    the deadline's DM says and the battle ends instead of stopping at setup."""
    played = await demos.play("hrft", seed=1, absent={2})
    result, out = played.result, played.folder
    assert result.finished and result.gm_advances == 1
    assert "/gm advance moves the game on now" in (out / "gm.md").read_text()
    assert "The GM moved the game on 1 time (/gm advance)." in result.summary()
    assert "by default stays out of this battle" in (out / "channel.md").read_text()
