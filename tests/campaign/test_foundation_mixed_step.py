"""A step that mixes a SEALED request (the hiders) with a TURN request (the seeker), with the
tests-only rule set tests/support/mixed.py: submission, reveal order, and secrecy of the
sealed answers until the reveal, whichever order the seats answer in."""

from __future__ import annotations

import pytest

from bot.campaign import CampaignInfo, CampaignService
from bot.campaign.models import Actor
from bot.errors import InvalidState
from storage import Database
from tests.campaign.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GM,
    GUILD,
    FakeClock,
    channel_texts,
    dms_to,
    latest,
    outbox,
)
from tests.support import mixed

# Alice and Bob hide (sealed), Carol (the last seat) seeks (turn).
SECRETS = ("hid in box", "hide in box")  # the reveal and the hiders' private DMs


@pytest.fixture(autouse=True)
def mixed_rules() -> None:
    mixed.register()


async def start_mixed(service: CampaignService) -> CampaignInfo:
    await service.create(GM, GUILD, CHANNEL, "mixed", "Hide")
    for p in (ALICE, BOB, CAROL):
        await service.join(p, CHANNEL)
    return await service.start(GM, CHANNEL)


async def step_of(service: CampaignService) -> int:
    return (await service.status(CHANNEL, GM.user_id)).step_no


async def answer(service: CampaignService, info: CampaignInfo, who: Actor, box: int,
                 step: int | None = None) -> object:
    kind = "call" if who == CAROL else "hide"
    return await service.submit(who, info.id, step or await step_of(service),
                                {"type": kind, "box": str(box)})


async def public_text(service: CampaignService, db: Database) -> str:
    """Everything public so far: channel messages and public/GM log entries."""
    log = [e.text for e in await service.gm_log(GM, CHANNEL, limit=100) if e.audience == "public"]
    return "\n".join([*channel_texts(await outbox(db)), *log])


async def test_the_step_asks_both_kinds_at_once(service: CampaignService, db: Database) -> None:
    await start_mixed(service)
    status = await service.status(CHANNEL, GM.user_id)
    assert status.pending == ["Alice", "Bob", "Carol"]
    rows = await outbox(db)
    opening = channel_texts(rows)[-1]
    # one tracker for the step: everyone owed is mentioned, sealed and turn alike
    assert f"Waiting for <@{ALICE.user_id}>, <@{BOB.user_id}>, <@{CAROL.user_id}>" in opening
    for who, prompt in ((ALICE, "Hide in a box"), (BOB, "Hide in a box"),
                        (CAROL, "Call a box out loud")):
        [dm] = dms_to(rows, who)
        assert prompt in dm.content and dm.panel is not None


async def test_sealed_first_then_turn_reveals_after_the_call(
    service: CampaignService, db: Database
) -> None:
    info = await start_mixed(service)
    first = await answer(service, info, ALICE, 2)
    assert not first.resolved and first.waiting_for == ["Bob"]  # type: ignore[attr-defined]
    # Changing a sealed answer is allowed and stays private.
    changed = await answer(service, info, ALICE, 1)
    assert changed.replaced  # type: ignore[attr-defined]
    await answer(service, info, BOB, 2)
    public = await public_text(service, db)
    assert "Every hider is hidden." in public
    assert not any(s in public for s in SECRETS), public  # nothing of where they hid
    assert "You hide in box 1." in "\n".join(r.content for r in dms_to(await outbox(db), ALICE))
    assert "Reveal" not in public
    await answer(service, info, CAROL, 2)
    last = latest(await outbox(db), 4)
    # The call (a tracker line), then the reveal (a post) with the answers as last changed.
    assert last.index("Carol calls box 2.") < last.index("Reveal:")
    assert "Alice hid in box 1, Bob hid in box 2; found: Bob." in last


async def test_turn_first_then_sealed_reveals_after_the_last_hider(
    service: CampaignService, db: Database
) -> None:
    info = await start_mixed(service)
    done = await answer(service, info, CAROL, 1)
    assert done.resolved  # type: ignore[attr-defined]
    assert "Carol calls box 1." in await public_text(service, db)
    assert "Reveal" not in await public_text(service, db)
    await answer(service, info, ALICE, 1)
    public = await public_text(service, db)
    assert not any(s in public for s in SECRETS), public
    await answer(service, info, BOB, 3)
    last = latest(await outbox(db))
    assert last.index("Every hider is hidden.") < last.index("Reveal:")
    assert "Alice hid in box 1, Bob hid in box 3; found: Alice." in last
    # The reveal's public event is logged after the call's.
    kinds = [e.kind for e in await service.gm_log(GM, CHANNEL, limit=100)]
    assert kinds.index("call") < kinds.index("reveal")


async def test_a_turn_seat_cannot_answer_the_sealed_request_or_twice(
    service: CampaignService,
) -> None:
    info = await start_mixed(service)
    await answer(service, info, CAROL, 1)
    with pytest.raises(InvalidState, match="Nothing is asked of you"):
        await answer(service, info, CAROL, 2)


async def test_a_stored_sealed_answer_survives_the_turn_action_of_the_same_step(
    service: CampaignService, db: Database
) -> None:
    info = await start_mixed(service)
    await answer(service, info, ALICE, 2)
    await answer(service, info, CAROL, 2)
    assert (await service.status(CHANNEL, GM.user_id)).pending == ["Bob"]  # Alice is in
    result = await answer(service, info, BOB, 3)
    assert result.resolved  # type: ignore[attr-defined]
    assert "Alice hid in box 2, Bob hid in box 3; found: Alice." in latest(
        await outbox(db))


async def test_the_turn_panel_stays_valid_when_the_sealed_part_completes(
    service: CampaignService, db: Database
) -> None:
    info = await start_mixed(service)
    panel_step = await step_of(service)  # the step number in Carol's DM panel
    await answer(service, info, ALICE, 2)
    await answer(service, info, BOB, 3)
    await answer(service, info, CAROL, 2, step=panel_step)
    assert "found: Alice." in latest(await outbox(db))


async def test_the_deadline_takes_every_default_of_a_mixed_step(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    await start_mixed(service)
    clock.advance(48)
    await service.run_due()
    # Defaults: hiders box 1, seeker calls box 3.
    assert "Alice hid in box 1, Bob hid in box 1; found: nobody." in await public_text(
        service, db)
