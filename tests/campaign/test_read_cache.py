"""Reads of the committed state are served from the cache by version (issue 17 item 9): a
read whose campaign version is unchanged decodes nothing from SQLite; a write elsewhere (a
second service on the same database) is never hidden; the cache stays within
``cache_campaigns``; a reader's copy is not changed by a later intent."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from bot.campaign import CampaignService
from storage import Database, open_database
from tests.campaign.conftest import ALICE, BOB, CHANNEL, GM, SEED, FakeClock, started


def loads(service: CampaignService) -> int:
    return service.engine.core.loads


@pytest_asyncio.fixture
async def other_db(db_path: Path, db: Database) -> AsyncIterator[Database]:
    second = await open_database(db_path)  # its own connections, as another process has
    yield second
    await second.close()


async def test_reads_at_an_unchanged_version_load_nothing(service: CampaignService) -> None:
    info = await started(service, ALICE, BOB)
    before = loads(service)
    for _ in range(5):
        await service.status(CHANNEL, ALICE.user_id)
        await service.panels_for(info.id, ALICE.user_id)
        await service.panels_for(info.id, BOB.user_id)
    assert loads(service) == before  # (the start's intent left the campaign cached)
    panel = (await service.panels_for(info.id, ALICE.user_id))[0]
    await service.submit(ALICE, info.id, panel.step_no, {"type": "guess", "number": "3"})
    status = await service.status(CHANNEL, ALICE.user_id)
    assert loads(service) == before  # the intent's own commit is what the reads see
    assert "Alice" not in status.pending


async def test_a_write_by_another_service_is_read_fresh(
    service: CampaignService, other_db: Database, clock: FakeClock
) -> None:
    other = CampaignService(other_db, clock=clock, seed_source=lambda: SEED)
    info = await started(service, ALICE, BOB)
    await service.status(CHANNEL, ALICE.user_id)
    panel = (await other.panels_for(info.id, ALICE.user_id))[0]
    await other.submit(ALICE, info.id, panel.step_no, {"type": "guess", "number": "3"})
    before = loads(service)
    status = await service.status(CHANNEL, ALICE.user_id)
    assert loads(service) == before + 1  # the version moved: read again
    assert "Alice" not in status.pending
    await service.status(CHANNEL, ALICE.user_id)
    assert loads(service) == before + 1  # and cached at the new version


async def test_the_cache_is_bounded(db: Database, clock: FakeClock) -> None:
    service = CampaignService(db, clock=clock, seed_source=lambda: SEED, cache_campaigns=1)
    first = await started(service, ALICE, BOB)
    second = await started(service, ALICE, BOB, channel=CHANNEL + 1)
    before = loads(service)
    for _ in range(3):
        await service.panels_for(first.id, ALICE.user_id)
        await service.panels_for(second.id, ALICE.user_id)
    assert len(service._cache) == 1
    assert loads(service) == before + 6  # one campaign kept: each read of the other loads


async def test_a_readers_copy_stays_as_it_was_read(service: CampaignService) -> None:
    info = await started(service, ALICE, BOB)
    read = await service.snapshot(info.id)
    panel = (await service.panels_for(info.id, ALICE.user_id))[0]
    await service.submit(ALICE, info.id, panel.step_no, {"type": "guess", "number": "3"})
    await service.gm_pause(GM, CHANNEL)
    assert read.submitted == {} and read.row.status == "running"
    assert (await service.snapshot(info.id)).row.status == "paused"
