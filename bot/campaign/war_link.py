"""A battle being fought in its thread stays linked through ``/gm undo`` in its parent (P-14).

Opening a parent's battle in a thread marks it there (the parent's ``link_battle`` hook,
O-D18) OUTSIDE a resolution of the parent, as a result's arrival is (P-13), so no undo
snapshot holds the state just after it. The same mechanism keeps it: each link is state, in
the battle's row of ``battle_links`` (``LinkState.LINKED``, with the parent's resolution
number; P-41: the row is not in the undo snapshots), and an undo that goes back past one
links the battle again in its own transaction where the restored state waits for it (the
parent's ``battle_refs`` lists it), else keeps it (``OWED``) until the first change of state
after which it does. The same orders list the same battle (P-5). A kept link belongs to its
round (``battle_round``): when that round is over, or the round's battles are listed without
it, it is dropped (``DROPPED``): the thread and the parent's GM are told that the battle no
longer fights a battle of the campaign, and its result, when it ends, is proposed nowhere
(``WarListener.result_to_parent`` asks ``dropped``). Each change is also a GM line of the
parent's log, for the GM to read.
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
from storage.battle_links import BattleLinkRow, LinkState, ParentLinks, ResultState
from storage.campaigns import CampaignRow
from storage.db import Tx
from storage.events import EventRow
from storage.outbox import NewMessage

# the kinds of the parent's log lines (GM events) that say what became of a link
LOGGED = {LinkState.LINKED: "link_made", LinkState.OWED: "link_owed",
          LinkState.DROPPED: "link_dropped"}


@dataclass(frozen=True)
class Settled:
    """What one kept or undone link became."""

    state: LinkState
    child: CampaignRow
    events: list[Event]


def record_link(links: ParentLinks, parent: Ctx, child: CampaignRow, now: float,
                state: LinkState = LinkState.LINKED, round_no: int | None = None) -> EventRow:
    """The battle is linked to its thread, kept, or dropped: its row in ``links`` (saved by
    the caller) and the parent's log line that says so (returned, for the caller to log)."""
    round_no = round_no if round_no is not None else war_undo.round_of(parent)
    links.set_link(child.id, child.parent_ref or "", state, parent.row.resolution_no, round_no)
    named = war_undo.named(child)
    text = {LinkState.LINKED: f"The {named} is fought in its thread.",
            LinkState.OWED: f"The {named} is still fought in its thread; it is linked again "
                            "when that battle comes up.",
            LinkState.DROPPED: f"The {named} no longer fights a battle of this "
                               "campaign."}[state]
    return war_undo.log_line(parent, child, now, LOGGED[state], text, round_no)


def dropped(links: ParentLinks, child: CampaignRow) -> bool:
    """P-14: the battle's link was dropped by an undo: its result is proposed nowhere."""
    row = links.get(child.id)
    return row is not None and row.link is LinkState.DROPPED


def keep_result(links: ParentLinks, parent: Ctx, child: CampaignRow,
                now: float) -> EventRow | None:
    """P-14: a battle whose link an undo kept ended before its battle came up again: its
    result is kept (P-13's ``OWED``) and proposed when that battle waits. The log line that
    says so when it was kept (``links`` changed, saved by the caller), else None."""
    row = links.get(child.id)
    if row is None or row.link is not LinkState.OWED:
        return None
    return war_undo.record_result(links, parent, child, now, ResultState.OWED, row.link_round)


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
    its battles fought in threads, read from and written to its ``battle_links`` rows."""

    def __init__(self, results: ResultUndo) -> None:
        self.results = results

    async def _settle_links(self, tx: Tx, ctx: Ctx, fx: UnitOfWork, links: ParentLinks,
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
        rows = [r for r in links.links() if r.link is LinkState.OWED or (
            undone is not None and r.link is LinkState.LINKED and r.link_resolution >= undone)]
        if not rows:
            return []
        listed = set(refs_of(ctx.state))  # before any is linked again in this pass
        out: list[Settled] = []
        for r in rows:
            child = await campaigns.get(tx, r.child_id)
            if child is None or child.parent_id != ctx.row.id or not child.parent_ref:
                continue
            if child.status not in war_undo.LIVE and r.result not in (
                    ResultState.ARRIVED, ResultState.OWED):
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
                fx.events.append(record_link(links, ctx, child, fx.now))
                out.append(Settled(LinkState.LINKED, child, list(outcome.events)))
            elif r.link is LinkState.OWED and gone(r, now, listed):
                fx.events.append(record_link(links, ctx, child, fx.now, LinkState.DROPPED))
                if child.status not in war_undo.LIVE:
                    continue  # over: P-13 drops its kept result when its round is over
                fx.send(NewMessage(child.id, "channel", gone_text(ctx, child),
                                   channel_id=child.channel_id))
                out.append(Settled(LinkState.DROPPED, child, [Event(
                    audience=Audience.gm(), kind="battle_note", text=gone_text(ctx, child))]))
            elif r.link is LinkState.LINKED:
                fx.events.append(record_link(links, ctx, child, fx.now, LinkState.OWED,
                                             r.link_round if r.link_round is not None
                                             else now))
                out.append(Settled(LinkState.OWED, child, []))
        return out

    def _link_lines(self, ctx: Ctx, settled: list[Settled]) -> list[str]:
        """The undo announcement's lines for the battles still fought in their threads;
        their events are logged, not sent: the announcement says it."""
        lines: list[str] = []
        for s in settled:
            if s.child.status not in war_undo.LIVE:
                continue  # over: P-13's line says what its result does
            named = war_undo.named(s.child)
            if s.state is LinkState.LINKED:
                lines.append(f"The {named} is still being fought in its thread: its result "
                             "will be proposed here when it ends.")
            elif s.state is LinkState.OWED:
                lines.append(f"The {named} is still being fought in its thread: it is "
                             "linked again as soon as that battle comes up.")
            else:
                lines.append(gone_text(ctx, s.child))
        return lines

    async def results_after_undo(self, tx: Tx, ctx: Ctx, fx: UnitOfWork, undone: int) -> list[str]:
        """P-14 then P-13: the battles still fought are linked first, so a result proposed
        again names its thread. (A dropped link is a battle still fought: it has no result
        for P-13 to propose.) The parent's rows are read once and saved once."""
        links = await ParentLinks.of(tx, ctx.row.id)
        lines = self._link_lines(ctx, await self._settle_links(tx, ctx, fx, links, undone))
        lines += await self.results.results_after_undo(tx, ctx, fx, undone, links)
        await links.save(tx)
        return lines

    async def owed_results(self, tx: Tx, ctx: Ctx, fx: UnitOfWork) -> list[Event]:
        """After a change of the parent's state: the kept links first (P-14), then the kept
        results (P-13); one read of the parent's rows, one write when any changed."""
        if ctx.row.status not in war_undo.LIVE:
            return []  # (both parts would pass: no read)
        links = await ParentLinks.of(tx, ctx.row.id)
        settled = await self._settle_links(tx, ctx, fx, links, None)
        events = [e for s in settled for e in s.events]
        events += await self.results.owed_results(tx, ctx, fx, links)
        await links.save(tx)
        return events


def gone(row: BattleLinkRow, now: int | None, listed: set[str]) -> bool:
    """A kept link whose battle will not come up again: its round is over, or that round's
    battles are listed (some wait to be fought) without it."""
    kept = row.link_round
    if kept is not None and now is not None:
        return now > kept or (now == kept and bool(listed))
    return bool(listed)
