"""The append-only event log, each row with its audience."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from storage.campaigns import Reader
from storage.db import Tx


@dataclass
class EventRow:
    step_no: int
    resolution_no: int
    audience: str
    seat: int | None
    kind: str
    text: str
    data: dict[str, Any]
    created_at: float


async def append(tx: Tx, campaign_id: int, rows: list[EventRow]) -> None:
    if not rows:
        return
    await tx.executemany(
        "INSERT INTO events (campaign_id, step_no, resolution_no, audience, seat, kind, text,"
        " data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                campaign_id, r.step_no, r.resolution_no, r.audience, r.seat, r.kind, r.text,
                json.dumps(r.data), r.created_at,
            )
            for r in rows
        ],
    )


async def recent(
    db: Reader, campaign_id: int, audiences: tuple[str, ...], limit: int
) -> list[EventRow]:
    """The latest ``limit`` events for the given audiences, oldest first."""
    marks = ",".join("?" * len(audiences))
    rows = await db.fetchall(
        f"SELECT * FROM events WHERE campaign_id = ? AND audience IN ({marks})"
        " ORDER BY id DESC LIMIT ?",
        (campaign_id, *audiences, limit),
    )
    return [
        EventRow(
            step_no=r["step_no"], resolution_no=r["resolution_no"], audience=r["audience"],
            seat=r["seat"], kind=r["kind"], text=r["text"], data=json.loads(r["data"]),
            created_at=r["created_at"],
        )
        for r in reversed(rows)
    ]


async def texts_of_resolution(
    db: Reader, campaign_id: int, resolution_no: int, audience: str, limit: int
) -> list[str]:
    """The first ``limit`` texts one resolution logged for one audience (what /gm undo
    takes back), oldest first."""
    rows = await db.fetchall(
        "SELECT text FROM events WHERE campaign_id = ? AND resolution_no = ? AND audience = ?"
        " ORDER BY id LIMIT ?",
        (campaign_id, resolution_no, audience, limit),
    )
    return [str(r["text"]) for r in rows]


async def of_kinds(db: Reader, campaign_id: int, kinds: tuple[str, ...]) -> list[EventRow]:
    """Every event of the given kinds, oldest first (P-23: the seats whose orders an undo
    locked, and those the GM reopened)."""
    marks = ",".join("?" * len(kinds))
    # sorted here, not by ORDER BY id: that would make the planner walk the campaign's
    # whole log in id order rather than seek the few marks through events_by_kind
    rows = sorted(await db.fetchall(
        f"SELECT * FROM events WHERE campaign_id = ? AND kind IN ({marks})",
        (campaign_id, *kinds),
    ), key=lambda r: r["id"])
    return [
        EventRow(
            step_no=r["step_no"], resolution_no=r["resolution_no"], audience=r["audience"],
            seat=r["seat"], kind=r["kind"], text=r["text"], data=json.loads(r["data"]),
            created_at=r["created_at"],
        )
        for r in rows
    ]
