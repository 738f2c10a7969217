"""Deadlines each seat missed in a row (the GM is warned after a number of them), whether
the seat is away (P-26: it missed ``away_after`` in a row) and what its next panel says
about the defaults taken for it (P-27). Migrations 004 and 009."""

from __future__ import annotations

import json

from storage.campaigns import Reader
from storage.db import Tx

MAX_NOTES = 5  # a panel says at most this many missed deadlines (the latest)


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


async def clear(tx: Tx, campaign_id: int, seats: list[int]) -> list[int]:
    """The seats acted themselves: their run of missed deadlines is over and they are no
    longer away. Returns those of them that were away (they are back)."""
    if not seats:
        return []
    marks = ",".join("?" * len(seats))
    rows = await tx.fetchall(
        f"SELECT seat FROM missed_deadlines WHERE campaign_id = ? AND away = 1"
        f" AND seat IN ({marks}) ORDER BY seat", (campaign_id, *seats))
    await tx.executemany(
        "DELETE FROM missed_deadlines WHERE campaign_id = ? AND seat = ?",
        [(campaign_id, s) for s in seats])
    return [int(r[0]) for r in rows]


async def away_seats(db: Reader, campaign_id: int) -> set[int]:
    rows = await db.fetchall(
        "SELECT seat FROM missed_deadlines WHERE campaign_id = ? AND away = 1", (campaign_id,))
    return {int(r[0]) for r in rows}


async def set_away(tx: Tx, campaign_id: int, seat: int) -> bool:
    """The seat is away from now on; False if it already was (it is told once)."""
    changed = await tx.changed(
        "UPDATE missed_deadlines SET away = 1 WHERE campaign_id = ? AND seat = ? AND away = 0",
        (campaign_id, seat))
    return changed == 1


async def add_note(tx: Tx, campaign_id: int, seat: int, line: str) -> None:
    """A line for the seat's next panel (a default taken for it); the latest MAX_NOTES kept."""
    notes = [*await _notes(tx, campaign_id, seat), line][-MAX_NOTES:]
    await tx.execute(
        "INSERT INTO missed_deadlines (campaign_id, seat, in_row, note) VALUES (?, ?, 0, ?)"
        " ON CONFLICT (campaign_id, seat) DO UPDATE SET note = excluded.note",
        (campaign_id, seat, json.dumps(notes)))


async def take_notes(tx: Tx, campaign_id: int, seat: int) -> list[str]:
    """The lines waiting for the seat's next panel, now shown: they are cleared."""
    notes = await _notes(tx, campaign_id, seat)
    if notes:
        await tx.execute(
            "UPDATE missed_deadlines SET note = NULL WHERE campaign_id = ? AND seat = ?",
            (campaign_id, seat))
    return notes


async def _notes(db: Reader, campaign_id: int, seat: int) -> list[str]:
    row = await db.fetchone(
        "SELECT note FROM missed_deadlines WHERE campaign_id = ? AND seat = ?",
        (campaign_id, seat))
    if row is None or not row[0]:
        return []
    notes = json.loads(row[0])
    return [str(n) for n in notes] if isinstance(notes, list) else []
