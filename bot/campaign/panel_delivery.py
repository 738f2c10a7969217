"""How a seat's DM panel reaches its holder: an EDIT of their panel message while they are
active, a new DM (which notifies) after they have been idle, and for reminders (P-1, P-9).

Active: the holder submitted or chose on a panel in this campaign less than
``panel_idle_minutes`` ago (config ``[service]``; 0: never), or their panel message has not
even gone out yet. Every version goes through the outbox (``edit_of`` = the first post), so an edit
keeps the send's guarantees: nothing lost, nothing twice, safe across a restart, posted
anew when the message is gone.

P-9 (news is a DM of its own, never under a panel): when an active player's next panel
comes with news and their panel message is still the last thing in their DMs, that message
BECOMES the news (the panel buttons leave it, so no click can rewrite it) and the panel is a
new DM just below. When something else came after the panel message, a new panel DM goes at
the bottom and the old message says that it is closed (P-30).

P-28 (one notifying DM waiting at a time): a holder who has not acted since their last new
DM from the campaign is treated as active whatever the time: their next panel edits their
panel message (wherever it is) instead of a second new DM; news still comes as P-9 says. A
reminder, which must notify, is a new DM and the panel message it replaces says it is
closed."""

from __future__ import annotations

from typing import Any

from bot.campaign import messages
from bot.campaign.core import Ctx, UnitOfWork
from storage import panels
from storage.db import Database, Tx
from storage.intent_rows import CampaignRows
from storage.outbox import NewMessage, Picture
from storage.status import OutboxStatus

DEFAULT_PANEL_IDLE_MINUTES = 10.0
MAX_PANEL_IDLE_MINUTES = 1440.0  # P-12: a day; 0 = every panel is a new DM
MAX_PICTURES = 10  # Discord's attachments per message


def moved_text(campaign: str) -> str:
    """What a panel message says once a newer panel went below it: that it is closed, which
    stays true whatever the newer message becomes later (news, or a step that is over)."""
    return f"This panel for **{campaign}** is closed; /orders brings up your current one."


def handed_text(campaign: str, freed: bool = False) -> str:
    how = "was freed by the GM" if freed else "was handed to another player"
    return f"Your seat in **{campaign}** {how}; this panel no longer works."


def away_text(campaign: str) -> str:
    """The line above an away seat's panels (P-26): what happens and how to come back."""
    return (f"You are away from **{campaign}** after missing several deadlines in a row: "
            "your moves take the default at once. Use any button of this panel, or "
            "`/campaign back` in the campaign's channel, to play again.")


def back_text(name: str) -> str:
    return f"{name} is back: their moves wait for them again."


