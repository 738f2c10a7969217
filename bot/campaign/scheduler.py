"""Time: deadlines and reminders fire from the database, exactly once each."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime

from bot.campaign import messages
from bot.campaign.core import Ctx, Effects
from bot.campaign.settings import timing
from bot.campaign.steps import StepEngine
from storage import timers
from storage.db import Tx

Intent = Callable[[Tx, Ctx, Effects], Awaitable[int]]


class Scheduler(StepEngine):
    async def next_wakeup(self) -> datetime | None:
        """When the earliest deadline or reminder falls due (None: nothing scheduled)."""
        return self._at(await timers.next_due(self.db))

    async def run_due(self) -> int:
        """Fires everything due at ``clock()`` (also what fell due while the bot was down);
        returns how many deadlines and reminders fired. Each one is marked done in the same
        transaction as its effects, so it fires once even across a restart."""
        now = self._now()
        fired = 0
        for campaign_id, step_no, offset in await timers.due_reminders(self.db, now):
            fired += await self._mutate(campaign_id, self._reminder(step_no, offset))
        for campaign_id, step_no in await timers.due_deadlines(self.db, now):
            fired += await self._mutate(campaign_id, self._deadline(step_no))
        return fired

    def _reminder(self, step_no: int, offset: float) -> Intent:
        async def run(tx: Tx, ctx: Ctx, fx: Effects) -> int:
            if ctx.row.status != "running" or ctx.row.step_no != step_no:
                return 0
            if not await timers.reminder_done(tx, ctx.row.id, step_no, offset, fx.now):
                return 0
            dl = await timers.get(tx, ctx.row.id, step_no)
            due = self._at(dl.due_at) if dl is not None else None
            for req in ctx.owing():
                target = self._dm_target(ctx, req.seat)
                if target is not None:
                    fx.dm(ctx, target,
                          f"Reminder: **{ctx.row.name}** still needs your answer "
                          f"(deadline {messages.when(due)}): {req.prompt}",
                          panel=(ctx.row.id, step_no, req.seat))
            return 1

        return run

    def _deadline(self, step_no: int) -> Intent:
        async def run(tx: Tx, ctx: Ctx, fx: Effects) -> int:
            if ctx.row.status != "running" or ctx.row.step_no != step_no:
                return 0
            if not await timers.fire(tx, ctx.row.id, step_no, fx.now):
                return 0
            fx.wake = True
            owing = [ctx.name(r.seat) for r in ctx.owing()]
            if timing(ctx.row.settings)["on_deadline"] == "wait":
                fx.dm(ctx, ctx.row.gm_user_id,
                      f"**{ctx.row.name}**: the deadline of step {step_no} passed; still "
                      f"waiting for {messages.names(owing)}. Use /gm advance to take their "
                      "defaults or /gm extend to give more time.")
                return 1
            stuck = await self._force_defaults(tx, ctx, fx, strict=False)
            if stuck:
                fx.dm(ctx, ctx.row.gm_user_id,
                      f"**{ctx.row.name}**: the deadline of step {step_no} passed, but "
                      f"{messages.names(stuck)} has no default to take. Extend the deadline "
                      "(/gm extend) or give the seat to someone else (/gm replace).")
            return 1

        return run
