"""Time: deadlines and reminders fire from the database, exactly once each.

Each timer fires on its own: one that fails (a broken campaign state, a rules bug, a deadline
out of range) is logged with its campaign and backed off, never stopping the timers of the
other campaigns; after ``MAX_TRIES`` failures it is marked done and the GM is told."""

from __future__ import annotations

import logging
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.campaign import messages
from bot.campaign.core import Ctx, Effects
from bot.campaign.settings import timing
from bot.campaign.steps import StepEngine, Taken
from bot.campaign.summaries import describe_action
from bot.rules.base import step_name
from bot.rules.words import plural
from storage import campaigns, missed, timers
from storage import outbox as outbox_repo
from storage.db import Tx
from storage.health import StorageError
from storage.outbox import NewMessage

Intent = Callable[[Tx, Ctx, Effects], Awaitable[int]]
TimerKey = tuple[Any, ...]  # ("deadline", campaign, step) or ("reminder", campaign, step, offset)
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


class Scheduler(StepEngine):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # timers that failed, by key: when to try again (kept in memory: a restart retries)
        self._trouble: dict[TimerKey, Trouble] = {}

    async def next_wakeup(self) -> datetime | None:
        """When the earliest deadline or reminder falls due (None: nothing scheduled); a
        failed timer counts from when it is tried again, so it is never retried in a loop."""
        due = await timers.next_due(self.db)
        now = self._now()
        if due is not None and due <= now and self._trouble:
            ready = [k for k in await self._due(now) if not self._backing_off(k, now)]
            if not ready:
                later = [t.retry_at for k, t in self._trouble.items()
                         if t.retry_at != float("inf")]
                ahead = await timers.next_due_after(self.db, now)
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
        keys: list[TimerKey] = [
            ("reminder", c, s, o) for c, s, o in await timers.due_reminders(self.db, now)]
        keys += [("deadline", c, s) for c, s in await timers.due_deadlines(self.db, now)]
        return keys

    def _backing_off(self, key: TimerKey, now: float) -> bool:
        trouble = self._trouble.get(key)
        return trouble is not None and trouble.retry_at > now

    async def _fire(self, key: TimerKey, now: float) -> int:
        """One timer in its own transaction; a failure is this campaign's alone."""
        kind, campaign_id, step_no = key[0], key[1], key[2]
        intent = self._reminder(step_no, key[3]) if kind == "reminder" else self._deadline(step_no)
        try:
            fired = await self._mutate(campaign_id, intent)
        except Exception as exc:  # noqa: BLE001 (any failure: the other campaigns go on)
            await self._failed(key, exc, now)
            return 0
        self._trouble.pop(key, None)
        return fired

    async def _failed(self, key: TimerKey, exc: Exception, now: float) -> None:
        kind, campaign_id, step_no = key[0], key[1], key[2]
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
        kind, campaign_id, step_no = key[0], key[1], key[2]
        async with self.db.transaction() as tx:
            if kind == "reminder":  # a lost reminder needs no one's action
                await timers.reminder_done(tx, campaign_id, step_no, key[3], now)
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
    async def _still_due(tx: Tx, ctx: Ctx, fx: Effects) -> None:
        """A due timer of a campaign that is not running: frozen (paused) or closed (over),
        so it is not due again at once; left due, the scheduler would wake for it forever."""
        if ctx.row.status == "paused":
            await timers.pause(tx, ctx.row.id, fx.now)
        elif ctx.row.status != "running":
            await timers.close_open(tx, ctx.row.id)

    def _reminder(self, step_no: int, offset: float) -> Intent:
        async def run(tx: Tx, ctx: Ctx, fx: Effects) -> int:
            if ctx.row.status != "running" or ctx.row.step_no != step_no:
                await self._still_due(tx, ctx, fx)
                return 0
            if not await timers.reminder_done(tx, ctx.row.id, step_no, offset, fx.now):
                return 0
            dl = await timers.get(tx, ctx.row.id, step_no)
            if dl is not None and dl.due_at is not None and dl.due_at <= fx.now:
                return 0  # the bot was down past the deadline itself: no stale reminder
            due = self._at(dl.due_at) if dl is not None else None
            name = step_name(ctx.ruleset, ctx.state, ctx.pending).name
            for req in ctx.owing():
                target = self._dm_target(ctx, req.seat)
                if target is not None:
                    await self._remind_seat(
                        tx, ctx, fx, req.seat, target,
                        "Reminder: " + messages.panel_line(ctx.row.name, name, req.prompt, due),
                        step_no)
            return 1

        return run

    async def _tell_gm_missed(
        self, tx: Tx, ctx: Ctx, fx: Effects, name: str, taken: list[Taken], stuck: list[str]
    ) -> None:
        """ONE DM to the GM per deadline: every seat that missed it with what was taken for
        it, a warning for each seat that has now missed ``missed_warning`` deadlines in a row
        (it is absent: replace or free it), and whoever had no default to take."""
        if not taken and not stuck:
            return
        limit = int(timing(ctx.row.settings)["missed_warning"])
        lines = [f"**{ctx.row.name}**, {name}. The deadline passed."]
        warnings = []
        for seat in dict.fromkeys(t.seat for t in taken):
            what = "; then ".join(
                f"{'their saved draft' if t.drafted else 'the default'} was taken: {t.action}"
                for t in taken if t.seat == seat)
            lines.append(f"{ctx.name(seat)} missed the deadline; {what}.")
            in_row = await missed.count(tx, ctx.row.id, seat)
            if limit and in_row == limit:
                warnings.append(
                    f"Warning: {ctx.name(seat)} has missed {plural(in_row, 'deadline')} in a row. "
                    "/gm replace gives the seat to another member; /gm kick frees it.")
        if stuck:
            verb = "has" if len(stuck) == 1 else "have"
            # what /gm advance would take where the rules offer a way on (Request.advance)
            ways = [f"for {ctx.name(r.seat)} it takes “{describe_action(r, r.advance)}”"
                    for r in ctx.owing() if r.default is None and r.advance is not None
                    and r.kind != "sealed"]
            way = (f"/gm advance moves the game on now: {'; '.join(ways)}. Or extend"
                   if ways else "Extend")
            lines.append(f"{messages.names(stuck)} {verb} no default to take, so the step waits. "
                         f"{way} the deadline (/gm extend) or give the seat to someone else "
                         "(/gm replace).")
        fx.dm(ctx, ctx.row.gm_user_id, "\n".join(lines + warnings))

    def _deadline(self, step_no: int) -> Intent:
        async def run(tx: Tx, ctx: Ctx, fx: Effects) -> int:
            if ctx.row.status != "running" or ctx.row.step_no != step_no:
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
            taken: list[Taken] = []
            stuck = await self._force_defaults(tx, ctx, fx, strict=False, taken=taken)
            await self._tell_gm_missed(tx, ctx, fx, name, taken, stuck)
            return 1

        return run
