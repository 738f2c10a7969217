"""Absent players (issue 15, item 4; P-25..P-28), on the guess rules and a fake clock.

Dice Cup: every seat guesses (sealed), then each seat in turn banks or passes. Bob never
acts here unless a test says so; Alice always does."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.campaign import CampaignService
from bot.campaign.panel_delivery import away_text
from bot.errors import InvalidInput, PermissionDenied
from storage import Database, missed
from storage.outbox import OutboxRow
from tests.campaign.conftest import (
    ALICE,
    BOB,
    CHANNEL,
    DAVE,
    GM,
    FakeClock,
    channel_texts,
    dms_to,
    guess,
    outbox,
    started,
)

AWAY_POST = "Bob is away: they missed several deadlines in a row"


def gm_dms(rows: list[OutboxRow]) -> list[str]:
    return [r.content for r in dms_to(rows, GM)]


def new_dms(rows: list[OutboxRow], actor: object) -> list[OutboxRow]:
    return [r for r in dms_to(rows, actor) if r.edit_of is None]  # type: ignore[arg-type]


async def alice_plays(service: CampaignService, campaign_id: int) -> bool:
    """Alice answers whatever is asked of her now; False when nothing is."""
    for panel in await service.panels_for(campaign_id, ALICE.user_id):
        if panel.submitted is None:
            action = guess(3) if panel.request.kind == "sealed" else {"type": "pass"}
            await service.submit(ALICE, campaign_id, panel.step_no, action)
            return True
    return False


async def step_no(service: CampaignService) -> int:
    return (await service.status(CHANNEL, GM.user_id)).step_no


async def bob_goes_away(service: CampaignService, clock: FakeClock, campaign_id: int) -> None:
    """Bob misses the guess (1) and his bank turn (2): away after 2."""
    await alice_plays(service, campaign_id)  # her guess
    clock.advance(48)
    assert await service.run_due() == 1  # Bob's guess is the default
    assert await alice_plays(service, campaign_id)  # her bank turn
    clock.advance(48)
    assert await service.run_due() == 1  # Bob's bank turn: second miss, away


async def test_away_after_n_misses_takes_defaults_at_once_and_is_said_once(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    info = await started(service, ALICE, BOB, reminders="none", away_after="2",
                         missed_warning="0", target="20")
    await bob_goes_away(service, clock, info.id)
    assert await missed.away_seats(db, info.id) == {2}
    assert (await service.status(CHANNEL, ALICE.user_id)).away == ["Bob"]
    rows = await outbox(db)
    # the GM: the first miss, then the seat going away with what to do; nothing else
    notes = gm_dms(rows)
    assert len(notes) == 2
    assert "Bob missed the deadline" in notes[0] and "away" not in notes[0]
    assert "Bob has missed 2 deadlines in a row and is now away" in notes[1]
    assert "/gm replace" in notes[1] and "/gm kick" in notes[1]
    # a new guess step waits for Alice with its whole time (P-26: no leak through timing)
    opened = clock.now
    assert await service.next_wakeup() == opened + timedelta(hours=48)
    assert await service.run_due() == 0
    # Alice guesses: only away Bob is owed, so his default is taken at once, not in 48 h
    before = await step_no(service)
    await alice_plays(service, info.id)
    assert await service.next_wakeup() == clock.now
    assert await service.run_due() == 1
    assert await step_no(service) == before + 1  # Alice's bank turn, with its full time
    assert await service.run_due() == 0  # no spinning on a fired deadline
    assert await service.next_wakeup() == clock.now + timedelta(hours=48)
    await alice_plays(service, info.id)
    assert await service.run_due() == 1  # Bob's bank turn: his default at once
    assert clock.now == opened  # no time passed for Bob's steps
    rows = await outbox(db)
    channel = "\n".join(channel_texts(rows))
    assert channel.count(AWAY_POST) == 1  # said once
    assert "Bob is away: default orders were used." in channel  # the reveal, said as such
    assert "Bob is away and by default passes." in channel  # one line (P-30)
    assert len(gm_dms(rows)) == 2  # away seats' defaults are no news for the GM
    # the player is told how to come back, in his panel (an edit: no DM of its own)
    bob = dms_to(rows, BOB)
    assert any(away_text("Dice Cup") in r.content and r.panel is not None for r in bob)
    assert not any("away" in r.content for r in bob if r.panel is None)


async def test_an_away_seat_gets_no_reminders(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    info = await started(service, ALICE, BOB, reminders="none", away_after="2", target="20")
    await bob_goes_away(service, clock, info.id)
    await service.settings(GM, CHANNEL, {"reminders": "12"})
    clock.advance(1)
    await alice_plays(service, info.id)  # her guess: the default for Bob at once
    await service.run_due()
    # Alice's bank turn opens with a reminder; then Bob's step takes his default at once
    before = len([r for r in dms_to(await outbox(db), BOB) if "Reminder" in r.content])
    clock.advance(36)
    assert await service.run_due() == 1  # Alice's reminder
    rows = await outbox(db)
    assert [r for r in dms_to(rows, ALICE) if r.content.startswith("Reminder")]
    assert len([r for r in dms_to(rows, BOB) if "Reminder" in r.content]) == before == 0
    # a guess step owed by both: the reminder goes to Alice only
    await alice_plays(service, info.id)
    await service.run_due()
    clock.advance(36)
    await service.run_due()
    rows = await outbox(db)
    assert not [r for r in dms_to(rows, BOB) if "Reminder" in r.content]


async def test_a_panel_action_brings_the_seat_back(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    info = await started(service, ALICE, BOB, reminders="none", away_after="2", target="20")
    await bob_goes_away(service, clock, info.id)
    # a guess step: Alice has not guessed yet, so Bob's panel is live; he chooses on it
    step = await step_no(service)
    await service.save_draft(BOB, info.id, step, "guess", "number", ["4"])
    assert await missed.away_seats(db, info.id) == set()
    assert "Bob is back" in "\n".join(channel_texts(await outbox(db)))
    # Alice guesses: the step now waits for Bob, with its whole time
    await alice_plays(service, info.id)
    assert await service.run_due() == 0
    assert await step_no(service) == step
    await service.submit(BOB, info.id, step, guess(4))
    assert await step_no(service) == step + 1


async def test_campaign_back_checks_the_seat_and_ends_the_away_state(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    info = await started(service, ALICE, BOB, reminders="none", away_after="2", target="20")
    with pytest.raises(PermissionDenied, match="You hold no seat"):
        await service.come_back(DAVE, CHANNEL)
    before = len(await outbox(db))
    reply = await service.come_back(BOB, CHANNEL)
    assert "You are not away" in reply and "Nothing changed" in reply
    assert len(await outbox(db)) == before  # nothing changed, nothing said
    await bob_goes_away(service, clock, info.id)
    reply = await service.come_back(BOB, CHANNEL)
    assert reply.startswith("Welcome back to **Dice Cup**")
    assert await missed.away_seats(db, info.id) == set()
    rows = await outbox(db)
    assert "Bob is back" in "\n".join(channel_texts(rows))
    # his open panel comes again without the away line
    last_panel = [r for r in dms_to(rows, BOB) if r.panel is not None][-1]
    assert away_text("Dice Cup") not in last_panel.content
    # and the game waits for him again: Alice guesses, nothing is taken for Bob
    await alice_plays(service, info.id)
    assert await service.run_due() == 0


async def test_away_after_zero_never_and_is_a_bounded_whole_number(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    info = await started(service, ALICE, BOB, reminders="none", away_after="0", target="20")
    await bob_goes_away(service, clock, info.id)
    assert await missed.away_seats(db, info.id) == set()
    shown = await service.settings(GM, CHANNEL, {"away_after": "5"})
    assert shown["away_after"] == "5"
    for bad in ("-1", "51", "often", "2.5"):
        with pytest.raises(InvalidInput, match="away_after: a whole number 0..50"):
            await service.settings(GM, CHANNEL, {"away_after": bad})


async def test_the_gm_gets_one_digest_a_day_for_the_other_misses(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    """Four-hour steps, Bob misses every one (never away, never warned): the GM hears the
    first miss at once and the others in a digest, at most one DM a day (P-25)."""
    info = await started(service, ALICE, BOB, reminders="none", away_after="0",
                         missed_warning="0", step_hours="4", target="20")
    start = clock.now
    told: list[float] = []
    while clock.now - start < timedelta(hours=60):
        if not await alice_plays(service, info.id):
            wake = await service.next_wakeup()
            assert wake is not None
            clock.now = wake + timedelta(seconds=1)
            await service.run_due()
        rows = await outbox(db)
        told += [clock.now.timestamp()] * (len(gm_dms(rows)) - len(told))
    notes = gm_dms(await outbox(db))
    misses = sum(n.count("Bob missed the deadline") for n in notes)
    assert misses >= 8  # a miss every 8 hours or so, each one told
    assert "Bob missed the deadline" in notes[0] and "since your last note" not in notes[0]
    digests = [n for n in notes[1:] if "deadlines missed since your last note" in n]
    assert digests == notes[1:] and 1 <= len(digests) <= 3
    assert all(n.count("\n- ") >= 2 for n in digests)  # several misses in each
    assert all(b - a >= 86400 for a, b in zip(told, told[1:], strict=False))


async def test_a_missed_deadline_is_said_in_the_next_panel_not_a_dm_of_its_own(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    info = await started(service, ALICE, BOB, reminders="none", target="20")
    await alice_plays(service, info.id)
    clock.advance(48)
    await service.run_due()  # Bob's guess: the default
    said = [r for r in dms_to(await outbox(db), BOB) if "did not answer in time" in r.content]
    assert said == []  # not yet: Bob has no panel (Alice's bank turn)
    await alice_plays(service, info.id)  # Bob's bank turn opens: his panel says it
    rows = await outbox(db)
    [said] = [r for r in dms_to(rows, BOB) if "did not answer in time" in r.content]
    assert said.panel is not None
    assert ("Guess: you did not answer in time, so the default was taken for you: "
            "Your guess: 1.") in said.content


async def test_no_second_notifying_dm_while_the_first_is_unanswered(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    """P-28: Bob, idle for days, never answers his bank-turn panel: his next request (the
    next guess) edits that panel message instead of a second new DM; with the default
    taken for him said in it. (An idle player who has answered gets a new DM: P-1,
    tests/campaign/test_panel_delivery.py.)"""
    info = await started(service, ALICE, BOB, reminders="none", away_after="0",
                         target="20")
    await alice_plays(service, info.id)
    clock.advance(48)
    await service.run_due()  # Bob's guess: the default
    await alice_plays(service, info.id)  # Bob's bank turn: his panel, a new DM
    rows = await outbox(db)
    bank = new_dms(rows, BOB)[-1]
    assert bank.panel is not None and bank.panel[1] == await step_no(service)
    clock.advance(48)
    assert await service.run_due() == 1  # he passes by default; a new guess asks him
    rows = await outbox(db)
    assert new_dms(rows, BOB)[-1].id == bank.id  # no second DM
    last = dms_to(rows, BOB)[-1]
    assert last.edit_of == bank.id and last.panel == (info.id, await step_no(service), 2)
    assert "Bank: you did not answer in time, so the default was taken for you" in last.content
    # every earlier DM of Bob's is no panel any more: one panel waits, the newest
    final = {r.edit_of or r.id: r for r in dms_to(rows, BOB)}
    live = [first for first, r in final.items() if r.panel is not None]
    assert live == [bank.id]


async def test_a_replaced_seat_starts_afresh(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    """P-29: /gm replace hands the seat over not away, with no run of misses."""
    info = await started(service, ALICE, BOB, reminders="none", away_after="2", target="20")
    await bob_goes_away(service, clock, info.id)
    await service.gm_replace(GM, CHANNEL, BOB.user_id, DAVE)
    assert await missed.away_seats(db, info.id) == set()
    rows = await db.fetchall("SELECT seat FROM missed_deadlines WHERE campaign_id = ?",
                             (info.id,))
    assert rows == []
    dave = [r for r in dms_to(await outbox(db), DAVE) if r.panel is not None]
    assert dave and away_text("Dice Cup") not in dave[-1].content
    # the step waits for Dave with its whole time
    await alice_plays(service, info.id)
    assert await service.run_due() == 0


async def test_a_click_on_an_old_panel_brings_the_seat_back_and_its_panel_again(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    """P-26: any panel action, even on a panel whose step is over (the Panels cog calls
    ``panel_clicked`` after its holder check); nobody else's click changes anything."""
    info = await started(service, ALICE, BOB, reminders="none", away_after="2", target="20")
    await bob_goes_away(service, clock, info.id)
    await service.panel_clicked(info.id, 1, 2, DAVE.user_id)  # not the holder
    assert await missed.away_seats(db, info.id) == {2}
    assert away_text("Dice Cup") in dms_to(await outbox(db), BOB)[-1].content
    await service.panel_clicked(info.id, 1, 2, BOB.user_id)  # his first, long-closed panel
    assert await missed.away_seats(db, info.id) == set()
    rows = await outbox(db)
    again = dms_to(rows, BOB)[-1]  # (an unsent edit is replaced by the newer one)
    assert again.panel == (info.id, await step_no(service), 2)
    assert away_text("Dice Cup") not in again.content
    assert "\n".join(channel_texts(rows)).count("Bob is back") == 1


