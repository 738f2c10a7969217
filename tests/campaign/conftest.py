"""Fixtures for service tests: a real SQLite file, a fake clock, the "guess" rule set."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import pytest_asyncio

from bot.campaign import Actor, CampaignInfo, CampaignService
from bot.rules import embed_limits as embeds
from bot.rules.base import Embed, Ruleset
from storage import Database, open_database
from storage import outbox as outbox_repo
from storage.outbox import OutboxRow
from tests.support.template_db import copy_of

GUILD = 500
CHANNEL = 600
GM = Actor(1, "Gina")
ALICE = Actor(11, "Alice")
BOB = Actor(12, "Bob")
CAROL = Actor(13, "Carol")
DAVE = Actor(14, "Dave")
ADMIN = Actor(99, "Admin", is_admin=True, guild_id=GUILD)
SEED = 424242


class FakeClock:
    """An injected clock that only moves when a test moves it."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, hours: float) -> None:
        self.now += timedelta(hours=hours)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "admiralty.db"


@pytest_asyncio.fixture
async def db(db_path: Path, migrated_template: Path) -> AsyncIterator[Database]:
    # a copy of the run's migrated database, opened as a bot opens it on a restart
    database = await open_database(copy_of(migrated_template, db_path))
    yield database
    await database.close()


@pytest.fixture
def wakes() -> list[int]:
    return []


@pytest.fixture
def service(
    db: Database, clock: FakeClock, guess_rules: Ruleset, wakes: list[int]
) -> CampaignService:
    return CampaignService(db, clock=clock, wake=lambda: wakes.append(1), seed_source=lambda: SEED)


async def started(service: CampaignService, *players: Actor, channel: int = CHANNEL,
                  **settings: str) -> CampaignInfo:
    """A guess campaign in ``channel`` with the given players, started."""
    await service.create(GM, GUILD, channel, "guess", "Dice Cup")
    for p in players:
        await service.join(p, channel)
    if settings:
        await service.settings(GM, channel, settings)
    return await service.start(GM, channel)


async def outbox(db: Database) -> list[OutboxRow]:
    return await outbox_repo.all_rows(db)


def channel_texts(rows: list[OutboxRow]) -> list[str]:
    """Each channel message in its final form, as the channel shows it: an edit (a step
    tracker) replaces the text and the embeds of the message it edits (a result riding on a
    tracker comes with its edit, H-D46); embeds follow the text."""
    final = {r.edit_of: r for r in rows if r.kind == "channel" and r.edit_of}
    shown = [final.get(r.id, r) for r in rows if r.kind == "channel" and not r.edit_of]
    return ["\n".join([r.content,
                       *(embeds.as_text(Embed.model_validate({**e, "image": False}))
                         for e in r.embeds)]).strip()
            for r in shown]


def latest(rows: list[OutboxRow], n: int = 2) -> str:
    """The last ``n`` channel messages in their final form: a result is followed by the
    tracker of the step it opens."""
    return "\n".join(channel_texts(rows)[-n:])


def dms_to(rows: list[OutboxRow], actor: Actor) -> list[OutboxRow]:
    return [r for r in rows if r.kind == "dm" and r.user_id == actor.user_id]


def guess(number: int) -> dict[str, str]:
    return {"type": "guess", "number": str(number)}
