"""At a deadline (or /gm advance) a seat's saved draft is taken over the request's default
when it makes a legal action.

The draft action is judged with the checks a Submit goes through (``validate_action``, the
number ranges, and for sealed input the rule set's ``check``); a turn action, which the rules
only judge by applying it, is tried on a copy of the state with dice of its own. A draft that
fails any of them is dropped for the default, and so is a destructive one (concede), which
is only ever taken through its confirmation. A request without a default stays without one:
the rules chose to wait (the GM, or the player) there, and a draft is not a report.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from bot.campaign.core import Ctx
from bot.campaign.drafts import check_numbers, drafted_actions
from bot.campaign.legal import validate_action
from bot.errors import InvalidInput, InvalidState, RulesError
from bot.rules.base import Dice, Request
from storage import turns
from storage.db import Tx

Refusal = (RulesError, InvalidInput, InvalidState)


async def take_drafts(tx: Tx, ctx: Ctx, dice: Callable[[], Dice]) -> set[int]:
    """Replaces, in ``ctx.pending``, the default of every owing sealed or turn request whose
    seat drafted a legal action by that action (the rest of the step reads ``req.default``);
    returns those seats (their action is their own draft, not the rules' default).
    ``dice`` makes the throwaway dice a trial turn action is applied with."""
    owing = {id(r) for r in ctx.owing()}
    pending = []
    drafted: set[int] = set()
    for req in ctx.pending:
        if id(req) in owing and req.default is not None and req.kind in ("sealed", "turn"):
            draft = await turns.draft(tx, ctx.row.id, ctx.row.step_no, req.seat)
            action = _legal_draft(ctx, req, draft, dice)
            if action is not None:
                req = req.model_copy(update={"default": action})
                drafted.add(req.seat)
        pending.append(req)
    ctx.pending = pending
    return drafted


def _legal_draft(
    ctx: Ctx, req: Request, draft: dict[str, Any], dice: Callable[[], Dice]
) -> dict[str, Any] | None:
    for action in drafted_actions(req, draft):
        try:
            validate_action(req, action)
            check_numbers(req, action)
            if req.kind == "sealed":
                ctx.ruleset.check(ctx.state, req.seat, action)
            else:
                ctx.ruleset.act(copy.deepcopy(ctx.state), req.seat, action, dice())
        except Refusal:
            continue
        return action
    return None
