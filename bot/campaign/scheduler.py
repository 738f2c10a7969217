"""Time: deadlines and reminders fire from the database, exactly once each.

Each timer fires on its own: one that fails (a broken campaign state, a rules bug, a deadline
out of range) is logged with its campaign and backed off, never stopping the timers of the
other campaigns; after ``MAX_TRIES`` failures it is marked done and the GM is told."""

from __future__ import annotations

import logging
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.campaign import messages
from bot.campaign.core import Clock, Ctx, UnitOfWork
from bot.campaign.mail import Mail, Taken
from bot.campaign.settings import timing
from bot.campaign.steps import StepEngine
from bot.campaign.summaries import describe_action
from bot.rules.base import step_name
from bot.rules.words import plural
from storage import campaigns, digests, timers
from storage import outbox as outbox_repo
from storage.db import Database, Tx
from storage.health import StorageError
from storage.outbox import NewMessage
from storage.status import Status
from storage.timers import TimerKey, TimerKind

Intent = Callable[[Tx, Ctx, UnitOfWork], Awaitable[int]]
log = logging.getLogger(__name__)

RETRY_SECONDS = 60.0  # after a failure: 1, 2, 4 minutes...
MAX_RETRY_SECONDS = 600.0
MAX_TRIES = 4  # then the timer is marked done and the GM told (a storage failure never is)


def _frames(exc: BaseException) -> str:
    """Where it failed, without the exception's message (it may quote the game's state)."""
    return "".join(traceback.format_list(traceback.extract_tb(exc.__traceback__)))


@dataclass
class Trouble:
    failures: int
    retry_at: float


