"""Seats of a campaign: who sits where, whether DMs reach them, vacant seats."""

from __future__ import annotations

from dataclasses import dataclass

from storage.campaigns import Reader
from storage.db import Row, Tx


@dataclass
class PlayerRow:
    campaign_id: int
    seat: int
    user_id: int
    name: str
    dm_ok: bool
    active: bool

    @classmethod
    def from_row(cls, row: Row) -> PlayerRow:
        return cls(
            campaign_id=row["campaign_id"],
            seat=row["seat"],
            user_id=row["user_id"],
            name=row["name"],
            dm_ok=bool(row["dm_ok"]),
            active=bool(row["active"]),
        )


async def of_campaign(db: Reader, campaign_id: int) -> list[PlayerRow]:
    rows = await db.fetchall(
        "SELECT * FROM players WHERE campaign_id = ? ORDER BY seat", (campaign_id,)
    )
    return [PlayerRow.from_row(r) for r in rows]


async def add(tx: Tx, campaign_id: int, seat: int, user_id: int, name: str, now: float) -> None:
    await tx.execute(
        "INSERT INTO players (campaign_id, seat, user_id, name, joined_at) VALUES (?, ?, ?, ?, ?)",
        (campaign_id, seat, user_id, name, now),
    )


async def remove(tx: Tx, campaign_id: int, seat: int) -> None:
    await tx.execute("DELETE FROM players WHERE campaign_id = ? AND seat = ?", (campaign_id, seat))


async def set_vacant(tx: Tx, campaign_id: int, seat: int) -> None:
    await tx.execute(
        "UPDATE players SET active = 0 WHERE campaign_id = ? AND seat = ?", (campaign_id, seat)
    )


async def reseat(
    tx: Tx, campaign_id: int, seat: int, user_id: int, name: str, now: float
) -> None:
    """Gives a seat to another member (``gm_replace``)."""
    await tx.execute(
        "UPDATE players SET user_id = ?, name = ?, active = 1, dm_ok = 1, joined_at = ?"
        " WHERE campaign_id = ? AND seat = ?",
        (user_id, name, now, campaign_id, seat),
    )


async def renumber(tx: Tx, campaign_id: int, seats: list[int]) -> None:
    """Closes the gaps left by players who left before the start: seats become 1..n."""
    for new, old in enumerate(seats, start=1):
        if new != old:
            await tx.execute(
                "UPDATE players SET seat = ? WHERE campaign_id = ? AND seat = ?",
                (new, campaign_id, old),
            )


async def close_dms(tx: Tx, user_id: int) -> list[int]:
    """Marks every seat of the user as not reachable by DM; returns the campaigns touched."""
    rows = await tx.fetchall(
        "SELECT DISTINCT p.campaign_id FROM players p JOIN campaigns c ON c.id = p.campaign_id"
        " WHERE p.user_id = ? AND p.active = 1 AND p.dm_ok = 1 AND c.status != 'ended'",
        (user_id,),
    )
    ids = [int(r[0]) for r in rows]
    if ids:
        await tx.execute(
            f"UPDATE players SET dm_ok = 0 WHERE user_id = ? AND campaign_id IN"
            f" ({','.join('?' * len(ids))})",
            (user_id, *ids),
        )
    return ids
