"""A battle thread's seats follow its parent's seats (P-21).

A battle opened from its parent seats the members who hold the parent's seats then (H-D28,
O-D17). When the parent's GM hands a seat over (``/gm replace``) or frees it (``/gm kick``),
every battle of that parent still being fought hands over or frees that member's seat too,
in the same transaction, and says so in its thread: a member who left the campaign no
longer musters, fights or concedes for it.
"""

from __future__ import annotations

from bot.campaign.core import Ctx, UnitOfWork
from bot.campaign.mail import Mail
from bot.campaign.models import Actor
from bot.campaign.steps import StepEngine
from storage import campaigns, players
from storage.db import Tx
from storage.status import Status


class WarSeats:
    """P-21 through ``engine``: a parent's seat handed over or freed, in its battles too."""

    def __init__(self, engine: StepEngine) -> None:
        self.engine = engine
        self.core = engine.core

    async def follow_seat(self, tx: Tx, parent: Ctx, fx: UnitOfWork, old_user_id: int,
                           old_name: str, new: Actor | None) -> None:
        """P-21: ``old_user_id``'s seat in each live battle of ``parent`` goes to ``new``
        (``/gm replace``), or is freed (``/gm kick``, or ``new`` already holds a seat in
        that battle: one member never plays two sides)."""
        for row in await campaigns.live_children(tx, parent.row.id):
            cid = row.id
            child = await self.core.load(tx, cid)
            rows = [p for p in child.players if p.user_id == old_user_id]
            held = max(rows, key=lambda p: p.active) if rows else None
            # a seat freed before (kicked, then replaced in the parent) goes to the new holder
            if (held is None or child.row.status == Status.SETUP
                    or (new is None and not held.active)):
                continue
            cfx = fx.also(child)  # (the same list of effects: one order)
            mail = Mail()
            seat = held.seat
            if new is not None and child.seat_of(new.user_id) is None:
                await self.engine.delivery.hand_over_panel(tx, child, cfx, seat, old_user_id)
                await players.reseat(tx, cid, seat, new.user_id, new.name, fx.now)
                mail.post(f"{new.name} takes over seat {seat} from {old_name}: the GM of "
                          f"**{parent.row.name}** handed that seat of the campaign over, and "
                          "its side in this battle goes with it.")
            else:
                await players.set_vacant(tx, cid, seat)
                await self.engine.delivery.hand_over_panel(tx, child, cfx, seat, old_user_id,
                                                           freed=True)
                why = (f"{new.name} already holds another side here"
                       if new is not None else "they no longer hold a seat in the campaign")
                mail.post(f"Seat {seat} ({old_name}) is freed: the GM of "
                          f"**{parent.row.name}** took that seat of the campaign from them "
                          f"({why}). It takes the default at each deadline until the GM "
                          "hands it to someone (/gm replace here).")
            child.players = await players.of_campaign(tx, cid)
            if new is not None and child.seat_of(new.user_id) is not None:
                for req in child.requests_of(seat)[:1]:
                    mail.panel(seat, f"**{child.row.name}**: you now hold seat {seat}. "
                                     f"{req.prompt}")
            await self.engine.flush(tx, child, cfx, mail)
            cfx.save = "row"  # its seats changed, not its rule-set state
            await self.core.write(tx, child, cfx)
            self.core.cache.pop(cid, None)  # changed outside its own intent
            fx.wake = True
