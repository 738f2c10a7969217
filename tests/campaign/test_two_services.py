"""Two services on one database (P-35): a UNIQUE conflict inside an intent is stale data.
Service B joins from a cached copy that misses A's join, so it picks a seat A took; the
insert meets the UNIQUE seat before the version check. It is retried on fresh data, never
raised as IntegrityError."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.campaign import Actor, CampaignService
from bot.campaign.core import CHANGED_MEANWHILE, INTENT_TRIES
from bot.errors import InvalidState
from bot.rules.base import Ruleset
from storage import Database, open_database
from storage import players as players_repo
from tests.campaign.conftest import ALICE, BOB, CAROL, CHANNEL, GM, GUILD, SEED, FakeClock


@pytest_asyncio.fixture
async def other_db(db_path: Path, db: Database) -> AsyncIterator[Database]:
    second = await open_database(db_path)  # its own connections, as another process has
    yield second
    await second.close()


@pytest.fixture
def other(other_db: Database, clock: FakeClock, guess_rules: Ruleset) -> CampaignService:
    return CampaignService(other_db, clock=clock, seed_source=lambda: SEED)


async def test_a_join_from_a_stale_copy_takes_the_next_free_seat(
    service: CampaignService, other: CampaignService
) -> None:
    await service.create(GM, GUILD, CHANNEL, "guess", "Dice Cup")
    await other.join(ALICE, CHANNEL)  # other caches the campaign with Alice in seat 1
    await service.join(BOB, CHANNEL)  # seat 2, unseen by other's cached copy
    carol = await other.join(CAROL, CHANNEL)  # picks seat 2 from its copy: a UNIQUE conflict
    assert carol.seat == 3
    campaign_id = await service.campaign_in_channel(CHANNEL)
    seats = {p.name: p.seat for p in await players_repo.of_campaign(service.db, campaign_id)}
    assert seats == {"Alice": 1, "Bob": 2, "Carol": 3}


async def test_joins_racing_on_two_services_raise_no_integrity_error(
    service: CampaignService, other: CampaignService
) -> None:
    await service.create(GM, GUILD, CHANNEL, "guess", "Dice Cup")
    await service.join(ALICE, CHANNEL)
    await other.join(BOB, CHANNEL)  # both services hold a cached copy now
    joiners = [Actor(20, "Dan"), Actor(21, "Eve")]
    results = await asyncio.gather(*(s.join(a, CHANNEL) for s, a in zip(
        (service, other), joiners, strict=True)), return_exceptions=True)
    assert not [r for r in results if isinstance(r, BaseException)], results
    campaign_id = await service.campaign_in_channel(CHANNEL)
    seats = sorted(p.seat for p in await players_repo.of_campaign(service.db, campaign_id))
    assert seats == [1, 2, 3, 4]


async def test_a_conflict_on_every_try_is_refused_plainly(
    service: CampaignService, other: CampaignService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A conflict that does not go away (each try meets a newer write) is refused with a
    plain sentence after a bounded number of tries, and nothing is changed."""
    await service.create(GM, GUILD, CHANNEL, "guess", "Dice Cup")
    campaign_id = await service.campaign_in_channel(CHANNEL)
    real_add = players_repo.add
    tries = 0

    async def always_taken(tx, cid, seat, user_id, name, now):  # type: ignore[no-untyped-def]
        nonlocal tries
        tries += 1
        await real_add(tx, cid, seat, 900 + tries, "ghost", now)  # someone took it first
        await real_add(tx, cid, seat, user_id, name, now)

    monkeypatch.setattr(players_repo, "add", always_taken)
    with pytest.raises(InvalidState) as refused:
        await service.join(ALICE, CHANNEL)
    assert str(refused.value) == CHANGED_MEANWHILE and tries == INTENT_TRIES
    assert await players_repo.of_campaign(service.db, campaign_id) == []
