"""The rules' pure work of a submit runs before the database's write lock (issue 17 item 9):
the sealed check and, for the step's last input, its resolution, on the cached committed
campaign. The transaction uses that resolution only for the very campaign it was worked out
from, unchanged; otherwise it works it out again inside. Either way the outcome is the same."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.campaign import CampaignService
from storage import Database, open_database
from storage import outbox as outbox_repo
from tests.campaign.conftest import ALICE, BOB, CHANNEL, GM, SEED, FakeClock, guess, started


class Calls:
    """Whether the write lock was held at each call of the rule set's resolution."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.locked: list[bool] = []


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch, db: Database) -> Calls:
    from tests.support.guess import GuessRuleset

    seen = Calls(db)
    resolve = GuessRuleset.resolve_with_defaults

    def spy(self: Any, *args: Any, **kwargs: Any) -> Any:
        seen.locked.append(seen.db.writing)
        return resolve(self, *args, **kwargs)

    monkeypatch.setattr(GuessRuleset, "resolve_with_defaults", spy)
    return seen


@pytest_asyncio.fixture
async def other_db(db_path: Path, db: Database) -> AsyncIterator[Database]:
    second = await open_database(db_path)  # its own connections, as another process has
    yield second
    await second.close()


async def committed(db: Database, campaign_id: int) -> tuple[Any, ...]:
    row = await db.fetchone("SELECT state, step_no, resolution_no FROM campaigns WHERE id = ?",
                            (campaign_id,))
    assert row is not None
    sent = [(r.kind, r.content, r.user_id, r.edit_of is None)
            for r in await outbox_repo.all_rows(db, campaign_id)]
    return (*tuple(row), sent)


async def test_the_last_input_resolves_before_the_write_lock(
    service: CampaignService, calls: Calls
) -> None:
    info = await started(service, ALICE, BOB)
    await service.submit(ALICE, info.id, 1, guess(3))
    assert calls.locked == []  # (a stored input resolves nothing)
    result = await service.submit(BOB, info.id, 1, guess(5))
    assert result.resolved
    assert calls.locked == [False]  # once, outside the lock, and taken as it was


async def test_the_same_outcome_as_a_resolution_inside_the_lock(
    service: CampaignService, db: Database, calls: Calls
) -> None:
    info = await started(service, ALICE, BOB)
    await service.submit(ALICE, info.id, 1, guess(3))
    await service.submit(BOB, info.id, 1, guess(5))
    assert calls.locked == [False]
    # the same game in another channel, nothing cached before its last input: resolved
    # inside the lock (the same seed, so the same dice)
    again = await started(service, ALICE, BOB, channel=CHANNEL + 1)
    await service.submit(ALICE, again.id, 1, guess(3))
    service.engine.core.cache.clear()
    await service.submit(BOB, again.id, 1, guess(5))
    assert calls.locked == [False, True]
    assert await committed(db, again.id) == await committed(db, info.id)


async def test_a_write_elsewhere_meanwhile_is_resolved_again_inside(
    service: CampaignService, other_db: Database, clock: FakeClock, calls: Calls
) -> None:
    other = CampaignService(other_db, clock=clock, seed_source=lambda: SEED)
    info = await started(service, ALICE, BOB)
    await service.submit(ALICE, info.id, 1, guess(3))
    await other.gm_extend(GM, info.channel_id, 1.0)  # the cached copy is now stale
    result = await service.submit(BOB, info.id, 1, guess(5))
    assert result.resolved
    # worked out ahead on the stale copy, refused by the version check, then inside again
    assert calls.locked == [False, True]
    row = await service.engine.core.db.fetchone(
        "SELECT resolution_no FROM campaigns WHERE id = ?", (info.id,))
    assert row is not None and row[0] == 1