class Scheduler:
    """Fires the deadlines, reminders and digests that fall due by ``clock``, each through
    ``engine``'s one transaction per intent (``ServiceCore.mutate``); ``wake`` tells the
    dispatcher to look."""

    def __init__(self, db: Database, clock: Clock, wake: Callable[[], None] | None,
                 engine: StepEngine) -> None:
        self.db = db
        self.clock = clock
        self._wake = wake
        self.engine = engine
        self.core = engine.core
        # timers that failed, by key: when to try again (kept in memory: a restart retries)
        self._trouble: dict[TimerKey, Trouble] = {}

    def _now(self) -> float:
        return self.clock().timestamp()

    def _at(self, seconds: float | None) -> datetime | None:
        return datetime.fromtimestamp(seconds, UTC) if seconds is not None else None

    async def next_wakeup(self) -> datetime | None:
        """When the earliest deadline or reminder falls due (None: nothing scheduled); a
        failed timer counts from when it is tried again, so it is never retried in a loop."""
        due = _earliest(await timers.next_due(self.db), await digests.next_due(self.db))
        now = self._now()
        if due is not None and due <= now and self._trouble:
            ready = [k for k in await self._due(now) if not self._backing_off(k, now)]
            if not ready:
                later = [t.retry_at for k, t in self._trouble.items()
                         if t.retry_at != float("inf")]
                ahead = _earliest(await timers.next_due_after(self.db, now),
                                  await digests.next_due(self.db, now))
                due = min([*later, *([ahead] if ahead is not None else [])], default=None)
        return self._at(due)

    async def run_due(self) -> int:
        """Fires everything due at ``clock()`` (also what fell due while the bot was down);
        returns how many deadlines and reminders fired. Each one is marked done in the same
        transaction as its effects, so it fires once even across a restart."""
        now = self._now()
        fired = 0
        due = await self._due(now)
        for key in set(self._trouble) - set(due):  # closed meanwhile (the step moved on)
            if self._trouble[key].retry_at != float("inf"):
                del self._trouble[key]
        for key in due:
            if not self._backing_off(key, now):
                fired += await self._fire(key, now)
        return fired

    async def _due(self, now: float) -> list[TimerKey]:
        keys = [TimerKey.reminder(c, s, o) for c, s, o in await timers.due_reminders(self.db, now)]
        keys += [TimerKey.deadline(c, s) for c, s in await timers.due_deadlines(self.db, now)]
        keys += [TimerKey.digest(c) for c in await digests.due(self.db, now)]
        return keys

    def _backing_off(self, key: TimerKey, now: float) -> bool:
        trouble = self._trouble.get(key)
        return trouble is not None and trouble.retry_at > now

    async def _fire(self, key: TimerKey, now: float) -> int:
        """One timer in its own transaction; a failure is this campaign's alone."""
        kind, campaign_id, step_no, offset = key
        intent = (self._reminder(step_no, offset) if offset is not None else
                  self._digest() if kind == TimerKind.DIGEST else self._deadline(step_no))
        try:
            fired = await self.core.mutate(campaign_id, intent)
        except Exception as exc:  # noqa: BLE001 (any failure: the other campaigns go on)
            await self._failed(key, exc, now)
            return 0
        self._trouble.pop(key, None)
        return fired

    async def _failed(self, key: TimerKey, exc: Exception, now: float) -> None:
        kind, campaign_id, step_no, _ = key
        trouble = self._trouble.setdefault(key, Trouble(0, now))
        trouble.failures += 1
        # only the exception's type: its text may quote the game (a hidden card, an order)
        what = f"campaign {campaign_id}: the {kind} of step {step_no} failed ({type(exc).__name__})"
        log.debug("%s at:\n%s", what, _frames(exc))
        if isinstance(exc, StorageError) or trouble.failures < MAX_TRIES:
            # a full or failing disk is the admin's to fix: keep trying, never give up
            delay = min(MAX_RETRY_SECONDS, RETRY_SECONDS * 2 ** (trouble.failures - 1))
            trouble.retry_at = now + delay
            log.error("%s, try %d; trying again in %d s", what, trouble.failures, delay)
            return
        trouble.retry_at = float("inf")  # until a restart, if it cannot be marked done either
        log.error("%s %d times; giving up on it and telling the GM", what, trouble.failures)
        try:
            await self._give_up(key, now)
        except Exception:  # noqa: BLE001
            log.exception("campaign %s: could not mark the failed %s done", campaign_id, kind)
        else:
            self._trouble.pop(key, None)

    async def _give_up(self, key: TimerKey, now: float) -> None:
        """Marks the timer done without loading the campaign (its state may be what fails);
        for a deadline, tells the GM: the step stays open for /gm advance or /gm extend."""
        kind, campaign_id, step_no, offset = key
        async with self.db.transaction() as tx:
            if offset is not None:  # a lost reminder needs no one's action
                await timers.reminder_done(tx, campaign_id, step_no, offset, now)
                return
            if kind == TimerKind.DIGEST:  # nor a lost digest (the tracker said each default)
                await digests.take(tx, campaign_id, now)
                return
            await timers.fire(tx, campaign_id, step_no, now)
            row = await campaigns.get(tx, campaign_id)
            if row is None:
                return
            text = (f"**{row.name}**: the deadline of the open step could not be processed (a "
                    "bot error; the bot's admin can see it in the log). The step stays open: "
                    "use /gm advance or /gm extend.")
            await outbox_repo.enqueue(
                tx, [NewMessage(campaign_id, "dm", text, user_id=row.gm_user_id)], now)
        if self._wake is not None:
            self._wake()

    @staticmethod
    async def _still_due(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> None:
        """A due timer of a campaign that is not running: frozen (paused) or closed (over),
        so it is not due again at once; left due, the scheduler would wake for it forever."""
        if ctx.row.status == Status.PAUSED:
            await timers.pause(tx, ctx.row.id, fx.now)
        elif ctx.row.status != Status.RUNNING:
            await timers.close_open(tx, ctx.row.id)

    def _reminder(self, step_no: int, offset: float) -> Intent:
        async def run(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> int:
            if ctx.row.status != Status.RUNNING or ctx.row.step_no != step_no:
                await self._still_due(tx, ctx, fx)
                return 0
            if not await timers.reminder_done(tx, ctx.row.id, step_no, offset, fx.now):
                return 0
            dl = await timers.get(tx, ctx.row.id, step_no)
            if dl is not None and dl.due_at is not None and dl.due_at <= fx.now:
                return 0  # the bot was down past the deadline itself: no stale reminder
            due = self._at(dl.due_at) if dl is not None else None
            name = step_name(ctx.ruleset, ctx.state, ctx.pending).name
            away = (await fx.rows(ctx)).away_seats()
            for req in ctx.owing():
                target = None if req.seat in away else self.engine.dm_target(ctx, req.seat)
                if target is not None:
                    await self.engine.delivery.remind_seat(
                        tx, ctx, fx, req.seat, target,
                        "Reminder: " + messages.panel_line(ctx.row.name, name, req.prompt, due),
                        step_no)
            return 1

        return run

    async def _tell_gm_missed(
        self, tx: Tx, ctx: Ctx, fx: UnitOfWork, name: str, taken: list[Taken], stuck: list[str]
    ) -> list[int]:
        """P-25: the GM hears of a seat's missed deadlines at once at its first miss, at the
        ``missed_warning``-th in a row and when it goes away (``away_after`` in a row, P-26,
        with /gm replace and /gm kick), and of whoever had no default to take; every other
        miss waits for the digest, at most one DM a day per campaign (its lines also ride
        along with any DM told at once). Everything of one deadline is ONE DM. Returns the
        seats that went away."""
        if not taken and not stuck:
            return []
        settings = timing(ctx.row.settings)
        limit, away_after = int(settings["missed_warning"]), int(settings["away_after"])
        head = f"**{ctx.row.name}**, {name}. The deadline passed."
        now_lines: list[str] = []
        later: list[str] = []
        notes: list[str] = []  # warnings and seats gone away, after the misses
        went: list[int] = []
        for seat in dict.fromkeys(t.seat for t in taken):
            what = "; then ".join(
                f"{'their saved draft' if t.drafted else 'the default'} was taken: {t.action}"
                for t in taken if t.seat == seat)
            line = f"{ctx.name(seat)} missed the deadline; {what}."
            rows = await fx.rows(ctx)
            in_row = rows.count(seat)
            gone = bool(away_after and in_row >= away_after and rows.set_away(seat))
            p = ctx.player(seat)
            # what the GM can do: a vacant seat (kicked) is only for someone to take over
            tools = ("/gm replace gives the seat to another member; /gm kick frees it."
                     if p is not None and p.active else
                     "/gm replace gives the seat to another member.")
            if gone:
                went.append(seat)
                notes.append(
                    f"{ctx.name(seat)} has missed {plural(in_row, 'deadline')} in a row and is "
                    f"now away: their moves take the default at once until they act again. {tools}")
            elif limit and in_row == limit:
                notes.append(
                    f"Warning: {ctx.name(seat)} has missed {plural(in_row, 'deadline')} in a row. "
                    f"{tools}")
            told_now = in_row == 1 or gone or (limit and in_row == limit)
            (now_lines if told_now else later).append(line)
        if stuck:
            verb = "has" if len(stuck) == 1 else "have"
            # what /gm advance would take where the rules offer a way on (Request.advance)
            ways = [f"for {ctx.name(r.seat)} it takes “{describe_action(r, r.advance)}”"
                    for r in ctx.owing() if r.default is None and r.advance is not None
                    and r.kind != "sealed"]
            way = (f"/gm advance moves the game on now: {'; '.join(ways)}. Or extend"
                   if ways else "Extend")
            notes.append(f"{messages.names(stuck)} {verb} no default to take, so the step "
                         f"waits. {way} the deadline (/gm extend) or give the seat to someone "
                         "else (/gm replace).")
        if now_lines or notes:
            earlier = await digests.take(tx, ctx.row.id, fx.now)
            fx.dm(ctx, ctx.row.gm_user_id, "\n".join(
                [head, *now_lines, *later, *notes] + _earlier_lines(earlier)))
            return went
        await digests.queue(tx, ctx.row.id, [f"{name}. {line}" for line in later])
        told = await digests.told_at(tx, ctx.row.id)
        if told is None or fx.now - told >= digests.DAY:
            self._send_digest(ctx, fx, await digests.take(tx, ctx.row.id, fx.now))
        return went

    @staticmethod
    def _send_digest(ctx: Ctx, fx: UnitOfWork, lines: list[str]) -> None:
        if lines:
            fx.dm(ctx, ctx.row.gm_user_id, "\n".join(
                [f"**{ctx.row.name}**: deadlines missed since your last note about them:",
                 *(f"- {line}" for line in lines)]))

    def _digest(self) -> Intent:
        async def run(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> int:
            lines = await digests.take(tx, ctx.row.id, fx.now)
            if ctx.row.status == Status.ENDED:
                return 0  # no news once the game is over
            self._send_digest(ctx, fx, lines)
            return 1 if lines else 0

        return run

    async def _gone_away(self, tx: Tx, ctx: Ctx, fx: UnitOfWork, seats: list[int]) -> None:
        """P-26: the channel says once that the seats are away; each one's open panel is
        given again with the line saying how to come back (an edit: no new DM for it), and
        a step that now waits only for away seats takes their defaults at once."""
        mail = Mail()
        for seat in seats:  # a post (not a tracker line): the table must see it
            mail.post(f"{ctx.name(seat)} is away: they missed several deadlines in a row, so "
                      "their moves take the default at once until they act again.")
        name = step_name(ctx.ruleset, ctx.state, ctx.pending).name
        for seat in seats:
            for req in ctx.requests_of(seat)[:1]:
                mail.panel(seat, messages.panel_line(ctx.row.name, name, req.prompt, None))
        await self.engine.flush(tx, ctx, fx, mail)

    def _deadline(self, step_no: int) -> Intent:
        async def run(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> int:
            if ctx.row.status != Status.RUNNING or ctx.row.step_no != step_no:
                await self._still_due(tx, ctx, fx)
                return 0
            if not await timers.fire(tx, ctx.row.id, step_no, fx.now):
                return 0
            fx.wake = True
            owing = [ctx.name(r.seat) for r in ctx.owing()]
            name = step_name(ctx.ruleset, ctx.state, ctx.pending).name
            if timing(ctx.row.settings)["on_deadline"] == "wait":
                fx.dm(ctx, ctx.row.gm_user_id,
                      f"**{ctx.row.name}**: the deadline passed ({name}); still "
                      f"waiting for {messages.names(owing)}. Use /gm advance to take their "
                      "defaults or /gm extend to give more time.")
                return 1
            away = frozenset((await fx.rows(ctx)).away_seats())
            # P-26: due early because only away seats are owed: their defaults, said as
            # such; they missed no deadline, and the GM was told once they went away
            hurried = all(r.seat in away for r in ctx.owing())
            taken: list[Taken] = []
            stuck = await self.engine.force_defaults(tx, ctx, fx, strict=False, taken=taken,
                                               away=away)
            if hurried and not stuck:
                return 1
            went = await self._tell_gm_missed(
                tx, ctx, fx, name, [t for t in taken if t.seat not in away], stuck)
            if went and ctx.row.status == Status.RUNNING:
                await self._gone_away(tx, ctx, fx, went)
            return 1

        return run


def _earliest(*moments: float | None) -> float | None:
    return min((m for m in moments if m is not None), default=None)


def _earlier_lines(lines: list[str]) -> list[str]:
    """Digest lines still waiting, carried by a DM told at once (P-25)."""
    return ["Earlier:", *(f"- {line}" for line in lines)] if lines else []
