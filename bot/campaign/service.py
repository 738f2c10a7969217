"""``CampaignService``: one method per user intent (docs/dev/service-contract.md).

Each concept lives in its own module; this class only puts them together. Collaborators
with a constructor of their own (the outbox) are held, and their methods delegated here
unchanged, so callers keep one object to talk to."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from bot.campaign.absence import Absence
from bot.campaign.cache import KeyedLocks, LruCache
from bot.campaign.core import (
    DEFAULT_CACHE_CAMPAIGNS,
    DEFAULT_UNDO_DEPTH,
    Clock,
    Ctx,
    DiceFactory,
    ServiceCore,
    new_seed,
    utcnow,
)
from bot.campaign.gm import GmTools
from bot.campaign.lifecycle import Lifecycle
from bot.campaign.links import BattleLink, Links
from bot.campaign.models import (
    Actor,
    CampaignInfo,
    CampaignStatus,
    LogEntry,
    OutboxMessage,
    Panel,
    SeatInfo,
    SeatView,
    SubmitResult,
    ViewPicture,
)
from bot.campaign.outbox import Outbox, RetryPolicy
from bot.campaign.panel_delivery import DEFAULT_PANEL_IDLE_MINUTES, PanelDelivery
from bot.campaign.ruleset_features import RulesetFeatures
from bot.campaign.scheduler import Scheduler
from bot.campaign.steps import EventWitness, StepEngine
from bot.campaign.submissions import Submissions
from bot.campaign.war import War, WarListener
from bot.campaign.war_link import LinkUndo
from bot.campaign.war_seats import WarSeats
from bot.campaign.war_undo import ResultUndo
from bot.rules.dice import SeededDice
from storage.db import Database


class CampaignService:
    """``CampaignService(db, clock=utcnow, wake=None, *, seed_source=..., dice_factory=...)``.

    ``seed_source`` gives each new campaign its dice seed (default ``secrets.randbits(63)``);
    ``dice_factory(seed, stream)`` builds the dice of one resolution (default SeededDice);
    ``outbox_policy`` (a ``RetryPolicy`` from config ``[outbox]``) how failed sends are retried;
    ``undo_depth`` (10) and ``cache_campaigns`` (200) are the config's ``[service]`` bounds,
    ``panel_idle_minutes`` (10) when a panel is a new DM rather than an edit (P-1).

    A facade: one method per intent, each delegated unchanged to the collaborator that owns
    it. The step engine (``engine``: loading, locks, one transaction per intent, the steps,
    panel delivery) is the one every intent runs through; the war listens to it only for
    campaigns that have battles (``StepEngine.war``)."""

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
        panel_idle_minutes: float = DEFAULT_PANEL_IDLE_MINUTES,
        outbox_policy: RetryPolicy | None = None,
        witness: EventWitness | None = None,
    ) -> None:
        self.db = db
        self.clock = clock
        core = ServiceCore(
            db,
            clock,
            wake,
            seed_source=seed_source,
            dice_factory=dice_factory,
            timing_defaults=timing_defaults,
            undo_depth=undo_depth,
            cache_campaigns=cache_campaigns,
        )
        self.engine = engine = StepEngine(core, PanelDelivery(db, panel_idle_minutes),
                                           witness=witness)
        # refuses new intents once the bot stops, and lets it wait for those under way (P-38)
        self.intents = core.intents
        self.outbox = Outbox(db, clock, wake, core.cache, outbox_policy)
        # the war: P-13/P-14's undo of battle results and links, told by the step engine
        # of the changes of campaigns that have battles (``StepEngine.war``)
        self.war = WarListener(core.load, engine.apply, core.cache,
                               LinkUndo(ResultUndo(db, core.load)))
        engine.war = self.war
        self.lifecycle = Lifecycle(engine)
        self.submissions = Submissions(engine)
        self.links = Links(db, engine.core.load)
        self.battles = War(engine, self.links, self.war)
        self.gm = GmTools(engine, self.war, WarSeats(engine))
        self.absence = Absence(engine)
        self.scheduler = Scheduler(db, clock, wake, engine)
        self.features = RulesetFeatures(engine, self.lifecycle, self.gm, self.submissions)

    # ------------------------------------------------------------ test seams

    @property
    def _cache(self) -> LruCache[Ctx]:
        """The engine's campaigns as of their last commit (tests clear or read it)."""
        return self.engine.core.cache

    @property
    def _locks(self) -> KeyedLocks:
        """The engine's per-campaign locks (tests check that none outlives its intent)."""
        return self.engine.core.locks

    @property
    def _seed_source(self) -> Callable[[], int]:
        return self.engine.core.seed_source

    @_seed_source.setter
    def _seed_source(self, source: Callable[[], int]) -> None:
        """Tests give new campaigns a fixed seed after the bot built its service."""
        self.engine.core.seed_source = source

    # ------------------------------------------------------------ the engine's reads

    async def snapshot(self, campaign_id: int) -> Ctx:
        """The committed campaign (row, seats, rule-set state, open requests), for tests;
        no cog may use it (``ServiceCore.snapshot``)."""
        return await self.engine.core.snapshot(campaign_id)

    async def campaign_in_channel(self, channel_id: int) -> int:
        """The id of the channel's live campaign; NotFound says how to start one."""
        return await self.engine.core.id_in_channel(channel_id)

    async def panel_rewritten(self, user_id: int, message_id: int, step_no: int) -> bool:
        """True when the bot has since made that DM message something other than the panel
        of ``step_no`` (``PanelDelivery.panel_rewritten``)."""
        return await self.engine.delivery.panel_rewritten(user_id, message_id, step_no)

    # ------------------------------------------------------------ the GM's tools

    async def gm_extend(self, actor: Actor, channel_id: int, hours: float) -> None:
        """Moves the open step's deadline by ``hours`` (negative shortens; a step without a
        deadline gets one ``hours`` from now) and re-arms its reminders."""
        return await self.gm.gm_extend(actor, channel_id, hours)

    async def gm_pause(self, actor: Actor, channel_id: int) -> None:
        """Freezes the campaign and the time left on its deadline."""
        return await self.gm.gm_pause(actor, channel_id)

    async def gm_resume(self, actor: Actor, channel_id: int) -> None:
        """Restarts the clock with the time that was left at the pause."""
        return await self.gm.gm_resume(actor, channel_id)

    async def gm_advance(self, actor: Actor, channel_id: int) -> None:
        """Resolves the open step now, taking the default for every missing input."""
        return await self.gm.gm_advance(actor, channel_id)

    async def gm_edit_state(
        self, actor: Actor, channel_id: int, edit: Callable[[Any], Any], summary: str
    ) -> None:
        """Applies a rule set's pure GM edit (e.g. FTCamp's add/move/remove a group) to the
        running state: snapshotted for /gm undo, logged for the GM only (an edit may name
        hidden forces), and the step re-opened so every panel matches the edited state."""
        return await self.gm.gm_edit_state(actor, channel_id, edit, summary)

    async def gm_act(self, actor: Actor, channel_id: int, action: dict[str, Any]) -> None:
        """Applies an action the rule set lets the GM take at any time (its optional
        ``gm_actions(state) -> list[ActionSpec]``, e.g. HRFT manual damage): checked like a
        panel's action, applied with the next resolution's dice (so /gm undo restores it), its
        events routed as usual. The GM is never in ``pending``, so no step, panel or deadline
        waits for them; the step re-opens only when who is asked changes."""
        return await self.gm.gm_act(actor, channel_id, action)

    async def gm_undo(self, actor: Actor, channel_id: int) -> str:
        """Restores the state before the last resolution and the submissions it used; again and
        again, as far back as the last ``undo_depth`` resolutions (their snapshots)."""
        return await self.gm.gm_undo(actor, channel_id)

    async def gm_reopen(self, actor: Actor, channel_id: int, user_id: int) -> str:
        """P-23: the GM lets one seat change the orders an undo put back locked (the seat saw
        the others' orders revealed: the GM decides that this is fair). The channel hears it;
        the seat's panel says it may change them. Returns the channel's line."""
        return await self.gm.gm_reopen(actor, channel_id, user_id)

    async def gm_log(self, actor: Actor, channel_id: int, limit: int | None = 20) -> list[LogEntry]:
        """The latest ``limit`` public and GM events, oldest first (never a seat's private
        event), of the live campaign of the channel, else the latest that ended there.
        ``limit=None``: the whole log (for a file), still capped at ``MAX_LOG_ENTRIES``."""
        return await self.gm.gm_log(actor, channel_id, limit)

    async def gm_kick(self, actor: Actor, channel_id: int, user_id: int) -> None:
        """The seat stays in the game, vacant: its input takes defaults at each deadline.
        Before the start the player is simply removed."""
        return await self.gm.gm_kick(actor, channel_id, user_id)

    async def gm_replace(
        self, actor: Actor, channel_id: int, old_user_id: int, new_actor: Actor
    ) -> None:
        """Another member takes over a seat (held or vacant) and gets its open panels."""
        return await self.gm.gm_replace(actor, channel_id, old_user_id, new_actor)

    # ------------------------------------------------------------ battles in threads

    async def open_battle(
        self,
        actor: Actor,
        guild_id: int,
        channel_id: int,
        name: str,
        parent_id: int,
        ref: str,
        designs: str = "",
    ) -> CampaignInfo:
        """The parent's GM opens one of its battles in a thread: the HRFT campaign, one seat
        per side of the parent's battle (the member holding that seat now), started with its
        craft (FTCamp) or its sides' forces to muster (Orbits), and the parent's battle marked
        as fought there. One transaction: a refusal or a failure leaves no battle."""
        return await self.battles.open_battle(
            actor, guild_id, channel_id, name, parent_id, ref, designs
        )

    async def begin_battle(self, actor: Actor, channel_id: int) -> CampaignInfo:
        """GM: starts a battle created in setup (players joined themselves). It has no parent
        battle (P-20: only ``open_battle`` links one, seated and started at once), so nothing
        of a campaign comes in: a stranger's battle never receives a campaign's craft."""
        return await self.battles.begin_battle(actor, channel_id)

    async def parent_choices(self, actor: Actor, guild_id: int) -> list[CampaignInfo]:
        """Campaigns a battle started by ``actor`` may resolve (``/battle start parent:``
        autocomplete): the guild's campaigns whose rules fight battles in threads (P-20: no
        battle, no guess game) and that ``actor`` is the GM of (every one for an admin); the
        live ones by id, then the latest that ended. Two queries, no state read."""
        return await self.links.parent_choices(actor, guild_id)

    async def parent_id(self, actor: Actor, guild_id: int, typed: str) -> int:
        """The campaign id ``/battle start parent:`` names: the id the autocomplete puts in, or
        the full name of one of ``parent_choices``."""
        return await self.links.parent_id(actor, guild_id, typed)

    async def battle_refs(self, actor: Actor, guild_id: int, parent_id: int) -> list[str]:
        """``/battle start ref:`` autocomplete: the parent's battles that wait to be fought,
        for its GM (an admin) only; nothing for anyone else or a parent without battles."""
        return await self.links.battle_refs(actor, guild_id, parent_id)

    async def battle_link(
        self, actor: Actor, guild_id: int, parent_id: int, ref: str, designs: str = ""
    ) -> BattleLink:
        """Checks a battle's parent reference before anything is created (P-20): the parent's
        GM (or an admin of its server) names a battle its rules list as open now. Refused
        otherwise: no free description, no look-alike, no battle as parent."""
        return await self.links.battle_link(actor, guild_id, parent_id, ref, designs)

    # ------------------------------------------------------------ absence

    async def come_back(self, actor: Actor, channel_id: int) -> str:
        """The actor's seat is no longer away: its steps wait for them again and the channel is
        told; their open panel comes again without the away line. Refused when they hold no
        seat; a seat that is not away changes nothing."""
        return await self.absence.come_back(actor, channel_id)

    async def panel_clicked(self, campaign_id: int, step_no: int, seat: int, user_id: int) -> None:
        """A click of the seat's holder on one of its panels, even one whose step is over: an
        away seat is back (P-26: any panel action). Call it only after the holder check
        (``panel(..., user_id)``); anyone else changes nothing. A click on the open step's
        panel leaves that message to the click's own answer; after a click on an older one the
        open panel comes again."""
        return await self.absence.panel_clicked(campaign_id, step_no, seat, user_id)

    # ------------------------------------------------------------ submissions

    async def panels_for(self, campaign_id: int, user_id: int) -> list[Panel]:
        """The user's open requests in that campaign, as panels (for /orders); none for a
        campaign whose state cannot be read, so /orders still shows the user's others."""
        return await self.submissions.panels_for(campaign_id, user_id)

    async def panel(
        self, campaign_id: int, step_no: int, seat: int, user_id: int | None = None
    ) -> Panel:
        """One panel by its custom-id parts; InvalidState once that step is over. With
        ``user_id``, first refuses (PermissionDenied) anyone but the seat's current holder (the
        campaign's GM for the GM seat): nothing about the seat, not even whether its step is
        over, reaches anybody else."""
        return await self.submissions.panel(campaign_id, step_no, seat, user_id)

    async def save_draft(
        self,
        actor: Actor,
        campaign_id: int,
        step_no: int,
        action_type: str,
        field: str,
        values: list[str],
        seat: int | None = None,
    ) -> None:
        """Stores a Select choice so the panel survives a restart. Shape and range are checked
        before anything is loaded (``bot.campaign.inputs``)."""
        return await self.submissions.save_draft(
            actor, campaign_id, step_no, action_type, field, values, seat
        )

    async def submit(
        self,
        actor: Actor,
        campaign_id: int,
        step_no: int,
        action: dict[str, Any],
        seat: int | None = None,
    ) -> SubmitResult:
        """Sealed: stores or replaces the submission and resolves when all are in. Turn/open:
        applies the action at once. ``seat`` picks one when the actor holds more than one (e.g.
        the GM who also plays). Shape and range are checked before anything is loaded
        (``bot.campaign.inputs``)."""
        return await self.submissions.submit(actor, campaign_id, step_no, action, seat)

    # ------------------------------------------------------------ lifecycle

    async def create(
        self, actor: Actor, guild_id: int, channel_id: int, ruleset: str, name: str
    ) -> CampaignInfo:
        """A new campaign in ``setup``; the creator is its GM (not yet a player). It has no
        parent: only ``open_battle`` links a battle to a parent, by its rules (P-20)."""
        return await self.lifecycle.create(actor, guild_id, channel_id, ruleset, name)

    async def join(self, actor: Actor, channel_id: int) -> SeatInfo:
        """Takes the lowest free seat; refuses twice, after the start, and when full."""
        return await self.lifecycle.join(actor, channel_id)

    async def leave(self, actor: Actor, channel_id: int) -> None:
        """Gives the seat up; only before the start (afterwards the GM kicks or replaces)."""
        return await self.lifecycle.leave(actor, channel_id)

    async def start(self, actor: Actor, channel_id: int) -> CampaignInfo:
        """GM: checks the seat count, runs ``ruleset.start`` and opens the first step."""
        return await self.lifecycle.start(actor, channel_id)

    async def settings(
        self, actor: Actor, channel_id: int, changes: dict[str, str]
    ) -> dict[str, str]:
        """GM: validates every change first (nothing changes unless all are valid); rule-set
        options only before the start, timing settings any time (they apply from the next step
        on; /gm extend moves the current deadline). Returns every setting as text."""
        return await self.lifecycle.settings(actor, channel_id, changes)

    async def end(self, actor: Actor, channel_id: int, reason: str) -> None:
        """GM: the campaign is over (status ``ended``); the channel is told why."""
        return await self.lifecycle.end(actor, channel_id, reason)

    async def status(self, channel_id: int, viewer_user_id: int) -> CampaignStatus:
        """The campaign as the viewer may see it: state text, pending names, deadline. The live
        campaign of the channel, else the latest that ended there (with how it ended)."""
        return await self.lifecycle.status(channel_id, viewer_user_id)

    async def list_campaigns(self, guild_id: int, *, finished: bool = False) -> list[CampaignInfo]:
        """The guild's campaigns that are not over, by id; with ``finished`` its latest ended
        ones instead (``end_reason`` says how each ended). One query, no state read."""
        return await self.lifecycle.list_campaigns(guild_id, finished=finished)

    async def campaigns_of_user(self, user_id: int) -> list[CampaignInfo]:
        """Running (or paused) campaigns where the user holds a seat or is the GM, by id (for
        /orders in DMs: some rule sets ask the GM for input). ``gm_user_id`` and ``seats`` of
        each tell which: a GM-only campaign has no seat of the user."""
        return await self.lifecycle.campaigns_of_user(user_id)

    # ------------------------------------------------------------ reads

    async def seat_view(self, actor: Actor, channel_id: int) -> SeatView:
        """The channel's campaign as ``actor`` may see it: the live one, else the latest that
        ended there (``info.status`` says which); NotFound outside one."""
        return await self.features.seat_view(actor, channel_id)

    async def seat_view_of(self, actor: Actor, campaign_id: int) -> SeatView:
        """``seat_view`` by campaign id (a DM has no channel of its campaign)."""
        return await self.features.seat_view_of(actor, campaign_id)

    async def picture(
        self,
        actor: Actor,
        channel_id: int,
        name: str,
        *,
        focus: str | None = None,
        public: bool = True,
    ) -> ViewPicture:
        """A picture of the channel's campaign, checked (refusals come here, before a cog
        defers publicly) but not drawn: ``render`` draws it. ``public`` draws the public view
        (for the channel); otherwise the user's seat view."""
        return await self.features.picture(actor, channel_id, name, focus=focus, public=public)

    async def render(self, picture: ViewPicture) -> bytes:
        """The PNG of a checked picture, drawn in a worker thread (never on the event loop)."""
        return await self.features.render(picture)

    async def texts(self, actor: Actor, channel_id: int, name: str) -> list[str]:
        """Public texts the rule set names (FTCamp ``battles``: the latest battle lists)."""
        return await self.features.texts(actor, channel_id, name)

    async def gm_edit(self, actor: Actor, channel_id: int, edit: str, args: dict[str, Any]) -> str:
        """GM: one named edit of the rule set (its optional ``gm_edit(state, edit, args) ->
        (state, summary)``, e.g. FTCamp's add/move/remove a group), applied like
        ``gm_edit_state``: snapshotted for /gm undo, logged for the GM only, the step re-
        opened. Returns the summary."""
        return await self.features.gm_edit(actor, channel_id, edit, args)

    async def load_file(self, actor: Actor, channel_id: int, filename: str, data: bytes) -> str:
        """GM, before the start: a rule set's setup file (FTCamp scenario TOML) becomes its
        options; returns what was loaded, for the GM."""
        return await self.features.load_file(actor, channel_id, filename, data)

    async def export_file(self, actor: Actor, channel_id: int) -> tuple[str, bytes, str]:
        """GM: (file name, bytes, note) of the campaign as a setup file (it names every hidden
        force, so only the GM gets it)."""
        return await self.features.export_file(actor, channel_id)

    async def side_file(
        self, actor: Actor, channel_id: int, side: int | None = None
    ) -> tuple[str, bytes, str]:
        """(file name, bytes, note) of one side's ships as the rule set writes them (HRFT: an
        .FTFleet of the survivors), also after the battle has ended. A player gets their own
        side only; the GM any side (``side``, default their own seat)."""
        return await self.features.side_file(actor, channel_id, side)

    async def upload(
        self, actor: Actor, channel_id: int, action_type: str, filename: str, data: bytes
    ) -> list[str]:
        """An uploaded file as an action of that type (HRFT ``add_file`` for the user's seat,
        ``add_design`` for the GM): read off the loop (InvalidInput says what is wrong), then
        submitted. Returns the names the file holds."""
        return await self.features.upload(actor, channel_id, action_type, filename, data)

    # ------------------------------------------------------------ time (the scheduler)

    async def next_wakeup(self) -> datetime | None:
        """When the earliest deadline or reminder falls due (None: nothing scheduled); a failed
        timer counts from when it is tried again, so it is never retried in a loop."""
        return await self.scheduler.next_wakeup()

    async def run_due(self) -> int:
        """Fires everything due at ``clock()`` (also what fell due while the bot was down);
        returns how many deadlines and reminders fired. Each one is marked done in the same
        transaction as its effects, so it fires once even across a restart."""
        return await self.scheduler.run_due()

    # ------------------------------------------------------------ the outbox (dispatcher)

    async def outbox_pending(self, limit: int = 50) -> list[OutboxMessage]:
        """Messages due for (another) attempt (``Outbox.outbox_pending``)."""
        return await self.outbox.outbox_pending(limit)

    async def outbox_files(self, message: OutboxMessage) -> list[tuple[str, bytes]]:
        """The message's pictures, drawn once off the loop (``Outbox.outbox_files``)."""
        return await self.outbox.outbox_files(message)

    async def outbox_started(self, outbox_id: int) -> None:
        """A panel DM's post begins (P-33)."""
        await self.outbox.outbox_started(outbox_id)

    async def outbox_known_dm(self, user_id: int, message_id: int) -> bool:
        """Some outbox row recorded that Discord message as its DM to the user."""
        return await self.outbox.outbox_known_dm(user_id, message_id)

    async def outbox_next_attempt(self) -> float | None:
        """Epoch seconds when the next message may go (for the dispatcher's sleep)."""
        return await self.outbox.outbox_next_attempt()

    async def outbox_sent(
        self, outbox_id: int, discord_message_id: int | None, edit_of: int | None = None
    ) -> bool:
        """Marks that row sent; False when it was superseded meanwhile (P-33)."""
        return await self.outbox.outbox_sent(outbox_id, discord_message_id, edit_of)

    async def outbox_piece_sent(self, outbox_id: int, pieces_sent: int) -> None:
        """Stored, so a retry posts only the pieces after it."""
        await self.outbox.outbox_piece_sent(outbox_id, pieces_sent)

    async def outbox_retry_later(self, outbox_id: int, error: str) -> float | None:
        """A transient failure: when it is tried again, None after the last try."""
        return await self.outbox.outbox_retry_later(outbox_id, error)

    async def outbox_failed(self, outbox_id: int, error: str) -> None:
        """A permanent failure: never tried again; the GM is told."""
        await self.outbox.outbox_failed(outbox_id, error)

    async def dm_closed(self, user_id: int) -> None:
        """The user cannot get DMs: their seats stop getting them (``Outbox.dm_closed``)."""
        await self.outbox.dm_closed(user_id)
