"""Messages waiting to be sent: written in the same transaction as the change they report.

A message's pictures are stored as requests (renderer and view); the dispatcher draws them
when it sends the message, and they are deleted once the message is sent or has failed.

Ids are never reused (migration 008, P-33): whatever is keyed by an outbox id (a sent-mark,
the drawn pictures, a tracker's or panel's first post) names one row for good."""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from storage.campaigns import Reader, StaleVersion
from storage.db import Tx
from storage.status import OutboxStatus


@dataclass(frozen=True)
class Picture:
    """A picture to attach: ``name`` is the file name; ``renderer`` of rule set ``ruleset``
    draws ``view``. ``data`` holds bytes drawn before pictures were requests (migration 003)."""

    name: str
    ruleset: str = ""
    renderer: str = ""
    view: dict[str, Any] = field(default_factory=dict)
    data: bytes | None = None


@dataclass
class NewMessage:
    campaign_id: int | None
    kind: str  # "channel" | "dm"
    content: str
    channel_id: int | None = None
    user_id: int | None = None
    pictures: list[Picture] = field(default_factory=list)
    panel: tuple[int, int, int] | None = None  # (campaign_id, step_no, seat)
    notice: bool = False  # the bot's own "could not deliver" note: its failure tells nobody
    # outbox id of the message this one EDITS (a tracker); same destination as that one
    edit_of: int | None = None
    # {title, description, fields, footer, image}: `image` names one of `pictures` (005)
    embeds: list[dict[str, Any]] = field(default_factory=list)
    # the users this message may ping (P-34): text from users never pings, roles and
    # @everyone never do
    mentions: list[int] = field(default_factory=list)


@dataclass
class OutboxRow:
    id: int
    campaign_id: int | None
    kind: str
    channel_id: int | None
    user_id: int | None
    content: str
    pictures: list[Picture]
    panel: tuple[int, int, int] | None
    status: OutboxStatus
    attempts: int
    next_attempt_at: float
    discord_message_id: int | None
    last_error: str | None
    notice: bool = False
    edit_of: int | None = None
    # an edit's target: the Discord id its original row recorded (None: not posted / failed)
    target_message_id: int | None = None
    embeds: list[dict[str, Any]] = field(default_factory=list)
    nonce: str | None = None  # sent with each post (008): a retry makes no second copy
    pieces_sent: int = 0  # pieces of an overlong message already on Discord (008)
    mentions: list[int] = field(default_factory=list)
    started: bool = False  # a panel DM's post was begun before (008)


@dataclass
class TrackerRow:
    """A campaign's current step tracker: its key, its first post's outbox row, its data."""

    campaign_id: int
    key: str
    outbox_id: int
    data: dict[str, Any]


# The id is the highest ever given plus one (migration 008, ``OutboxIds``): never one of a
# deleted row, so a send of a row that was superseded meanwhile can never mark its successor
# (P-33).
_INSERT_PICTURE = (
    "INSERT INTO outbox_files (outbox_id, position, name, ruleset, renderer, view, data)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
)
# Per destination only the oldest pending message may go: a message that waits for a retry
# holds back the ones after it to the same place, never the others.
_HEAD = (
    "status = 'pending' AND NOT EXISTS (SELECT 1 FROM outbox AS older"
    " WHERE older.status = 'pending' AND older.id < outbox.id AND older.kind = outbox.kind"
    " AND older.channel_id IS outbox.channel_id AND older.user_id IS outbox.user_id)"
)


def _params(m: NewMessage, now: float, attempts: int = 0,
            at: float | None = None) -> tuple[object, ...]:
    panel = m.panel or (None, None, None)
    return (m.campaign_id, m.kind, m.channel_id, m.user_id, m.content, *panel, int(m.notice),
            now if at is None else at, now, m.edit_of, attempts,
            json.dumps(m.embeds) if m.embeds else None, new_nonce(),
            json.dumps(sorted(set(m.mentions))) if m.mentions else None)


def new_nonce() -> str:
    """16 hex digits: with a piece suffix within Discord's 25 characters."""
    return secrets.token_hex(8)


