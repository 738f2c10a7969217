"""Orders an undo put back after they were revealed stay as given (P-23).

``/gm undo`` past a resolution puts back the sealed orders it used. Those orders were
revealed by it (its results are public), so each seat could now answer the others' orders
if it could change its own. They come back locked: the step's log marks the seats
(``orders_locked``), a change of a locked seat's orders is refused, and only the GM
reopens one seat's (``/gm reopen``: ``orders_reopened``). The marks live in the campaign's
log (read by kind, migration 007's index); a step's number is never reused, so marks of
an older step never apply to a newer one.
"""

from __future__ import annotations

from bot.campaign.core import Ctx
from storage import events as event_log
from storage.campaigns import Reader
from storage.events import EventRow

LOCKED = "orders_locked"
REOPENED = "orders_reopened"
REFUSED = ("Your orders for this step were revealed before the GM's undo, so they stand as "
           "you gave them. Only the GM can reopen them (/gm reopen).")


async def locked_seats(db: Reader, campaign_id: int, step_no: int) -> set[int]:
    """The seats whose orders are locked in step ``step_no`` now."""
    locked: set[int] = set()
    for m in await event_log.of_kinds(db, campaign_id, (LOCKED, REOPENED)):
        if m.step_no != step_no:
            continue
        seats = {int(s) for s in m.data.get("seats", []) if isinstance(s, int)}
        locked = locked | seats if m.kind == LOCKED else locked - seats
    return locked


def mark(ctx: Ctx, kind: str, seats: list[int], now: float, text: str) -> EventRow:
    """A GM line of the log: ``seats``' orders locked (or one reopened) in the open step."""
    return EventRow(step_no=ctx.row.step_no, resolution_no=ctx.row.resolution_no,
                    audience="gm", seat=None, kind=kind, text=text,
                    data={"seats": list(seats)}, created_at=now)
