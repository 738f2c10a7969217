"""Deadlines each seat missed in a row (the GM is warned after a number of them), whether
the seat is away (P-26: it missed ``away_after`` in a row) and what its next panel says
about the defaults taken for it (P-27). Migrations 004 and 009. An intent reads and writes
these rows through storage/intent_rows.py (one trip); here is what is read outside one."""

from __future__ import annotations

from storage.campaigns import Reader

MAX_NOTES = 5  # a panel says at most this many missed deadlines (the latest)


async def away_seats(db: Reader, campaign_id: int) -> set[int]:
    rows = await db.fetchall(
        "SELECT seat FROM missed_deadlines WHERE campaign_id = ? AND away = 1", (campaign_id,))
    return {int(r[0]) for r in rows}
