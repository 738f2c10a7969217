"""A battle being fought in its thread stays linked through ``/gm undo`` in its parent (P-14).

Opening a parent's battle in a thread marks it there (the parent's ``link_battle`` hook,
O-D18) OUTSIDE a resolution of the parent, as a result's arrival is (P-13), so no undo
snapshot holds the state just after it. The same mechanism keeps it: each link is marked
in the parent's log (``link_made``, tagged with the parent's resolution number), and an undo
that goes back past one links the battle again in its own transaction where the restored
state waits for it (the parent's ``battle_refs`` lists it), else keeps it (``link_owed``)
until the first change of state after which it does. The same orders list the same battle
(P-5). A kept link belongs to its round (``battle_round``): when that round is over, or the
round's battles are listed without it, it is dropped (``link_dropped``): the thread and the
parent's GM are told that the battle no longer fights a battle of the campaign, and its
result, when it ends, is proposed nowhere (``WarListener.result_to_parent`` asks ``dropped``).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.campaign import war_undo
from bot.campaign.battle_child import war_title
from bot.campaign.core import Ctx, UnitOfWork
from bot.campaign.war_undo import ResultUndo
from bot.errors import InvalidState
from bot.rules.base import Audience, Event
from storage import campaigns
from storage import events as event_log
from storage.campaigns import CampaignRow, Reader
from storage.db import Tx
from storage.events import EventRow
from storage.outbox import NewMessage

LINKED = "link_made"  # the battle is marked as fought in its thread (at its open, or again)
LINK_OWED = "link_owed"  # kept: linked again as soon as that battle waits again
LINK_DROPPED = "link_dropped"  # its round came without that battle: it fights none of ours
LINK_MARKS = (LINKED, LINK_OWED, LINK_DROPPED)


@dataclass(frozen=True)
class Settled:
    """What one kept or undone link became: ``kind`` is the mark written."""

    kind: str
    child: CampaignRow
    events: list[Event]


def link_mark(parent: Ctx, child: CampaignRow, now: float, kind: str = LINKED,
              round_no: int | None = None) -> EventRow:
    """The parent's log line that a battle is linked to its thread, kept, or dropped."""
    named = war_undo.named(child)
    text = {LINKED: f"The {named} is fought in its thread.",
            LINK_OWED: f"The {named} is still fought in its thread; it is linked again when "
                       "that battle comes up.",
            LINK_DROPPED: f"The {named} no longer fights a battle of this campaign."}[kind]
    round_no = round_no if round_no is not None else war_undo.round_of(parent)
    return war_undo.mark_row(parent, child, now, kind, text, round_no)


async def link_marks(db: Reader, campaign_id: int) -> dict[int, EventRow]:
    """Battle campaign id -> its newest link mark in the parent's log."""
    return await war_undo.newest_marks(db, campaign_id, LINK_MARKS)


async def dropped(db: Reader, parent_id: int, child: CampaignRow) -> bool:
    """P-14: the battle's link was dropped by an undo: its result is proposed nowhere."""
    m = (await link_marks(db, parent_id)).get(child.id)
    return m is not None and m.kind == LINK_DROPPED


async def keep_result(tx: Tx, parent: Ctx, child: CampaignRow, now: float) -> bool:
    """P-14: a battle whose link an undo kept ended before its battle came up again: its
    result is kept (P-13's ``battle_owed``) and proposed when that battle waits. True when
    it was kept."""
    m = (await link_marks(tx, parent.row.id)).get(child.id)
    if m is None or m.kind != LINK_OWED:
        return False
    kept = m.data.get("round")
    await event_log.append(tx, parent.row.id, [war_undo.mark(
        parent, child, now, war_undo.OWED, kept if isinstance(kept, int) else None)])
    return True


def gone_text(parent: Ctx, child: CampaignRow, ended: bool = False) -> str:
    """The plain word that a battle fights no battle of ``parent`` any more (P-14)."""
    why = ("the GM there undid the game to before that battle, and it did not come up "
           "again")
    if ended:
        return (f"{war_title(child.name, child.parent_ref)} ended, but it no longer "
                f"fights a battle of **{parent.row.name}** ({why}): its result is not "
                "proposed. Report its losses by hand if the game needs them.")
    return (f"{war_title(child.name, child.parent_ref)} no longer fights a battle of "
            f"**{parent.row.name}**: {why}. When it ends, its result is not sent to the "
            "campaign.")


def kept_text(child: CampaignRow) -> str:
    return (f"{war_title(child.name, child.parent_ref)} ended before that battle came up "
            "again after the undo: its result is kept, and proposed as soon as that battle "
            "waits for it.")


