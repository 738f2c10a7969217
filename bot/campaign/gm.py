"""GM tools by channel: extend, pause, resume, advance, undo, log, kick, replace."""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from bot.campaign import messages, order_locks
from bot.campaign.core import Ctx, UnitOfWork
from bot.campaign.legal import validate_action
from bot.campaign.mail import Mail
from bot.campaign.messages import plain_line
from bot.campaign.models import Actor, LogEntry
from bot.campaign.settings import timing
from bot.campaign.steps import StepEngine
from bot.campaign.war import WarListener
from bot.campaign.war_seats import WarSeats
from bot.errors import InvalidInput, InvalidState, NotFound, PermissionDenied
from bot.rules.base import GM_SEAT, Audience, Event, Outcome, Request
from storage import events as event_log
from storage import players, timers, turns
from storage.db import Tx
from storage.status import DeadlineStatus, Status

HOUR = 3600.0
MAX_EXTEND_HOURS = 24 * 60
MAX_LOG_ENTRIES = 20_000  # the whole log of a long campaign, as a file; still a bound
UNDO_QUOTED = 1  # how many posted lines of an undone result the announcement quotes
MAX_QUOTE = 160



def _with_ruling(text: str, data: dict[str, object]) -> str:
    """A logged result with the ruling behind it (kept as data, out of the players' text):
    the GM's log is where the id is shown, for ``/help rule``."""
    ruling = data.get("ruling") if isinstance(data, dict) else None
    return f"{text} [ruling {ruling}]" if isinstance(ruling, str) and ruling else text