def _picture_params(outbox_id: int, position: int, p: Picture) -> tuple[object, ...]:
    if p.data is not None:
        return (outbox_id, position, p.name, None, None, None, p.data)
    return (outbox_id, position, p.name, p.ruleset, p.renderer, json.dumps(p.view), None)


_MEMO = "outbox_last"
_COLUMNS = ("id, campaign_id, kind, channel_id, user_id, content, panel_campaign_id,"
            " panel_step_no, panel_seat, notice, next_attempt_at, created_at, edit_of, attempts,"
            " embeds, nonce, mentions")
_INSERT_AS = f"INSERT INTO outbox ({_COLUMNS}) VALUES ({', '.join('?' * 17)})"
# An edit takes the tries and backoff of the pending edits of its message it supersedes (a
# rate limit is still respected); the aggregate reads them in the same statement.
_INSERT_EDIT = (
    f"INSERT INTO outbox ({_COLUMNS}) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
    " MAX(?, COALESCE(MAX(next_attempt_at), ?)), ?, ?, COALESCE(MAX(attempts), 0), ?, ?, ?"
    " FROM outbox WHERE edit_of = ? AND status = 'pending'"
)


class OutboxIds:
    """The outbox ids one transaction gives, counted in memory from the highest id ever given
    (``outbox_ids``, 008): taking one costs no trip to the writer. The count is remembered
    between transactions (``Tx.memo``); a transaction that starts from it first checks, in
    its first batch of writes, that no other writer gave ids meanwhile (else ``StaleVersion``:
    the intent is decided again with the fresh count)."""

    def __init__(self, tx: Tx, last: int) -> None:
        self._tx = tx
        self.last = last

    def take(self) -> int:
        self.last += 1
        self._tx.memo[_MEMO] = self.last
        return self.last


async def ids(tx: Tx, *, fresh: bool = False) -> OutboxIds:
    """The transaction's ids; ``fresh``: read the highest id given (one trip) rather than
    trust the count remembered (for writes outside an intent, which are not decided again)."""
    found: OutboxIds | None = tx.local.get(_MEMO)
    if found is not None and not fresh:
        return found
    last = None if fresh else tx.memo.get(_MEMO)
    if last is None:
        row = await tx.fetchone("SELECT last FROM outbox_ids")
        last = int(row[0]) if row is not None else 0
        if found is not None:  # (an insert that named no id moved the sequence on)
            found.last = max(found.last, last)
            return found
    else:
        await tx.execute("UPDATE outbox_ids SET last = last WHERE last = ?", (last,),
                         must_change=StaleVersion("outbox ids were given by another writer"))
    found = tx.local[_MEMO] = OutboxIds(tx, last)
    tx.memo[_MEMO] = last
    return found


@dataclass(frozen=True)
class Queued:
    """A row this transaction added (storage/intent_rows.py: the channel's last post, the
    latest DM of a user)."""

    id: int
    kind: str
    channel_id: int | None
    user_id: int | None
    edit_of: int | None


def queue(tx: Tx, messages: list[tuple[int, NewMessage]], now: float) -> None:
    """Queues the messages, each with the id ``OutboxIds`` gave it, in that order (the
    dispatcher keeps it); no trip of its own: they go with the transaction's next one.

    An edit supersedes the pending edits of the same message (only the latest content
    matters): they are deleted and the new one takes the place at the END of the queue (so
    it never overtakes a send enqueued before it), keeping their tries and backoff. A
    dispatcher holding a deleted row finds nothing to mark. Edits of that message already
    sent (or given up) are deleted too: the message shows the latest, each is the whole text
    again, and the event log keeps every public line, so a tracker edited 600 times in a game
    keeps one row, not 600 (issue 9, bounded storage)."""
    plain: list[tuple[object, ...]] = []
    made: list[Queued] = tx.local.setdefault("outbox_rows", [])
    for outbox_id, m in messages:
        made.append(Queued(outbox_id, m.kind, m.channel_id, m.user_id, m.edit_of))
        if m.edit_of is None:
            plain.append((outbox_id, *_params(m, now)))
        else:
            tx.queue_many(_INSERT_AS, plain)
            plain = []
            tx.queue("DELETE FROM outbox WHERE edit_of = ? AND status IN ('sent', 'failed')",
                     (m.edit_of,))
            p = _params(m, now)
            # (p: campaign .. notice, next_attempt_at, created_at, edit_of, attempts, rest)
            tx.queue(_INSERT_EDIT, (outbox_id, *p[:9], now, now, p[10], p[11], *p[13:],
                                    m.edit_of))
            tx.queue("DELETE FROM outbox WHERE edit_of = ? AND status = 'pending' AND id != ?",
                     (m.edit_of, outbox_id))
        if m.pictures:  # (right after its row: a later edit's delete may cascade to them)
            tx.queue_many(_INSERT_AS, plain)
            plain = []
            tx.queue_many(_INSERT_PICTURE, [_picture_params(outbox_id, i, p)
                                            for i, p in enumerate(m.pictures)])
    tx.queue_many(_INSERT_AS, plain)


