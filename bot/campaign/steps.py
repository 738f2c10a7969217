"""The step machine: apply a rules outcome, route its events, open the next step."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from bot.campaign import messages
from bot.campaign.core import Ctx, Effects, ServiceCore, step_keys
from bot.campaign.inputs import check_action
from bot.campaign.settings import timing
from bot.errors import InvalidState, RulesError
from bot.rules.base import GM_SEAT, ActionSpec, Event, Outcome, Request
from storage import campaigns, timers, turns
from storage.db import Tx
from storage.events import EventRow
from storage.outbox import NewMessage, Picture
from storage.turns import Snapshot

log = logging.getLogger(__name__)


@dataclass
class Mail:
    """Texts and files gathered per destination, sent as few messages as possible."""

    public: list[str] = field(default_factory=list)
    # picture requests; they are drawn after commit, off the event loop, by the outbox
    public_files: list[Picture] = field(default_factory=list)
    seats: dict[int, list[str]] = field(default_factory=dict)  # GM_SEAT = the GM
    files: dict[int, list[Picture]] = field(default_factory=dict)
    # The text that goes with a seat's panel. It is a message of its own: clicking the panel
    # rewrites that message, which would wipe a private report (a scan) sent with it.
    panels: dict[int, str] = field(default_factory=dict)

    def to_seat(self, seat: int, text: str) -> None:
        self.seats.setdefault(seat, []).append(text)

    def panel(self, seat: int, text: str) -> None:
        """The seat's panel, with its text; the first panel of a seat wins."""
        self.panels.setdefault(seat, text)


def validate_action(request: Request, action: dict[str, Any]) -> None:
    """Checks an action against what the request offers (type, fields, legal options).

    Fields declared with no options accept any value: rule sets with richer panels check
    those themselves. The shape (a flat dict of short values) is checked first, so every
    caller, GM actions included, gets a refusal rather than a TypeError."""
    kind = check_action(action).get("type")
    candidates = [spec for spec in request.actions if spec.type == kind]
    if not candidates:
        allowed = ", ".join(dict.fromkeys(spec.type for spec in request.actions))
        raise RulesError(f"Unknown action '{kind}'. Allowed here: {allowed}.")
    # A request may offer one spec per variant of a type (e.g. one 'depart' per origin area):
    # the action is legal when it fits any of them; the first refusal explains why otherwise.
    first_error: RulesError | None = None
    for spec in candidates:
        try:
            _check_fields(spec, action)
            return
        except RulesError as err:
            first_error = first_error or err
    assert first_error is not None
    raise first_error


def _check_fields(spec: ActionSpec, action: dict[str, Any]) -> None:
    for fld in spec.fields:
        value = action.get(fld.name)
        values = value if isinstance(value, list) else ([] if value is None else [value])
        if not fld.min_values <= len(values) <= fld.max_values:
            raise RulesError(
                f"{fld.label}: choose {fld.min_values}..{fld.max_values} value(s), "
                f"got {len(values)}."
            )
        legal = {o.value for o in fld.options}
        bad = [v for v in values if legal and v not in legal]
        if bad:
            raise RulesError(f"{fld.label}: '{bad[0]}' is not one of the choices offered.")