class GmTools:
    """The GM's tools by channel, through ``engine``; ``war`` undoes a parent's battle links
    and results with it (P-13, P-14), ``seats`` makes its battles' seats follow (P-21)."""

    def __init__(self, engine: StepEngine, war: WarListener, seats: WarSeats) -> None:
        self.engine = engine
        self.core = engine.core
        self.war = war
        self.seats = seats

    async def gm_extend(self, actor: Actor, channel_id: int, hours: float) -> None:
        """Moves the open step's deadline by ``hours`` (negative shortens; a step without a
        deadline gets one ``hours`` from now) and re-arms its reminders."""
        if not math.isfinite(hours) or hours == 0 or abs(hours) > MAX_EXTEND_HOURS:
            raise InvalidInput(f"Give a number of hours, not 0, at most {MAX_EXTEND_HOURS}.")

        async def run(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> None:
            self._gm_live(ctx, actor)
            if ctx.row.status == Status.PAUSED:
                raise InvalidState("The campaign is paused; resume it first (/gm resume).")
            if not ctx.pending:
                raise InvalidState("No step is open.")
            dl = await timers.get(tx, ctx.row.id, ctx.row.step_no)
            base = (dl.due_at if dl is not None and dl.status == DeadlineStatus.OPEN and dl.due_at
                    else None)
            due = (base if base is not None else fx.now) + hours * HOUR
            if due <= fx.now:
                raise InvalidInput("That would put the deadline in the past.")
            await timers.move(tx, ctx.row.id, ctx.row.step_no, due,
                              timing(ctx.row.settings)["reminders"], fx.now)
            fx.wake = True
            fx.channel(ctx, "The GM moved the deadline of the current step: now "
                            f"{messages.when(self.core.at(due))}.")
            await self.engine.flush(tx, ctx, fx, Mail())  # the step's tracker shows the new one

        await self.core.in_channel(channel_id, run)

    async def gm_pause(self, actor: Actor, channel_id: int) -> None:
        """Freezes the campaign and the time left on its deadline."""

        async def run(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> None:
            self._gm_live(ctx, actor)
            if ctx.row.status == Status.PAUSED:
                raise InvalidState("The campaign is already paused.")
            await timers.pause(tx, ctx.row.id, fx.now)
            ctx.row.status, fx.save, fx.wake = Status.PAUSED, "row", True
            fx.channel(ctx, "The GM paused the campaign; the deadline clock is stopped.")

        await self.core.in_channel(channel_id, run)

    async def gm_resume(self, actor: Actor, channel_id: int) -> None:
        """Restarts the clock with the time that was left at the pause."""

        async def run(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> None:
            self._gm_live(ctx, actor)
            if ctx.row.status != Status.PAUSED:
                raise InvalidState("The campaign is not paused.")
            ctx.row.status, fx.save, fx.wake = Status.RUNNING, "row", True
            dl = await timers.get(tx, ctx.row.id, ctx.row.step_no)
            note = ""
            if dl is not None and dl.status == DeadlineStatus.OPEN and dl.remaining is not None:
                due = fx.now + dl.remaining
                await timers.move(tx, ctx.row.id, ctx.row.step_no, due,
                                  timing(ctx.row.settings)["reminders"], fx.now)
                note = f" Deadline {messages.when(self.core.at(due))}."
            fx.channel(ctx, f"The GM resumed the campaign.{note}")

        await self.core.in_channel(channel_id, run)

    async def gm_advance(self, actor: Actor, channel_id: int) -> None:
        """Resolves the open step now, taking the default for every missing input."""

        async def run(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> None:
            self._gm_live(ctx, actor)
            if ctx.row.status == Status.PAUSED:
                raise InvalidState("The campaign is paused; resume it first (/gm resume).")
            if not ctx.pending:
                raise InvalidState("No step is open.")
            away = frozenset((await fx.rows(ctx)).away_seats())  # said as such (P-26)
            await self.engine.force_defaults(tx, ctx, fx, strict=True, away=away)

        await self.core.in_channel(channel_id, run)

    async def gm_edit_state(
        self, actor: Actor, channel_id: int, edit: Callable[[Any], Any], summary: str
    ) -> None:
        """Applies a rule set's pure GM edit (e.g. FTCamp's add/move/remove a group) to the
        running state: snapshotted for /gm undo, logged for the GM only (an edit may name
        hidden forces), and the step re-opened so every panel matches the edited state."""

        async def run(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> None:
            self._gm_live(ctx, actor)
            new_state = edit(ctx.state)
            await self.engine.begin_resolution(tx, ctx, fx)
            outcome = Outcome(state=new_state, events=[
                Event(audience=Audience.gm(), kind="gm_edit", text=f"GM edit: {summary}")])
            await self.engine.apply(tx, ctx, fx, outcome, closes_step=True)

        await self.core.in_channel(channel_id, run)

    async def gm_act(self, actor: Actor, channel_id: int, action: dict[str, Any]) -> None:
        """Applies an action the rule set lets the GM take at any time (its optional
        ``gm_actions(state) -> list[ActionSpec]``, e.g. HRFT manual damage): checked like a
        panel's action, applied with the next resolution's dice (so /gm undo restores it),
        its events routed as usual. The GM is never in ``pending``, so no step, panel or
        deadline waits for them; the step re-opens only when who is asked changes."""

        async def run(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> None:
            self._gm_live(ctx, actor)
            if ctx.row.status == Status.PAUSED:
                raise InvalidState("The campaign is paused; resume it first (/gm resume).")
            specs = ctx.ruleset.gm_actions(ctx.state)
            if not specs:
                raise InvalidState("The GM has nothing to do in this step of the game.")
            request = Request(seat=GM_SEAT, kind="open", step="gm", prompt="GM", actions=specs)
            validate_action(request, action)
            await self.engine.act(tx, ctx, fx, request, action)

        await self.core.in_channel(channel_id, run)

    async def gm_undo(self, actor: Actor, channel_id: int) -> str:
        """Restores the state before the last resolution and the submissions it used; again
        and again, as far back as the last ``undo_depth`` resolutions (their snapshots).

        The restored step gets a NEW step number (panels of the undone step must not
        answer the restored one), the old resolution number (so the same submissions give
        the same dice and the same result), a fresh deadline and fresh panels. The kept
        submissions are back in BEFORE anything is said, so the announcement (returned, for
        the GM) tells what was undone, whose orders were kept (names only) and who is owed."""
        await self.war.undo.results.refuse_undo_of_sent_result(channel_id)  # P-13

        async def run(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> str:
            self._gm_live(ctx, actor)
            snap = await turns.latest_snapshot(tx, ctx.row.id)
            if snap is None and ctx.row.resolution_no > 0:
                # P-5: resolution N's snapshot is pruned once N <= newest - undo_depth
                raise InvalidState(f"I keep only the last {self.core.undo_depth} resolutions; "
                                   "nothing older can be undone.")
            if snap is None:
                raise InvalidState("There is nothing to undo.")
            row = ctx.row
            undone = await event_log.texts_of_resolution(
                tx, row.id, snap.resolution_no, "public", UNDO_QUOTED + 1)
            await turns.drop_snapshot(tx, row.id, snap.resolution_no)
            row.resolution_no = snap.resolution_no - 1
            ctx.state = ctx.ruleset.state_model.model_validate(snap.state)
            row.state = snap.state
            fx.save = "state"
            # P-13: a battle's result that came in after that point is proposed again
            again = await self.war.undo.results_after_undo(tx, ctx, fx, snap.resolution_no)
            ctx.pending = ctx.ruleset.pending(ctx.state)
            sealed = {r.seat for r in ctx.pending if r.kind == "sealed"}
            kept = {seat: a for seat, a in snap.submissions.items() if seat in sealed}
            # The step machine's own opening words are not used: they were written before
            # the kept submissions were back in. Its panels are re-worded below.
            await self.engine.open_step(tx, ctx, fx, Mail())
            await turns.replace_submissions(tx, row.id, row.step_no, kept, fx.now)
            ctx.submitted = dict(kept)
            # P-23: revealed by the undone resolution, the players' orders stand as given
            # (the GM's own never lock: the GM sees every order anyway)
            locked = sorted(s for s in kept if s != GM_SEAT)
            if locked:
                who = _names([ctx.name(s) for s in locked])
                fx.events.append(order_locks.mark(
                    ctx, order_locks.LOCKED, locked, fx.now,
                    f"Orders back in after the undo, locked: {who}."))
            dl = await timers.get(tx, row.id, row.step_no)
            open_dl = dl is not None and dl.status == DeadlineStatus.OPEN
            deadline = self.core.at(dl.due_at) if dl is not None and open_dl else None
            text = undo_text(ctx, undone, deadline, again, locked)
            mail = Mail(public=[text])
            for req in ctx.pending:
                if req.seat in locked:
                    ask = ("Your orders from before are back in. They were revealed, so "
                           "they stand as you gave them: only the GM can reopen them.")
                elif req.seat in kept:
                    ask = ("Your orders from before are back in; change them here until the "
                           "step resolves.")
                else:
                    ask = req.prompt
                mail.panel(req.seat, f"**{row.name}**: the GM undid the last result. {ask}"
                           + (f" (deadline {messages.when(deadline)})" if deadline else ""))
            await self.engine.flush(tx, ctx, fx, mail)
            return text

        return await self.core.in_channel(channel_id, run)

    async def gm_reopen(self, actor: Actor, channel_id: int, user_id: int) -> str:
        """P-23: the GM lets one seat change the orders an undo put back locked (the seat
        saw the others' orders revealed: the GM decides that this is fair). The channel
        hears it; the seat's panel says it may change them. Returns the channel's line."""

        async def run(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> str:
            self._gm_live(ctx, actor)
            p = ctx.seat_of(user_id)
            if p is None:
                raise NotFound("That member holds no seat in this campaign.")
            locked = await order_locks.locked_seats(tx, ctx.row.id, ctx.row.step_no)
            if p.seat not in locked:
                raise InvalidState(f"{p.name}'s orders for this step are not locked: only "
                                   "orders an undo put back after they were revealed are.")
            text = (f"The GM reopened {p.name}'s orders, put back by the undo: they may change "
                    "them until the step resolves.")
            fx.events.append(order_locks.mark(ctx, order_locks.REOPENED, [p.seat], fx.now,
                                              text))
            mail = Mail(public=[text])
            mail.panel(p.seat, f"**{ctx.row.name}**: the GM reopened your orders. Change them "
                               "here until the step resolves.")
            await self.engine.flush(tx, ctx, fx, mail)
            return text

        return await self.core.in_channel(channel_id, run)

    async def gm_log(self, actor: Actor, channel_id: int,
                     limit: int | None = 20) -> list[LogEntry]:
        """The latest ``limit`` public and GM events, oldest first (never a seat's private
        event), of the live campaign of the channel, else the latest that ended there.
        ``limit=None``: the whole log (for a file), still capped at ``MAX_LOG_ENTRIES``."""
        limit = MAX_LOG_ENTRIES if limit is None else limit
        campaign_id = await self.core.id_to_read(channel_id)
        ctx = await self.core.load(self.core.db, campaign_id)
        self.core.require_gm(ctx, actor)
        rows = await event_log.recent(self.core.db, campaign_id, ("public", "gm"),
                                      max(1, min(limit, MAX_LOG_ENTRIES)))
        return [
            LogEntry(datetime.fromtimestamp(r.created_at, UTC), r.audience, r.kind,
                     _with_ruling(r.text, r.data), r.step_no)
            for r in rows
        ]

    async def gm_kick(self, actor: Actor, channel_id: int, user_id: int) -> None:
        """The seat stays in the game, vacant: its input takes defaults at each deadline.
        Before the start the player is simply removed."""

        async def run(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> None:
            self.core.require_gm(ctx, actor)
            p = ctx.seat_of(user_id)
            if p is None:
                raise NotFound("That member holds no seat in this campaign.")
            if ctx.row.status == Status.SETUP:
                await players.remove(tx, ctx.row.id, p.seat)
                fx.channel(ctx, f"The GM removed {p.name} from **{ctx.row.name}**.")
            else:
                await players.set_vacant(tx, ctx.row.id, p.seat)
                await self.engine.delivery.hand_over_panel(tx, ctx, fx, p.seat, p.user_id,
                                                           freed=True)
                fx.channel(ctx, f"The GM freed seat {p.seat} ({p.name}): it takes default "
                                "orders at each deadline until someone takes it over.")
                await self.seats.follow_seat(tx, ctx, fx, p.user_id, p.name, None)  # P-21
            ctx.players = await players.of_campaign(tx, ctx.row.id)

        await self.core.in_channel(channel_id, run)

    async def gm_replace(
        self, actor: Actor, channel_id: int, old_user_id: int, new_actor: Actor
    ) -> None:
        """Another member takes over a seat (held or vacant) and gets its open panels."""

        async def run(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> None:
            self.core.require_gm(ctx, actor)
            held = [p for p in ctx.players if p.user_id == old_user_id]
            if not held:
                raise NotFound("That member never held a seat in this campaign.")
            if ctx.seat_of(new_actor.user_id) is not None:
                raise PermissionDenied(f"{new_actor.name} already holds a seat here.")
            old = max(held, key=lambda p: p.active)
            seat, old_name = old.seat, old.name
            await self.engine.delivery.hand_over_panel(tx, ctx, fx, seat, old_user_id)
            await players.reseat(tx, ctx.row.id, seat, new_actor.user_id, new_actor.name, fx.now)
            ctx.players = await players.of_campaign(tx, ctx.row.id)
            fx.channel(ctx, f"{new_actor.name} takes over seat {seat} from {old_name}.")
            await self.seats.follow_seat(tx, ctx, fx, old_user_id, old_name, new_actor)  # P-21
            mail = Mail()
            for req in ctx.requests_of(seat)[:1]:
                mail.panel(seat, f"**{ctx.row.name}**: you now hold seat {seat}. {req.prompt}")
            await self.engine.flush(tx, ctx, fx, mail)

        await self.core.in_channel(channel_id, run)

    def _gm_live(self, ctx: Ctx, actor: Actor) -> None:
        self.core.require_gm(ctx, actor)
        self.core.require_live(ctx)


def _names(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items) or "nobody"
    return ", ".join(items[:-1]) + " and " + items[-1]


def undo_text(ctx: Ctx, undone: list[str], deadline: datetime | None,
              again: list[str] | None = None, locked: list[int] | None = None) -> str:
    """The channel's word on /gm undo, after the kept submissions are back in: what was
    undone, the battle results proposed again (P-13), whose orders were kept (names only,
    never content), who is owed now."""
    what = "the last result"
    if undone:
        first = plain_line(undone[0])
        if len(first) > MAX_QUOTE:
            first = first[: MAX_QUOTE - 1] + "…"
        more = " …" if len(undone) > UNDO_QUOTED or "\n" in undone[0] else ""
        what += f" (it began: “{first}”{more})"
    lines = [f"**{ctx.row.name}**: the GM undid {what}. The game is back where it was "
             "before it."] + list(again or [])
    kept = [ctx.name(seat) for seat in sorted(ctx.submitted)]
    shut = [ctx.name(seat) for seat in sorted(ctx.submitted) if seat in (locked or [])]
    free = [name for name in kept if name not in shut]
    if shut:  # P-23
        lines.append(f"Kept: the orders {_names(shut)} had given then are back in, locked: "
                     "they were revealed, so they stand as given (only the GM can reopen "
                     "one seat's, with /gm reopen).")
    if free:
        lines.append(f"Kept: the orders {_names(free)} had given then are back in "
                     "(they may change them until the step resolves).")
    owing = ctx.owing()
    note = f" (deadline {messages.when(deadline)})" if deadline else ""
    sealed = list(dict.fromkeys(ctx.name(r.seat) for r in owing if r.kind == "sealed"))
    turn = list(dict.fromkeys(ctx.name(r.seat) for r in owing if r.kind == "turn"))
    acting = list(dict.fromkeys(ctx.name(r.seat) for r in owing if r.kind == "open"))
    if sealed:
        lines.append(f"Waiting for orders from: {_names(sealed)}{note}.")
    if turn:
        lines.append(f"It is {_names(turn)}'s turn{note}.")
    if acting:
        lines.append(f"{_names(acting)}: take your actions, then say you are ready{note}.")
    if kept and not owing:
        at = f", or at the deadline {messages.when(deadline)}" if deadline else ""
        how = ("when the GM advances it" if shut and not free
               else "when someone changes theirs, when the GM advances it")
        lines.append(f"Every order is in again: the step resolves {how}{at}"
                     + (", or when a seat the GM reopens gives its orders again." if shut
                        else "."))
    return "\n".join(lines)
