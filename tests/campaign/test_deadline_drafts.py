"""At a deadline a saved draft that makes a legal action is taken over the default (issue 10,
item 9), on a real SQLite file and a fake clock; typed numbers are range-checked on save and
on submit."""

from __future__ import annotations

import pytest

from bot.campaign import CampaignInfo, CampaignService
from bot.errors import InvalidInput, RulesError
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
    outbox,
)
from tests.support import drill, mixed


@pytest.fixture(autouse=True)
def rules() -> None:
    mixed.register()
    drill.register()


async def start(service: CampaignService, ruleset: str, *players: object) -> CampaignInfo:
    await service.create(GM, GUILD, CHANNEL, ruleset, "Test")
    for p in players:
        await service.join(p, CHANNEL)  # type: ignore[arg-type]
    return await service.start(GM, CHANNEL)


async def test_sealed_and_turn_drafts_are_taken_at_the_deadline(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    """Hide and seek: alice drafted box 3 (sealed), carol drafted calling box 2 (turn); bob
    drafted nothing. Defaults are box 1 and a call of box 3."""
    info = await start(service, "mixed", ALICE, BOB, CAROL)
    await service.save_draft(ALICE, info.id, 1, "hide", "box", ["3"])
    await service.save_draft(CAROL, info.id, 1, "call", "box", ["2"])
    clock.advance(49)
    assert await service.run_due() >= 1
    texts = "\n".join(channel_texts(await outbox(db)))
    # P-30: the draft taken reads as one line, the rule set's own event said as taken
    assert "Carol missed the deadline and, as saved in their panel, calls box 2." in texts
    assert "Reveal: Alice hid in box 3, Bob hid in box 1; found: nobody." in texts


async def test_an_illegal_draft_gives_way_to_the_default(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    """Drill: Group 6 cannot attack (the rule set's ``check``), so bob's draft is dropped for
    the default; alice's legal draft (with the other fields' defaults) is taken."""
    info = await start(service, "drill", ALICE, BOB)
    await service.save_draft(ALICE, info.id, 1, "orders", "g2", ["move"])
    await service.save_draft(ALICE, info.id, 1, "orders", "losses", ["12"])
    await service.save_draft(BOB, info.id, 1, "orders", "g6", ["attack"])
    with pytest.raises(RulesError, match="Group 6 cannot attack"):
        await service.submit(BOB, info.id, 1, {**drill.default_action(), "g6": "attack"})
    clock.advance(49)
    await service.run_due()
    reveal = next(t for t in channel_texts(await outbox(db)) if "Orders revealed" in t)
    assert "Alice: g1 hold, g2 move, g3 hold, g4 hold, g5 hold, g6 hold; losses 12" in reveal
    assert "Bob: g1 hold, g2 hold, g3 hold, g4 hold, g5 hold, g6 hold; losses 0" in reveal


async def test_the_last_touched_kind_of_action_is_the_one_taken(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    info = await start(service, "drill", ALICE, BOB)
    await service.save_draft(ALICE, info.id, 1, "orders", "g1", ["move"])
    await service.save_draft(BOB, info.id, 1, "orders", "g1", ["attack"])
    # alice goes back to her orders after bob's: still orders, g3 as well
    await service.save_draft(ALICE, info.id, 1, "orders", "g3", ["attack"])
    clock.advance(49)
    await service.run_due()
    reveal = next(t for t in channel_texts(await outbox(db)) if "Orders revealed" in t)
    assert "Alice: g1 move, g2 hold, g3 attack" in reveal
    assert "Bob: g1 attack, g2 hold" in reveal


@pytest.mark.parametrize(("typed", "why"), [
    ("62", "62 is out of range"), ("-1", "-1 is out of range"),
    ("ten", "'ten' is not a whole number"), ("", "'nothing' is not a whole number"),
])
async def test_a_typed_number_is_checked_when_saved_and_submitted(
    service: CampaignService, db: Database, typed: str, why: str
) -> None:
    info = await start(service, "drill", ALICE, BOB)
    with pytest.raises(InvalidInput, match=why):
        await service.save_draft(ALICE, info.id, 1, "orders", "losses", [typed])
    with pytest.raises(RulesError, match="Losses taken: enter a whole number from 0 to 61"):
        await service.submit(ALICE, info.id, 1, {**drill.default_action(), "losses": typed})
    await service.save_draft(ALICE, info.id, 1, "orders", "losses", ["061"])
    panel = (await service.panels_for(info.id, ALICE.user_id))[0]
    assert panel.draft == {"orders": {"losses": ["61"]}}