async def enqueue(tx: Tx, messages: list[NewMessage], now: float) -> None:
    """Adds the messages in order (ids follow the order, which the dispatcher keeps); for
    writes outside an intent (an intent's go through its unit of work)."""
    given = await ids(tx, fresh=True)
    queue(tx, [(given.take(), m) for m in messages], now)


async def enqueue_one(tx: Tx, m: NewMessage, now: float) -> int:
    """Adds one message (``queue``) and returns its outbox id."""
    outbox_id = (await ids(tx, fresh=True)).take()
    queue(tx, [(outbox_id, m)], now)
    return outbox_id


def _picture(row: Any) -> Picture:
    if row["data"] is not None:
        return Picture(row["name"], data=bytes(row["data"]))
    return Picture(row["name"], row["ruleset"], row["renderer"], json.loads(row["view"]))


async def _load(db: Reader, where: str, params: tuple[object, ...]) -> list[OutboxRow]:
    rows = await db.fetchall(
        "SELECT *, (SELECT o.discord_message_id FROM outbox AS o WHERE o.id = outbox.edit_of)"
        f" AS target_message_id FROM outbox {where}", params)
    pictures: dict[int, list[Picture]] = {}
    ids = [r["id"] for r in rows]
    if ids:
        for f in await db.fetchall(
            f"SELECT * FROM outbox_files WHERE outbox_id IN"
            f" ({','.join('?' * len(ids))}) ORDER BY outbox_id, position",
            ids,
        ):
            pictures.setdefault(f["outbox_id"], []).append(_picture(f))
    return [
        OutboxRow(
            id=r["id"], campaign_id=r["campaign_id"], kind=r["kind"], channel_id=r["channel_id"],
            user_id=r["user_id"], content=r["content"], pictures=pictures.get(r["id"], []),
            panel=(
                (r["panel_campaign_id"], r["panel_step_no"], r["panel_seat"])
                if r["panel_campaign_id"] is not None
                else None
            ),
            status=OutboxStatus(r["status"]), attempts=r["attempts"],
            next_attempt_at=r["next_attempt_at"],
            discord_message_id=r["discord_message_id"], last_error=r["last_error"],
            notice=bool(r["notice"]), edit_of=r["edit_of"],
            target_message_id=r["target_message_id"],
            embeds=json.loads(r["embeds"]) if r["embeds"] else [],
            nonce=r["nonce"], pieces_sent=r["pieces_sent"],
            mentions=json.loads(r["mentions"]) if r["mentions"] else [],
            started=bool(r["started"]),
        )
        for r in rows
    ]


async def due(db: Reader, now: float, limit: int) -> list[OutboxRow]:
    """The oldest pending message of each destination, when its next attempt is due, oldest
    first."""
    return await _load(
        db, f"WHERE {_HEAD} AND next_attempt_at <= ? ORDER BY id LIMIT ?", (now, limit)
    )


async def next_attempt(db: Reader) -> float | None:
    """When the next message may go (the earliest of each destination's oldest pending one)."""
    row = await db.fetchone(f"SELECT MIN(next_attempt_at) FROM outbox WHERE {_HEAD}")
    return row[0] if row and row[0] is not None else None


async def get(db: Reader, outbox_id: int) -> OutboxRow | None:
    rows = await _load(db, "WHERE id = ?", (outbox_id,))
    return rows[0] if rows else None


