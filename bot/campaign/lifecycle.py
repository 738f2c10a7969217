"""Create, join, leave, start, settings, status, end: a campaign's life by its channel."""

from __future__ import annotations

import sqlite3

from bot.campaign.core import Ctx, UnitOfWork, campaign_info, seat_info
from bot.campaign.mail import Mail
from bot.campaign.messages import MAX_END_REASON
from bot.campaign.models import Actor, CampaignInfo, CampaignStatus, SeatInfo
from bot.campaign.settings import apply_changes, options_model, secret_options, shown
from bot.campaign.steps import StepEngine
from bot.errors import InvalidInput, InvalidState, NotFound
from bot.rules import registry
from bot.rules.base import Seat
from storage import campaigns, listing, missed, players, timers
from storage.db import Tx
from storage.status import LIVE, DeadlineStatus, Status

MAX_NAME = 80
GM_ENDED = "ended by the GM"  # the /campaign end default reason
MAX_FINISHED_LISTED = 20  # /campaign list finished:True shows the latest ones


class Lifecycle:
    """A campaign's life by its channel (create, join, leave, start, settings, end) and its
    status, through ``engine``."""

    def __init__(self, engine: StepEngine) -> None:
        self.engine = engine
        self.core = engine.core

    async def create(
        self, actor: Actor, guild_id: int, channel_id: int, ruleset: str, name: str,
    ) -> CampaignInfo:
        """A new campaign in ``setup``; the creator is its GM (not yet a player). It has no
        parent: only ``open_battle`` links a battle to a parent, by its rules (P-20)."""
        rules = registry.get(ruleset)
        name = name.strip()
        if not 1 <= len(name) <= MAX_NAME:
            raise InvalidInput(f"A campaign name has 1 to {MAX_NAME} characters.")
        options = rules.options_model().model_dump(mode="json")
        now = self.core.now()
        try:
            async with self.core.intents.intent(), self.core.db.transaction() as tx:
                campaign_id = await campaigns.insert(
                    tx, guild_id=guild_id, channel_id=channel_id, ruleset=rules.name, name=name,
                    gm_user_id=actor.user_id, options=options,
                    settings=dict(self.core.timing_defaults),
                    seed=self.core.seed_source(), parent_id=None, parent_ref=None, now=now,
                )
                row = await campaigns.get(tx, campaign_id)
        except sqlite3.IntegrityError as exc:
            if "campaigns.channel_id" not in str(exc):
                raise
            raise InvalidState(
                "This channel already has a campaign that is not over; end it first "
                "(/campaign end) or use another channel or thread."
            ) from None
        assert row is not None
        return campaign_info(row, [])

    async def join(self, actor: Actor, channel_id: int) -> SeatInfo:
        """Takes the lowest free seat; refuses twice, after the start, and when full."""

        async def run(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> SeatInfo:
            if ctx.row.status != Status.SETUP:
                raise InvalidState("The campaign has already started; ask the GM for a seat.")
            if ctx.seat_of(actor.user_id) is not None:
                raise InvalidState(f"You already hold seat {ctx.seat_of(actor.user_id).seat}.")
            taken = {p.seat for p in ctx.players}
            if len(taken) >= ctx.ruleset.max_seats:
                raise InvalidState(f"All {ctx.ruleset.max_seats} seats are taken.")
            seat = min(s for s in range(1, ctx.ruleset.max_seats + 1) if s not in taken)
            await players.add(tx, ctx.row.id, seat, actor.user_id, actor.name, fx.now)
            ctx.players = await players.of_campaign(tx, ctx.row.id)
            fx.channel(ctx, f"{actor.name} joins **{ctx.row.name}** (seat {seat}).")
            return seat_info(ctx.player(seat))  # type: ignore[arg-type]

        return await self.core.in_channel(channel_id, run)

    async def leave(self, actor: Actor, channel_id: int) -> None:
        """Gives the seat up; only before the start (afterwards the GM kicks or replaces)."""

        async def run(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> None:
            mine = ctx.seat_of(actor.user_id)
            if mine is None:
                raise NotFound("You hold no seat in this campaign.")
            if ctx.row.status != Status.SETUP:
                raise InvalidState("You can only leave before the start; ask the GM to replace "
                                   "you (/gm replace) or free the seat (/gm kick).")
            await players.remove(tx, ctx.row.id, mine.seat)
            ctx.players = [p for p in ctx.players if p.seat != mine.seat]
            fx.channel(ctx, f"{mine.name} leaves **{ctx.row.name}**.")

        await self.core.in_channel(channel_id, run)

    async def start(self, actor: Actor, channel_id: int) -> CampaignInfo:
        """GM: checks the seat count, runs ``ruleset.start`` and opens the first step."""

        async def run(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> CampaignInfo:
            self.core.require_gm(ctx, actor)
            if ctx.row.status != Status.SETUP:
                raise InvalidState("The campaign has already started.")
            rules = ctx.ruleset
            count = len(ctx.players)
            if not rules.min_seats <= count <= rules.max_seats:
                raise InvalidState(
                    f"{rules.title} needs {rules.min_seats} to {rules.max_seats} players; "
                    f"{count} joined."
                )
            await players.renumber(tx, ctx.row.id, [p.seat for p in ctx.players])
            ctx.players = await players.of_campaign(tx, ctx.row.id)
            seats = [Seat(number=p.seat, name=p.name) for p in ctx.players]
            outcome = rules.start(
                options_model(rules, ctx.row.options), seats, self.core.dice(ctx, "start")
            )
            ctx.row.status = Status.RUNNING
            mail = Mail()  # the first line of the first step's tracker
            mail.line(f"**{ctx.row.name}** begins ({rules.title}).")
            await self.engine.apply(tx, ctx, fx, outcome, closes_step=True, mail=mail)
            return campaign_info(ctx.row, ctx.players)

        return await self.core.in_channel(channel_id, run)

    async def settings(
        self, actor: Actor, channel_id: int, changes: dict[str, str]
    ) -> dict[str, str]:
        """GM: validates every change first (nothing changes unless all are valid); rule-set
        options only before the start, timing settings any time (they apply from the next
        step on; /gm extend moves the current deadline). Returns every setting as text."""

        async def run(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> dict[str, str]:
            if changes:
                self.core.require_gm(ctx, actor)
                new_settings, new_options = apply_changes(
                    ctx.ruleset, ctx.row.settings, ctx.row.options, changes,
                    started=ctx.row.status != Status.SETUP,
                )
                ctx.row.settings, ctx.row.options = new_settings, new_options
                fx.save = "row"
            hidden = set() if ctx.is_gm(actor) else secret_options(ctx.ruleset)
            return shown(ctx.row.settings, ctx.row.options, hidden)

        return await self.core.in_channel(channel_id, run)

    async def end(self, actor: Actor, channel_id: int, reason: str) -> None:
        """GM: the campaign is over (status ``ended``); the channel is told why."""

        async def run(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> None:
            self.core.require_gm(ctx, actor)
            mail = Mail()
            why = f": {reason.strip()}" if reason.strip() else "."
            told = reason.strip().split("\n", 1)[0]  # /battle end adds a report below
            ctx.row.end_reason = ("The GM ended it." if told in ("", GM_ENDED)
                                  else f"The GM ended it: {told}")[:MAX_END_REASON]
            await self.engine.finish(tx, ctx, fx, mail, f"The GM ended **{ctx.row.name}**{why}")
            await self.engine.flush(tx, ctx, fx, mail)

        await self.core.in_channel(channel_id, run)

    async def status(self, channel_id: int, viewer_user_id: int) -> CampaignStatus:
        """The campaign as the viewer may see it: state text, pending names, deadline. The
        live campaign of the channel, else the latest that ended there (with how it ended)."""
        ctx = await self.core.load(self.core.db, await self.core.id_to_read(channel_id))
        row = ctx.row
        rules, seats = ctx.ruleset, ctx.players
        pending: list[str] = []
        deadline = None
        text = f"Setting up: {len(seats)} of {rules.min_seats}-{rules.max_seats} seats taken."
        if ctx.state is not None:
            mine = ctx.seat_of(viewer_user_id)
            text = rules.status(ctx.state, mine.seat if mine else None)
            pending = list(dict.fromkeys(ctx.name(r.seat) for r in ctx.owing()))
            dl = await timers.get(self.core.db, row.id, row.step_no)
            if dl is not None and dl.status == DeadlineStatus.OPEN:
                deadline = self.core.at(dl.due_at if dl.due_at is not None
                                    else self.core.now() + (dl.remaining or 0))
        return CampaignStatus(
            id=row.id, name=row.name, ruleset=row.ruleset, status=row.status,
            paused=row.status == Status.PAUSED, step_no=row.step_no, text=text, pending=pending,
            deadline=deadline, seats=[seat_info(p) for p in seats],
            end_reason=row.end_reason if row.status == Status.ENDED else None,
            away=[ctx.name(s) for s in sorted(await missed.away_seats(self.core.db, row.id))]
            if row.status in LIVE else [],
        )

    async def list_campaigns(self, guild_id: int, *, finished: bool = False
                             ) -> list[CampaignInfo]:
        """The guild's campaigns that are not over, by id; with ``finished`` its latest
        ended ones instead (``end_reason`` says how each ended). One query, no state read."""
        if finished:
            heads = await listing.ended_in_guild(self.core.db, guild_id, MAX_FINISHED_LISTED)
        else:
            heads = await listing.live_in_guild(self.core.db, guild_id)
        return [campaign_info(h, h.seats) for h in heads]

    async def campaigns_of_user(self, user_id: int) -> list[CampaignInfo]:
        """Running (or paused) campaigns where the user holds a seat or is the GM, by id (for
        /orders in DMs: some rule sets ask the GM for input). ``gm_user_id`` and ``seats``
        of each tell which: a GM-only campaign has no seat of the user."""
        heads = await listing.running_of_user(self.core.db, user_id)
        return [campaign_info(h, h.seats) for h in heads]
