"""Deadlines (one per open step) and their reminders."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from storage.campaigns import Reader
from storage.db import Tx
from storage.status import DeadlineStatus

HOUR = 3600.0


class TimerKind(StrEnum):
    DEADLINE = "deadline"
    REMINDER = "reminder"
    DIGEST = "digest"  # a campaign's digest of defaults (storage.digests)


class TimerKey(NamedTuple):
    """One timer the scheduler fires: which kind, of which campaign and step (a digest's
    step is 0); a reminder's ``offset_hours`` before its deadline tells it from the others."""

    kind: TimerKind
    campaign_id: int
    step_no: int
    offset_hours: float | None = None

    @classmethod
    def deadline(cls, campaign_id: int, step_no: int) -> TimerKey:
        return cls(TimerKind.DEADLINE, campaign_id, step_no)

    @classmethod
    def reminder(cls, campaign_id: int, step_no: int, offset_hours: float) -> TimerKey:
        return cls(TimerKind.REMINDER, campaign_id, step_no, offset_hours)

    @classmethod
    def digest(cls, campaign_id: int) -> TimerKey:
        return cls(TimerKind.DIGEST, campaign_id, 0)


@dataclass
class DeadlineRow:
    campaign_id: int
    step_no: int
    due_at: float | None
    remaining: float | None
    status: DeadlineStatus


async def get(db: Reader, campaign_id: int, step_no: int) -> DeadlineRow | None:
    row = await db.fetchone(
        "SELECT * FROM deadlines WHERE campaign_id = ? AND step_no = ?", (campaign_id, step_no)
    )
    if row is None:
        return None
    return DeadlineRow(
        campaign_id=row["campaign_id"], step_no=row["step_no"], due_at=row["due_at"],
        remaining=row["remaining"], status=DeadlineStatus(row["status"]),
    )


async def open_deadline(
    tx: Tx, campaign_id: int, step_no: int, due_at: float, offsets: list[float], now: float
) -> None:
    """A new step's deadline; reminders already in the past are skipped (the step just
    opened, so everybody has just been told)."""
    await tx.execute(
        "INSERT OR REPLACE INTO deadlines (campaign_id, step_no, due_at, status)"
        " VALUES (?, ?, ?, 'open')",
        (campaign_id, step_no, due_at),
    )
    await arm_reminders(tx, campaign_id, step_no, due_at, offsets, now, catch_up=False,
                        done={})


async def arm_reminders(
    tx: Tx, campaign_id: int, step_no: int, due_at: float, offsets: list[float], now: float,
    *, catch_up: bool, done: dict[float, float | None] | None = None,
) -> None:
    """(Re)computes the reminders of a deadline at ``due_at``.

    Offsets still ahead are armed again (also ones sent before the deadline moved). Of the
    offsets now behind, at most the nearest one is sent at once (``catch_up``) so moving a
    deadline never sends a burst; the others are marked done. ``done``: when each offset was
    sent (read from the table unless given)."""
    if done is None:
        done = {
            float(r["offset_hours"]): r["done_at"]
            for r in await tx.fetchall(
                "SELECT offset_hours, done_at FROM reminders WHERE campaign_id = ? AND step_no = ?",
                (campaign_id, step_no),
            )
        }
    rows: list[tuple[object, ...]] = []
    behind = sorted(o for o in offsets if due_at - o * HOUR <= now)
    for offset in offsets:
        when = due_at - offset * HOUR
        if when > now:
            rows.append((campaign_id, step_no, offset, when, None))
        elif catch_up and offset == behind[0] and done.get(offset) is None:
            rows.append((campaign_id, step_no, offset, now, None))
        else:
            rows.append((campaign_id, step_no, offset, when, done.get(offset) or now))
    await tx.execute(
        "DELETE FROM reminders WHERE campaign_id = ? AND step_no = ?", (campaign_id, step_no)
    )
    await tx.executemany(
        "INSERT INTO reminders (campaign_id, step_no, offset_hours, due_at, done_at)"
        " VALUES (?, ?, ?, ?, ?)",
        rows,
    )


async def move(
    tx: Tx, campaign_id: int, step_no: int, due_at: float, offsets: list[float], now: float
) -> None:
    """Moves an open deadline (``/gm extend``, resume) and re-arms its reminders."""
    await tx.execute(
        "INSERT INTO deadlines (campaign_id, step_no, due_at, status) VALUES (?, ?, ?, 'open')"
        " ON CONFLICT (campaign_id, step_no) DO UPDATE SET due_at = excluded.due_at,"
        " remaining = NULL, status = 'open', fired_at = NULL",
        (campaign_id, step_no, due_at),
    )
    await arm_reminders(tx, campaign_id, step_no, due_at, offsets, now, catch_up=True)