class PanelDelivery:
    """How a seat's DMs go out (the module's docstring), read and written with ``db``;
    ``panel_idle_minutes``: how long after a click its holder still counts as active."""

    def __init__(self, db: Database,
                 panel_idle_minutes: float = DEFAULT_PANEL_IDLE_MINUTES) -> None:
        self.db = db
        if not 0 <= panel_idle_minutes <= MAX_PANEL_IDLE_MINUTES:
            raise ValueError(f"panel_idle_minutes must be 0 to {MAX_PANEL_IDLE_MINUTES:g}, "
                             f"got {panel_idle_minutes}")
        self.panel_idle_seconds = panel_idle_minutes * 60.0

    async def panel_rewritten(self, user_id: int, message_id: int, step_no: int) -> bool:
        """True when the bot has since made that DM message something other than the panel
        of ``step_no`` (the next panel, news, a "moved" line): a click's own reply on it
        would overwrite that, so the Panels cog leaves it."""
        return await panels.rewritten(self.db, user_id, message_id, step_no)

    async def deliver_seat(
        self, tx: Tx, ctx: Ctx, fx: UnitOfWork, seat: int, user_id: int, news: list[str],
        files: list[Picture], panel_text: str | None,
    ) -> None:
        """One seat's DMs of an intent: its news (each part a message), then its panel."""
        row = ctx.row
        ref = (row.id, row.step_no, seat)
        fx.wake = True
        rows = await fx.rows(ctx)

        async def post(m: NewMessage) -> int:
            new = fx.send(m)
            if m.edit_of is None:  # a new DM notifies (P-28)
                rows.notified(seat, user_id, fx.now)
            return new

        def dm(text: str, **extra: Any) -> NewMessage:
            return NewMessage(row.id, "dm", text, user_id=user_id, **extra)

        async def news_then_panel(news: list[str], files: list[Picture]) -> None:
            for i, part in enumerate(news):
                await post(dm(part, pictures=files[:MAX_PICTURES] if i == 0 else []))
            if panel_text is not None:
                new = await post(dm(panel_text, panel=ref))
                rows.shown(seat, user_id, new, row.step_no)

        old = self._panel_message(rows, seat, user_id)
        if old is None:
            await news_then_panel(news, files)
            return
        outbox_id, unsent, active_at, unanswered = old
        active = unanswered or self.panel_idle_seconds > 0 and (
            unsent or (active_at is not None and fx.now - active_at < self.panel_idle_seconds))
        if not active:
            await news_then_panel(news, files)
            return
        latest = rows.latest_dm(user_id, outbox_id)
        if panel_text is None:
            if latest and len(news) == 1 and not ctx.requests_of(seat):
                # news while nothing is asked of the seat: its panel message (done with)
                # becomes the news, and the next panel is a new DM below it
                await post(dm(news[0], pictures=files[:MAX_PICTURES], edit_of=outbox_id))
                rows.release(seat)
            else:
                await news_then_panel(news, files)
            return
        if (latest or unanswered) and not news and len(panel_text) <= messages.MESSAGE_LIMIT:
            # (P-28: a holder who has not answered their last new DM gets no second one)
            await post(dm(panel_text, panel=ref, edit_of=outbox_id))
            rows.shown(seat, user_id, outbox_id, row.step_no)
            return
        if latest and len(news) == 1:
            # the panel message becomes the news; the panel goes below it
            await post(dm(news[0], pictures=files[:MAX_PICTURES], edit_of=outbox_id))
            await news_then_panel([], [])
            return
        # the old message says it moved first: never two panels at once (P-28)
        await post(dm(moved_text(row.name), edit_of=outbox_id))
        await news_then_panel(news, files)

    @staticmethod
    def _panel_message(
        rows: CampaignRows, seat: int, user_id: int
    ) -> tuple[int, bool, float | None, bool] | None:
        """The seat's panel message for that user, if one may be edited: its first post's
        outbox id, whether that is still unsent, the holder's last activity, and whether
        they have not acted since their last new DM (P-28)."""
        rec = rows.panel(seat)
        if rec is None or rec.outbox_id is None or rec.user_id != user_id:
            return None
        status = rows.post_status(rec.outbox_id)
        if status is None or status == OutboxStatus.FAILED:
            return None
        return rec.outbox_id, status == OutboxStatus.PENDING, rec.active_at, rec.unanswered

    async def remind_seat(self, tx: Tx, ctx: Ctx, fx: UnitOfWork, seat: int, user_id: int,
                           text: str, step_no: int) -> None:
        """A reminder is always a new DM (it must notify); it carries the panel, so it is
        the seat's panel message from now on. The panel message it replaces says it moved
        (P-28: never two panels waiting in the holder's DMs)."""
        rows = await fx.rows(ctx)
        old = self._panel_message(rows, seat, user_id)
        if old is not None:  # first, so that no two panels show at once
            fx.send(NewMessage(ctx.row.id, "dm", moved_text(ctx.row.name), user_id=user_id,
                               edit_of=old[0]))
        new = fx.send(NewMessage(ctx.row.id, "dm", text, user_id=user_id,
                                 panel=(ctx.row.id, step_no, seat)))
        rows.shown(seat, user_id, new, step_no)
        rows.notified(seat, user_id, fx.now)

    async def hand_over_panel(self, tx: Tx, ctx: Ctx, fx: UnitOfWork, seat: int,
                               old_user_id: int, freed: bool = False) -> None:
        """``/gm replace`` (or ``/gm kick``, ``freed``): the old holder's panel message says
        the seat was handed over or freed (nothing of the seat in it) and loses its buttons,
        so no live-looking panel is left with them; the next holder starts afresh."""
        fx.wake = True
        rows = await fx.rows(ctx)
        rec = rows.panel(seat)
        if rec is not None and rec.outbox_id is not None and rec.user_id == old_user_id:
            fx.send(NewMessage(ctx.row.id, "dm", handed_text(ctx.row.name, freed),
                               user_id=old_user_id, edit_of=rec.outbox_id))
        rows.forget(seat)
        rows.clear([seat])  # the next holder starts afresh (P-26)

    async def panel_used(self, tx: Tx, ctx: Ctx, fx: UnitOfWork, seat: int,
                          user_id: int) -> None:
        """The holder submitted or chose on a panel just now: they count as active (P-1)."""
        (await fx.rows(ctx)).touch(seat, user_id, fx.now)
