"""Defaults in the open (issue 10.3): a default taken at a deadline is said as such in the
step's tracker, the GM hears of missed deadlines (at once or in the digest, P-25) and is
warned after ``missed_warning`` in a row; a seat that acts again starts from zero."""

from __future__ import annotations

import pytest

from bot.campaign import CampaignService
from bot.errors import InvalidInput
from storage import Database
from tests.campaign.conftest import (
    ALICE,
    BOB,
    CHANNEL,
    GM,
    FakeClock,
    channel_texts,
    dms_to,
    outbox,
    started,
)


def gm_dms(rows: list) -> list[str]:  # type: ignore[type-arg]
    return [r.content for r in dms_to(rows, GM)]


async def test_missed_deadlines_are_said_in_public_and_to_the_gm(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    await started(service, ALICE, BOB, reminders="none", missed_warning="2")
    clock.advance(48)
    assert await service.run_due() == 1
    rows = await outbox(db)
    channel = "\n".join(channel_texts(rows))
    # the guess step's tracker says whose orders were defaults; never what they were
    assert "Alice missed the deadline: default orders were used." in channel
    assert "Bob missed the deadline: default orders were used." in channel
    [note] = gm_dms(rows)  # one DM for the deadline, naming each seat and what it got
    assert note == ("**Dice Cup**, Guess. The deadline passed.\n"
                    "Alice missed the deadline; the default was taken: Your guess: 1.\n"
                    "Bob missed the deadline; the default was taken: Your guess: 1.")
    # the next steps are turns (bank or pass): each missed one is a line and a GM DM
    for _ in range(2):
        clock.advance(48)
        assert await service.run_due() == 1
    rows = await outbox(db)
    channel = "\n".join(channel_texts(rows))
    # P-30: one line from the rule set's own event, not a default line and then "passes."
    assert "Alice missed the deadline and by default passes." in channel
    assert "Bob missed the deadline and by default passes." in channel
    assert "Bob passes." not in channel
    notes = gm_dms(rows)
    assert len(notes) == 3
    warnings = [n for n in notes if "Warning" in n]
    # the second miss in a row of each seat warns the GM, once, with what to do
    assert len(warnings) == 2
    assert all("missed 2 deadlines in a row" in w and "/gm replace" in w for w in warnings)
    assert {w.split("Warning: ")[1].split(" has")[0] for w in warnings} == {"Alice", "Bob"}
    # no step number and no ruling id in what players or the GM read
    assert not any("step " in n for n in notes)


async def test_acting_again_clears_the_run_of_missed_deadlines(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    info = await started(service, ALICE, BOB, reminders="none", missed_warning="2")
    clock.advance(48)
    await service.run_due()  # both missed the guesses
    status = await service.status(CHANNEL, GM.user_id)
    rows = await db.fetchall("SELECT seat, in_row FROM missed_deadlines ORDER BY seat")
    assert [(r["seat"], r["in_row"]) for r in rows] == [(1, 1), (2, 1)]
    # whoever's turn it is acts: their count is gone, the other's stays
    seat = 1 if status.pending == ["Alice"] else 2
    who = ALICE if seat == 1 else BOB
    await service.submit(who, info.id, status.step_no, {"type": "pass"})
    rows = await db.fetchall("SELECT seat FROM missed_deadlines ORDER BY seat")
    assert [r["seat"] for r in rows] == [3 - seat]
    assert "Warning" not in "\n".join(gm_dms(await outbox(db)))


async def test_missed_warning_is_a_bounded_whole_number(service: CampaignService) -> None:
    await started(service, ALICE, BOB)
    shown = await service.settings(GM, CHANNEL, {"missed_warning": "0"})
    assert shown["missed_warning"] == "0"
    for bad in ("-1", "51", "two", "1.5"):
        with pytest.raises(InvalidInput, match="missed_warning: a whole number 0..50"):
            await service.settings(GM, CHANNEL, {"missed_warning": bad})


async def test_no_warning_when_it_is_off(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    await started(service, ALICE, BOB, reminders="none", missed_warning="0")
    for _ in range(4):
        clock.advance(48)
        await service.run_due()
    notes = gm_dms(await outbox(db))
    assert len(notes) == 4 and not any("Warning" in n for n in notes)


async def test_extending_the_deadline_updates_the_tracker(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    await started(service, ALICE, BOB, reminders="none")
    old = [t for t in channel_texts(await outbox(db)) if t.startswith("**Dice Cup**: Guess")]
    await service.gm_extend(GM, CHANNEL, 24)
    due = int(clock.now.timestamp() + 72 * 3600)
    [tracker] = [t for t in channel_texts(await outbox(db)) if t.startswith("**Dice Cup**: Guess")]
    assert tracker != old[0] and f"deadline <t:{due}:f> (<t:{due}:R>)" in tracker


async def test_the_last_tracker_owes_nothing_once_the_game_is_over(
    service: CampaignService, db: Database
) -> None:
    await started(service, ALICE, BOB, reminders="none")
    await service.end(GM, CHANNEL, "bored")
    trackers = [t for t in channel_texts(await outbox(db)) if t.startswith("**Dice Cup**: ")]
    assert trackers and not any("Waiting for" in t for t in trackers)
