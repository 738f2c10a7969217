"""Create, join, leave, start, settings, status, end, listings: and every refusal."""

from __future__ import annotations

import re

import pytest

from bot.campaign import Actor, CampaignService
from bot.errors import InvalidInput, InvalidState, NotFound, PermissionDenied
from storage import Database
from tests.campaign.conftest import (
    ADMIN,
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    GM,
    GUILD,
    SEED,
    channel_texts,
    outbox,
    started,
)


async def test_create_makes_the_creator_gm_and_stores_the_seed(
    service: CampaignService, db: Database
) -> None:
    info = await service.create(GM, GUILD, CHANNEL, "guess", "  Dice Cup ")
    assert (info.status, info.gm_user_id, info.name, info.seats) == ("setup", GM.user_id,
                                                                     "Dice Cup", [])
    row = await db.fetchone("SELECT seed FROM campaigns WHERE id = ?", (info.id,))
    assert row is not None and row[0] == SEED


async def test_create_refusals(service: CampaignService) -> None:
    with pytest.raises(NotFound, match="Unknown rule set"):
        await service.create(GM, GUILD, CHANNEL, "nope", "x")
    with pytest.raises(InvalidInput):
        await service.create(GM, GUILD, CHANNEL, "guess", " ")
    await service.create(GM, GUILD, CHANNEL, "guess", "one")
    with pytest.raises(InvalidState, match="already has a campaign"):
        await service.create(BOB, GUILD, CHANNEL, "guess", "two")


async def test_join_takes_the_next_seat_and_refuses_twice_full_and_after_start(
    service: CampaignService,
) -> None:
    await service.create(GM, GUILD, CHANNEL, "guess", "Dice Cup")
    assert (await service.join(ALICE, CHANNEL)).seat == 1
    assert (await service.join(BOB, CHANNEL)).seat == 2
    with pytest.raises(InvalidState, match="already hold seat 1"):
        await service.join(ALICE, CHANNEL)
    await service.join(CAROL, CHANNEL)
    await service.join(DAVE, CHANNEL)
    with pytest.raises(InvalidState, match="All 4 seats"):
        await service.join(GM, CHANNEL)
    await service.start(GM, CHANNEL)
    with pytest.raises(InvalidState, match="already started"):
        await service.join(GM, CHANNEL)
    with pytest.raises(NotFound):
        await service.join(ALICE, CHANNEL + 1)


async def test_leave_before_start_only_and_seats_close_up_at_start(
    service: CampaignService,
) -> None:
    await service.create(GM, GUILD, CHANNEL, "guess", "Dice Cup")
    for p in (ALICE, BOB, CAROL):
        await service.join(p, CHANNEL)
    await service.leave(ALICE, CHANNEL)
    with pytest.raises(NotFound):
        await service.leave(ALICE, CHANNEL)
    info = await service.start(GM, CHANNEL)
    assert [(s.seat, s.name) for s in info.seats] == [(1, "Bob"), (2, "Carol")]
    with pytest.raises(InvalidState, match="only leave before the start"):
        await service.leave(BOB, CHANNEL)


async def test_start_is_gm_only_and_checks_the_seat_count(service: CampaignService) -> None:
    await service.create(GM, GUILD, CHANNEL, "guess", "Dice Cup")
    await service.join(ALICE, CHANNEL)
    with pytest.raises(InvalidState, match="needs 2 to 4 players; 1 joined"):
        await service.start(GM, CHANNEL)
    await service.join(BOB, CHANNEL)
    with pytest.raises(PermissionDenied):
        await service.start(ALICE, CHANNEL)
    elsewhere = Actor(ADMIN.user_id, ADMIN.name, is_admin=True, guild_id=GUILD + 1)
    with pytest.raises(PermissionDenied):  # an admin of another server is nobody here
        await service.start(elsewhere, CHANNEL)
    info = await service.start(ADMIN, CHANNEL)  # a server admin acts as GM
    assert info.status == "running" and info.step_no == 1
    with pytest.raises(InvalidState):
        await service.start(GM, CHANNEL)


async def test_start_posts_one_channel_line_and_one_dm_panel_per_seat(
    service: CampaignService, db: Database
) -> None:
    info = await started(service, ALICE, BOB, CAROL)
    rows = await outbox(db)
    opening = channel_texts(rows)[-1]
    # the step's tracker: its name, who is owed (mentioned), the deadline both ways
    assert opening.startswith("**Dice Cup**: Guess")
    assert (f"Waiting for <@{ALICE.user_id}>, <@{BOB.user_id}>, <@{CAROL.user_id}>; "
            "deadline <t:") in opening
    assert re.search(r"<t:(\d+):f> \(<t:\1:R>\)", opening)
    panels = [r for r in rows if r.kind == "dm"]
    assert sorted(r.user_id for r in panels) == [ALICE.user_id, BOB.user_id, CAROL.user_id]
    assert {r.panel for r in panels} == {(info.id, 1, 1), (info.id, 1, 2), (info.id, 1, 3)}


