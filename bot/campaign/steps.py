"""The step machine: apply a rules outcome, route its events, open the next step."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

from bot.campaign import messages, step_posts
from bot.campaign.ahead import Resolved
from bot.campaign.battle_child import linked_by_rules, war_title
from bot.campaign.core import CampaignBroken, Ctx, ServiceCore, UnitOfWork, step_keys
from bot.campaign.deadline_drafts import take_drafts
from bot.campaign.mail import Mail, Taken
from bot.campaign.panel_delivery import PanelDelivery, away_text, back_text
from bot.campaign.settings import timing
from bot.campaign.summaries import describe_action
from bot.errors import InvalidState, NotFound
from bot.rules.base import GM_SEAT, Event, Outcome, Request, step_name
from storage import campaigns, missed, timers, turns
from storage.campaigns import CampaignRow
from storage.db import Tx
from storage.events import EventRow
from storage.outbox import NewMessage, Picture
from storage.status import DeadlineStatus, Status
from storage.timers import DeadlineRow
from storage.turns import Snapshot

log = logging.getLogger(__name__)
CAMPAIGN_OVER = "The campaign is over."


def _said_as_default(events: list[Event], seat: int, name: str, drafted: bool,
                     away: bool) -> bool:
    """P-30: a default reads as one line, the rule set's own event for the action (its first
    public event, a tracker line that names the seat or carries it as ``data["seat"]``) said
    as a default; False when there is none to say it."""
    ev = next((e for e in events if e.audience.kind == "public"), None)
    if (ev is None or ev.embed is not None or ev.image is not None or ev.post
            or "\n" in ev.text.strip()
            or not (ev.text.startswith(name) or ev.data.get("seat") == seat)):
        return False
    ev.text = messages.default_event_line(name, ev.text, drafted, away)
    return True


class WarHooks(Protocol):
    """What the step engine tells the war (``bot.campaign.war.WarListener``), called only
    for campaigns that have battles: a parent whose rules take battle results, a battle
    linked to its parent."""

    async def owed_results(self, tx: Tx, ctx: Ctx, fx: UnitOfWork) -> list[Event]:
        """The parent's state changed: the results and links an undo kept, proposed again
        where it now waits for them (P-13, P-14); their events."""
        ...

    async def result_to_parent(self, tx: Tx, ctx: Ctx, fx: UnitOfWork,
                               parent: CampaignRow) -> bool:
        """A linked battle ended: its result proposed to ``parent`` (E-D36); True when the
        parent or its GM heard of it."""
        ...


# Told every event the engine files, every audience, in order, and whether its campaign is
# a battle (``is_battle``, events): what a demo records for its readers (bot/campaign/demo.py).
EventWitness = Callable[[bool, list[Event]], None]


class StepEngine:
    """Runs the rules and turns their outcome into state, events and messages, over
    ``core`` (loading, locks, one transaction per intent); a seat's DMs go out through
    ``delivery``; ``war`` (``WarHooks``) is told of what the steps do in a campaign that has
    battles (None: no war code runs at all; the service sets it once the war is built)."""

    def __init__(self, core: ServiceCore, delivery: PanelDelivery,
                 war: WarHooks | None = None, witness: EventWitness | None = None) -> None:
        self.core = core
        self.delivery = delivery
        self.war = war
        self.witness = witness  # the demo's recording of every event (run_demo(record=True))

    async def resolve_sealed(
        self, tx: Tx, ctx: Ctx, fx: UnitOfWork, *, drafted: set[int] | None = None,
        taken: list[Taken] | None = None, away: frozenset[int] = frozenset(),
        resolved: Resolved | None = None,
    ) -> None:
        """Resolves the open sealed step with the stored submissions and defaults; the
        tracker says who missed the deadline, and the reveal marks the defaults: the rule
        set's ``resolve_with_defaults`` hook is told which seats' actions the service took
        by default (``drafted``: seats whose saved draft was taken instead; their own).
        ``resolved``: that resolution, worked out before the write lock (``Resolved.of``,
        for every seat submitted), taken when it holds for ``ctx`` as it is now."""
        mail = Mail()
        actions: dict[int, dict[str, Any]] = {}
        defaulted: set[int] = set()
        for req in ctx.pending:
            if req.kind != "sealed":
                continue
            action = ctx.submitted.get(req.seat) or req.default
            if action is None:
                raise InvalidState(f"{ctx.name(req.seat)} has not submitted and has no default.")
            actions[req.seat] = action
            if req.seat not in ctx.submitted:
                own = req.seat in (drafted or set())
                mail.line(messages.default_line(ctx.name(req.seat), req, drafted=own,
                                                away=req.seat in away))
                if req.seat not in away:
                    mail.defaulted(ctx, req, action, own)
                if not own:
                    defaulted.add(req.seat)
                if taken is not None:
                    taken.append(Taken(req.seat, describe_action(req, action), own))
        ready = resolved if resolved is not None and resolved.holds_for(ctx) else None
        answered = set(step_keys([r for r in ctx.pending if r.kind == "sealed"]))
        if ready is not None and not defaulted:  # (the same dice stream: not drawn again)
            await self.snapshot_for_undo(tx, ctx, fx)
            await self.apply(tx, ctx, fx, ready.outcome, closes_step=True, mail=mail,
                              reveal=True, answered=answered, resolved=ready)
            return
        dice = await self.begin_resolution(tx, ctx, fx)
        outcome = ctx.ruleset.resolve_with_defaults(ctx.state, actions, dice,
                                                    frozenset(defaulted))
        await self.apply(tx, ctx, fx, outcome, closes_step=True, mail=mail, reveal=True,
                          answered=answered)

    async def act(
        self, tx: Tx, ctx: Ctx, fx: UnitOfWork, req: Request, action: dict[str, Any],
        *, by_default: bool = False, drafted: bool = False, away: bool = False,
    ) -> None:
        """Applies one turn/open action; a turn action always ends its step. A default
        taken at the deadline (``drafted``: the seat's saved draft; ``away``: at once, for an
        away seat) says so in the tracker."""
        mail = Mail()
        if by_default:
            if not away:
                mail.defaulted(ctx, req, action, drafted)
        else:
            mail.acted.add(req.seat)
        dice = await self.begin_resolution(tx, ctx, fx)
        outcome = ctx.ruleset.act(ctx.state, req.seat, action, dice)
        if by_default and not _said_as_default(outcome.events, req.seat, ctx.name(req.seat),
                                               drafted, away):
            mail.line(messages.default_line(ctx.name(req.seat), req, drafted=drafted,
                                            away=away))
        await self.apply(tx, ctx, fx, outcome, closes_step=req.kind == "turn", mail=mail,
                          answered=set(step_keys([req])) if req.kind == "turn" else set())

    async def begin_resolution(self, tx: Tx, ctx: Ctx, fx: UnitOfWork) -> Any:
        """Snapshots the state for undo; the dice of resolution N are the stream "N"."""
        await self.snapshot_for_undo(tx, ctx, fx)
        return self.core.dice(ctx, str(ctx.row.resolution_no))

    async def snapshot_for_undo(self, tx: Tx, ctx: Ctx, fx: UnitOfWork) -> None:
        """The state before this resolution, kept for undo; the resolution number moves on."""
        row = ctx.row
        stored = fx.save != "state"  # unchanged in this transaction: SQLite copies its text
        snap = Snapshot(
            resolution_no=row.resolution_no + 1, state={} if stored else row.state or {},
            step_no=row.step_no, step_keys=row.step_keys, submissions=dict(ctx.submitted),
        )  # (not read when stored: a state kept as its text would be decoded for nothing)
        await turns.put_snapshot(tx, row.id, snap, fx.now, keep=self.core.undo_depth,
                                 stored=stored)
        row.resolution_no += 1

    async def apply(
        self, tx: Tx, ctx: Ctx, fx: UnitOfWork, outcome: Outcome, *, closes_step: bool,
        answered: set[str] | None = None,
        mail: Mail | None = None, reveal: bool = False, resolved: Resolved | None = None,
    ) -> None:
        """``answered``: the step keys this resolution answered; None when the step is over
        whatever remains (start, GM edits). ``reveal``: the events reveal a sealed step.
        ``resolved``: ``outcome``'s state as validated, encoded and asked for its
        requests before the write lock (``Resolved``)."""
        mail = mail or Mail()
        if reveal:
            mail.acted |= {s for s in ctx.submitted}
        if resolved is not None:
            ctx.state = resolved.new_state
            ctx.row.put_state_text(resolved.text)
        else:
            ctx.state = ctx.ruleset.state_model.model_validate(outcome.state)
            ctx.row.put_state_text(ctx.state.model_dump_json())
        fx.save = "state"
        worked_out = ctx.state
        # the war is asked only for a campaign with a battle in a thread (issue 17 item 1)
        war = (self.war if ctx.ruleset.takes_battle_results
               and (await fx.rows(ctx)).fights_battles() else None)
        events = outcome.events if outcome.finished or war is None else [
            *outcome.events, *await war.owed_results(tx, ctx, fx)]  # P-13, P-14
        self._route(ctx, fx, events, mail, reveal=reveal, finished=outcome.finished)
        if outcome.finished:
            # The last public event is the rule set's closing word (HRFT: the report of every
            # ship); it stays in the campaign's own channel (a battle's thread, P-15).
            public = [e.text for e in outcome.events if e.audience.kind == "public"]
            await self.finish(tx, ctx, fx, mail, CAMPAIGN_OVER,
                               report=public[-1] if public else "")
        else:
            ctx.pending = (resolved.new_pending if resolved is not None
                           and resolved.new_pending is not None and ctx.state is worked_out
                           else ctx.ruleset.pending(ctx.state))
            keys = set(step_keys(ctx.pending))
            # The rest of the same step (P-10): some of its requests were answered (an open
            # step's Ready, the sealed part or the turn of a mixed step) and the others are
            # still asked, none of the answered ones again. They keep their panels, number,
            # stored sealed answers and deadline: a fresh DM to each would only be noise.
            rest_of_step = (answered is not None and bool(keys)
                            and keys < set(ctx.row.step_keys) and not keys & answered)
            if rest_of_step:
                ctx.row.step_keys = sorted(keys)
            elif closes_step or sorted(keys) != ctx.row.step_keys:
                await self.open_step(tx, ctx, fx, mail)
        await self.flush(tx, ctx, fx, mail)

    async def finish(
        self, tx: Tx, ctx: Ctx, fx: UnitOfWork, mail: Mail, line: str, report: str = ""
    ) -> None:
        # every end (its rules, or the GM) keeps how it ended, for its status and for
        # /campaign list: a finished campaign stays readable
        if not ctx.row.end_reason:
            ctx.row.end_reason = messages.end_summary(line, report)
        ctx.row.status = Status.ENDED
        await turns.drop_snapshots(tx, ctx.row.id)  # an ended campaign is never undone (P-5)
        ctx.pending, ctx.submitted = [], {}
        fx.save = "state" if fx.save == "state" else "row"
        await timers.close_open(tx, ctx.row.id)
        fx.wake = True
        if ctx.row.parent_id is not None:
            told = await self._report_to_parent(tx, ctx, fx)
            # P-15: a battle is no campaign: its thread says where its result went
            line = ((told or "The battle is over.") if line == CAMPAIGN_OVER
                    else "\n".join(x for x in (line, told) if x))
        # the closing line goes with the rule set's closing word (the victory), one post;
        # an embed shows instead of its text, so then the line is a post of its own
        last = next((i for i in reversed(mail.items) if i.post), None)
        if not line:
            pass
        elif (last is not None and last.embed is None
                and len(last.text) + len(line) < messages.MESSAGE_LIMIT):
            last.text += f"\n{line}"
        elif last is not None and last.embed is not None and not last.embed.footer:
            last.embed.footer = line  # under the report it closes: one post (H-D46)
        else:
            mail.post(line)

    async def _report_to_parent(self, tx: Tx, ctx: Ctx, fx: UnitOfWork) -> str:
        """P-15: a battle (a child campaign) that ended proposes its result to its parent,
        whose channel gets that ONE post (the rules' proposal); the battle's closing words
        and ship report stay in its thread. Returns the thread's line of where its result
        went ('' when nowhere)."""
        try:  # (the cached parent when its version is still the one in the database)
            parent: CampaignRow | None = (await self.core.load(tx, ctx.row.parent_id or 0)).row
        except NotFound:
            parent = None
        except CampaignBroken:
            parent = await campaigns.get(tx, ctx.row.parent_id or 0)
        # P-20: nothing reaches a parent from a thread its rules did not link (a linked
        # battle is started at its link, so one ended in setup never was)
        if (parent is None or parent.status == Status.ENDED or ctx.state is None
                or not linked_by_rules(parent, ctx.row)):
            return ""
        if self.war is not None and await self.war.result_to_parent(
                tx, ctx, fx, parent):
            return (f"Its result is proposed to **{parent.name}**, whose GM confirms it "
                    "there.")
        told = war_title(ctx.row.name, ctx.row.parent_ref)
        fx.send(NewMessage(
            parent.id, "dm", user_id=parent.gm_user_id,
            content=f"{told} is over in its thread; nothing of it was proposed to "
                    f"**{parent.name}**."))
        return ""

    async def open_step(self, tx: Tx, ctx: Ctx, fx: UnitOfWork, mail: Mail) -> None:
        """A new step: new number, a deadline, one DM panel per asked seat; the channel's
        tracker (edited or posted by ``flush``) says who is owed."""
        row = ctx.row
        row.step_no += 1
        row.step_keys = step_keys(ctx.pending)
        ctx.submitted = {}
        fx.save = "state" if fx.save == "state" else "row"
        await timers.close_open(tx, row.id)
        fx.wake = True
        if not ctx.pending:
            self._asks_nobody(ctx, mail)
            return
        deadline = None
        hours = float(timing(row.settings)["step_hours"])
        # P-18: a step that waits for a battle fought in its thread has no clock of its own
        # (the thread's deadlines keep the battle moving): no deadline, no reminders
        opened: DeadlineRow | None = None
        if hours > 0 and not step_posts.in_threads(ctx):
            due = fx.now + hours * 3600
            await timers.open_deadline(
                tx, row.id, row.step_no, due, timing(row.settings)["reminders"], fx.now
            )
            deadline = self.core.at(due)
            opened = DeadlineRow(row.id, row.step_no, due, None, DeadlineStatus.OPEN)
            if row.status == Status.PAUSED:  # a result came in from a battle's thread: the
                await timers.pause(tx, row.id, fx.now)  # clock starts at /gm resume
                deadline = opened = None
        if row.status != Status.PAUSED:  # (the tracker shows it without reading it back)
            (await fx.rows(ctx)).deadline_is(row.step_no, opened)
        name = step_name(ctx.ruleset, ctx.state, ctx.pending).name
        for req in ctx.pending:
            mail.panel(req.seat, messages.panel_line(row.name, name, req.prompt, deadline))

    @staticmethod
    def _asks_nobody(ctx: Ctx, mail: Mail) -> None:
        """A running game whose rules ask nobody would wait forever (no panel, no deadline,
        nothing for /gm advance to take): a rules bug. Said once, when the step opens: in the
        log with the campaign (no game content), and to the GM, whose /gm undo goes back to
        the step before, which does ask someone."""
        row = ctx.row
        log.error("campaign %s (%s): the rules ask nobody at step %s and the game is not "
                  "over; the GM was told to undo", row.id, row.ruleset, row.step_no)
        mail.to_seat(GM_SEAT, f"**{row.name}** is stuck: the game is not over but nobody is "
                     "asked to act, which is a bug in the bot. Use /gm undo to go back one "
                     "step, and tell the bot's admin.")

    def _route(self, ctx: Ctx, fx: UnitOfWork, events: list[Event], mail: Mail, *,
               reveal: bool = False, finished: bool = False) -> None:
        """Logs every event with its audience and files it under the right destination.

        A public event is a post of its own when people must see it: it has a picture, it
        reveals a sealed step, it is a list or report (several lines), or it is the closing
        word of the game; routine one-liners (passes, draws, automatic phases) are lines of
        the tracker. A rule set overrides that per event with ``Event.post``."""
        if self.witness is not None:
            self.witness(ctx.row.parent_id is not None, events)
        public = [e for e in events if e.audience.kind == "public"]
        closing = public[-1] if finished and public else None
        for ev in events:
            seat = ev.audience.seat if ev.audience.kind == "seat" else None
            fx.events.append(EventRow(
                step_no=ctx.row.step_no, resolution_no=ctx.row.resolution_no,
                audience=ev.audience.kind, seat=seat, kind=ev.kind, text=ev.text, data=ev.data,
                created_at=fx.now,
            ))
            files = [self._picture(ctx, ev)] if ev.image is not None else []
            if ev.audience.kind == "public" and ev.embed is not None:
                # a result: always a post, the embed in the channel (the log keeps the text)
                mail.post(ev.text, files, embed=ev.embed, alone=ev.post is True)
            elif ev.audience.kind == "public":
                post = ev.post if ev.post is not None else (
                    bool(files) or reveal or "\n" in ev.text.strip() or ev is closing)
                if post:
                    mail.post(ev.text, files)
                else:
                    mail.line(ev.text)
            else:
                dest = GM_SEAT if ev.audience.kind == "gm" else (seat or 0)
                mail.to_seat(dest, ev.text)
                mail.files.setdefault(dest, []).extend(files)

    def _picture(self, ctx: Ctx, ev: Event) -> Picture:
        """A REQUEST for the picture: the view as of this moment (cheap). Drawing it is not
        cheap, so that waits until after commit and happens off the event loop."""
        assert ev.image is not None
        view = ev.image.view  # P-31: drawn as its caption names it, when the rule set froze it
        if view is None and ev.image.focus is not None:  # H-D46: one ship's sheet alone
            view, _ = ctx.ruleset.picture_view(ctx.state, ev.image.viewer, ev.image.name,
                                               ev.image.focus)
        elif view is None:
            view = ctx.ruleset.view(ctx.state, ev.image.viewer)
        return Picture(f"{ev.image.file or ev.image.name}.png", ctx.row.ruleset, ev.image.name,
                       view)

    async def flush(self, tx: Tx, ctx: Ctx, fx: UnitOfWork, mail: Mail) -> None:
        """Public items to the channel: posts as messages of their own, routine lines into
        the step tracker (posted when its step opens, then edited); per seat its private
        news, then its panel (a new DM, or an edit of its panel message: panel_delivery)."""
        row = ctx.row
        fx.wake = True
        rows = await fx.rows(ctx)
        if mail.acted:
            for seat in rows.clear(sorted(mail.acted)):
                mail.line(back_text(ctx.name(seat)))  # they are here after all
        turn_notices = await step_posts.post_public(tx, ctx, fx, mail)
        away = rows.away_seats()
        for seat in sorted(set(mail.seats) | set(mail.panels) | set(mail.defaults)):
            panel = mail.panels.get(seat)
            if panel is None:
                for line in mail.defaults.get(seat, []):  # for the seat's next panel
                    rows.add_note(seat, line)
            else:
                notes = [*rows.take_notes(seat), *mail.defaults.get(seat, [])]
                panel = "\n".join([*([away_text(row.name)] if seat in away else []),
                                   *notes[-missed.MAX_NOTES:], panel])
            user_id = self.dm_target(ctx, seat)
            if user_id is None or (panel is None and seat not in mail.seats):
                continue
            texts = mail.seats.get(seat, [])
            # The dispatcher splits an overlong panel text and puts the panel on its end.
            await self.delivery.deliver_seat(
                tx, ctx, fx, seat, user_id,
                messages.split("\n".join(texts)) if texts else [], mail.files.get(seat, []),
                panel)
        turn_notices()  # (after the seats' DMs: the DM panel tells a seat first)
        await self._hurry_away(tx, ctx, fx, away)

    async def seat_active(self, tx: Tx, ctx: Ctx, fx: UnitOfWork, seat: int,
                           user_id: int) -> None:
        """The holder submitted or chose on a panel just now: an away seat is back (P-26),
        said in the step's tracker."""
        await self.delivery.panel_used(tx, ctx, fx, seat, user_id)
        if (await fx.rows(ctx)).clear([seat]):
            mail = Mail()
            mail.line(back_text(ctx.name(seat)))
            await self.flush(tx, ctx, fx, mail)

    async def _hurry_away(self, tx: Tx, ctx: Ctx, fx: UnitOfWork, away: set[int]) -> None:
        """P-26: a step that now waits only for away seats (each with a default) takes their
        defaults at once: its deadline falls due now and the scheduler fires it, in its own
        transaction (no recursion; a fired deadline never fires twice). Seats that are not
        away always get their whole time: the step waits for them first."""
        row = ctx.row
        owing = ctx.owing()
        if (not owing or row.status != Status.RUNNING
                or timing(row.settings)["on_deadline"] != "default"
                or not all(r.seat in away and r.default is not None for r in owing)):
            return
        if await timers.hurry(tx, row.id, row.step_no, fx.now):
            fx.wake = True

    @staticmethod
    def dm_target(ctx: Ctx, seat: int) -> int | None:
        """Who reads a seat's DMs: nobody for a vacant seat or a player with DMs closed (they
        use /orders and /campaign status instead)."""
        if seat == GM_SEAT:
            return ctx.row.gm_user_id
        p = ctx.player(seat)
        return p.user_id if p is not None and p.active and p.dm_ok else None

    async def force_defaults(
        self, tx: Tx, ctx: Ctx, fx: UnitOfWork, *, strict: bool, taken: list[Taken] | None = None,
        away: frozenset[int] = frozenset(),
    ) -> list[str]:
        """Takes each missing input's default (deadline or /gm advance); a seat's saved draft
        that makes a legal action is taken instead (``bot.campaign.deadline_drafts``).
        ``taken`` gathers what was taken for whom (for the GM's note of the deadline).

        Returns the names whose input has no default (nothing is applied for a sealed step
        then); with ``strict`` that is an InvalidState instead."""
        def probe_dice() -> Any:
            return self.core.dice(ctx, "draft-trial")

        def way_on(r: Request) -> Request:
            """With /gm advance (``strict``), an input with no default takes the rule set's
            ``advance`` action (HRFT: a side with no ships stays out of the battle)."""
            if strict and r.default is None and r.advance is not None and r.kind != "sealed":
                return r.model_copy(update={"default": r.advance})
            return r

        step = ctx.row.step_no
        owing = ctx.owing()
        stuck = [ctx.name(r.seat) for r in owing if way_on(r).default is None]
        if stuck and strict:
            raise InvalidState(
                f"No default exists for {messages.names(stuck)}; wait for them, extend the "
                "deadline, or give the seat to someone else (/gm replace)."
            )
        if any(r.kind == "sealed" for r in ctx.pending):
            if stuck:
                return stuck
            drafted = await take_drafts(tx, ctx, probe_dice)
            await self.resolve_sealed(tx, ctx, fx, drafted=drafted, taken=taken, away=away)
            if ctx.row.step_no != step or ctx.row.status == Status.ENDED:
                return stuck
        drafted = await take_drafts(tx, ctx, probe_dice)
        owing = ctx.owing()  # (a mixed step: its turn requests are still open)
        for req in owing:
            if ctx.row.step_no != step or ctx.row.status == Status.ENDED:
                break
            if req not in ctx.pending:
                continue
            req = way_on(req)
            if req.default is not None:
                own = req.seat in drafted
                if taken is not None:
                    taken.append(Taken(req.seat, describe_action(req, req.default), own))
                await self.act(tx, ctx, fx, req, req.default, by_default=True, drafted=own,
                                away=req.seat in away)
        return stuck
