"""Panels, drafts and submissions: how players give their input for a step."""

from __future__ import annotations

from typing import Any

from bot.campaign import messages, order_locks
from bot.campaign.ahead import Ahead, Resolved
from bot.campaign.core import CampaignBroken, Ctx, UnitOfWork
from bot.campaign.drafts import check_number, check_numbers, not_offered, number_range
from bot.campaign.inputs import check_action, check_draft, check_id
from bot.campaign.legal import validate_action
from bot.campaign.mail import Mail
from bot.campaign.models import Actor, Panel, SubmitResult
from bot.campaign.steps import StepEngine
from bot.errors import InvalidInput, InvalidState, NotFound, PermissionDenied, UserError
from bot.rules.base import GM_SEAT, Request
from storage import timers, turns
from storage.campaigns import Reader
from storage.db import Tx
from storage.status import DeadlineStatus, Status

MAX_DRAFT_VALUES = 25
NOT_YOURS = "This panel belongs to a seat you don't hold; use /orders to get your own panels."


class Submissions:
    """Panels and what players send through them: drafts and submissions, through ``engine``."""

    def __init__(self, engine: StepEngine) -> None:
        self.engine = engine
        self.core = engine.core

    async def panels_for(self, campaign_id: int, user_id: int) -> list[Panel]:
        """The user's open requests in that campaign, as panels (for /orders); none for a
        campaign whose state cannot be read, so /orders still shows the user's others."""
        try:
            ctx = await self.core.load(self.core.db, campaign_id)
        except CampaignBroken:
            return []
        seats = [p.seat for p in ctx.players if p.active and p.user_id == user_id]
        if user_id == ctx.row.gm_user_id:
            seats.append(GM_SEAT)
        return [await self._panel(self.core.db, ctx, r) for r in ctx.pending if r.seat in seats]

    async def panel(
        self, campaign_id: int, step_no: int, seat: int, user_id: int | None = None
    ) -> Panel:
        """One panel by its custom-id parts; InvalidState once that step is over. With
        ``user_id``, first refuses (PermissionDenied) anyone but the seat's current holder
        (the campaign's GM for the GM seat): nothing about the seat, not even whether its step
        is over, reaches anybody else."""
        _check_ids(campaign_id, step_no, seat)
        try:
            ctx = await self.core.load(self.core.db, campaign_id)
        except NotFound:
            if user_id is None:
                raise
            raise PermissionDenied(NOT_YOURS) from None
        if user_id is not None:
            self._check_owner(ctx, seat, user_id)
        self._check_step(ctx, step_no)
        reqs = ctx.requests_of(seat)
        if not reqs:
            raise InvalidState(f"Nothing is asked of {ctx.name(seat)} at this step.")
        return await self._panel(self.core.db, ctx, reqs[0])

    async def save_draft(
        self, actor: Actor, campaign_id: int, step_no: int, action_type: str, field: str,
        values: list[str], seat: int | None = None,
    ) -> None:
        """Stores a Select choice so the panel survives a restart. Shape and range are
        checked before anything is loaded (``bot.campaign.inputs``)."""
        _check_ids(campaign_id, step_no, seat)
        values = check_draft(action_type, field, values, MAX_DRAFT_VALUES)

        async def run(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> None:
            self._check_step(ctx, step_no)
            req = self._request_for(ctx, actor, seat)
            specs = [a for a in req.actions if a.type == action_type]
            if not specs:
                raise InvalidInput(f"Unknown action '{action_type}' for this panel.")
            fields = [f for a in specs for f in a.fields if f.name == field]
            if not fields:
                raise InvalidInput(f"The action '{action_type}' has no field '{field}'.")
            picked = values
            numbers = [f for f in fields if number_range(f) is not None]
            if numbers:  # a typed number: a whole number in range, as the panel checks it
                picked = [check_number(numbers[0], v) for v in values][:1]
            bad = not_offered(fields, picked)
            if bad:
                raise InvalidInput(f"'{bad[0][:40]}' is not one of the choices offered for "
                                   f"{fields[0].label}.")
            await self.engine.seat_active(tx, ctx, fx, req.seat, actor.user_id)
            data = await turns.draft(tx, ctx.row.id, step_no, req.seat)
            # the last-touched kind of action goes last: a deadline takes that one
            entry = data.pop(action_type, {})
            entry[field] = [str(v) for v in picked]
            data[action_type] = entry
            await turns.put_draft(tx, ctx.row.id, step_no, req.seat, data, fx.now)

        await self.core.mutate(campaign_id, run)

    async def submit(
        self, actor: Actor, campaign_id: int, step_no: int, action: dict[str, Any],
        seat: int | None = None,
    ) -> SubmitResult:
        """Sealed: stores or replaces the submission and resolves when all are in.
        Turn/open: applies the action at once. ``seat`` picks one when the actor holds more
        than one (e.g. the GM who also plays). Shape and range are checked before anything
        is loaded (``bot.campaign.inputs``)."""
        _check_ids(campaign_id, step_no, seat)
        check_action(action)
        ahead: list[Ahead] = []  # the rules' work done before the write lock, if any

        def answering(ctx: Ctx) -> Request:
            self._check_step(ctx, step_no)
            req = self._request_for(ctx, actor, seat)
            matching = [r for r in ctx.requests_of(req.seat)
                        if action.get("type") in {a.type for a in r.actions}]
            req = matching[0] if matching else req
            validate_action(req, action)
            check_numbers(req, action)
            return req

        def prepare(ctx: Ctx) -> None:
            """On the cached committed campaign, before the write lock (issue 17 item 9):
            the sealed check, and the resolution when this is the step's last input. A
            refusal here is left for ``run`` to meet again (with its effects, in order)."""
            try:
                req = answering(ctx)
                if req.kind != "sealed":
                    return
                version, state = ctx.row.version, ctx.state
                ctx.ruleset.check(ctx.state, req.seat, action)
                resolved = Resolved.of(self.core, ctx, {**ctx.submitted, req.seat: action})
            except UserError:
                return
            ahead.append(Ahead(ctx, version, state, req.seat, resolved))

        async def run(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> SubmitResult:
            req = answering(ctx)
            # before the rules run: this player's next panel (opened by this very action)
            # finds them active and edits their panel message
            await self.engine.seat_active(tx, ctx, fx, req.seat, actor.user_id)
            if req.kind == "sealed":
                done = next((a for a in ahead if a.fits(ctx, req.seat)), None)
                if done is None:
                    # Rule sets that can judge one sealed action alone refuse it now, not at
                    # reveal.
                    ctx.ruleset.check(ctx.state, req.seat, action)
                return await self._store_sealed(tx, ctx, fx, actor, req, action,
                                                done.resolved if done is not None else None)
            await self.engine.act(tx, ctx, fx, req, action)
            return SubmitResult(ctx.row.id, step_no, req.seat, req.kind, replaced=False,
                                resolved=True, waiting_for=[], message="Done.")

        return await self.core.mutate(campaign_id, run, prepare=prepare)

    async def _store_sealed(
        self, tx: Tx, ctx: Ctx, fx: UnitOfWork, actor: Actor, req: Request, action: dict[str, Any],
        resolved: Resolved | None = None,
    ) -> SubmitResult:
        row = ctx.row
        step_no = row.step_no
        replaced = req.seat in ctx.submitted
        if replaced and req.seat in await order_locks.locked_seats(tx, row.id, step_no):
            raise InvalidState(order_locks.REFUSED)  # P-23
        await turns.put_submission(tx, row.id, step_no, req.seat, actor.user_id, action, fx.now)
        ctx.submitted[req.seat] = action
        sealed = [r for r in ctx.pending if r.kind == "sealed"]
        waiting = [ctx.name(r.seat) for r in sealed if r.seat not in ctx.submitted]
        if not waiting:
            await self.engine.resolve_sealed(tx, ctx, fx, resolved=resolved)
            return SubmitResult(row.id, step_no, req.seat, "sealed", replaced, resolved=True,
                                waiting_for=[], message="Orders in; all orders are in, resolved.")
        if not replaced:
            # the tracker shows who is in, names only: content stays sealed
            await self.engine.flush(tx, ctx, fx, Mail(acted={req.seat}))
        verb = "changed" if replaced else "stored"
        return SubmitResult(
            row.id, step_no, req.seat, "sealed", replaced, resolved=False, waiting_for=waiting,
            message=f"Orders {verb}; you can change them until the step resolves. "
                    f"Still waiting for {messages.names(waiting)}.",
        )

    @staticmethod
    def _check_step(ctx: Ctx, step_no: int) -> None:
        if ctx.row.status == Status.PAUSED:
            raise InvalidState("The campaign is paused by the GM; input opens again on resume.")
        if ctx.row.status != Status.RUNNING:
            raise InvalidState("The campaign is not running.")
        if step_no != ctx.row.step_no:
            raise InvalidState(
                "That step is over and the game has moved on; use /orders for the current "
                "panel."
            )

    @staticmethod
    def _check_owner(ctx: Ctx, seat: int, user_id: int) -> None:
        if seat == GM_SEAT and user_id == ctx.row.gm_user_id:
            return
        p = ctx.player(seat)
        if p is None or not p.active or p.user_id != user_id:
            raise PermissionDenied(NOT_YOURS)

    @staticmethod
    def _request_for(ctx: Ctx, actor: Actor, seat: int | None) -> Request:
        """The open request the actor may answer; refuses with the reason otherwise."""
        own = [p.seat for p in ctx.players if p.active and p.user_id == actor.user_id]
        if ctx.is_gm(actor):
            own.append(GM_SEAT)
        if seat is not None:
            if seat not in own:
                raise PermissionDenied(f"Seat {seat} is not yours.")
            own = [seat]
        if not own:
            raise PermissionDenied(f"You hold no seat in **{ctx.row.name}**.")
        for s in own:
            reqs = ctx.requests_of(s)
            if reqs:
                return reqs[0]
        turn = [ctx.name(r.seat) for r in ctx.pending if r.kind == "turn"]
        if turn:
            raise PermissionDenied(f"It is {messages.names(turn)}'s turn, not yours.")
        raise InvalidState("Nothing is asked of you at this step.")

    async def _panel(self, db: Reader, ctx: Ctx, req: Request) -> Panel:
        dl = await timers.get(db, ctx.row.id, ctx.row.step_no)
        deadline = (self.core.at(dl.due_at)
                    if dl is not None and dl.status == DeadlineStatus.OPEN else None)
        submitted = ctx.submitted.get(req.seat) if req.kind == "sealed" else None
        return Panel(
            campaign_id=ctx.row.id, step_no=ctx.row.step_no, seat=req.seat, request=req,
            draft=await turns.draft(db, ctx.row.id, ctx.row.step_no, req.seat),
            submitted=submitted, deadline=deadline,
        )


def _check_ids(campaign_id: object, step_no: object, seat: object) -> None:
    check_id("campaign id", campaign_id)
    check_id("step number", step_no)
    if seat is not None:
        check_id("seat number", seat)