class LinkUndo:
    """P-14, then P-13 (``results``): what an undo or a change of a parent's state does to
    its battles fought in threads."""

    def __init__(self, results: ResultUndo) -> None:
        self.results = results

    async def _settle_links(self, tx: Tx, ctx: Ctx, fx: UnitOfWork,
                            undone: int | None) -> list[Settled]:
        """Links the parent's battles fought in threads again where its state waits for
        them: after ``gm_undo`` went back to before resolution ``undone`` (every link made
        since, and every kept one), or after a change of state (``undone`` None: the kept
        ones). A link that cannot be made now is kept, or dropped when its round is over
        or that round's battles are listed without it. The state is changed in place."""
        link, refs_of = ctx.ruleset.link_battle, ctx.ruleset.battle_refs
        if (not ctx.ruleset.takes_battle_results or ctx.state is None
                or ctx.row.status not in war_undo.LIVE):
            return []
        marks = {cid: m for cid, m in (await link_marks(tx, ctx.row.id)).items()
                 if m.kind == LINK_OWED
                 or (undone is not None and m.kind == LINKED and m.resolution_no >= undone)}
        if not marks:
            return []
        results = await self.results.marks(tx, ctx.row.id)  # P-13's marks of the results
        listed = set(refs_of(ctx.state))  # before any is linked again in this pass
        out: list[Settled] = []
        for cid, m in marks.items():
            child = await campaigns.get(tx, cid)
            if child is None or child.parent_id != ctx.row.id or not child.parent_ref:
                continue
            sent = results.get(cid)
            if child.status not in war_undo.LIVE and (
                    sent is None or sent.kind not in (war_undo.ARRIVED, war_undo.OWED)):
                continue  # over, its result not taken: nothing comes from that thread
            ref = child.parent_ref
            now = war_undo.round_of(ctx)
            if ref in listed:
                try:
                    outcome = link(ctx.state, ref, child.name)
                except InvalidState:
                    continue
                if outcome is None:  # nothing to mark in the parent's rules
                    continue
                war_undo._take(ctx, outcome)
                fx.save = "state"
                fx.events.append(link_mark(ctx, child, fx.now))
                out.append(Settled(LINKED, child, list(outcome.events)))
            elif m.kind == LINK_OWED and gone(m, now, listed):
                fx.events.append(link_mark(ctx, child, fx.now, LINK_DROPPED))
                if child.status not in war_undo.LIVE:
                    continue  # over: P-13 drops its kept result when its round is over
                fx.send(NewMessage(child.id, "channel", gone_text(ctx, child),
                                              channel_id=child.channel_id))
                out.append(Settled(LINK_DROPPED, child, [Event(
                    audience=Audience.gm(), kind="battle_note", text=gone_text(ctx, child))]))
            elif m.kind == LINKED:
                fx.events.append(link_mark(ctx, child, fx.now, LINK_OWED, round_of_link(m, now)))
                out.append(Settled(LINK_OWED, child, []))
        return out

    def _link_lines(self, ctx: Ctx, settled: list[Settled]) -> list[str]:
        """The undo announcement's lines for the battles still fought in their threads;
        their events are logged, not sent: the announcement says it."""
        lines: list[str] = []
        for s in settled:
            if s.child.status not in war_undo.LIVE:
                continue  # over: P-13's line says what its result does
            named = war_undo.named(s.child)
            if s.kind == LINKED:
                lines.append(f"The {named} is still being fought in its thread: its result "
                             "will be proposed here when it ends.")
            elif s.kind == LINK_OWED:
                lines.append(f"The {named} is still being fought in its thread: it is "
                             "linked again as soon as that battle comes up.")
            else:
                lines.append(gone_text(ctx, s.child))
        return lines

    async def results_after_undo(self, tx: Tx, ctx: Ctx, fx: UnitOfWork, undone: int) -> list[str]:
        """P-14 then P-13: the battles still fought are linked first, so a result proposed
        again names its thread. (A dropped link is a battle still fought: it has no result
        for P-13 to propose.)"""
        lines = self._link_lines(ctx, await self._settle_links(tx, ctx, fx, undone))
        return lines + await self.results.results_after_undo(tx, ctx, fx, undone)

    async def owed_results(self, tx: Tx, ctx: Ctx, fx: UnitOfWork) -> list[Event]:
        """After a change of the parent's state: the kept links first (P-14), then the kept
        results (P-13)."""
        settled = await self._settle_links(tx, ctx, fx, None)
        return [e for s in settled for e in s.events] + await self.results.owed_results(
            tx, ctx, fx)


def round_of_link(m: EventRow, now: int | None) -> int | None:
    """The round a link belongs to: the one it was made in (its mark keeps it), else now."""
    kept = m.data.get("round")
    return kept if isinstance(kept, int) else now


def gone(m: EventRow, now: int | None, listed: set[str]) -> bool:
    """A kept link whose battle will not come up again: its round is over, or that round's
    battles are listed (some wait to be fought) without it."""
    kept = m.data.get("round")
    if isinstance(kept, int) and now is not None:
        return now > kept or (now == kept and bool(listed))
    return bool(listed)
