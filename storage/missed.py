"""Deadlines each seat missed in a row (the GM is warned after a number of them)."""

from __future__ import annotations

from storage.db import Tx


async def count(tx: Tx, campaign_id: int, seat: int) -> int:
    """One more missed deadline for the seat; returns how many in a row now."""
    await tx.execute(
        "INSERT INTO missed_deadlines (campaign_id, seat, in_row) VALUES (?, ?, 1)"
        " ON CONFLICT (campaign_id, seat) DO UPDATE SET in_row = missed_deadlines.in_row + 1",
        (campaign_id, seat),
    )
    row = await tx.fetchone(
        "SELECT in_row FROM missed_deadlines WHERE campaign_id = ? AND seat = ?",
        (campaign_id, seat))
    return int(row[0]) if row else 0


async def clear(tx: Tx, campaign_id: int, seats: list[int]) -> None:
    """The seats acted themselves: their run of missed deadlines is over."""
    await tx.executemany(
        "DELETE FROM missed_deadlines WHERE campaign_id = ? AND seat = ?",
        [(campaign_id, s) for s in seats])
