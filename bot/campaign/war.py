"""One war (E-D36, H-D28): a battle of an FTCamp round fought in an HRFT thread.

``open_battle`` creates the battle, seats the players whose craft fight in it, starts it and
brings their craft in, all in ONE transaction (nothing is left half-made when a part fails).
``begin_battle`` does the same for a battle the GM created first and players joined by hand.
When a linked battle ends (its rules, a concession or ``/battle end``) each brought-in craft's
fate is proposed to the parent in the same transaction; the parent's GM confirms or edits it
there (a GM request of the parent's rule set), so ``/gm undo`` in the parent takes it back.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

from bot.campaign import war_link, war_undo
from bot.campaign.battle_child import war_title
from bot.campaign.cache import LruCache
from bot.campaign.core import Ctx, ServiceCore, UnitOfWork, campaign_info
from bot.campaign.links import Links
from bot.campaign.mail import Mail
from bot.campaign.models import Actor, CampaignInfo
from bot.campaign.settings import options_model
from bot.campaign.steps import StepEngine
from bot.campaign.war_undo import Load
from bot.errors import InvalidInput, InvalidState
from bot.rules import registry
from bot.rules.base import Event, Outcome, Seat
from bot.rules.war_models import Intake
from storage import campaigns, players
from storage import events as event_log
from storage.battle_links import ParentLinks
from storage.campaigns import CampaignRow
from storage.db import Tx
from storage.events import EventRow
from storage.status import Status

log = logging.getLogger(__name__)
BATTLE_RULES = "hrft"
MAX_NAME = 80


class War:
    """The battles a campaign fights in threads: opened from the parent (``links`` says
    what the parent offers) or begun by their GM, started through ``engine``; ``war``
    carries their links and results back to the parent."""

    def __init__(self, engine: StepEngine, links: Links, war: WarListener) -> None:
        self.engine = engine
        self.core = engine.core
        self.links = links
        self.war = war

    async def open_battle(self, actor: Actor, guild_id: int, channel_id: int, name: str,
                          parent_id: int, ref: str, designs: str = "") -> CampaignInfo:
        """The parent's GM opens one of its battles in a thread: the HRFT campaign, one seat
        per side of the parent's battle (the member holding that seat now), started with
        its craft (FTCamp) or its sides' forces to muster (Orbits), and the parent's battle
        marked as fought there. One transaction: a refusal or a failure leaves no battle."""
        name = name.strip()
        if not 1 <= len(name) <= MAX_NAME:
            raise InvalidInput(f"A battle name has 1 to {MAX_NAME} characters.")
        parent = await self.links.parent_for(parent_id, ref, guild_id, actor, designs)  # P-20
        pctx = await self.core.load(self.core.db, parent_id)
        names = {p.seat: p.name for p in pctx.players if p.active}
        unseated = [f["label"] for f in parent.forces if f["owner"] not in names]
        if unseated:
            raise InvalidState(f"{', '.join(unseated)}: nobody holds that seat of "
                               f"**{pctx.row.name}** now, so the battle cannot be fought in a "
                               "thread.")
        owners = [o for o in parent.owners if o in names]
        rules = registry.get(BATTLE_RULES)
        if not rules.min_seats <= len(owners) <= rules.max_seats:
            raise InvalidState(f"Battle {parent.battle_id} needs {rules.min_seats} to "
                               f"{rules.max_seats} sides whose player holds a seat of "
                               f"**{pctx.row.name}**; it has {len(owners)}.")
        seat_of = {owner: i for i, owner in enumerate(owners, start=1)}
        roster = [{**{k: v for k, v in e.items() if k != "owner"},
                   "seat": seat_of.get(e["owner"], 0)} for e in parent.roster]
        forces = [{**{k: v for k, v in f.items() if k != "owner"},
                   "seat": seat_of[f["owner"]]} for f in parent.forces]

        async def insert(tx: Tx, now: float) -> int:
            campaign_id = await campaigns.insert(
                tx, guild_id=guild_id, channel_id=channel_id, ruleset=rules.name,
                name=name, gm_user_id=actor.user_id,
                options=rules.options_model().model_dump(mode="json"),
                settings=dict(self.core.timing_defaults), seed=self.core.seed_source(),
                parent_id=parent_id, parent_ref=parent.battle_id, now=now)
            for owner, seat in seat_of.items():
                await players.add(tx, campaign_id, seat, parent.users[owner], names[owner], now)
            return campaign_id

        async def start(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> Ctx:
            # O-D17: an Orbits side's force musters its ships within its budget
            await self._start_with_roster(tx, ctx, fx, roster, forces)
            await self._link_parent(tx, fx, parent_id, parent.battle_id, name, ctx.row)
            fx.save = "state"  # (a new campaign: its whole row, state included)
            return ctx

        try:
            ctx = await self.core.run_new(insert, start)  # P-38: an intent like any other
        except sqlite3.IntegrityError as exc:
            if "campaigns.channel_id" not in str(exc):
                raise
            raise InvalidState("This thread already has a campaign that is not over.") from None
        self.core.cache.pop(parent_id, None)
        return campaign_info(ctx.row, ctx.players)

    async def _link_parent(self, tx: Tx, fx: UnitOfWork, parent_id: int, ref: str,
                           name: str, child: CampaignRow) -> None:
        """O-D18: the parent marks its battle as fought in this thread (its rule set's
        ``link_battle`` hook, when it has one), saved in the caller's transaction."""
        pctx = await self.core.load(tx, parent_id)
        linked = (pctx.ruleset.link_battle(pctx.state, ref, name)
                  if pctx.state is not None else None)
        if linked is None:
            return
        if pctx.row.status != Status.RUNNING:  # its step would wait in a game nobody plays
            how = ("is paused: resume it (/gm resume) first" if pctx.row.status == Status.PAUSED
                   else "is over: fight that battle at the table instead")
            raise InvalidState(f"**{pctx.row.name}** {how}.")
        await self.war.apply_to_parent(  # P-14: undo finds the link
            tx, fx, pctx, linked,
            lambda links: war_link.record_link(links, pctx, child, fx.now))

    async def begin_battle(self, actor: Actor, channel_id: int) -> CampaignInfo:
        """GM: starts a battle created in setup (players joined themselves). It has no parent
        battle (P-20: only ``open_battle`` links one, seated and started at once), so nothing
        of a campaign comes in: a stranger's battle never receives a campaign's craft."""
        campaign_id = await self.core.id_in_channel(channel_id)
        ctx0 = await self.core.load(self.core.db, campaign_id)
        self.core.require_gm(ctx0, actor)
        if ctx0.row.parent_id is not None and ctx0.row.status == Status.SETUP:  # older version
            raise InvalidState("This battle names a campaign that never linked it, so it "
                               "cannot begin. The campaign's GM opens that battle from its "
                               "battle list instead; end this one with /battle end.")

        async def run(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> CampaignInfo:
            self.core.require_gm(ctx, actor)
            if ctx.row.status != Status.SETUP:
                raise InvalidState("The battle has already begun.")
            count = len(ctx.players)
            rules = ctx.ruleset
            if not rules.min_seats <= count <= rules.max_seats:
                raise InvalidState(f"{rules.title} needs {rules.min_seats} to "
                                   f"{rules.max_seats} players; {count} joined.")
            await players.renumber(tx, ctx.row.id, [p.seat for p in ctx.players])
            ctx.players = await players.of_campaign(tx, ctx.row.id)
            await self._start_with_roster(tx, ctx, fx, [])
            return campaign_info(ctx.row, ctx.players)

        return await self.core.mutate(campaign_id, run)

    async def _start_with_roster(self, tx: Tx, ctx: Ctx, fx: UnitOfWork,
                                 roster: list[dict[str, Any]],
                                 forces: list[dict[str, Any]] | None = None) -> None:
        """Starts the battle and, when it has a roster or forces, takes them in (the rule
        set's ``take_in``, H-D28/H-D35) within the caller's transaction, as the GM's. Both
        are one outcome applied once: the players get the first real step's panels (setup,
        or the muster of H-D36), never a setup panel already stale, and there is no undo
        point at which the battle stands without its craft."""
        rules = ctx.ruleset
        seats = [Seat(number=p.seat, name=p.name) for p in ctx.players]
        outcome = rules.start(options_model(rules, ctx.row.options), seats,
                              self.core.dice(ctx, "start"))
        if roster or forces:
            taken = rules.take_in(outcome.state, Intake(roster=roster, forces=forces or []))
            outcome = Outcome(state=taken.state, events=[*outcome.events, *taken.events],
                              finished=taken.finished)
        ctx.row.status = Status.RUNNING
        mail = Mail(public=[f"**{ctx.row.name}** begins ({rules.title})."])
        await self.engine.apply(tx, ctx, fx, outcome, closes_step=True, mail=mail)


class WarListener:
    """The war as the step engine hears it, for campaigns that have battles: a parent's
    change of state proposes the results and links an undo kept (``undo``: P-13, P-14), and
    a battle's end proposes its result to its parent (E-D36). ``load`` and ``apply`` are the
    step engine's (a parent changes as any campaign does); ``cache`` its campaigns, from
    which a parent changed outside its own intent is dropped."""

    def __init__(self, load: Load, apply: Callable[..., Awaitable[None]],
                 cache: LruCache[Ctx], undo: war_link.LinkUndo) -> None:
        self._load = load
        self._apply = apply
        self._cache = cache
        self.undo = undo

    async def owed_results(self, tx: Tx, ctx: Ctx, fx: UnitOfWork) -> list[Event]:
        """After a change of a parent's state: the kept links (P-14), then the kept results
        (P-13), proposed where it waits for them; their events."""
        return await self.undo.owed_results(tx, ctx, fx)

    async def result_to_parent(self, tx: Tx, ctx: Ctx, fx: UnitOfWork,
                               parent: CampaignRow) -> bool:
        """E-D36: the ended battle's fates become a proposal in the parent's state (its GM
        is asked to confirm or edit it), written in this same transaction. True when the
        parent or its GM heard of it (P-15: the proposal is the parent's one post)."""
        pctx = await self._load(tx, parent.id)
        links = await ParentLinks.of(tx, parent.id)
        if war_link.dropped(links, ctx.row):  # P-14: an undo unlinked it
            self._gm_note(fx, pctx, war_link.gone_text(pctx, ctx.row, ended=True))
            return True
        found = war_undo.arrival(ctx, pctx)  # P-13: the proposal /gm undo makes again
        if found is None:
            return False
        outcome: Outcome | None = found.outcome
        kept = war_link.keep_result(links, pctx, ctx.row, fx.now) if outcome is None else None
        if kept is not None:
            await event_log.append(tx, pctx.row.id, [kept])
            await links.save(tx)
            self._gm_note(fx, pctx, war_link.kept_text(ctx.row))
            return True
        if outcome is None:
            self._gm_note(fx, pctx, f"{war_title(ctx.row.name, ctx.row.parent_ref)}"
                                    " ended, but that battle no longer waits for a "
                                    "result here: nothing is proposed.")
            return True
        await self.apply_to_parent(  # P-13: undo finds the arrival
            tx, fx, pctx, outcome,
            lambda links: war_undo.record_result(links, pctx, ctx.row, fx.now))
        return True

    async def apply_to_parent(self, tx: Tx, fx: UnitOfWork, pctx: Ctx, outcome: Outcome,
                              record: Callable[[ParentLinks], EventRow]) -> None:
        """A change to the parent from one of its battles (a link, a result): not a
        resolution of the parent (no undo snapshot), so ``record(links)``, made once the
        change is applied, sets the battle's row of the parent's links (P-13, P-14: what
        /gm undo reads) and gives the parent's log line; saved in the caller's
        transaction. (Read after the change: applying it may settle kept links.)"""
        pfx = fx.also(pctx)  # (the same list of effects: one order)
        await self._apply(tx, pctx, pfx, outcome, closes_step=False, answered=None)
        links = await ParentLinks.of(tx, pctx.row.id)
        pfx.events.append(record(links))
        await links.save(tx)
        await ServiceCore.write(tx, pctx, pfx)  # its log, then its version-checked row
        self._cache.pop(pctx.row.id, None)  # the parent changed outside its own intent
        fx.wake = True

    @staticmethod
    def _gm_note(fx: UnitOfWork, pctx: Ctx, text: str) -> None:
        fx.dm(pctx, pctx.row.gm_user_id, text)
