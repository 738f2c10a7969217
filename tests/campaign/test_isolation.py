"""Campaigns are isolated (issue 8): one campaign whose timer, state or rules fail is logged
with its id and never stops the deadlines, lists or panels of the others; a step that asks
nobody is reported instead of waiting forever."""

from __future__ import annotations

import json
import logging
from datetime import timedelta
from typing import Any

import pytest

from bot.campaign import CampaignService
from bot.campaign.core import CampaignBroken
from bot.campaign.scheduler import MAX_TRIES, RETRY_SECONDS
from bot.render import registry as render_registry
from bot.rules import registry as rules_registry
from bot.rules.base import Request
from storage import Database, timers
from tests.campaign.conftest import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    GM,
    GUILD,
    FakeClock,
    dms_to,
    guess,
    outbox,
    started,
)
from tests.support.guess import GuessRuleset, render_board

SECRET = "Alice's sealed guess"  # planted in the broken state: must never reach the log


class Boom(RuntimeError):
    pass


class BoomRuleset(GuessRuleset):
    """Guess, but resolving a round raises (a rules bug that hits one campaign)."""

    name = "boom"

    def resolve(self, state: Any, actions: dict[int, dict[str, Any]], dice: Any) -> Any:
        raise Boom(f"resolution failed; state was {state!r}")


class StallRuleset(GuessRuleset):
    """Guess, but once the round is rolled it asks nobody and is not over (a rules bug)."""

    name = "stall"

    def pending(self, state: Any) -> list[Request]:
        asked = super().pending(state)
        return [r for r in asked if r.kind == "sealed"]


@pytest.fixture
def odd_rules(guess_rules: object) -> None:
    for ruleset in (BoomRuleset(), StallRuleset()):
        rules_registry.register(ruleset)
        render_registry.register(ruleset.name, "board", render_board)


async def three_campaigns(service: CampaignService) -> list[int]:
    ids = []
    for channel, players in ((600, (ALICE, BOB)), (601, (CAROL, DAVE)), (602, (ALICE, DAVE))):
        ids.append((await started(service, *players, channel=channel)).id)
    return ids


async def break_state(db: Database, campaign_id: int) -> None:
    """A state row the rule set cannot read (what a bug or a hand edit leaves behind)."""
    async with db.transaction() as tx:
        await tx.execute("UPDATE campaigns SET state = ? WHERE id = ?",
                         (json.dumps({"scores": SECRET}), campaign_id))


def step_of(rows: list[Any], campaign_id: int) -> int:
    return max((r.panel[1] for r in rows if r.panel and r.panel[0] == campaign_id), default=0)


async def test_a_poisoned_campaign_never_stops_the_others_deadlines(
    db: Database, clock: FakeClock, guess_rules: object, caplog: pytest.LogCaptureFixture
) -> None:
    service = CampaignService(db, clock=clock)
    healthy_a, poisoned, healthy_b = await three_campaigns(service)
    await break_state(db, poisoned)
    service._cache.clear()  # as after a restart: the state is read from the database
    caplog.set_level(logging.DEBUG, logger="bot.campaign")
    clock.advance(49)  # past every reminder and deadline of step 1
    fired = await service.run_due()
    rows = await outbox(db)
    # both healthy campaigns: their deadline (defaults taken); their two reminders fell due
    # before the deadline that has passed too, so they are not sent late (issue 10)
    assert fired == 2
    assert step_of(rows, healthy_a) == step_of(rows, healthy_b) == 2
    assert step_of(rows, poisoned) == 1
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert any(f"campaign {poisoned}: the deadline of step 1 failed" in e for e in errors)
    assert all(str(healthy_a) not in e.split(":")[0] for e in errors if "failed" in e)
    assert not any(SECRET in r.getMessage() for r in caplog.records)  # DEBUG included

    # backed off: not retried at once, and the scheduler does not wake for it in a loop
    caplog.clear()
    assert await service.run_due() == 0
    assert not [r for r in caplog.records if r.levelno == logging.ERROR]
    wake = await service.next_wakeup()
    assert wake is not None and wake >= clock.now + timedelta(seconds=RETRY_SECONDS - 1)

    # retried later, with a growing wait; after MAX_TRIES the GM is told, and it stops
    for _ in range(MAX_TRIES - 1):
        clock.now = await service.next_wakeup()  # type: ignore[assignment]
        assert await service.run_due() == 0
    told = [r.content for r in dms_to(await outbox(db), GM)
            if "could not be processed" in r.content]
    assert told == ["**Dice Cup**: the deadline of the open step could not be processed (a bot "
                    "error; the bot's admin can see it in the log). The step stays open: use "
                    "/gm advance or /gm extend."]
    deadline = await timers.get(db, poisoned, 1)
    assert deadline is not None and deadline.status == "fired"
    caplog.clear()
    clock.advance(1)
    await service.run_due()
    assert not [r for r in caplog.records if r.levelno == logging.ERROR
                and f"campaign {poisoned}: the deadline" in r.getMessage()]

    # and the healthy ones keep going: their step-2 deadlines fire as usual
    clock.advance(48)
    assert await service.run_due() >= 2
    rows = await outbox(db)
    assert step_of(rows, healthy_a) == step_of(rows, healthy_b) == 3