async def close_open(tx: Tx, campaign_id: int) -> None:
    """The step is over: its deadline and unsent reminders will never fire."""
    await tx.execute(
        "UPDATE deadlines SET status = 'closed' WHERE campaign_id = ? AND status = 'open'",
        (campaign_id,),
    )


async def hurry(tx: Tx, campaign_id: int, step_no: int, now: float) -> bool:
    """P-26: the open deadline of a step that waits only for away seats falls due now (once:
    a deadline already due, fired or paused is left as it is)."""
    changed = await tx.changed(
        "UPDATE deadlines SET due_at = ? WHERE campaign_id = ? AND step_no = ?"
        " AND status = 'open' AND due_at > ?", (now, campaign_id, step_no, now))
    return changed == 1


async def pause(tx: Tx, campaign_id: int, now: float) -> None:
    """Freezes the time left on the open deadline."""
    await tx.execute(
        "UPDATE deadlines SET remaining = MAX(due_at - ?, 0), due_at = NULL"
        " WHERE campaign_id = ? AND status = 'open' AND due_at IS NOT NULL",
        (now, campaign_id),
    )


async def fire(tx: Tx, campaign_id: int, step_no: int, now: float) -> bool:
    """Marks the deadline fired; False if it already was (or closed): fire exactly once."""
    changed = await tx.changed(
        "UPDATE deadlines SET status = 'fired', fired_at = ?"
        " WHERE campaign_id = ? AND step_no = ? AND status = 'open' AND due_at <= ?",
        (now, campaign_id, step_no, now),
    )
    return changed == 1


async def reminder_done(
    tx: Tx, campaign_id: int, step_no: int, offset: float, now: float
) -> bool:
    """Marks a reminder sent; False if it already was: send exactly once."""
    changed = await tx.changed(
        "UPDATE reminders SET done_at = ? WHERE campaign_id = ? AND step_no = ?"
        " AND offset_hours = ? AND done_at IS NULL AND due_at <= ?",
        (now, campaign_id, step_no, offset, now),
    )
    return changed == 1


async def due_deadlines(db: Reader, now: float) -> list[tuple[int, int]]:
    rows = await db.fetchall(
        "SELECT campaign_id, step_no FROM deadlines WHERE status = 'open' AND due_at <= ?"
        " ORDER BY due_at",
        (now,),
    )
    return [(int(r[0]), int(r[1])) for r in rows]


async def due_reminders(db: Reader, now: float) -> list[tuple[int, int, float]]:
    rows = await db.fetchall(
        "SELECT r.campaign_id, r.step_no, r.offset_hours FROM reminders r"
        " JOIN deadlines d ON d.campaign_id = r.campaign_id AND d.step_no = r.step_no"
        " WHERE r.done_at IS NULL AND r.due_at <= ? AND d.status = 'open'"
        " AND d.due_at IS NOT NULL ORDER BY r.due_at",
        (now,),
    )
    return [(int(r[0]), int(r[1]), float(r[2])) for r in rows]


async def next_due(db: Reader) -> float | None:
    """The earliest open deadline or unsent reminder (of a running deadline)."""
    row = await db.fetchone(
        "SELECT MIN(t) FROM ("
        " SELECT due_at AS t FROM deadlines WHERE status = 'open' AND due_at IS NOT NULL"
        " UNION ALL"
        " SELECT r.due_at FROM reminders r JOIN deadlines d"
        " ON d.campaign_id = r.campaign_id AND d.step_no = r.step_no"
        " WHERE r.done_at IS NULL AND d.status = 'open' AND d.due_at IS NOT NULL)"
    )
    return row[0] if row and row[0] is not None else None


async def next_due_after(db: Reader, after: float) -> float | None:
    """``next_due`` among the timers due later than ``after`` (the scheduler skips the ones
    that failed and wait for a retry)."""
    row = await db.fetchone(
        "SELECT MIN(t) FROM ("
        " SELECT due_at AS t FROM deadlines WHERE status = 'open' AND due_at > ?"
        " UNION ALL"
        " SELECT r.due_at FROM reminders r JOIN deadlines d"
        " ON d.campaign_id = r.campaign_id AND d.step_no = r.step_no"
        " WHERE r.done_at IS NULL AND r.due_at > ? AND d.status = 'open'"
        " AND d.due_at IS NOT NULL)",
        (after, after),
    )
    return row[0] if row and row[0] is not None else None