class StepEngine(ServiceCore):
    """Runs the rules and turns their outcome into state, events and messages."""

    async def _resolve_sealed(self, tx: Tx, ctx: Ctx, fx: Effects) -> None:
        """Resolves the open sealed step with the stored submissions and defaults."""
        actions: dict[int, dict[str, Any]] = {}
        for req in ctx.pending:
            if req.kind != "sealed":
                continue
            action = ctx.submitted.get(req.seat) or req.default
            if action is None:
                raise InvalidState(f"{ctx.name(req.seat)} has not submitted and has no default.")
            actions[req.seat] = action
        dice = await self._begin_resolution(tx, ctx, fx)
        outcome = ctx.ruleset.resolve(ctx.state, actions, dice)
        await self._apply(tx, ctx, fx, outcome, closes_step=True,
                          answered=set(step_keys([r for r in ctx.pending if r.kind == "sealed"])))

    async def _act(
        self, tx: Tx, ctx: Ctx, fx: Effects, req: Request, action: dict[str, Any]
    ) -> None:
        """Applies one turn/open action; a turn action always ends its step."""
        dice = await self._begin_resolution(tx, ctx, fx)
        outcome = ctx.ruleset.act(ctx.state, req.seat, action, dice)
        await self._apply(tx, ctx, fx, outcome, closes_step=req.kind == "turn",
                          answered=set(step_keys([req])) if req.kind == "turn" else set())

    async def _begin_resolution(self, tx: Tx, ctx: Ctx, fx: Effects) -> Any:
        """Snapshots the state for undo; the dice of resolution N are the stream "N"."""
        row = ctx.row
        snap = Snapshot(
            resolution_no=row.resolution_no + 1, state=row.state or {}, step_no=row.step_no,
            step_keys=row.step_keys, submissions=dict(ctx.submitted),
        )
        await turns.put_snapshot(tx, row.id, snap, fx.now, keep=self.undo_depth)
        row.resolution_no += 1
        return self._dice(ctx, str(row.resolution_no))

    async def _apply(
        self, tx: Tx, ctx: Ctx, fx: Effects, outcome: Outcome, *, closes_step: bool,
        answered: set[str] | None = None,
        mail: Mail | None = None,
    ) -> None:
        """``answered``: the step keys this resolution answered; None when the step is over
        whatever remains (start, GM edits)."""
        mail = mail or Mail()
        ctx.state = ctx.ruleset.state_model.model_validate(outcome.state)
        ctx.row.state = ctx.state.model_dump(mode="json")
        fx.save = "state"
        self._route(ctx, fx, outcome.events, mail)
        if outcome.finished:
            # The last public event is the rule set's closing word (HRFT: the report of every
            # ship); a parent campaign hears it too.
            public = [e.text for e in outcome.events if e.audience.kind == "public"]
            await self._finish(tx, ctx, fx, mail, "The campaign is over.",
                               report=public[-1] if public else "")
        else:
            ctx.pending = ctx.ruleset.pending(ctx.state)
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
                await self._open_step(tx, ctx, fx, mail)
        self._flush(ctx, fx, mail)

    async def _finish(
        self, tx: Tx, ctx: Ctx, fx: Effects, mail: Mail, line: str, report: str = ""
    ) -> None:
        ctx.row.status = "ended"
        ctx.pending, ctx.submitted = [], {}
        fx.save = "state" if fx.save == "state" else "row"
        await timers.close_open(tx, ctx.row.id)
        fx.wake = True
        mail.public.append(line)
        if ctx.row.parent_id is not None:
            await self._report_to_parent(tx, ctx, fx, line, report)

    async def _report_to_parent(
        self, tx: Tx, ctx: Ctx, fx: Effects, line: str, report: str
    ) -> None:
        """An HRFT battle (a child campaign) tells its parent's channel that it is over, with
        its closing report."""
        parent = await campaigns.get(tx, ctx.row.parent_id or 0)
        if parent is None or parent.status == "ended":
            return
        ref = f" ({ctx.row.parent_ref})" if ctx.row.parent_ref else ""
        text = f"Battle **{ctx.row.name}**{ref} is over. {line}" + (f"\n{report}" if report else "")
        for part in messages.split(text):
            fx.messages.append(NewMessage(parent.id, "channel", part, channel_id=parent.channel_id))
        await self._result_to_parent(tx, ctx, fx, parent)

    async def _result_to_parent(self, tx: Tx, ctx: Ctx, fx: Effects, parent: Any) -> None:
        """Hook: bot/campaign/war.py proposes the battle's result to the parent (E-D34)."""

    async def _open_step(self, tx: Tx, ctx: Ctx, fx: Effects, mail: Mail) -> None:
        """A new step: new number, a deadline, one DM panel per asked seat, one channel line."""
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
        if hours > 0:
            due = fx.now + hours * 3600
            await timers.open_deadline(
                tx, row.id, row.step_no, due, timing(row.settings)["reminders"], fx.now
            )
            deadline = self._at(due)
        for req in ctx.pending:
            mail.panel(req.seat, f"**{row.name}**, step {row.step_no}: {req.prompt}"
                       + messages.deadline_note(deadline))
        for kind in ("sealed", "turn", "open"):
            who = [ctx.name(r.seat) for r in ctx.pending if r.kind == kind]
            if who:
                mail.public.append(messages.step_line(kind, list(dict.fromkeys(who)), deadline))

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

    def _route(self, ctx: Ctx, fx: Effects, events: list[Event], mail: Mail) -> None:
        """Logs every event with its audience and files it under the right destination."""
        for ev in events:
            seat = ev.audience.seat if ev.audience.kind == "seat" else None
            fx.events.append(EventRow(
                step_no=ctx.row.step_no, resolution_no=ctx.row.resolution_no,
                audience=ev.audience.kind, seat=seat, kind=ev.kind, text=ev.text, data=ev.data,
                created_at=fx.now,
            ))
            files = [self._picture(ctx, ev)] if ev.image is not None else []
            if ev.audience.kind == "public":
                mail.public.append(ev.text)
                mail.public_files.extend(files)
            else:
                dest = GM_SEAT if ev.audience.kind == "gm" else (seat or 0)
                mail.to_seat(dest, ev.text)
                mail.files.setdefault(dest, []).extend(files)

    def _picture(self, ctx: Ctx, ev: Event) -> Picture:
        """A REQUEST for the picture: the view as of this moment (cheap). Drawing it is not
        cheap, so that waits until after commit and happens off the event loop."""
        assert ev.image is not None
        view = ctx.ruleset.view(ctx.state, ev.image.viewer)
        return Picture(f"{ev.image.name}.png", ctx.row.ruleset, ev.image.name, view)

    def _flush(self, ctx: Ctx, fx: Effects, mail: Mail) -> None:
        """One or two channel messages (split at 2000 characters); per seat one DM of private
        news, then one DM carrying the panel."""
        row = ctx.row
        parts = messages.split("\n".join(mail.public))
        for i, part in enumerate(parts):
            files = mail.public_files[:10] if i == 0 else []
            fx.messages.append(
                NewMessage(row.id, "channel", part, channel_id=row.channel_id, pictures=files)
            )
        for seat in sorted(set(mail.seats) | set(mail.panels)):
            user_id = self._dm_target(ctx, seat)
            if user_id is None:
                continue
            texts = mail.seats.get(seat, [])
            for i, part in enumerate(messages.split("\n".join(texts)) if texts else []):
                fx.messages.append(NewMessage(
                    row.id, "dm", part, user_id=user_id,
                    pictures=mail.files.get(seat, [])[:10] if i == 0 else [],
                ))
            if seat in mail.panels:
                fx.messages.append(NewMessage(
                    # The dispatcher splits an overlong text and puts the panel on its end.
                    row.id, "dm", mail.panels[seat], user_id=user_id,
                    panel=(row.id, row.step_no, seat),
                ))

    @staticmethod
    def _dm_target(ctx: Ctx, seat: int) -> int | None:
        """Who reads a seat's DMs: nobody for a vacant seat or a player with DMs closed (they
        use /orders and /campaign status instead)."""
        if seat == GM_SEAT:
            return ctx.row.gm_user_id
        p = ctx.player(seat)
        return p.user_id if p is not None and p.active and p.dm_ok else None

    async def _force_defaults(self, tx: Tx, ctx: Ctx, fx: Effects, *, strict: bool) -> list[str]:
        """Takes each missing input's default (deadline or /gm advance).

        Returns the names whose input has no default (nothing is applied for a sealed step
        then); with ``strict`` that is an InvalidState instead."""
        step = ctx.row.step_no
        owing = ctx.owing()
        stuck = [ctx.name(r.seat) for r in owing if r.default is None]
        if stuck and strict:
            raise InvalidState(
                f"No default exists for {messages.names(stuck)}; wait for them, extend the "
                "deadline, or give the seat to someone else (/gm replace)."
            )
        if any(r.kind == "sealed" for r in ctx.pending):
            if stuck:
                return stuck
            await self._resolve_sealed(tx, ctx, fx)
            if ctx.row.step_no != step or ctx.row.status == "ended":
                return stuck
            owing = ctx.owing()  # a mixed step: its turn requests are still open
        for req in owing:
            if ctx.row.step_no != step or ctx.row.status == "ended":
                break
            if req.default is not None and req in ctx.pending:
                await self._act(tx, ctx, fx, req, req.default)
        return stuck
