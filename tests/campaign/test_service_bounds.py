"""Bounded storage and memory (issue 9): undo snapshots kept to ``undo_depth``, the campaign
cache an LRU of ``cache_campaigns``, locks that do not pile up, campaign lists in one query."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.campaign import CampaignService
from bot.errors import InvalidState
from storage import Database, open_database
from tests.campaign.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GM,
    GUILD,
    SEED,
    FakeClock,
    guess,
    latest,
    outbox,
    started,
)

BEYOND = "I keep only the last 3 resolutions; nothing older can be undone."


def bounded(db: Database, clock: FakeClock, **limits: int) -> CampaignService:
    return CampaignService(db, clock=clock, seed_source=lambda: SEED, **limits)  # type: ignore[arg-type]


async def state_of(db: Database, campaign_id: int) -> str:
    row = await db.fetchone("SELECT state FROM campaigns WHERE id = ?", (campaign_id,))
    assert row is not None
    return str(row[0])


async def kept(db: Database, campaign_id: int) -> list[int]:
    rows = await db.fetchall(
        "SELECT resolution_no FROM snapshots WHERE campaign_id = ? ORDER BY resolution_no",
        (campaign_id,),
    )
    return [int(r[0]) for r in rows]


async def advance(service: CampaignService, campaign_id: int, db: Database, times: int
                  ) -> list[str]:
    """Resolves ``times`` steps with defaults; the states BEFORE each resolution."""
    before: list[str] = []
    for _ in range(times):
        before.append(await state_of(db, campaign_id))
        await service.gm_advance(GM, CHANNEL)
    return before


async def test_undo_works_to_the_configured_depth_then_refuses_clearly(
    db: Database, clock: FakeClock, guess_rules: object
) -> None:
    service = bounded(db, clock, undo_depth=3)
    info = await started(service, ALICE, BOB, target="20")
    before = await advance(service, info.id, db, 6)
    assert await kept(db, info.id) == [4, 5, 6]  # pruned as each new one was added
    for undone in (6, 5, 4):
        await service.gm_undo(GM, CHANNEL)
        assert await state_of(db, info.id) == before[undone - 1]
        # the notice (then the step's tracker) quotes what it took back, not a number
        assert "the GM undid the last result" in latest(await outbox(db))
    state, messages = await state_of(db, info.id), len(await outbox(db))
    with pytest.raises(InvalidState) as refused:
        await service.gm_undo(GM, CHANNEL)
    assert refused.value.message == BEYOND
    # the refusal changed nothing
    assert await state_of(db, info.id) == state and len(await outbox(db)) == messages
    # a new resolution is undoable again, and only it
    await service.gm_advance(GM, CHANNEL)
    assert await kept(db, info.id) == [4]
    await service.gm_undo(GM, CHANNEL)
    assert await state_of(db, info.id) == state
    with pytest.raises(InvalidState, match="I keep only the last 3 resolutions"):
        await service.gm_undo(GM, CHANNEL)


async def test_default_depth_is_ten_and_pruning_is_per_campaign(
    service: CampaignService, db: Database
) -> None:
    info = await started(service, ALICE, BOB, target="20")
    other = await started(service, CAROL, GM, channel=CHANNEL + 1, target="20")
    await service.gm_advance(GM, CHANNEL + 1)
    await advance(service, info.id, db, 12)
    assert await kept(db, info.id) == list(range(3, 13))
    assert await kept(db, other.id) == [1]  # another campaign's snapshots are not touched


async def test_nothing_to_undo_before_the_first_resolution(
    db: Database, clock: FakeClock, guess_rules: object
) -> None:
    service = bounded(db, clock, undo_depth=1)
    await started(service, ALICE, BOB)
    with pytest.raises(InvalidState, match="nothing to undo"):
        await service.gm_undo(GM, CHANNEL)


async def test_restart_after_pruning_sends_nothing_twice_and_undo_still_works(
    db_path: Path, clock: FakeClock, guess_rules: object
) -> None:
    db = await open_database(db_path)
    service = bounded(db, clock, undo_depth=2)
    info = await started(service, ALICE, BOB, target="20")
    before = await advance(service, info.id, db, 5)
    sent = 0
    while batch := await service.outbox_pending(100):
        for message in batch:
            sent += 1
            await service.outbox_sent(message.id, 1000 + sent)
    rows = await outbox(db)
    await db.close()

    db = await open_database(db_path)
    try:
        service = bounded(db, clock, undo_depth=2)
        assert await service.outbox_pending(100) == []  # every message already went out
        assert [(r.id, r.status) for r in await outbox(db)] == [(r.id, r.status) for r in rows]
        assert await kept(db, info.id) == [4, 5]
        await service.gm_undo(GM, CHANNEL)
        assert await state_of(db, info.id) == before[4]
        # only the undo's own messages are new: its notice and the re-opened step's panels
        new = await service.outbox_pending(100)
        assert min(m.id for m in new) > max(r.id for r in rows)
        # the channel: the old step's tracker closes (an edit), then the undo's notice, then
        # the re-opened step's tracker
        fresh = [r for r in await outbox(db) if r.id > max(r.id for r in rows)]
        posts = [r.content for r in fresh if r.kind == "channel" and not r.edit_of]
        assert "the GM undid the last result" in posts[0] and len(posts) == 2
        assert [r.edit_of for r in fresh if r.kind == "channel" and r.edit_of] != []
    finally:
        await db.close()


async def test_cache_evicts_the_least_recently_used_and_reloads_it(
    db: Database, clock: FakeClock, guess_rules: object
) -> None:
    service = bounded(db, clock, cache_campaigns=2)
    first = await started(service, ALICE, BOB, channel=CHANNEL)
    await service.submit(ALICE, first.id, 1, guess(4))
    second = await started(service, ALICE, BOB, channel=CHANNEL + 1)
    third = await started(service, ALICE, BOB, channel=CHANNEL + 2)
    assert service._cache.keys() == [second.id, third.id]  # the first one was dropped
    # Reloaded from the database, the first campaign still has Alice's sealed guess.
    assert (await service.submit(BOB, first.id, 1, guess(2))).resolved
    assert "Guesses: Alice 4, Bob 2" in latest(await outbox(db))
    assert service._cache.keys() == [third.id, first.id]
    await service.submit(ALICE, second.id, 1, guess(6))  # using one makes it the newest
    assert service._cache.keys() == [first.id, second.id]
    assert len(service._locks) == 0  # no lock outlives its intent


async def test_a_write_made_elsewhere_is_seen_after_eviction_too(
    db: Database, clock: FakeClock, guess_rules: object
) -> None:
    """Two services on one database (a second bot process, or a restart): each one's cached
    copy goes stale when the other writes; the version check reloads it, evicted or not."""
    one = bounded(db, clock, cache_campaigns=1)
    two = bounded(db, clock, cache_campaigns=1)
    info = await started(one, ALICE, BOB)
    await two.submit(ALICE, info.id, 1, guess(3))
    await one.submit(BOB, info.id, 1, guess(5))
    assert "Guesses: Alice 3, Bob 5" in latest(await outbox(db))


async def test_concurrent_intents_of_one_campaign_both_land_and_leave_no_lock(
    service: CampaignService, db: Database
) -> None:
    info = await started(service, ALICE, BOB)
    results = await asyncio.gather(
        service.submit(ALICE, info.id, 1, guess(2)), service.submit(BOB, info.id, 1, guess(3))
    )
    assert sorted(r.resolved for r in results) == [False, True]
    assert "Guesses: Alice 2, Bob 3" in latest(await outbox(db))
    assert len(service._locks) == 0


async def test_lists_read_no_state_and_make_one_query(
    service: CampaignService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    running = await started(service, ALICE, BOB)
    await service.create(GM, GUILD, CHANNEL + 1, "guess", "Empty")
    await service.create(GM, GUILD + 1, CHANNEL + 2, "guess", "Elsewhere")
    await service.gm_kick(GM, CHANNEL, BOB.user_id)
    # a state no rule set could decode: a list must not even look at it
    async with db.transaction() as tx:
        await tx.execute("UPDATE campaigns SET state = '{not json' WHERE id = ?", (running.id,))
    queries: list[str] = []
    real = db.fetchall

    async def counted(sql: str, params: object = ()) -> list:
        queries.append(sql)
        return await real(sql, params)  # type: ignore[arg-type]

    monkeypatch.setattr(db, "fetchall", counted)
    listed = await service.list_campaigns(GUILD)
    assert len(queries) == 1
    assert [(c.name, c.status, c.channel_id) for c in listed] == [
        ("Dice Cup", "running", CHANNEL), ("Empty", "setup", CHANNEL + 1)]
    assert [(s.seat, s.name, s.active) for s in listed[0].seats] == [
        (1, "Alice", True), (2, "Bob", False)]
    assert listed[1].seats == []
    queries.clear()
    [mine] = await service.campaigns_of_user(ALICE.user_id)
    assert len(queries) == 1 and mine.id == running.id and len(mine.seats) == 2
    assert await service.campaigns_of_user(BOB.user_id) == []  # his seat is vacant now
    assert [c.id for c in await service.campaigns_of_user(GM.user_id)] == [running.id]
