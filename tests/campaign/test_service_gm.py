"""GM tools: advance, undo (replayable), log, kick, replace; refusals for non-GMs."""

from __future__ import annotations

import pytest

from bot.campaign import Actor, CampaignService
from bot.errors import InvalidState, NotFound, PermissionDenied
from storage import Database
from tests.campaign.conftest import (
    ADMIN,
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    GM,
    FakeClock,
    channel_texts,
    dms_to,
    guess,
    latest,
    outbox,
    started,
)


def reveal_of(texts: list[str]) -> str:
    return [t for t in texts if "the die shows" in t][-1].split("\n")[0]


async def state_of(db: Database) -> str:
    row = await db.fetchone("SELECT state FROM campaigns")
    assert row is not None
    return str(row[0])


@pytest.mark.parametrize("tool", ["gm_pause", "gm_resume", "gm_advance", "gm_undo"])
async def test_gm_tools_refuse_players(service: CampaignService, tool: str) -> None:
    await started(service, ALICE, BOB)
    with pytest.raises(PermissionDenied, match="Only the GM"):
        await getattr(service, tool)(ALICE, CHANNEL)


async def test_undo_restores_state_and_orders_and_replays_the_same_result(
    service: CampaignService, db: Database
) -> None:
    info = await started(service, ALICE, BOB)
    before = await state_of(db)
    await service.submit(ALICE, info.id, 1, guess(3))
    await service.submit(BOB, info.id, 1, guess(5))
    first = reveal_of(channel_texts(await outbox(db)))
    after_first = await state_of(db)
    await service.gm_undo(GM, CHANNEL)
    assert await state_of(db) == before
    notice = channel_texts(await outbox(db))[-2]  # then the re-opened step's tracker
    assert "the GM undid the last result" in notice
    # both orders are back in before anything is said, and the notice says so (names only)
    assert "Kept: the orders Alice and Bob had given then are back in" in notice
    assert "Waiting for orders from" not in notice and "3" not in notice.split("(it began")[0]
    status = await service.status(CHANNEL, ALICE.user_id)
    assert status.step_no == 3 and status.pending == []  # all orders are back in
    assert (await service.panel(info.id, 3, 1)).submitted == guess(3)
    with pytest.raises(InvalidState, match="is over"):
        await service.panel(info.id, 2, 1)  # panels of the undone step are dead
    await service.gm_advance(GM, CHANNEL)
    assert reveal_of(channel_texts(await outbox(db))) == first
    assert await state_of(db) == after_first


async def test_undo_a_turn_then_nothing_left(service: CampaignService, db: Database) -> None:
    info = await started(service, ALICE, BOB)
    await service.submit(ALICE, info.id, 1, guess(3))
    await service.submit(BOB, info.id, 1, guess(5))
    await service.submit(ALICE, info.id, 2, {"type": "pass"})
    await service.gm_undo(ADMIN, CHANNEL)
    status = await service.status(CHANNEL, ALICE.user_id)
    assert status.pending == ["Alice"] and "(bank)" in status.text
    [panel] = await service.panels_for(info.id, ALICE.user_id)
    assert panel.request.step == "bank" and dms_to(await outbox(db), ALICE)[-1].panel == (
        info.id, status.step_no, 1)
    await service.gm_undo(GM, CHANNEL)
    with pytest.raises(InvalidState, match="nothing to undo"):
        await service.gm_undo(GM, CHANNEL)


async def test_advance_takes_defaults_for_the_missing(
    service: CampaignService, db: Database
) -> None:
    info = await started(service, ALICE, BOB)
    await service.submit(ALICE, info.id, 1, guess(6))
    await service.gm_advance(GM, CHANNEL)
    assert "Guesses: Alice 6, Bob 1" in latest(await outbox(db))
    await service.gm_advance(GM, CHANNEL)  # Alice's turn: she passes by default
    assert "Alice missed the deadline and by default passes." in latest(await outbox(db))  # P-30


async def test_log_shows_public_and_gm_events_never_private_ones(
    service: CampaignService,
) -> None:
    info = await started(service, ALICE, BOB)
    await service.submit(ALICE, info.id, 1, guess(3))
    await service.submit(BOB, info.id, 1, guess(5))
    with pytest.raises(PermissionDenied):
        await service.gm_log(ALICE, CHANNEL, 10)
    log = await service.gm_log(GM, CHANNEL, 10)
    assert [e.kind for e in log] == ["start", "roll"]
    assert all("locked" not in e.text for e in log)
    assert [e.kind for e in await service.gm_log(GM, CHANNEL, 1)] == ["roll"]


async def test_kick_leaves_a_vacant_seat_that_takes_defaults(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    info = await started(service, ALICE, BOB)
    with pytest.raises(PermissionDenied):
        await service.gm_kick(ALICE, CHANNEL, BOB.user_id)
    with pytest.raises(NotFound):
        await service.gm_kick(GM, CHANNEL, CAROL.user_id)
    await service.gm_kick(GM, CHANNEL, BOB.user_id)
    assert "freed seat 2 (Bob)" in channel_texts(await outbox(db))[-1]
    with pytest.raises(PermissionDenied, match="no seat"):
        await service.submit(BOB, info.id, 1, guess(2))
    await service.submit(ALICE, info.id, 1, guess(2))
    assert (await service.status(CHANNEL, ALICE.user_id)).pending == ["Bob (vacant seat 2)"]
    clock.advance(48)
    await service.run_due()
    assert "Guesses: Alice 2, Bob 1" in latest(await outbox(db))
    # bob's last DM is his old panel made a plain line (P-6): no reminder or default since
    bobs = dms_to(await outbox(db), BOB)
    assert bobs[0].content.startswith("**Dice Cup**, Guess. ")
    assert bobs[-1].edit_of == bobs[0].id and bobs[-1].panel is None
    assert bobs[-1].content == ("Your seat in **Dice Cup** was freed by the GM; this panel "
                                "no longer works.")


async def test_replace_hands_the_seat_and_its_panel_to_another_member(
    service: CampaignService, db: Database
) -> None:
    info = await started(service, ALICE, BOB)
    with pytest.raises(PermissionDenied, match="already holds a seat"):
        await service.gm_replace(GM, CHANNEL, BOB.user_id, ALICE)
    await service.gm_replace(GM, CHANNEL, BOB.user_id, DAVE)
    assert "Dave takes over seat 2 from Bob." in channel_texts(await outbox(db))[-1]
    dm = dms_to(await outbox(db), DAVE)[-1]
    assert dm.panel == (info.id, 1, 2) and "you now hold seat 2" in dm.content
    with pytest.raises(PermissionDenied):
        await service.submit(BOB, info.id, 1, guess(1))
    await service.submit(ALICE, info.id, 1, guess(1))
    assert (await service.submit(DAVE, info.id, 1, guess(2))).resolved
    assert [c.id for c in await service.campaigns_of_user(DAVE.user_id)] == [info.id]


async def test_kick_before_start_removes_the_player(service: CampaignService) -> None:
    await service.create(GM, 500, CHANNEL, "guess", "Cup")
    await service.join(ALICE, CHANNEL)
    await service.gm_kick(GM, CHANNEL, ALICE.user_id)
    assert (await service.status(CHANNEL, GM.user_id)).seats == []
    assert (await service.join(Actor(20, "Eve"), CHANNEL)).seat == 1
