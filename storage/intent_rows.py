"""A campaign's other rows as one intent reads them: read in ONE trip to the writer (inside
its write transaction, so nothing else writes meanwhile) and kept true by the intent's own
writes, which are queued (no trip each). Issue 17 item 9: a submit that only stores an
order costs two trips (this read, the COMMIT), not one per question.

The rows: whether it fights a battle in a thread (battle_links, 010), each seat's missed
deadlines, away flag and notes (storage/missed.py, 004, 009), the step tracker
(storage/outbox.py, 004), the channel's last post, the open step's deadline
(storage/timers.py), and each seat's DM panel message (storage/panels.py, 006) with the state
of its first post and whether it is still the latest DM of its holder. An intent's writes of
these rows are made here alone (those modules keep what is read outside an intent)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, replace

from storage.db import Tx
from storage.missed import MAX_NOTES
from storage.outbox import TrackerRow
from storage.panels import PanelMessage
from storage.timers import DeadlineRow

_LOCAL = "intent_rows"


@dataclass
class Missed:
    in_row: int = 0
    away: bool = False
    notes: tuple[str, ...] = ()


@dataclass
class _Panel:
    record: PanelMessage
    status: str | None  # of its first post (None: no such row)
    latest: bool  # no other DM to its holder after that post (edits and failures aside)


@dataclass
class _Read:
    missed: dict[int, Missed]
    tracker: TrackerRow | None
    last_post: int | None
    deadline: DeadlineRow | None
    panels: dict[int, _Panel]
    fights_battles: bool  # it has a battle_links row (010): a battle fought in a thread


def _notes(text: str | None) -> tuple[str, ...]:
    notes = json.loads(text) if text else []
    return tuple(str(n) for n in notes) if isinstance(notes, list) else ()


def _fetch(campaign_id: int, channel_id: int | None,
           step_no: int) -> Callable[[sqlite3.Connection], _Read]:
    def fetch(conn: sqlite3.Connection) -> _Read:
        missed = {int(r["seat"]): Missed(int(r["in_row"]), bool(r["away"]), _notes(r["note"]))
                  for r in conn.execute("SELECT seat, in_row, away, note FROM missed_deadlines"
                                        " WHERE campaign_id = ?", (campaign_id,))}
        t = conn.execute("SELECT key, outbox_id, data FROM trackers WHERE campaign_id = ?",
                         (campaign_id,)).fetchone()
        tracker = (TrackerRow(campaign_id, t["key"], t["outbox_id"], json.loads(t["data"]))
                   if t is not None else None)
        last = conn.execute(
            "SELECT id FROM outbox WHERE kind = 'channel' AND edit_of IS NULL"
            " AND channel_id IS ? ORDER BY id DESC LIMIT 1", (channel_id,)).fetchone()
        d = conn.execute("SELECT * FROM deadlines WHERE campaign_id = ? AND step_no = ?",
                         (campaign_id, step_no)).fetchone()
        deadline = (DeadlineRow(campaign_id, d["step_no"], d["due_at"], d["remaining"],
                                d["status"]) if d is not None else None)
        panels = {}
        for r in conn.execute(
            "SELECT p.*, o.status AS post_status, NOT EXISTS (SELECT 1 FROM outbox AS n"
            " WHERE n.kind = 'dm' AND n.user_id = p.user_id AND n.id > p.outbox_id"
            " AND n.edit_of IS NULL AND n.status != 'failed') AS latest"
            " FROM dm_panels AS p LEFT JOIN outbox AS o ON o.id = p.outbox_id"
            " WHERE p.campaign_id = ?", (campaign_id,)):
            record = PanelMessage(campaign_id, r["seat"], r["user_id"], r["outbox_id"],
                                  r["step_no"], r["active_at"], r["notified_at"])
            panels[record.seat] = _Panel(record, r["post_status"], bool(r["latest"]))
        battles = conn.execute("SELECT EXISTS (SELECT 1 FROM battle_links WHERE parent_id = ?)",
                               (campaign_id,)).fetchone()[0]
        return _Read(missed, tracker, last[0] if last is not None else None, deadline, panels,
                     bool(battles))

    return fetch


class CampaignRows:
    """One campaign's other rows within one write transaction (``of``)."""

    def __init__(self, tx: Tx, campaign_id: int, read: _Read, step_no: int) -> None:
        self._tx = tx
        self.campaign_id = campaign_id
        self._read = read
        self._step_no = step_no
        self._deadlines_written = tx.writes_to("deadlines")

    def fights_battles(self) -> bool:
        """Whether the campaign has a battle fought in a thread (a ``battle_links`` row, read
        with the rest or written in this transaction): only then is the war asked."""
        return self._read.fights_battles or self._tx.writes_to("battle_links") > 0

    # ------------------------------------------------------------ missed deadlines

    def away_seats(self) -> set[int]:
        return {s for s, m in self._read.missed.items() if m.away}

    def clear(self, seats: list[int]) -> list[int]:
        """``missed.clear``: returns those of the seats that were away (they are back)."""
        if not seats:
            return []
        back = sorted(s for s in seats if s in self._read.missed and self._read.missed[s].away)
        self._tx.queue_many("DELETE FROM missed_deadlines WHERE campaign_id = ? AND seat = ?",
                            [(self.campaign_id, s) for s in seats])
        for s in seats:
            self._read.missed.pop(s, None)
        return back

    def count(self, seat: int) -> int:
        """``missed.count``: one more missed deadline in a row; returns how many now."""
        self._tx.queue(
            "INSERT INTO missed_deadlines (campaign_id, seat, in_row) VALUES (?, ?, 1)"
            " ON CONFLICT (campaign_id, seat) DO UPDATE SET in_row = missed_deadlines.in_row + 1",
            (self.campaign_id, seat))
        m = self._read.missed.setdefault(seat, Missed(0))
        m.in_row += 1
        return m.in_row

    def set_away(self, seat: int) -> bool:
        """``missed.set_away``: False if it already was (or has no row)."""
        m = self._read.missed.get(seat)
        if m is None or m.away:
            return False
        self._tx.queue("UPDATE missed_deadlines SET away = 1 WHERE campaign_id = ? AND seat = ?",
                       (self.campaign_id, seat))
        m.away = True
        return True

    def add_note(self, seat: int, line: str) -> None:
        m = self._read.missed.setdefault(seat, Missed(0))
        m.notes = (*m.notes, line)[-MAX_NOTES:]
        self._tx.queue(
            "INSERT INTO missed_deadlines (campaign_id, seat, in_row, note) VALUES (?, ?, 0, ?)"
            " ON CONFLICT (campaign_id, seat) DO UPDATE SET note = excluded.note",
            (self.campaign_id, seat, json.dumps(list(m.notes))))

    def take_notes(self, seat: int) -> list[str]:
        m = self._read.missed.get(seat)
        if m is None or not m.notes:
            return []
        notes, m.notes = list(m.notes), ()
        self._tx.queue("UPDATE missed_deadlines SET note = NULL WHERE campaign_id = ? AND seat = ?",
                       (self.campaign_id, seat))
        return notes

    # ------------------------------------------------------------ the step tracker

    def tracker(self) -> TrackerRow | None:
        t = self._read.tracker  # (a copy: a tracker changes the data it is built from)
        return replace(t, data=json.loads(json.dumps(t.data))) if t is not None else None

    def put_tracker(self, t: TrackerRow) -> None:
        self._tx.queue(
            "INSERT INTO trackers (campaign_id, key, outbox_id, data) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (campaign_id) DO UPDATE SET key = excluded.key,"
            " outbox_id = excluded.outbox_id, data = excluded.data",
            (t.campaign_id, t.key, t.outbox_id, json.dumps(t.data)))
        self._read.tracker = replace(t, data=json.loads(json.dumps(t.data)))

    def drop_tracker(self) -> None:
        self._tx.queue("DELETE FROM trackers WHERE campaign_id = ?", (self.campaign_id,))
        self._read.tracker = None

    def last_post(self, channel_id: int | None) -> int | None:
        """The newest post (not an edit) to the campaign's channel, this transaction's
        included."""
        queued = [q.id for q in self._tx.local.get("outbox_rows", [])
                  if q.kind == "channel" and q.edit_of is None and q.channel_id == channel_id]
        return max([i for i in [self._read.last_post, *queued] if i is not None], default=None)

    # ------------------------------------------------------------ the open step's deadline

    def deadline_known(self, step_no: int) -> bool:
        """The deadline of ``step_no`` is as read (no deadline was written since)."""
        return step_no == self._step_no and self._tx.writes_to("deadlines") \
            == self._deadlines_written

    def deadline(self) -> DeadlineRow | None:
        return self._read.deadline

    def deadline_is(self, step_no: int, row: DeadlineRow | None) -> None:
        """The caller just wrote the deadline of ``step_no`` (a new step's): it is ``row``
        (None: it has none)."""
        self._step_no, self._read.deadline = step_no, row
        self._deadlines_written = self._tx.writes_to("deadlines")

    # ------------------------------------------------------------ DM panel messages

    def panel(self, seat: int) -> PanelMessage | None:
        found = self._read.panels.get(seat)
        return found.record if found is not None else None

    def post_status(self, outbox_id: int) -> str | None:
        """The state of a panel message's first post: 'pending' for one of this
        transaction."""
        if any(q.id == outbox_id for q in self._tx.local.get("outbox_rows", [])):
            return "pending"
        return next((p.status for p in self._read.panels.values()
                     if p.record.outbox_id == outbox_id), None)

    def latest_dm(self, user_id: int, outbox_id: int) -> bool:
        """``panels.latest_dm``: no other post in the user's DMs after that one."""
        later = any(q.kind == "dm" and q.user_id == user_id and q.id > outbox_id
                    and q.edit_of is None for q in self._tx.local.get("outbox_rows", []))
        if later:
            return False
        read = next((p for p in self._read.panels.values()
                     if p.record.outbox_id == outbox_id and p.record.user_id == user_id), None)
        return read.latest if read is not None else True

    def _set(self, seat: int, record: PanelMessage) -> None:
        old = self._read.panels.get(seat)
        status = self.post_status(record.outbox_id) if record.outbox_id is not None else None
        latest = (old.latest if old is not None and old.record.outbox_id == record.outbox_id
                  else True)
        self._read.panels[seat] = _Panel(record, status, latest)

    def shown(self, seat: int, user_id: int, outbox_id: int, step_no: int) -> None:
        self._tx.queue(
            "INSERT INTO dm_panels (campaign_id, seat, user_id, outbox_id, step_no)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (campaign_id, seat) DO UPDATE SET"
            " active_at = CASE WHEN dm_panels.user_id = excluded.user_id"
            " THEN dm_panels.active_at END,"
            " user_id = excluded.user_id, outbox_id = excluded.outbox_id,"
            " step_no = excluded.step_no",
            (self.campaign_id, seat, user_id, outbox_id, step_no))
        old = self.panel(seat)
        self._set(seat, PanelMessage(
            self.campaign_id, seat, user_id, outbox_id, step_no,
            old.active_at if old is not None and old.user_id == user_id else None,
            old.notified_at if old is not None else None))

    def touch(self, seat: int, user_id: int, now: float) -> None:
        self._tx.queue(
            "INSERT INTO dm_panels (campaign_id, seat, user_id, active_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (campaign_id, seat) DO UPDATE SET"
            " outbox_id = CASE WHEN dm_panels.user_id = excluded.user_id"
            " THEN dm_panels.outbox_id END,"
            " user_id = excluded.user_id, active_at = excluded.active_at",
            (self.campaign_id, seat, user_id, now))
        old = self.panel(seat)
        self._set(seat, PanelMessage(
            self.campaign_id, seat, user_id,
            old.outbox_id if old is not None and old.user_id == user_id else None,
            old.step_no if old is not None else 0, now,
            old.notified_at if old is not None else None))

    def notified(self, seat: int, user_id: int, now: float) -> None:
        self._tx.queue(
            "INSERT INTO dm_panels (campaign_id, seat, user_id, notified_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (campaign_id, seat) DO UPDATE SET notified_at = excluded.notified_at"
            " WHERE dm_panels.user_id = excluded.user_id",
            (self.campaign_id, seat, user_id, now))
        old = self.panel(seat)
        if old is None:
            self._set(seat, PanelMessage(self.campaign_id, seat, user_id, None, 0, None, now))
        elif old.user_id == user_id:
            self._set(seat, replace(old, notified_at=now))

    def release(self, seat: int) -> None:
        self._tx.queue("UPDATE dm_panels SET outbox_id = NULL WHERE campaign_id = ? AND seat = ?",
                       (self.campaign_id, seat))
        old = self.panel(seat)
        if old is not None:
            self._set(seat, replace(old, outbox_id=None))

    def forget(self, seat: int) -> None:
        self._tx.queue("DELETE FROM dm_panels WHERE campaign_id = ? AND seat = ?",
                       (self.campaign_id, seat))
        self._read.panels.pop(seat, None)


async def of(tx: Tx, campaign_id: int, channel_id: int | None, step_no: int) -> CampaignRows:
    """The campaign's rows in this transaction: read once (one trip, with the writes queued
    before it), then the same object for every later use in the transaction."""
    known: dict[int, CampaignRows] = tx.local.setdefault(_LOCAL, {})
    found = known.get(campaign_id)
    if found is None:
        read = await tx.run(_fetch(campaign_id, channel_id, step_no))
        found = known[campaign_id] = CampaignRows(tx, campaign_id, read, step_no)
    return found
