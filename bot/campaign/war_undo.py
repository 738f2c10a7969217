"""A battle's result survives ``/gm undo`` in its parent campaign (P-13).

The result an HRFT battle (a child campaign) sends its parent when it ends arrives OUTSIDE a
resolution of the parent (E-D36), so no undo snapshot holds the state just after it. An undo
in the parent that went back past the arrival would drop the proposal, and the round would
wait for a result that can never come again (that battle is over). So each arrival is marked
in the parent's log (kind ``battle_arrival``, tagged with the parent's resolution number it
came after), and ``gm_undo`` proposes again, in its own transaction, every result whose
arrival it went back past, wherever the restored state waits for it.

The proposal itself is the one the battle's end made (``arrival``): the battle's rule set
gives its result (``battle_result``), the parent's rule set takes it (``propose_battle``),
both looked up with getattr, so any parent rule set with that hook is served.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.campaign.core import Ctx, Effects
from bot.campaign.steps import StepEngine
from bot.errors import InvalidState
from bot.rules.base import Outcome
from storage import campaigns
from storage import events as event_log
from storage.campaigns import CampaignRow
from storage.db import Tx
from storage.events import EventRow

ARRIVED = "battle_arrival"  # a battle's result came in (at its end, or again after an undo)
NOT_KEPT = "battle_not_kept"  # an undo went back to before that battle waited for a result


@dataclass(frozen=True)
class Arrival:
    """What an ended battle proposes to its parent, now."""

    ref: str
    outcome: Outcome | None  # None: that battle of the parent waits for no result


def arrival(child: Ctx, parent: Ctx) -> Arrival | None:
    """The proposal the ended battle ``child`` makes to ``parent`` as the parent stands (E-D36).
    None when there is nothing to send: the battle has no result (no craft of the parent
    fought in it), or the parent takes none (no ``propose_battle``, not running)."""
    result_of = getattr(child.ruleset, "battle_result", None)
    propose = getattr(parent.ruleset, "propose_battle", None)
    ref = child.row.parent_ref
    if (result_of is None or propose is None or child.state is None or parent.state is None
            or not ref or parent.row.status not in ("running", "paused")):
        return None
    result = result_of(child.state, child.row.name)
    if result is None:
        return None
    return Arrival(ref, propose(parent.state, ref, result))


def mark(parent: Ctx, child: CampaignRow, now: float, kind: str = ARRIVED,
         text: str = "") -> EventRow:
    """The parent's log line that a battle's result came in (or could not be kept)."""
    text = text or (f"The result of battle **{child.name}** ({child.parent_ref}) came in "
                    "from its thread.")
    return EventRow(step_no=parent.row.step_no, resolution_no=parent.row.resolution_no,
                    audience="gm", seat=None, kind=kind, text=text,
                    data={"campaign": child.id, "ref": child.parent_ref}, created_at=now)


class WarUndo(StepEngine):
    async def _refuse_undo_of_sent_result(self, channel_id: int) -> None:
        """P-13: ``/gm undo`` in the thread of a battle that is over and whose result went to
        its parent as a proposal is refused with the reason: from then on the parent decides
        what the result does, and its GM can change or close it there."""
        if await campaigns.id_in_channel(self.db, channel_id) is not None:
            return  # a battle still being fought undoes as any campaign
        ended = await campaigns.id_to_read(self.db, channel_id)
        row = await campaigns.get(self.db, ended) if ended is not None else None
        parent = (await campaigns.get(self.db, row.parent_id)
                  if row is not None and row.parent_id is not None else None)
        if row is None or parent is None:
            return
        marks = await event_log.of_kinds(self.db, parent.id, (ARRIVED,))
        if not any(m.data.get("campaign") == row.id for m in marks):
            return
        raise InvalidState(
            f"**{row.name}** is over and its result went to **{parent.name}** (battle "
            f"{row.parent_ref}), so it can no longer be undone here. There, its GM confirms "
            "it, changes a craft's fate first, or closes the battle and reports its losses "
            "by hand; /gm undo there takes back a confirmation.")

    async def _results_after_undo(self, tx: Tx, ctx: Ctx, fx: Effects, undone: int) -> list[str]:
        """``gm_undo`` has put back the state from before resolution ``undone``: every result
        that arrived after that point is proposed again where the restored state waits for
        it. Its events are logged but not sent (the GM had them at the arrival; the undo's
        announcement and the GM's fresh panel say it). Returns the announcement's lines."""
        latest: dict[int, EventRow] = {}  # battle campaign id -> its newest mark, in order
        for m in await event_log.of_kinds(tx, ctx.row.id, (ARRIVED, NOT_KEPT)):
            cid = m.data.get("campaign")
            if isinstance(cid, int):
                latest.pop(cid, None)
                latest[cid] = m
        lines: list[str] = []
        for cid, m in latest.items():
            if m.kind != ARRIVED or m.resolution_no < undone:
                continue  # the restored state has it (or it was dealt with before)
            row = await campaigns.get(tx, cid)
            if row is None or row.parent_id != ctx.row.id or row.status != "ended":
                continue
            found = arrival(await self._load(tx, cid), ctx)
            if found is None:
                continue
            name = f"**{row.name}** ({row.parent_ref})"
            if found.outcome is None:
                text = (f"The result of battle {name}, fought in its thread, could not be kept: "
                        "the game is back to before that battle waited for a result. When it "
                        "does again, fight it again in a thread, or close it and enter its "
                        "losses by hand.")
                fx.events.append(mark(ctx, row, fx.now, NOT_KEPT, text))
                lines.append(text)
                continue
            ctx.state = ctx.ruleset.state_model.model_validate(found.outcome.state)
            ctx.row.state = ctx.state.model_dump(mode="json")
            fx.save = "state"
            fx.events += [EventRow(
                step_no=ctx.row.step_no, resolution_no=ctx.row.resolution_no,
                audience=ev.audience.kind,
                seat=ev.audience.seat if ev.audience.kind == "seat" else None,
                kind=ev.kind, text=ev.text, data=ev.data, created_at=fx.now,
            ) for ev in found.outcome.events]
            fx.events.append(mark(ctx, row, fx.now))
            lines.append(f"The result of battle {name}, fought in its thread, came in after "
                         "that point: it is proposed again.")
        return lines
