"""What every service module shares: loading a campaign, locking, one transaction per intent."""

from __future__ import annotations

import logging
import secrets
import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Literal, TypeVar

from pydantic import BaseModel

from bot.campaign.cache import KeyedLocks, LruCache
from bot.campaign.models import Actor, CampaignInfo, SeatInfo
from bot.campaign.settings import TIMING_DEFAULTS
from bot.campaign.stopping import IntentGate
from bot.errors import InvalidState, NotFound, PermissionDenied, UserError
from bot.rules import registry
from bot.rules.base import GM_SEAT, Dice, Request
from bot.rules.dice import SeededDice
from bot.rules.ruleset_base import RulesetBase
from storage import campaigns, intent_rows, players, turns
from storage import events as event_log
from storage import outbox as outbox_repo
from storage.campaigns import CampaignHead, CampaignRow, Reader, StaleVersion
from storage.db import Database, Tx
from storage.events import EventRow
from storage.outbox import NewMessage
from storage.players import PlayerRow
from storage.status import LIVE, Status

T = TypeVar("T")
DEFAULT_UNDO_DEPTH = 10  # config [service] undo_depth; migration 002 keeps as many
DEFAULT_CACHE_CAMPAIGNS = 200  # config [service] cache_campaigns
# tries of an intent that met a newer write (another service on the same database): the
# version check, or a UNIQUE conflict such as two joins taking the same seat (P-35)
INTENT_TRIES = 3
CHANGED_MEANWHILE = ("The campaign changed at the same moment (someone else acted), so "
                     "nothing was changed; try again.")
log = logging.getLogger(__name__)
Clock = Callable[[], datetime]
DiceFactory = Callable[[int, str], Dice]


class CampaignBroken(InvalidState):
    """The campaign's stored state does not load; only that campaign is refused."""


def utcnow() -> datetime:
    return datetime.now(UTC)


def new_seed() -> int:
    return secrets.randbits(63)


def step_keys(requests: list[Request]) -> list[str]:
    """What identifies a step: who is asked, how, for which step of the rules."""
    return sorted(f"{r.seat}:{r.kind}:{r.step}" for r in requests)


@dataclass
class Ctx:
    """A campaign as loaded for one intent (cached between intents, see ``mutate``)."""

    row: CampaignRow
    players: list[PlayerRow]
    ruleset: RulesetBase
    state: BaseModel | None
    pending: list[Request]
    submitted: dict[int, dict[str, Any]]  # sealed submissions of the open step, by seat

    def seat_of(self, user_id: int) -> PlayerRow | None:
        return next((p for p in self.players if p.active and p.user_id == user_id), None)

    def player(self, seat: int) -> PlayerRow | None:
        return next((p for p in self.players if p.seat == seat), None)

    def name(self, seat: int) -> str:
        if seat == GM_SEAT:
            return "the GM"
        p = self.player(seat)
        if p is None:
            return f"seat {seat}"
        return p.name if p.active else f"{p.name} (vacant seat {seat})"

    def is_gm(self, actor: Actor) -> bool:
        admin_here = actor.is_admin and actor.guild_id == self.row.guild_id
        return admin_here or actor.user_id == self.row.gm_user_id

    def requests_of(self, seat: int) -> list[Request]:
        return [r for r in self.pending if r.seat == seat]

    def copy(self) -> Ctx:
        """A copy a reader may keep while intents go on changing this one (their rules
        return new states, so the state itself is shared)."""
        row = replace(self.row, settings=dict(self.row.settings), options=dict(self.row.options),
                      step_keys=list(self.row.step_keys))
        return Ctx(row=row, players=[replace(p) for p in self.players], ruleset=self.ruleset,
                   state=self.state, pending=list(self.pending), submitted=dict(self.submitted))

    def owing(self) -> list[Request]:
        """Open requests still waiting for input (sealed ones already in do not count)."""
        return [r for r in self.pending if not (r.kind == "sealed" and r.seat in self.submitted)]