async def test_settings_validate_everything_before_changing_anything(
    service: CampaignService,
) -> None:
    await service.create(GM, GUILD, CHANNEL, "guess", "Dice Cup")
    shown = await service.settings(GM, CHANNEL, {})
    assert shown == {"step_hours": "48", "reminders": "12,1", "on_deadline": "default",
                     "missed_warning": "3", "away_after": "3", "target": "3",
                     "defaults": "True"}
    allowed = "Allowed: step_hours, reminders, on_deadline, missed_warning, away_after, target"
    with pytest.raises(InvalidInput, match=allowed):
        await service.settings(GM, CHANNEL, {"step_hours": "5", "colour": "red"})
    with pytest.raises(InvalidInput, match="on_deadline"):
        await service.settings(GM, CHANNEL, {"step_hours": "5", "on_deadline": "later"})
    with pytest.raises(InvalidInput, match="target"):
        await service.settings(GM, CHANNEL, {"step_hours": "5", "target": "99"})
    with pytest.raises(InvalidInput, match="step_hours"):
        await service.settings(GM, CHANNEL, {"step_hours": "-1"})
    assert (await service.settings(GM, CHANNEL, {}))["step_hours"] == "48"  # nothing changed
    with pytest.raises(PermissionDenied):
        await service.settings(ALICE, CHANNEL, {"step_hours": "5"})
    shown = await service.settings(GM, CHANNEL, {"step_hours": "6.5", "reminders": "1, 3",
                                                 "target": "2"})
    assert (shown["step_hours"], shown["reminders"], shown["target"]) == ("6.5", "3,1", "2")


async def test_rule_options_only_before_start_timing_any_time(service: CampaignService) -> None:
    await started(service, ALICE, BOB)
    with pytest.raises(InvalidState, match="before the start"):
        await service.settings(GM, CHANNEL, {"target": "5"})
    assert (await service.settings(GM, CHANNEL, {"reminders": "none"}))["reminders"] == "none"


async def test_status_shows_names_pending_never_content(
    service: CampaignService, clock: object
) -> None:
    info = await started(service, ALICE, BOB)
    await service.submit(ALICE, info.id, 1, {"type": "guess", "number": "6"})
    as_bob = await service.status(CHANNEL, BOB.user_id)
    assert as_bob.pending == ["Bob"] and as_bob.deadline is not None and not as_bob.paused
    assert "You are seat 2" in as_bob.text
    public = await service.status(CHANNEL, 4242)
    assert "You are seat" not in public.text
    assert "6" not in " ".join(public.pending)


async def test_end_and_listings(service: CampaignService, db: Database) -> None:
    info = await started(service, ALICE, BOB)
    await service.create(GM, GUILD, CHANNEL + 1, "guess", "Second")
    assert [c.name for c in await service.list_campaigns(GUILD)] == ["Dice Cup", "Second"]
    assert [c.id for c in await service.campaigns_of_user(ALICE.user_id)] == [info.id]
    with pytest.raises(PermissionDenied):
        await service.end(ALICE, CHANNEL, "bored")
    await service.end(GM, CHANNEL, "bored")
    assert "The GM ended **Dice Cup**: bored" in channel_texts(await outbox(db))[-1]
    assert [c.name for c in await service.list_campaigns(GUILD)] == ["Second"]
    assert await service.campaigns_of_user(ALICE.user_id) == []
    assert await service.next_wakeup() is None  # its deadline is gone
    # the finished campaign stays readable, saying how it ended
    status = await service.status(CHANNEL, ALICE.user_id)
    assert (status.name, status.status) == ("Dice Cup", "ended")
    assert status.end_reason == "The GM ended it: bored" and status.pending == []
    [done] = await service.list_campaigns(GUILD, finished=True)
    assert (done.name, done.end_reason) == ("Dice Cup", "The GM ended it: bored")
    # the channel is free again, and its new campaign is the one read there
    await service.create(GM, GUILD, CHANNEL, "guess", "Rematch")
    assert (await service.status(CHANNEL, ALICE.user_id)).name == "Rematch"
    with pytest.raises(NotFound):
        await service.status(CHANNEL + 99, ALICE.user_id)


async def test_p20_a_campaign_its_parent_rules_did_not_link_reports_nothing_to_it(
    service: CampaignService, db: Database
) -> None:
    """P-20: ``create`` takes no parent (only ``open_battle`` links one). A row that names a
    parent anyway (an older version's free-text link, a battle as parent) is ended without
    a word reaching that parent's channel."""
    parent = await service.create(GM, GUILD, CHANNEL, "guess", "Campaign")
    battle = await service.create(GM, GUILD, 777, "guess", "Skirmish")
    ftcamp = await service.create(GM, GUILD, 778, "ftcamp", "Border War")
    forged = await service.create(CAROL, GUILD, 779, "guess", "Forged")
    async with db.transaction() as tx:
        await tx.execute("UPDATE campaigns SET parent_id = ?, parent_ref = 'battle:3' "
                         "WHERE id = ?", (parent.id, battle.id))
        await tx.execute("UPDATE campaigns SET parent_id = ?, parent_ref = '0202/A-3' "
                         "WHERE id = ?", (ftcamp.id, forged.id))
    before = [r for r in await outbox(db) if r.channel_id in (CHANNEL, 778)]
    await service.end(GM, 777, "draw")  # a parent whose rules fight no battles in threads
    await service.end(CAROL, 779, "we won")  # a real-looking ref, never started
    assert [r for r in await outbox(db) if r.channel_id in (CHANNEL, 778)] == before


async def test_new_campaigns_take_the_configured_timing_defaults(tmp_path) -> None:
    """config [timing] sets the deadline settings of campaigns created afterwards."""
    from storage import open_database

    db = await open_database(tmp_path / "t.db")
    try:
        service = CampaignService(db, timing_defaults={"step_hours": 6.0, "reminders": [2.0]})
        gm = Actor(user_id=1, name="gm")
        await service.create(gm, guild_id=1, channel_id=10, ruleset="orbits", name="T")
        shown = await service.settings(gm, 10, {})
        assert shown["step_hours"].startswith("6") and shown["reminders"].startswith("2")
    finally:
        await db.close()
