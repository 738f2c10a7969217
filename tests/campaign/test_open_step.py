"""An open step that seats leave one by one (HRFT's "ready"): the others keep their panel,
step number and deadline, and get no new DM."""

from __future__ import annotations

from bot.campaign import CampaignService
from storage import Database
from tests.campaign.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GM,
    GUILD,
    channel_texts,
    dms_to,
    outbox,
)
from tests.support import council


async def test_a_seat_saying_ready_does_not_reopen_the_step_for_the_others(
    service: CampaignService, db: Database
) -> None:
    council.register()
    await service.create(GM, GUILD, CHANNEL, "council", "Moot")
    for p in (ALICE, BOB, CAROL):
        await service.join(p, CHANNEL)
    info = await service.start(GM, CHANNEL)
    bob_dms = len(dms_to(await outbox(db), BOB))
    assert bob_dms == 1  # the panel of step 1

    await service.submit(ALICE, info.id, 1, {"type": "speak"})
    await service.submit(ALICE, info.id, 1, {"type": "ready"})
    # Bob's and Carol's panels of step 1 still work; no new DM for them.
    assert len(dms_to(await outbox(db), BOB)) == bob_dms
    assert (await service.panel(info.id, 1, 2)).request.step == "talk"
    await service.submit(BOB, info.id, 1, {"type": "ready"})
    assert len(dms_to(await outbox(db), CAROL)) == 1
    await service.submit(CAROL, info.id, 1, {"type": "ready"})
    assert any("The campaign is over." in t for t in channel_texts(await outbox(db)))
    alice = [r.content for r in dms_to(await outbox(db), ALICE)]
    assert "You spoke." in alice
