"""The GM's digest of missed deadlines (migration 009, P-25): lines that wait for at most one
DM a day per campaign. The day counts from the GM's last DM about missed deadlines."""

from __future__ import annotations

import json

from storage.campaigns import Reader
from storage.db import Tx

DAY = 86400.0


async def queue(tx: Tx, campaign_id: int, lines: list[str]) -> None:
    waiting = await _lines(tx, campaign_id)
    await tx.execute(
        "INSERT INTO gm_digests (campaign_id, lines) VALUES (?, ?)"
        " ON CONFLICT (campaign_id) DO UPDATE SET lines = excluded.lines",
        (campaign_id, json.dumps([*waiting, *lines])))


async def take(tx: Tx, campaign_id: int, now: float) -> list[str]:
    """The waiting lines, now told to the GM (with whatever DM carries them): cleared, and
    the day starts again from ``now``."""
    waiting = await _lines(tx, campaign_id)
    await tx.execute(
        "INSERT INTO gm_digests (campaign_id, lines, told_at) VALUES (?, '[]', ?)"
        " ON CONFLICT (campaign_id) DO UPDATE SET lines = '[]', told_at = excluded.told_at",
        (campaign_id, now))
    return waiting


async def told_at(db: Reader, campaign_id: int) -> float | None:
    row = await db.fetchone("SELECT told_at FROM gm_digests WHERE campaign_id = ?",
                            (campaign_id,))
    return None if row is None or row[0] is None else float(row[0])


async def due(db: Reader, now: float) -> list[int]:
    """Campaigns whose waiting lines may go out now (a day after the GM was last told)."""
    rows = await db.fetchall(
        "SELECT campaign_id FROM gm_digests WHERE lines != '[]'"
        " AND COALESCE(told_at, 0) + ? <= ? ORDER BY campaign_id", (DAY, now))
    return [int(r[0]) for r in rows]


async def next_due(db: Reader, after: float | None = None) -> float | None:
    """When the earliest waiting digest may go out (after ``after``, when given)."""
    row = await db.fetchone(
        "SELECT MIN(COALESCE(told_at, 0) + ?) FROM gm_digests WHERE lines != '[]'"
        " AND COALESCE(told_at, 0) + ? > ?", (DAY, DAY, -1.0 if after is None else after))
    return None if row is None or row[0] is None else float(row[0])


async def drop(tx: Tx, campaign_id: int) -> None:
    """The campaign is over: its waiting lines are no news any more."""
    await tx.execute("UPDATE gm_digests SET lines = '[]' WHERE campaign_id = ?", (campaign_id,))


async def _lines(db: Reader, campaign_id: int) -> list[str]:
    row = await db.fetchone("SELECT lines FROM gm_digests WHERE campaign_id = ?", (campaign_id,))
    if row is None:
        return []
    lines = json.loads(row[0])
    return [str(x) for x in lines] if isinstance(lines, list) else []
