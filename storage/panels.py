"""Each seat's DM panel message (migration 006) and when its holder last acted.

The message is named by the outbox row of its first post; its later versions are outbox
edits of that row, so the dispatcher's edit path (nothing lost, nothing twice, posted anew
when the message is gone) carries them. An intent reads and writes these rows through
storage/intent_rows.py (one trip); here is what is read outside one."""

from __future__ import annotations

from dataclasses import dataclass

from storage.campaigns import Reader


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



async def rewritten(db: Reader, user_id: int, message_id: int, step_no: int) -> bool:
    """The bot has since given that DM message (in the user's DMs) something other than the
    panel of ``step_no``: a later step's panel, news, or a "moved"/"handed over" line."""
    row = await db.fetchone(
        "SELECT e.panel_campaign_id, e.panel_step_no FROM outbox AS o"
        " JOIN outbox AS e ON e.edit_of = o.id WHERE o.kind = 'dm'"
        " AND o.discord_message_id = ? AND o.user_id = ? ORDER BY e.id DESC LIMIT 1",
        (message_id, user_id))
    return row is not None and (row[0] is None or row[1] != step_no)
