"""A battle's result survives ``/gm undo`` in its parent campaign (P-13).

The result an HRFT battle (a child campaign) sends its parent when it ends arrives OUTSIDE a
resolution of the parent (E-D36), so no undo snapshot holds the state just after it. An undo
in the parent that went back past the arrival would drop the proposal, and the round would
wait for a result that can never come again (that battle is over). So each arrival is kept
as state, in the battle's row of ``battle_links`` (``ResultState.ARRIVED``, with the parent's
resolution number it came after; P-41: the row is not in the undo snapshots), and ``gm_undo``
proposes again, in its own transaction, every result whose arrival it went back past,
wherever the restored state waits for it. Where it does not (the undo went back to before
that battle was listed), the result is kept (``OWED``) and proposed by the first resolution
after which the battle waits again: replaying the same orders lists the same battle (P-5). A
kept result belongs to the round it was fought in (the parent's optional
``battle_round(state)``): when that round is over without it, it is dropped (``DROPPED``)
and the GM told. Each change is also a GM line of the parent's log, for the GM to read.

The proposal itself is the one the battle's end made (``arrival``): the battle's rule set
gives its result (``battle_result``), the parent's rule set takes it (``propose_battle``),
both hooks of ``RulesetBase``, so any parent rule set that takes battle results is served.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.campaign.battle_child import war_title
from bot.campaign.core import Ctx, UnitOfWork
from bot.errors import InvalidState
from bot.rules.base import Audience, Event, Outcome
from storage import battle_links, campaigns
from storage.battle_links import ParentLinks, ResultState
from storage.campaigns import CampaignRow, Reader
from storage.db import Database, Tx
from storage.events import EventRow
from storage.status import LIVE, Status

Load = Callable[[Reader, int], Awaitable[Ctx]]  # the service's loader of one campaign

# the kinds of the parent's log lines (GM events) that say what became of a result
LOGGED = {ResultState.ARRIVED: "battle_arrival", ResultState.OWED: "battle_owed",
          ResultState.DROPPED: "battle_dropped"}
GM_ENDED_IT = "The GM ended it"  # how lifecycle.end keeps a GM's end (``end_reason``)


@dataclass(frozen=True)
class Arrival:
    """What an ended battle proposes to its parent, now."""

    ref: str
    outcome: Outcome | None  # None: that battle of the parent waits for no result


def arrival(child: Ctx, parent: Ctx) -> Arrival | None:
    """The proposal the ended battle ``child`` makes to ``parent`` as the parent stands (E-D36).
    None when there is nothing to send: the battle has no result (no craft of the parent
    fought in it), or the parent takes none (no ``propose_battle``, not running)."""
    ref = child.row.parent_ref
    if (not parent.ruleset.takes_battle_results or child.state is None or parent.state is None
            or not ref or parent.row.status not in LIVE):
        return None
    result = child.ruleset.battle_result(child.state, child.row.name)
    if result is None:
        return None
    # P-22: a battle its GM ended (``/battle end``) is the GM's word, not the rules': the
    # parent's GM confirms that result, no deadline default does
    result = result.model_copy(  # a BattleResult, bot/rules/war_models.py
        update={"gm_ended": (child.row.end_reason or "").startswith(GM_ENDED_IT)})
    return Arrival(ref, parent.ruleset.propose_battle(parent.state, ref, result))


def named(child: CampaignRow) -> str:
    """'battle **Skirmish** (0202/A-3)'; '**Battle Orbit 1, turn 6**' (P-16: not doubled)."""
    told = war_title(child.name, child.parent_ref)
    return told[0].lower() + told[1:] if told.startswith("Battle **") else told


def record_result(links: ParentLinks, parent: Ctx, child: CampaignRow, now: float,
                  state: ResultState = ResultState.ARRIVED,
                  round_no: int | None = None) -> EventRow:
    """The battle's result came in, is kept, or was dropped: its row in ``links`` (saved by
    the caller) and the parent's log line that says so (returned, for the caller to log)."""
    links.set_result(child.id, child.parent_ref or "", state, parent.row.resolution_no,
                     round_no)
    text = {ResultState.ARRIVED: f"The result of {named(child)} came in from its thread.",
            ResultState.OWED: f"The result of {named(child)} is kept until that battle "
                              "waits for it.",
            ResultState.DROPPED: f"The result of {named(child)} was dropped: its round ended "
                                 "without that battle."}[state]
    return log_line(parent, child, now, LOGGED[state], text, round_no)


def log_line(parent: Ctx, child: CampaignRow, now: float, kind: str, text: str,
             round_no: int | None) -> EventRow:
    """A GM line of the parent's log about one of its battles (``data["campaign"]`` names
    it, ``data["round"]`` the round it belongs to): the GM's record; undo reads
    ``battle_links``, never these lines."""
    data: dict[str, object] = {"campaign": child.id, "ref": child.parent_ref}
    if round_no is not None:
        data["round"] = round_no
    return EventRow(step_no=parent.row.step_no, resolution_no=parent.row.resolution_no,
                    audience="gm", seat=None, kind=kind, text=text, data=data, created_at=now)


