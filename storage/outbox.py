"""Messages waiting to be sent: written in the same transaction as the change they report."""

from __future__ import annotations

from dataclasses import dataclass, field

from storage.campaigns import Reader
from storage.db import Tx

# retry delays in seconds after the 1st, 2nd, ... failure; the last one repeats
BACKOFF = (10.0, 60.0, 300.0, 1800.0)


@dataclass
class NewMessage:
    campaign_id: int | None
    kind: str  # "channel" | "dm"
    content: str
    channel_id: int | None = None
    user_id: int | None = None
    files: list[tuple[str, bytes]] = field(default_factory=list)
    panel: tuple[int, int, int] | None = None  # (campaign_id, step_no, seat)


@dataclass
class OutboxRow:
    id: int
    campaign_id: int | None
    kind: str
    channel_id: int | None
    user_id: int | None
    content: str
    files: list[tuple[str, bytes]]
    panel: tuple[int, int, int] | None
    status: str
    attempts: int
    next_attempt_at: float
    discord_message_id: int | None
    last_error: str | None


_INSERT = (
    "INSERT INTO outbox (campaign_id, kind, channel_id, user_id, content, panel_campaign_id,"
    " panel_step_no, panel_seat, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def _params(m: NewMessage, now: float) -> tuple[object, ...]:
    panel = m.panel or (None, None, None)
    return (m.campaign_id, m.kind, m.channel_id, m.user_id, m.content, *panel, now, now)


async def enqueue(tx: Tx, messages: list[NewMessage], now: float) -> None:
    """Adds the messages in order (ids follow the order, which the dispatcher keeps)."""
    plain: list[tuple[object, ...]] = []
    for m in messages:
        if not m.files:
            plain.append(_params(m, now))
            continue
        if plain:
            await tx.executemany(_INSERT, plain)
            plain = []
        outbox_id = await tx.insert(_INSERT, _params(m, now))
        await tx.executemany(
            "INSERT INTO outbox_files (outbox_id, position, name, data) VALUES (?, ?, ?, ?)",
            [(outbox_id, i, name, data) for i, (name, data) in enumerate(m.files)],
        )
    if plain:
        await tx.executemany(_INSERT, plain)


async def _load(db: Reader, where: str, params: tuple[object, ...]) -> list[OutboxRow]:
    rows = await db.fetchall(f"SELECT * FROM outbox {where}", params)
    files: dict[int, list[tuple[str, bytes]]] = {}
    ids = [r["id"] for r in rows]
    if ids:
        for f in await db.fetchall(
            f"SELECT outbox_id, name, data FROM outbox_files WHERE outbox_id IN"
            f" ({','.join('?' * len(ids))}) ORDER BY outbox_id, position",
            ids,
        ):
            files.setdefault(f["outbox_id"], []).append((f["name"], bytes(f["data"])))
    return [
        OutboxRow(
            id=r["id"], campaign_id=r["campaign_id"], kind=r["kind"], channel_id=r["channel_id"],
            user_id=r["user_id"], content=r["content"], files=files.get(r["id"], []),
            panel=(
                (r["panel_campaign_id"], r["panel_step_no"], r["panel_seat"])
                if r["panel_campaign_id"] is not None
                else None
            ),
            status=r["status"], attempts=r["attempts"], next_attempt_at=r["next_attempt_at"],
            discord_message_id=r["discord_message_id"], last_error=r["last_error"],
        )
        for r in rows
    ]


async def due(db: Reader, now: float, limit: int) -> list[OutboxRow]:
    """Pending rows whose next attempt is due, oldest first."""
    return await _load(
        db, "WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY id LIMIT ?", (now, limit)
    )


async def next_attempt(db: Reader) -> float | None:
    row = await db.fetchone("SELECT MIN(next_attempt_at) FROM outbox WHERE status = 'pending'")
    return row[0] if row and row[0] is not None else None


async def mark_sent(tx: Tx, outbox_id: int, discord_message_id: int | None) -> None:
    await tx.execute(
        "UPDATE outbox SET status = 'sent', attempts = attempts + 1, discord_message_id = ?,"
        " last_error = NULL WHERE id = ?",
        (discord_message_id, outbox_id),
    )


async def mark_retry(tx: Tx, outbox_id: int, error: str, now: float) -> None:
    row = await tx.fetchone("SELECT attempts FROM outbox WHERE id = ?", (outbox_id,))
    attempts = int(row[0]) if row else 0
    delay = BACKOFF[min(attempts, len(BACKOFF) - 1)]
    await tx.execute(
        "UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ?"
        " WHERE id = ? AND status = 'pending'",
        (error[:500], now + delay, outbox_id),
    )


async def mark_failed(tx: Tx, outbox_id: int, error: str) -> None:
    await tx.execute(
        "UPDATE outbox SET status = 'failed', attempts = attempts + 1, last_error = ?"
        " WHERE id = ?",
        (error[:500], outbox_id),
    )


async def drop_pending_panels(tx: Tx, campaign_id: int, user_id: int) -> None:
    """Fails unsent DMs to a user (their DMs are closed): nothing retries them."""
    await tx.execute(
        "UPDATE outbox SET status = 'failed', last_error = 'DMs closed'"
        " WHERE campaign_id = ? AND user_id = ? AND kind = 'dm' AND status = 'pending'",
        (campaign_id, user_id),
    )


async def all_rows(db: Reader, campaign_id: int | None = None) -> list[OutboxRow]:
    """Every row (tests and admin tools), oldest first."""
    if campaign_id is None:
        return await _load(db, "ORDER BY id", ())
    return await _load(db, "WHERE campaign_id = ? ORDER BY id", (campaign_id,))
