"""``/campaign back`` (P-26): an away seat's player says they are here again.

Any panel action brings a seat back as well (``StepEngine.seat_active``); this is the
way back for a player with nothing to click."""

from __future__ import annotations

from bot.campaign import messages
from bot.campaign.core import Ctx, UnitOfWork
from bot.campaign.mail import Mail
from bot.campaign.models import Actor
from bot.campaign.panel_delivery import back_text
from bot.campaign.steps import StepEngine
from bot.errors import PermissionDenied
from bot.rules.base import step_name
from storage import missed, timers
from storage.db import Tx
from storage.status import LIVE, DeadlineStatus, Status


class Absence:
    """P-26: a seat that is away comes back (``/campaign back``, a click on its panel)."""

    def __init__(self, engine: StepEngine) -> None:
        self.engine = engine
        self.core = engine.core

    async def come_back(self, actor: Actor, channel_id: int) -> str:
        """The actor's seat is no longer away: its steps wait for them again and the
        channel is told; their open panel comes again without the away line. Refused when
        they hold no seat; a seat that is not away changes nothing."""

        async def run(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> str:
            p = ctx.seat_of(actor.user_id)
            if p is None:
                raise PermissionDenied(f"You hold no seat in **{ctx.row.name}**.")
            if not await self._back(tx, ctx, fx, p.seat, actor.user_id):
                return (f"You are not away in **{ctx.row.name}**: the game already waits "
                        "for your moves. Nothing changed.")
            return (f"Welcome back to **{ctx.row.name}**: your moves wait for you again. "
                    "Use /orders for your panels.")

        return await self.core.in_channel(channel_id, run)

    async def panel_clicked(self, campaign_id: int, step_no: int, seat: int,
                            user_id: int) -> None:
        """A click of the seat's holder on one of its panels, even one whose step is over:
        an away seat is back (P-26: any panel action). Call it only after the holder check
        (``panel(..., user_id)``); anyone else changes nothing. A click on the open step's
        panel leaves that message to the click's own answer; after a click on an older one
        the open panel comes again."""
        if seat not in await missed.away_seats(self.core.db, campaign_id):
            return  # the usual case: nothing to write

        async def run(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> None:
            p = ctx.player(seat)
            if p is not None and p.active and p.user_id == user_id:
                await self._back(tx, ctx, fx, seat, user_id,
                                 again=step_no != ctx.row.step_no)

        await self.core.mutate(campaign_id, run)

    async def _back(self, tx: Tx, ctx: Ctx, fx: UnitOfWork, seat: int, user_id: int,
                    again: bool = True) -> bool:
        """Ends the seat's away state (False: it was not away, nothing changed): said in the
        channel, and (``again``) its open panel given again without the away line."""
        rows = await fx.rows(ctx)
        if ctx.row.status not in LIVE or seat not in rows.away_seats():
            return False
        rows.clear([seat])
        rows.touch(seat, user_id, fx.now)
        mail = Mail()
        mail.line(back_text(ctx.name(seat)))  # in the step's tracker
        reqs = ctx.requests_of(seat)[:1]
        if again and reqs and ctx.row.status == Status.RUNNING:
            dl = await timers.get(tx, ctx.row.id, ctx.row.step_no)
            due = (self.core.at(dl.due_at)
                   if dl is not None and dl.status == DeadlineStatus.OPEN else None)
            name = step_name(ctx.ruleset, ctx.state, ctx.pending).name
            mail.panel(seat, messages.panel_line(ctx.row.name, name, reqs[0].prompt, due))
        await self.engine.flush(tx, ctx, fx, mail)
        return True
