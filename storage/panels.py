"""Each seat's DM panel message (migration 006) and when its holder last acted.

The message is named by the outbox row of its first post; its later versions are outbox
edits of that row, so the dispatcher's edit path (nothing lost, nothing twice, posted anew
when the message is gone) carries them."""

from __future__ import annotations

from dataclasses import dataclass

from storage.campaigns import Reader
from storage.db import Tx
from storage.status import OutboxStatus


@dataclass(frozen=True)
class PanelMessage:
    campaign_id: int
    seat: int
    user_id: int
    outbox_id: int | None  # None: the holder acted but no panel message is on record
    step_no: int  # the step whose panel it was last given
    active_at: float | None  # the holder's last submission or panel choice
    notified_at: float | None = None  # the holder's last NEW DM from the campaign (009)

    @property
    def unanswered(self) -> bool:
        """P-28: the holder has not acted since their last notifying DM."""
        return self.notified_at is not None and (
            self.active_at is None or self.active_at < self.notified_at)


async def get(db: Reader, campaign_id: int, seat: int) -> PanelMessage | None:
    row = await db.fetchone(
        "SELECT * FROM dm_panels WHERE campaign_id = ? AND seat = ?", (campaign_id, seat))
    if row is None:
        return None
    return PanelMessage(row["campaign_id"], row["seat"], row["user_id"], row["outbox_id"],
                        row["step_no"], row["active_at"], row["notified_at"])


async def shown(tx: Tx, campaign_id: int, seat: int, user_id: int, outbox_id: int,
                step_no: int) -> None:
    """The seat's panel is now that message (a new DM or an edit of it) for that step; a
    new holder starts with no activity of their own."""
    await tx.execute(
        "INSERT INTO dm_panels (campaign_id, seat, user_id, outbox_id, step_no)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (campaign_id, seat) DO UPDATE SET"
        " active_at = CASE WHEN dm_panels.user_id = excluded.user_id THEN dm_panels.active_at END,"
        " user_id = excluded.user_id, outbox_id = excluded.outbox_id,"
        " step_no = excluded.step_no",
        (campaign_id, seat, user_id, outbox_id, step_no))


async def touch(tx: Tx, campaign_id: int, seat: int, user_id: int, now: float) -> None:
    """The holder acted (submitted, or chose on a panel); a panel message of another user
    (the seat changed hands) is forgotten."""
    await tx.execute(
        "INSERT INTO dm_panels (campaign_id, seat, user_id, active_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (campaign_id, seat) DO UPDATE SET"
        " outbox_id = CASE WHEN dm_panels.user_id = excluded.user_id"
        " THEN dm_panels.outbox_id END,"
        " user_id = excluded.user_id, active_at = excluded.active_at",
        (campaign_id, seat, user_id, now))


async def notified(tx: Tx, campaign_id: int, seat: int, user_id: int, now: float) -> None:
    """The holder just got a new DM (one that notifies) from the campaign."""
    await tx.execute(
        "INSERT INTO dm_panels (campaign_id, seat, user_id, notified_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (campaign_id, seat) DO UPDATE SET notified_at = excluded.notified_at"
        " WHERE dm_panels.user_id = excluded.user_id",
        (campaign_id, seat, user_id, now))


async def release(tx: Tx, campaign_id: int, seat: int) -> None:
    """The seat's panel message became something else (news): the next panel is a new DM;
    the holder's activity is kept."""
    await tx.execute("UPDATE dm_panels SET outbox_id = NULL WHERE campaign_id = ? AND seat = ?",
                     (campaign_id, seat))


async def forget(tx: Tx, campaign_id: int, seat: int) -> None:
    await tx.execute("DELETE FROM dm_panels WHERE campaign_id = ? AND seat = ?",
                     (campaign_id, seat))



async def latest_dm(db: Reader, user_id: int, outbox_id: int) -> bool:
    """No other message was posted (or is waiting) in the user's DMs after that one: its
    edits are not all that changed there. Edits and failed messages do not count."""
    row = await db.fetchone(
        "SELECT 1 FROM outbox WHERE kind = 'dm' AND user_id = ? AND id > ?"
        " AND edit_of IS NULL AND status != 'failed' LIMIT 1", (user_id, outbox_id))
    return row is None


async def post_state(db: Reader, outbox_id: int) -> tuple[OutboxStatus, int | None] | None:
    """The first post's status and Discord id (None: no such row)."""
    row = await db.fetchone("SELECT status, discord_message_id FROM outbox WHERE id = ?",
                            (outbox_id,))
    return (OutboxStatus(row[0]), row[1]) if row is not None else None


async def rewritten(db: Reader, user_id: int, message_id: int, step_no: int) -> bool:
    """The bot has since given that DM message (in the user's DMs) something other than the
    panel of ``step_no``: a later step's panel, news, or a "moved"/"handed over" line."""
    row = await db.fetchone(
        "SELECT e.panel_campaign_id, e.panel_step_no FROM outbox AS o"
        " JOIN outbox AS e ON e.edit_of = o.id WHERE o.kind = 'dm'"
        " AND o.discord_message_id = ? AND o.user_id = ? ORDER BY e.id DESC LIMIT 1",
        (message_id, user_id))
    return row is not None and (row[0] is None or row[1] != step_no)