class UnitOfWork:
    """One intent's work on one campaign, in one transaction: ``tx``, the campaign as loaded
    (``ctx``), its log (``events``), how its row is saved (``save``) and ONE ordered list of
    what it sends (``effects``: channel posts, their edits, DMs, each with its pictures; a
    timer's change is a row of the same transaction). Each message gets its outbox id when it
    is made (``send``) and joins the transaction's queue of statements at once (no trip of its
    own: a panel or tracker row may name it next), so the order of the list is the order of
    the outbox; everything goes to the writer with the transaction's next trip, at the latest
    with ``ServiceCore.write`` (the log and the version-checked row) and COMMIT; the loops are
    woken once after commit (``wake``)."""

    def __init__(self, tx: Tx, ctx: Ctx, now: float, ids: outbox_repo.OutboxIds) -> None:
        self.tx = tx
        self.ctx = ctx
        self.now = now
        self._ids = ids
        self.effects: list[tuple[int, NewMessage]] = []
        self.events: list[EventRow] = []
        # every intent ends with a version-checked write, so a stale cached copy never passes
        self.save: Literal["touch", "row", "state"] = "touch"
        self.wake = False

    @classmethod
    async def begin(cls, tx: Tx, ctx: Ctx, now: float, *, fresh: bool = False) -> UnitOfWork:
        """``fresh``: for a transaction that is not decided again on a newer write (see
        ``outbox_repo.ids``)."""
        return cls(tx, ctx, now, await outbox_repo.ids(tx, fresh=fresh))

    def also(self, ctx: Ctx) -> UnitOfWork:
        """Another campaign changed in the same transaction (a battle's parent, a parent's
        battle): its own log and row, the SAME list of effects (one order for all)."""
        other = UnitOfWork(self.tx, ctx, self.now, self._ids)
        other.effects = self.effects
        return other

    async def rows(self, ctx: Ctx) -> intent_rows.CampaignRows:
        """``ctx``'s other rows (missed deadlines, tracker, deadline, DM panels) as this
        transaction has them: read in one trip the first time, then kept by its writes."""
        return await intent_rows.of(self.tx, ctx.row.id, ctx.row.channel_id, ctx.row.step_no)

    def send(self, message: NewMessage) -> int:
        """Adds a message at the end of the list; returns its outbox id."""
        outbox_id = self._ids.take()
        self.effects.append((outbox_id, message))
        outbox_repo.queue(self.tx, [(outbox_id, message)], self.now)
        self.wake = True
        return outbox_id

    def channel(self, ctx: Ctx, text: str, mentions: list[int] | None = None) -> int:
        """A channel post; ``mentions``: the only users it pings (P-34), none by default."""
        return self.send(NewMessage(ctx.row.id, "channel", text, channel_id=ctx.row.channel_id,
                                    mentions=mentions or []))

    def dm(self, ctx: Ctx, user_id: int, text: str, **extra: Any) -> int:
        return self.send(NewMessage(ctx.row.id, "dm", text, user_id=user_id, **extra))