async def test_a_rule_set_that_raises_at_a_deadline_stops_only_its_campaign(
    db: Database, clock: FakeClock, odd_rules: None, caplog: pytest.LogCaptureFixture
) -> None:
    service = CampaignService(db, clock=clock)
    await service.create(GM, GUILD, 700, "boom", "Broken Cup")
    for p in (ALICE, BOB):
        await service.join(p, 700)
    boom = (await service.start(GM, 700)).id
    healthy = (await started(service, CAROL, DAVE, channel=701)).id
    await service.submit(ALICE, boom, 1, guess(3))
    caplog.set_level(logging.INFO)
    clock.advance(47.5)
    assert await service.run_due() == 4  # boom's 2 reminders and healthy's 2
    clock.advance(1.5)
    assert await service.run_due() == 1  # healthy's deadline; boom's fails on its own
    rows = await outbox(db)
    assert step_of(rows, healthy) == 2 and step_of(rows, boom) == 1
    failed = [r for r in caplog.records if "failed (Boom)" in r.getMessage()]
    assert [r.levelno for r in failed] == [logging.ERROR]
    assert failed[0].getMessage().startswith(f"campaign {boom}: the deadline of step 1 failed")
    # nothing of the failed resolution was kept: Alice's guess is still in, Bob still owes
    status = await service.status(700, ALICE.user_id)
    assert status.step_no == 1 and status.pending == ["Bob"]


async def test_a_campaign_that_cannot_be_read_leaves_lists_and_panels_of_others(
    service: CampaignService, db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    first, broken, third = await three_campaigns(service)
    await break_state(db, broken)
    service._cache.clear()
    caplog.set_level(logging.INFO)
    listed = await service.list_campaigns(GUILD)
    assert {c.id for c in listed} == {first, broken, third}
    mine = await service.campaigns_of_user(DAVE.user_id)
    assert {c.id for c in mine} == {broken, third}
    assert await service.panels_for(broken, DAVE.user_id) == []
    assert [p.seat for p in await service.panels_for(third, DAVE.user_id)] == [2]
    with pytest.raises(CampaignBroken) as info:
        await service.status(601, DAVE.user_id)
    assert info.value.message == ("Campaign **Dice Cup** cannot be read right now (a bot "
                                  "error); the bot's admin can see it in the log. Other "
                                  "campaigns are not affected.")
    with pytest.raises(CampaignBroken):
        await service.submit(DAVE, broken, 1, guess(2))
    # the others still take orders
    result = await service.submit(DAVE, third, 1, guess(2))
    assert result is not None
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert errors == [f"campaign {broken} (guess): its stored state cannot be read "
                      "(ValidationError)"]


async def test_a_step_that_asks_nobody_is_reported_and_undone(
    service: CampaignService, db: Database, odd_rules: None, caplog: pytest.LogCaptureFixture
) -> None:
    await service.create(GM, GUILD, 800, "stall", "Stuck Cup")
    for p in (ALICE, BOB):
        await service.join(p, 800)
    info = await service.start(GM, 800)
    caplog.set_level(logging.INFO)
    await service.submit(ALICE, info.id, 1, guess(2))
    await service.submit(BOB, info.id, 1, guess(5))  # resolves; the rules then ask nobody
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert errors == [f"campaign {info.id} (stall): the rules ask nobody at step 2 and the "
                      "game is not over; the GM was told to undo"]
    stuck = [r.content for r in dms_to(await outbox(db), GM) if "is stuck" in r.content]
    assert stuck == ["**Stuck Cup** is stuck: the game is not over but nobody is asked to "
                     "act, which is a bug in the bot. Use /gm undo to go back one step, and "
                     "tell the bot's admin."]
    assert await timers.get(db, info.id, 2) is None  # no deadline for a step of nobody
    await service.gm_undo(GM, 800)
    status = await service.status(800, ALICE.user_id)
    assert status.pending == [] and status.step_no == 3  # both guesses restored as given