async def test_the_tracker_pings_no_away_seat(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    """P-26 with P-34: a step owed by Alice and away Bob pings Alice only."""
    info = await started(service, ALICE, BOB, reminders="none", away_after="2", target="20")
    await bob_goes_away(service, clock, info.id)
    await alice_plays(service, info.id)  # her guess; Bob's at once; her bank turn; ...
    await service.run_due()
    await alice_plays(service, info.id)
    await service.run_due()  # Bob's bank turn at once; a new guess for both
    trackers = [r for r in await outbox(db) if r.kind == "channel" and r.edit_of is None
                and r.content.startswith("**Dice Cup**: Guess")]
    assert trackers and trackers[-1].mentions == [ALICE.user_id]


async def test_a_freed_seat_goes_away_and_stalls_nothing(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    """P-29: a kicked (vacant) seat misses deadlines like any other and goes away; the GM's
    note offers /gm replace only (the seat is free already)."""
    info = await started(service, ALICE, BOB, reminders="none", away_after="2", target="20")
    await service.gm_kick(GM, CHANNEL, BOB.user_id)
    await bob_goes_away(service, clock, info.id)
    assert await missed.away_seats(db, info.id) == {2}
    [note] = [n for n in gm_dms(await outbox(db)) if "now away" in n]
    assert "/gm replace" in note and "/gm kick" not in note
    await alice_plays(service, info.id)
    assert await service.run_due() == 1  # the vacant seat's guess at once