def round_of(ctx: Ctx) -> int | None:
    """The parent's round as its optional ``battle_round(state)`` hook counts it."""
    got = ctx.ruleset.battle_round(ctx.state) if ctx.state is not None else None
    return int(got) if got is not None else None


def _take(ctx: Ctx, outcome: Outcome) -> None:
    ctx.state = ctx.ruleset.state_model.model_validate(outcome.state)
    ctx.row.state = ctx.state.model_dump(mode="json")


class ResultUndo:
    """P-13 for one service: ``db`` its reader, ``load`` how it loads a campaign."""

    def __init__(self, db: Database, load: Load) -> None:
        self.db = db
        self._load = load

    async def refuse_undo_of_sent_result(self, channel_id: int) -> None:
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
        link = await battle_links.get(self.db, parent.id, row.id)
        if link is None or link.result is None:
            return
        raise InvalidState(
            f"**{row.name}** is over and its result went to **{parent.name}** (battle "
            f"{row.parent_ref}), so it can no longer be undone here. There, its GM confirms "
            "it, changes a craft's fate first, or closes the battle and reports its losses "
            "by hand; /gm undo there takes back a confirmation.")

    async def _ended_battle(self, tx: Tx, parent: Ctx, cid: int) -> Ctx | None:
        row = await campaigns.get(tx, cid)
        if row is None or row.parent_id != parent.row.id or row.status != Status.ENDED:
            return None
        return await self._load(tx, cid)

    async def results_after_undo(self, tx: Tx, ctx: Ctx, fx: UnitOfWork, undone: int,
                                 links: ParentLinks) -> list[str]:
        """``gm_undo`` has put back the state from before resolution ``undone``: every result
        that arrived after that point is proposed again where the restored state waits for
        it, else kept. Its events are logged but not sent (the GM had them at the arrival;
        the undo's announcement and the GM's fresh panel say it). Returns the announcement's
        lines; the changed rows of ``links`` are the caller's to save."""
        lines: list[str] = []
        for r in links.results():
            if not (r.result is ResultState.OWED or (
                    r.result is ResultState.ARRIVED and r.result_resolution >= undone)):
                continue  # the restored state has it (or it was dropped)
            child = await self._ended_battle(tx, ctx, r.child_id)
            found = arrival(child, ctx) if child is not None else None
            if child is None or found is None:
                continue
            if found.outcome is not None:
                _take(ctx, found.outcome)
                fx.save = "state"
                fx.events += [EventRow(
                    step_no=ctx.row.step_no, resolution_no=ctx.row.resolution_no,
                    audience=ev.audience.kind,
                    seat=ev.audience.seat if ev.audience.kind == "seat" else None,
                    kind=ev.kind, text=ev.text, data=ev.data, created_at=fx.now,
                ) for ev in found.outcome.events]
                fx.events.append(record_result(links, ctx, child.row, fx.now))
                lines.append(f"The result of {named(child.row)}, fought in its thread, came "
                             "in after that point: it is proposed again.")
            elif r.result is ResultState.ARRIVED:
                fx.events.append(record_result(links, ctx, child.row, fx.now,
                                               ResultState.OWED, round_of(ctx)))
                lines.append(f"The result of {named(child.row)}, fought in its thread, came "
                             "in after that point: it is kept, and proposed again as soon as "
                             "that battle waits for its result.")
        return lines

    async def owed_results(self, tx: Tx, ctx: Ctx, fx: UnitOfWork,
                           links: ParentLinks) -> list[Event]:
        """After a change of a parent's state: each kept result (``OWED``) whose battle waits
        again is proposed; one whose round is over is dropped (the GM is told). Returns the
        events to route with the change; the changed rows of ``links`` are the caller's to
        save."""
        if not ctx.ruleset.takes_battle_results or ctx.row.status not in LIVE:
            return []
        events: list[Event] = []
        for r in links.results():
            if r.result is not ResultState.OWED:
                continue
            child = await self._ended_battle(tx, ctx, r.child_id)
            if child is None:
                continue
            kept, now = r.result_round, round_of(ctx)
            if kept is not None and now is not None and now > kept:
                fx.events.append(record_result(links, ctx, child.row, fx.now,
                                               ResultState.DROPPED))
                events.append(Event(audience=Audience.gm(), kind="battle_note", text=(
                    f"The result of {named(child.row)}, fought in its thread, was kept after "
                    f"an undo for round {kept}, but that round ended without that battle: "
                    "it is not proposed. Fight the battle again if it comes up, or report "
                    "its losses by hand.")))
                continue
            found = arrival(child, ctx)
            if found is None or found.outcome is None:
                continue
            _take(ctx, found.outcome)
            fx.events.append(record_result(links, ctx, child.row, fx.now))
            events.append(Event(audience=Audience.public(), kind="battle_again", post=False,
                                text=f"The result of {named(child.row)}, fought in its "
                                     "thread, is proposed again."))
            events += found.outcome.events
        return events