class ServiceCore:
    """Construction, locks, loading, and ``mutate``: one transaction per intent. The step
    engine and every collaborator use it through its public names only."""

    def __init__(
        self,
        db: Database,
        clock: Clock = utcnow,
        wake: Callable[[], None] | None = None,
        *,
        seed_source: Callable[[], int] = new_seed,
        dice_factory: DiceFactory = SeededDice,
        timing_defaults: dict[str, Any] | None = None,
        undo_depth: int = DEFAULT_UNDO_DEPTH,
        cache_campaigns: int = DEFAULT_CACHE_CAMPAIGNS,
    ) -> None:
        self.db = db
        # a new campaign's deadline settings (config [timing]); each campaign keeps its own
        self.timing_defaults = {**TIMING_DEFAULTS, **(timing_defaults or {})}
        self.clock = clock
        self._wake = wake
        self.seed_source = seed_source
        self._dice_factory = dice_factory
        if undo_depth < 1:
            raise ValueError(f"undo_depth must be >= 1, got {undo_depth}")
        # resolutions /gm undo can take back: older snapshots are deleted (config [service])
        self.undo_depth = undo_depth
        self.locks = KeyedLocks()
        # campaigns as of their last commit here, the least recently used dropped beyond
        # cache_campaigns; the version check in campaigns.save() catches any write made
        # elsewhere, and then the entry is reloaded
        self.cache: LruCache[Ctx] = LruCache(cache_campaigns)
        # refuses new intents once the bot stops, and lets it wait for those under way (P-38)
        self.intents = IntentGate()
        self.loads = 0  # campaigns read and decoded from SQLite (bench/trips.py counts them)

    def wake_up(self) -> None:
        """After a commit that queued messages or moved a deadline: the loops look again."""
        if self._wake is not None:
            self._wake()

    def now(self) -> float:
        return self.clock().timestamp()

    async def load(self, tx: Reader, campaign_id: int) -> Ctx:
        """The campaign with its seats and open requests; with ``self.db`` (the reader
        connection) this is the committed state, for displays (``read``)."""
        if tx is self.db:
            return await self.read(campaign_id)
        cached = self.cache.get(campaign_id)
        # (within a write transaction no other intent is changing a cached campaign: they
        # take it from the cache only once they hold the writer, as this one does now)
        if cached is not None and await self._version(tx, campaign_id) == cached.row.version:
            return cached.copy()  # (a battle's parent, a parent's battle: one trip, not three)
        return await self._decode(tx, campaign_id)

    @staticmethod
    async def _version(tx: Tx, campaign_id: int) -> int | None:
        """The campaign's version in this transaction, read once while nothing in it wrote
        to the campaigns table since."""
        seen: dict[int, tuple[int, int | None]] = tx.local.setdefault("versions", {})
        writes = tx.writes_to("campaigns")
        if campaign_id not in seen or seen[campaign_id][0] != writes:
            seen[campaign_id] = (writes, await campaigns.version(tx, campaign_id))
        return seen[campaign_id][1]

    async def read(self, campaign_id: int) -> Ctx:
        """The committed campaign, for displays: a copy of the cached one when its version
        is the committed one and no intent is changing it (every write bumps the version,
        so nothing another writer changed is served), else read from SQLite (and cached for
        the next intent: its write is version-checked like any other)."""
        version = await campaigns.version(self.db, campaign_id)
        busy = self.locks.busy(campaign_id)
        cached = self.cache.get(campaign_id)
        if cached is not None and version == cached.row.version and not busy:
            return cached.copy()
        ctx = await self._decode(self.db, campaign_id)
        if not busy and ctx.row.version == version:
            self.cache.put(campaign_id, ctx.copy())
        return ctx

    async def _decode(self, tx: Reader, campaign_id: int) -> Ctx:
        self.loads += 1
        row = await campaigns.get(tx, campaign_id)
        if row is None:
            raise NotFound(f"There is no campaign with id {campaign_id}.")
        try:
            ruleset = registry.get(row.ruleset)
            state = (ruleset.state_model.model_validate(row.state)
                     if row.state is not None else None)
            live = state is not None and row.status in LIVE
            pending = ruleset.pending(state) if live else []
        except (UserError, ValueError, TypeError, KeyError, AttributeError) as exc:
            raise self._broken(row, exc) from exc  # (pydantic's ValidationError included)
        return Ctx(
            row=row,
            players=await players.of_campaign(tx, campaign_id),
            ruleset=ruleset,
            state=state,
            pending=pending,
            submitted=await turns.submissions(tx, campaign_id, row.step_no) if live else {},
        )

    def _broken(self, row: CampaignRow, exc: Exception) -> CampaignBroken:
        """A campaign whose stored state cannot be read (a bug, or an edit by hand): refused
        for that campaign alone, logged once with its id (not its content)."""
        reported: set[int] = self.__dict__.setdefault("_broken_reported", set())
        if row.id not in reported:
            reported.add(row.id)
            log.error("campaign %s (%s): its stored state cannot be read (%s)", row.id,
                      row.ruleset, type(exc).__name__)
        return CampaignBroken(
            f"Campaign **{row.name}** cannot be read right now (a bot error); the bot's admin "
            "can see it in the log. Other campaigns are not affected."
        )

    async def mutate(
        self, campaign_id: int, fn: Callable[[Tx, Ctx, UnitOfWork], Awaitable[T]],
        *, prepare: Callable[[Ctx], None] | None = None,
    ) -> T:
        """Runs ``fn`` on the campaign under its lock, in one transaction with everything it
        writes (its unit of work: events, outbox, the version-checked campaign row).

        ``prepare``: the rules' pure work on the cached committed campaign, run under the
        campaign's lock but before the database's write lock, so other campaigns' writes go
        on meanwhile (issue 17 item 9); ``fn`` uses what it found only while it is given that
        very ``Ctx`` at that version, and works it out again otherwise."""
        async with self.intents.intent(), self.locks.hold(campaign_id):
            cached_ctx = self.cache.get(campaign_id)
            if prepare is not None and cached_ctx is not None:
                prepare(cached_ctx)
            for attempt in range(1, INTENT_TRIES + 1):
                cached = campaign_id in self.cache
                try:
                    result, fx, ctx = await self._run_once(campaign_id, fn)
                except (StaleVersion, sqlite3.IntegrityError) as exc:
                    # Stale data: a write made elsewhere (another service on this database)
                    # since the copy was loaded. A UNIQUE conflict is the same race met
                    # before the version check (two joins taking one seat): reload, decide
                    # again, and refuse plainly after a few tries, never raise (P-35).
                    self.cache.pop(campaign_id, None)
                    if attempt == INTENT_TRIES:
                        if isinstance(exc, sqlite3.IntegrityError):
                            # on every try: more likely a bug than a busy campaign
                            log.error("campaign %s: %s on every try", campaign_id, exc,
                                      exc_info=exc)
                        raise InvalidState(CHANGED_MEANWHILE) from None
                    continue
                except UserError:
                    # a refusal may come from a stale cached copy: decide again on fresh data
                    self.cache.pop(campaign_id, None)
                    if cached and attempt == 1:
                        continue
                    raise
                except BaseException:
                    # fn may have changed the cached objects before failing
                    self.cache.pop(campaign_id, None)
                    raise
                self.cache.put(campaign_id, ctx)
                if fx.wake:
                    self.wake_up()
                return result
        raise AssertionError("unreachable")

    async def _run_once(
        self, campaign_id: int, fn: Callable[[Tx, Ctx, UnitOfWork], Awaitable[T]]
    ) -> tuple[T, UnitOfWork, Ctx]:
        async with self.db.transaction() as tx:
            ctx = self.cache.get(campaign_id) or await self.load(tx, campaign_id)
            fx = await UnitOfWork.begin(tx, ctx, self.now())
            result = await fn(tx, ctx, fx)
            await self.write(tx, ctx, fx)
        return result, fx, ctx

    async def run_new(self, insert: Callable[[Tx, float], Awaitable[int]],
                      fn: Callable[[Tx, Ctx, UnitOfWork], Awaitable[T]]) -> T:
        """A new campaign's first intent (``open_battle``): ``insert(tx, now)`` adds its rows
        and returns its id; in the same transaction ``fn`` runs on it as loaded, and its unit
        of work ends as every intent's does (``write``). Not cached: read on its next intent."""
        now = self.now()
        async with self.intents.intent(), self.db.transaction() as tx:
            ctx = await self.load(tx, await insert(tx, now))
            fx = await UnitOfWork.begin(tx, ctx, now, fresh=True)
            result = await fn(tx, ctx, fx)
            await self.write(tx, ctx, fx)
        if fx.wake:
            self.wake_up()
        return result

    @staticmethod
    async def write(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> None:
        """The end of every write to a campaign, in its transaction and in this order: its
        log (its effects are queued already, in their order), then the version-checked row
        (``fx.save``), so a stale copy never passes. One place for every intent,
        ``open_battle`` and a battle whose seats follow its parent's (P-21) included."""
        await event_log.append(tx, ctx.row.id, fx.events)
        fx.events = []
        if fx.save == "touch":
            await campaigns.touch(tx, ctx.row.id, ctx.row.version, fx.now)
            ctx.row.version += 1
        else:
            await campaigns.save(tx, ctx.row, fx.now, state_changed=fx.save == "state")

    async def snapshot(self, campaign_id: int) -> Ctx:
        """The committed campaign (row, seats, rule-set state, open requests), for tests.

        It holds hidden state, so no cog may use it: cogs read ``seat_view`` and the other
        viewer-scoped reads of bot/campaign/ruleset_features.py."""
        return await self.load(self.db, campaign_id)

    async def id_in_channel(self, channel_id: int) -> int:
        campaign_id = await campaigns.id_in_channel(self.db, channel_id)
        if campaign_id is None:
            ended = await campaigns.id_to_read(self.db, channel_id)
            row = await campaigns.get(self.db, ended) if ended is not None else None
            if row is not None:  # a finished campaign is read, never acted on
                raise NotFound(f"There is no running campaign in this channel: **{row.name}** "
                               "is over (/campaign status shows how it ended). Start a new "
                               "one with /campaign create.")
            raise NotFound("There is no campaign in this channel. Start one with /campaign create.")
        return campaign_id

    async def id_to_read(self, channel_id: int) -> int:
        """For reads only (status, views, pictures, the GM log): the channel's live campaign,
        else the latest one that ended there, so a finished campaign stays readable. Intents
        address the live campaign (``id_in_channel``)."""
        campaign_id = await campaigns.id_to_read(self.db, channel_id)
        if campaign_id is None:
            raise NotFound("There is no campaign in this channel. Start one with /campaign create.")
        return campaign_id

    async def in_channel(
        self, channel_id: int, fn: Callable[[Tx, Ctx, UnitOfWork], Awaitable[T]]
    ) -> T:
        """``mutate`` for the live campaign of a channel."""
        campaign_id = await self.id_in_channel(channel_id)

        async def checked(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> T:
            if ctx.row.status == Status.ENDED:
                raise InvalidState("This campaign has ended.")
            return await fn(tx, ctx, fx)

        return await self.mutate(campaign_id, checked)

    @staticmethod
    def require_gm(ctx: Ctx, actor: Actor) -> None:
        if not ctx.is_gm(actor):
            raise PermissionDenied("Only the GM of this campaign (or a server admin) may do that.")

    @staticmethod
    def require_live(ctx: Ctx) -> None:
        if ctx.row.status == Status.SETUP:
            raise InvalidState("The campaign has not started yet (the GM starts it).")
        if ctx.row.status == Status.ENDED:
            raise InvalidState("This campaign has ended.")

    def dice(self, ctx: Ctx, stream: str) -> Dice:
        return self._dice_factory(ctx.row.seed, stream)

    def at(self, seconds: float | None) -> datetime | None:
        return datetime.fromtimestamp(seconds, UTC) if seconds is not None else None


def seat_info(p: PlayerRow) -> SeatInfo:
    return SeatInfo(p.campaign_id, p.seat, p.user_id, p.name, p.active, p.dm_ok)


def campaign_info(row: CampaignHead, seats: list[PlayerRow]) -> CampaignInfo:
    return CampaignInfo(**row.head_fields(), seats=[seat_info(p) for p in seats])
