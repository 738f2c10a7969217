"""Per-step player input: sealed submissions, panel drafts, and undo snapshots."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from storage.campaigns import Reader
from storage.db import Tx


async def submissions(db: Reader, campaign_id: int, step_no: int) -> dict[int, dict[str, Any]]:
    """The sealed actions stored for a step, by seat."""
    rows = await db.fetchall(
        "SELECT seat, action FROM submissions WHERE campaign_id = ? AND step_no = ?",
        (campaign_id, step_no),
    )
    return {int(r["seat"]): json.loads(r["action"]) for r in rows}


async def submitted_seats(db: Reader, campaign_id: int, step_no: int) -> set[int]:
    rows = await db.fetchall(
        "SELECT seat FROM submissions WHERE campaign_id = ? AND step_no = ?",
        (campaign_id, step_no),
    )
    return {int(r[0]) for r in rows}


async def put_submission(
    tx: Tx, campaign_id: int, step_no: int, seat: int, user_id: int,
    action: dict[str, Any], now: float,
) -> None:
    await tx.execute(
        "INSERT INTO submissions (campaign_id, step_no, seat, user_id, action, submitted_at)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (campaign_id, step_no, seat) DO UPDATE SET"
        " user_id = excluded.user_id, action = excluded.action,"
        " submitted_at = excluded.submitted_at",
        (campaign_id, step_no, seat, user_id, json.dumps(action), now),
    )


async def replace_submissions(
    tx: Tx, campaign_id: int, step_no: int, actions: dict[int, dict[str, Any]], now: float
) -> None:
    """Drops everything from ``step_no`` on and stores ``actions`` for that step (undo)."""
    await tx.execute(
        "DELETE FROM submissions WHERE campaign_id = ? AND step_no >= ?", (campaign_id, step_no)
    )
    await tx.executemany(
        "INSERT INTO submissions (campaign_id, step_no, seat, user_id, action, submitted_at)"
        " VALUES (?, ?, ?, 0, ?, ?)",
        [(campaign_id, step_no, seat, json.dumps(a), now) for seat, a in actions.items()],
    )


async def draft(db: Reader, campaign_id: int, step_no: int, seat: int) -> dict[str, Any]:
    row = await db.fetchone(
        "SELECT data FROM drafts WHERE campaign_id = ? AND step_no = ? AND seat = ?",
        (campaign_id, step_no, seat),
    )
    return json.loads(row[0]) if row else {}


async def put_draft(
    tx: Tx, campaign_id: int, step_no: int, seat: int, data: dict[str, Any], now: float
) -> None:
    await tx.execute(
        "INSERT INTO drafts (campaign_id, step_no, seat, data, updated_at) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (campaign_id, step_no, seat) DO UPDATE SET data = excluded.data,"
        " updated_at = excluded.updated_at",
        (campaign_id, step_no, seat, json.dumps(data), now),
    )


@dataclass
class Snapshot:
    resolution_no: int
    state: dict[str, Any]
    step_no: int
    step_keys: list[str]
    submissions: dict[int, dict[str, Any]]


async def put_snapshot(
    tx: Tx, campaign_id: int, snap: Snapshot, now: float, *, keep: int, stored: bool = False
) -> None:
    """Stores the state before resolution ``snap.resolution_no`` and deletes the snapshots
    older than the ``keep`` newest (resolution numbers up to ``snap.resolution_no - keep``):
    /gm undo never reaches further back, and a full state per resolution kept forever was
    most of a finished game's database.

    ``stored``: ``snap.state`` is the state the campaign's row holds in the file (nothing
    changed it in this transaction), so SQLite copies that text over instead of it being
    encoded again (issue 17 item 9: FTCamp's 141 KB state was encoded twice per resolution)."""
    if keep < 1:
        raise ValueError(f"keep must be >= 1, got {keep}")
    rest = (snap.step_no, json.dumps(snap.step_keys),
            json.dumps({str(k): v for k, v in snap.submissions.items()}), now)
    # an undo lowers the resolution number, so a number can come round again: replace it
    upsert = (" ON CONFLICT (campaign_id, resolution_no) DO UPDATE SET state = excluded.state,"
              " step_no = excluded.step_no, step_keys = excluded.step_keys,"
              " submissions = excluded.submissions, created_at = excluded.created_at")
    columns = ("INSERT INTO snapshots (campaign_id, resolution_no, state, step_no, step_keys,"
               " submissions, created_at)")
    if stored:
        await tx.execute(
            columns + " SELECT id, ?, IFNULL(state, '{}'), ?, ?, ?, ? FROM campaigns"
            " WHERE id = ?" + upsert, (snap.resolution_no, *rest, campaign_id))
    else:
        await tx.execute(columns + " VALUES (?, ?, ?, ?, ?, ?, ?)" + upsert, (
            campaign_id, snap.resolution_no, json.dumps(snap.state), *rest))
    await tx.execute(
        "DELETE FROM snapshots WHERE campaign_id = ? AND resolution_no <= ?",
        (campaign_id, snap.resolution_no - keep),
    )


async def latest_snapshot(db: Reader, campaign_id: int) -> Snapshot | None:
    row = await db.fetchone(
        "SELECT * FROM snapshots WHERE campaign_id = ? ORDER BY resolution_no DESC LIMIT 1",
        (campaign_id,),
    )
    if row is None:
        return None
    return Snapshot(
        resolution_no=row["resolution_no"],
        state=json.loads(row["state"]),
        step_no=row["step_no"],
        step_keys=json.loads(row["step_keys"]),
        submissions={int(k): v for k, v in json.loads(row["submissions"]).items()},
    )


async def drop_snapshot(tx: Tx, campaign_id: int, resolution_no: int) -> None:
    await tx.execute(
        "DELETE FROM snapshots WHERE campaign_id = ? AND resolution_no = ?",
        (campaign_id, resolution_no),
    )


async def drop_snapshots(tx: Tx, campaign_id: int) -> None:
    """Every undo snapshot of a campaign: one that has ended is never undone (``/gm undo``
    acts on a running campaign only, P-5, and a battle's result, once sent, is the parent's
    to mend, P-13), so its snapshots would only be dead weight in the file."""
    await tx.execute("DELETE FROM snapshots WHERE campaign_id = ?", (campaign_id,))
