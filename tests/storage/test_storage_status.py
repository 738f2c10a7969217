"""The status enums are the columns' CHECK constraints, and they are stored as their text."""

from __future__ import annotations

import re
from enum import StrEnum
from pathlib import Path

import pytest

from storage import campaigns, open_database
from storage.status import LIVE, DeadlineStatus, OutboxStatus, Status


@pytest.mark.parametrize("table, enum", [
    ("campaigns", Status), ("deadlines", DeadlineStatus), ("outbox", OutboxStatus),
])
async def test_each_enum_is_its_columns_check_constraint(tmp_path: Path, table: str,
                                                         enum: type[StrEnum]) -> None:
    db = await open_database(tmp_path / "bot.db")
    try:
        row = await db.fetchone("SELECT sql FROM sqlite_master WHERE name = ?", (table,))
        assert row is not None
        found = re.search(r"CHECK \(status IN \(([^)]*)\)\)", row[0])
        assert found is not None
        allowed = {v.strip().strip("'") for v in found.group(1).split(",")}
        assert allowed == {m.value for m in enum}
    finally:
        await db.close()


async def test_a_campaign_status_is_stored_as_text_and_read_as_the_enum(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "bot.db")
    try:
        async with db.transaction() as tx:
            cid = await campaigns.insert(
                tx, guild_id=1, channel_id=2, ruleset="orbits", name="c", gm_user_id=3,
                options={}, settings={}, seed=4, parent_id=None, parent_ref=None, now=0.0)
        row = await campaigns.get(db, cid)
        assert row is not None and row.status is Status.SETUP
        row.status = Status.PAUSED
        async with db.transaction() as tx:
            await campaigns.save(tx, row, 1.0)
        raw = await db.fetchone("SELECT status, typeof(status) FROM campaigns WHERE id = ?",
                                (cid,))
        assert raw is not None and (raw[0], raw[1]) == ("paused", "text")
        again = await campaigns.get(db, cid)
        assert again is not None and again.status is Status.PAUSED
        assert again.status in LIVE and Status.SETUP not in LIVE and Status.ENDED not in LIVE
        assert f"{again.status}" == "paused"  # formatted as its value, like the string was
    finally:
        await db.close()
