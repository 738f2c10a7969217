"""The rules' work on a submit, done before the write lock (issue 17 item 9): worked out on
the cached committed campaign under its own lock, so other campaigns' writes go on
meanwhile, and used inside the transaction only for that very ``Ctx``, unchanged since
(``ServiceCore.mutate(prepare=...)``); otherwise it is worked out again there."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.campaign.core import Ctx, ServiceCore
from bot.rules.base import Outcome, Request


@dataclass
class Resolved:
    """A sealed step's resolution worked out on the committed campaign before the write lock
    (issue 17 item 9): the rules' outcome for all the step's submissions, and what ``apply``
    derives from it alone. Used only for that very ``ctx`` while nothing in it changed."""

    ctx: Ctx
    version: int
    resolution_no: int
    state: Any  # the campaign's state it was worked out from (its identity)
    pending: list[Request]
    submitted: dict[int, dict[str, Any]]
    outcome: Outcome
    new_state: Any
    text: str
    new_pending: list[Request] | None  # None: finished

    @classmethod
    def of(cls, core: ServiceCore, ctx: Ctx, submitted: dict[int, dict[str, Any]]
           ) -> Resolved | None:
        """The resolution the step's last submission makes, as ``resolve_sealed`` would work
        it out with ``submitted`` stored (the same actions, dice and nobody defaulted); None
        when some sealed seat has not submitted."""
        actions: dict[int, dict[str, Any]] = {}  # (in resolve_sealed's order)
        for req in ctx.pending:
            if req.kind == "sealed":
                action = submitted.get(req.seat)
                if not action:
                    return None  # (a seat not in yet, or a default to say)
                actions[req.seat] = action
        if not actions:
            return None
        dice = core.dice(ctx, str(ctx.row.resolution_no + 1))
        outcome = ctx.ruleset.resolve_with_defaults(ctx.state, actions, dice, frozenset())
        state = ctx.ruleset.state_model.model_validate(outcome.state)
        return cls(ctx=ctx, version=ctx.row.version, resolution_no=ctx.row.resolution_no,
                   state=ctx.state, pending=ctx.pending, submitted=dict(submitted),
                   outcome=outcome, new_state=state, text=state.model_dump_json(),
                   new_pending=None if outcome.finished else ctx.ruleset.pending(state))

    def holds_for(self, ctx: Ctx) -> bool:
        """``ctx`` is the campaign it was worked out from, unchanged since."""
        return (ctx is self.ctx and ctx.row.version == self.version
                and ctx.row.resolution_no == self.resolution_no and ctx.state is self.state
                and ctx.pending is self.pending and ctx.submitted == self.submitted)


@dataclass
class Ahead:
    """A submit's sealed check passed for ``seat`` (and its resolution, when it is the step's
    last input) on this very ``ctx`` at ``version`` with this ``state``."""

    ctx: Ctx
    version: int
    state: object
    seat: int
    resolved: Resolved | None

    def fits(self, ctx: Ctx, seat: int) -> bool:
        return (ctx is self.ctx and ctx.row.version == self.version
                and ctx.state is self.state and seat == self.seat)
