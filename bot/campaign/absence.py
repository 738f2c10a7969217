"""``/campaign back`` (P-26): an away seat's player says they are here again.

Any panel action brings a seat back as well (``PanelDelivery._seat_active``); this is the
way back for a player with nothing to click."""

from __future__ import annotations

from bot.campaign import messages
from bot.campaign.core import Ctx, Effects
from bot.campaign.models import Actor
from bot.campaign.panel_delivery import back_text
from bot.campaign.steps import Mail, StepEngine
from bot.errors import PermissionDenied
from bot.rules.base import step_name
from storage import missed, panels, timers
from storage.db import Tx


class Absence(StepEngine):
    async def come_back(self, actor: Actor, channel_id: int) -> str:
        """The actor's seat is no longer away: its steps wait for them again and the
        channel is told; their open panel comes again without the away line. Refused when
        they hold no seat; a seat that is not away changes nothing."""

        async def run(tx: Tx, ctx: Ctx, fx: Effects) -> str:
            p = ctx.seat_of(actor.user_id)
            if p is None:
                raise PermissionDenied(f"You hold no seat in **{ctx.row.name}**.")
            if p.seat not in await missed.away_seats(tx, ctx.row.id):
                return (f"You are not away in **{ctx.row.name}**: the game already waits "
                        "for your moves. Nothing changed.")
            await missed.clear(tx, ctx.row.id, [p.seat])
            await panels.touch(tx, ctx.row.id, p.seat, actor.user_id, fx.now)
            fx.channel(ctx, back_text(ctx.name(p.seat)))
            mail = Mail()
            reqs = ctx.requests_of(p.seat)[:1]
            if reqs and ctx.row.status == "running":
                dl = await timers.get(tx, ctx.row.id, ctx.row.step_no)
                due = self._at(dl.due_at) if dl is not None and dl.status == "open" else None
                name = step_name(ctx.ruleset, ctx.state, ctx.pending).name
                mail.panel(p.seat, messages.panel_line(ctx.row.name, name, reqs[0].prompt, due))
            await self._flush(tx, ctx, fx, mail)
            return (f"Welcome back to **{ctx.row.name}**: your moves wait for you again. "
                    "Use /orders for your panels.")

        return await self._in_channel(channel_id, run)