async def mark_sent(tx: Tx, outbox_id: int, discord_message_id: int | None,
                    edit_of: int | None = None) -> bool:
    """Sent: its picture requests are dropped (the picture lives on Discord now). Only that
    row (ids are never reused, 008): False when it is gone (a newer edit superseded it while
    it was being sent; that one still goes out).

    ``edit_of``: the original an edit belongs to. An edit that had to post its message anew
    (the old one was gone) gives the original the new id even when the edit row itself was
    superseded meanwhile, so the newer edit edits that post instead of posting a third."""
    changed = await tx.changed(
        "UPDATE outbox SET status = 'sent', attempts = attempts + 1, discord_message_id = ?,"
        " last_error = NULL WHERE id = ?",
        (discord_message_id, outbox_id),
    )
    await tx.execute("DELETE FROM outbox_files WHERE outbox_id = ?", (outbox_id,))
    if discord_message_id is not None:
        # the caller's ``edit_of`` holds when the row is gone; else the row's own
        await tx.execute(
            "UPDATE outbox SET discord_message_id = ? WHERE id = COALESCE(?, (SELECT edit_of"
            " FROM outbox WHERE id = ?))", (discord_message_id, edit_of, outbox_id))
    return changed > 0


async def mark_pieces(tx: Tx, outbox_id: int, pieces_sent: int) -> None:
    """``pieces_sent`` pieces of the row's overlong message are on Discord: a retry, also
    after a restart, goes on with the next one."""
    await tx.execute("UPDATE outbox SET pieces_sent = ? WHERE id = ? AND status = 'pending'",
                     (pieces_sent, outbox_id))


async def mark_retry(tx: Tx, outbox_id: int, error: str, next_attempt_at: float) -> None:
    """A failed try; the caller's retry policy chose when to try again."""
    await tx.execute(
        "UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ?"
        " WHERE id = ? AND status = 'pending'",
        (error[:500], next_attempt_at, outbox_id),
    )


async def mark_failed(tx: Tx, outbox_id: int, error: str) -> bool:
    """Never tried again; False when it was not pending any more (nothing changed)."""
    changed = await tx.changed(
        "UPDATE outbox SET status = 'failed', attempts = attempts + 1, last_error = ?"
        " WHERE id = ? AND status = 'pending'",
        (error[:500], outbox_id),
    )
    await tx.execute("DELETE FROM outbox_files WHERE outbox_id = ?", (outbox_id,))
    return changed > 0


async def mark_started(tx: Tx, outbox_id: int) -> None:
    """A panel DM's post begins: a later try knows it may have posted already."""
    await tx.execute("UPDATE outbox SET started = 1 WHERE id = ?", (outbox_id,))


async def known_dm(db: Reader, user_id: int, message_id: int) -> bool:
    """Some outbox row recorded that Discord message as its DM to the user."""
    row = await db.fetchone(
        "SELECT 1 FROM outbox WHERE kind = 'dm' AND discord_message_id = ? AND user_id = ?",
        (message_id, user_id))
    return row is not None


async def drop_pending_panels(tx: Tx, campaign_id: int, user_id: int) -> None:
    """Fails unsent DMs to a user (their DMs are closed): nothing retries them."""
    where = "campaign_id = ? AND user_id = ? AND kind = 'dm' AND status = 'pending'"
    await tx.execute(
        f"DELETE FROM outbox_files WHERE outbox_id IN (SELECT id FROM outbox WHERE {where})",
        (campaign_id, user_id),
    )
    await tx.execute(
        f"UPDATE outbox SET status = 'failed', last_error = 'DMs closed' WHERE {where}",
        (campaign_id, user_id),
    )


async def all_rows(db: Reader, campaign_id: int | None = None) -> list[OutboxRow]:
    """Every row (tests and admin tools), oldest first."""
    if campaign_id is None:
        return await _load(db, "ORDER BY id", ())
    return await _load(db, "WHERE campaign_id = ? ORDER BY id", (campaign_id,))


async def tracker(db: Reader, campaign_id: int) -> TrackerRow | None:
    row = await db.fetchone("SELECT * FROM trackers WHERE campaign_id = ?", (campaign_id,))
    if row is None:
        return None
    return TrackerRow(row["campaign_id"], row["key"], row["outbox_id"], json.loads(row["data"]))
