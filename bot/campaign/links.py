"""An HRFT battle that fights a battle of a parent campaign (H-D28, E-D36, O-D17): the
parent's rule set answers through its war hooks (``battle_link``, ``battle_refs``,
``link_battle``), so neither the service nor the /battle cog reads a parent's state."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.campaign.battle_child import takes_battles, war_title
from bot.campaign.core import Ctx, campaign_info
from bot.campaign.models import Actor, CampaignInfo
from bot.errors import InvalidInput, InvalidState, NotFound, PermissionDenied, UserError
from storage import campaigns, listing
from storage.campaigns import CampaignRow, Reader
from storage.db import Database
from storage.status import Status

Load = Callable[[Reader, int], Awaitable[Ctx]]  # the service's loader of one campaign

MAX_ENDED_PARENTS = 10
MAX_REF = 100  # a hex/sector or an area and turn; the slash option allows 6000
MAX_REFS = 25  # one autocomplete list


@dataclass(frozen=True)
class BattleLink:
    """What ``/battle start`` may say about the parent's battle it fights: preview lines for
    the thread, and the Discord users who fight in it (to invite them)."""

    lines: list[str]
    players: list[int] = field(default_factory=list)
    muster: bool = False  # the sides pick their ships within a budget (O-D17)
    name: str = ""  # P-16: the battle's name, its round or turn in it ("" = none given)


@dataclass(frozen=True)
class _Parent:
    name: str
    battle_id: str  # the parent's own reference of the battle (kept as ``parent_ref``)
    owners: list[int]  # the parent's seats that fight, in battle seat order
    users: dict[int, int]  # parent seat -> Discord user id (active seats only)
    lines: list[str]
    roster: list[dict[str, Any]] = field(default_factory=list)  # FTCamp craft
    forces: list[dict[str, Any]] = field(default_factory=list)  # Orbits sides (O-D17)
    name_of_battle: str = ""  # P-16: the name the parent's rules give the battle

    def preview(self) -> list[str]:
        return [f"From **{self.name}**, {self.lines[0]}", *self.lines[1:]] if self.lines \
            else [f"From **{self.name}**."]


class Links:
    """What a parent campaign offers a battle thread (``/battle start``): read with
    ``db`` (the reader) and ``load`` (the service's loader of one campaign)."""

    def __init__(self, db: Database, load: Load) -> None:
        self.db = db
        self._load = load

    async def parent_choices(self, actor: Actor, guild_id: int) -> list[CampaignInfo]:
        """Campaigns a battle started by ``actor`` may resolve (``/battle start parent:``
        autocomplete): the guild's campaigns whose rules fight battles in threads (P-20: no
        battle, no guess game) and that ``actor`` is the GM of (every one for an admin);
        the live ones by id, then the latest that ended. Two queries, no state read."""
        live = await listing.live_in_guild(self.db, guild_id)
        ended = await listing.ended_in_guild(self.db, guild_id, MAX_ENDED_PARENTS)
        return [campaign_info(h, h.seats) for h in [*live, *reversed(ended)]
                if h.parent_id is None and takes_battles(h.ruleset)
                and (actor.is_admin or h.gm_user_id == actor.user_id)]

    async def parent_id(self, actor: Actor, guild_id: int, typed: str) -> int:
        """The campaign id ``/battle start parent:`` names: the id the autocomplete puts in,
        or the full name of one of ``parent_choices``."""
        typed = typed.strip()
        if typed.isdigit():
            return int(typed)
        mine = await self.parent_choices(actor, guild_id)
        named = [c for c in mine if c.name.lower() == typed.lower()]
        if len(named) == 1:
            return named[0].id
        known = ", ".join(c.name for c in mine[:10]) or "none"
        raise InvalidInput(f"No campaign of yours on this server is called '{typed[:80]}'. "
                           f"Pick the parent from the list (yours: {known}).")

    async def _refuse_fought(self, ctx: Ctx, ref: str) -> None:
        """P-17: a battle of the parent already being fought in a thread is opened once:
        a second start is refused with a link to its thread."""
        live = await campaigns.live_children(self.db, ctx.row.id)
        child = _fought_in(live, ref)
        if child is not None:
            raise InvalidState(f"{war_title(child.name, child.parent_ref)} is already being "
                               f"fought in its thread, <#{child.channel_id}>: it is opened "
                               "once.")

    async def battle_refs(self, actor: Actor, guild_id: int, parent_id: int) -> list[str]:
        """``/battle start ref:`` autocomplete: the parent's battles that wait to be fought,
        for its GM (an admin) only; nothing for anyone else or a parent without battles."""
        try:
            ctx = await self._load(self.db, parent_id)
        except NotFound:
            return []
        if (ctx.state is None or ctx.row.guild_id != guild_id
                or not ctx.is_gm(actor)):
            return []
        live = await campaigns.live_children(self.db, ctx.row.id)  # P-17: offered once
        return [r for r in ctx.ruleset.battle_refs(ctx.state)
                if _fought_in(live, r) is None][:MAX_REFS]

    async def battle_link(self, actor: Actor, guild_id: int, parent_id: int,
                          ref: str, designs: str = "") -> BattleLink:
        """Checks a battle's parent reference before anything is created (P-20): the parent's
        GM (or an admin of its server) names a battle its rules list as open now. Refused
        otherwise: no free description, no look-alike, no battle as parent."""
        parent = await self.parent_for(parent_id, ref, guild_id, actor, designs)
        players = sorted({parent.users.get(o, 0) for o in parent.owners} - {0})
        return BattleLink(parent.preview(), players, muster=bool(parent.forces),
                          name=parent.name_of_battle)

    async def parent_for(self, parent_id: int, ref: str, guild_id: int,
                         actor: Actor, designs: str = "") -> _Parent:
        """P-20: the parent's battle ``ref`` as its rules list it open now, for ``actor``
        (checked with the clicker's own identity and rights) or a refusal. The checks go
        from what anyone may learn (the campaign exists here) to what only its GM may (its
        battles)."""
        if len(ref) > MAX_REF:
            raise InvalidInput(f"A battle reference has at most {MAX_REF} characters, as the "
                               "battle list names it (e.g. 0202/A-3, or Orbit 2).")
        try:
            ctx: Ctx | None = await self._load(self.db, parent_id)
        except NotFound:
            ctx = None
        if ctx is None or ctx.row.guild_id != guild_id:
            raise NotFound(f"There is no parent campaign with id {parent_id} on this server.")
        if ctx.row.parent_id is not None:
            raise InvalidInput(f"**{ctx.row.name}** is itself a battle of another campaign: "
                               "a battle is nobody's parent. Pick the campaign it belongs to.")
        if not ctx.is_gm(actor):
            raise PermissionDenied(f"Only the GM of **{ctx.row.name}** (or an admin of this "
                                   "server) may open one of its battles in a thread.")
        if not ctx.ruleset.takes_battle_results:
            raise InvalidInput(f"**{ctx.row.name}** has no battles to fight in a thread. "
                               "Start the battle without a parent campaign.")
        if ctx.state is None or ctx.row.status == Status.SETUP:
            raise InvalidState(f"**{ctx.row.name}** has not started yet, so none of its "
                               "battles waits to be fought. Open the battle from its battle "
                               "list once the campaign lists it.")
        if ctx.row.status == Status.ENDED:
            raise InvalidState(f"**{ctx.row.name}** is over: no battle of it waits to be "
                               "fought.")
        if ref.strip():
            await self._refuse_fought(ctx, ref)  # P-17: its thread's link says more
        listed = list(ctx.ruleset.battle_refs(ctx.state))
        known = ", ".join(listed[:MAX_REFS]) or "none now"
        try:
            spec = ctx.ruleset.battle_link(ctx.state, ref, designs) if ref.strip() else None
        except UserError:
            await self._refuse_fought(ctx, ref)
            raise
        # P-20: exactly a battle the rules list as open now (no free text, no look-alike)
        if spec is None or spec.ref not in listed:
            raise InvalidInput(f"'{ref.strip()[:60]}' is not a battle of **{ctx.row.name}** "
                               f"that waits to be fought. Pick one from the list: {known}.")
        await self._refuse_fought(ctx, spec.ref)
        users = {p.seat: p.user_id for p in ctx.players if p.active}
        return _Parent(ctx.row.name, spec.ref, list(spec.owners), users, list(spec.lines),
                       [c.model_dump() for c in spec.roster],  # BattleSpec, war_models.py
                       [f.model_dump() for f in spec.forces], spec.name)


def _ref_key(ref: str) -> str:
    return " ".join(ref.lower().replace(",", " ").replace("/", " ").split())


def _fought_in(live: list[CampaignRow], ref: str) -> CampaignRow | None:
    """The live battle fighting the parent's battle ``ref`` (as typed: an Orbits area
    without its turn names this turn's battle there), if any."""
    key = _ref_key(ref)
    for child in live:
        theirs = _ref_key(child.parent_ref or "")
        if theirs and (theirs == key or theirs.startswith(f"{key} turn ")):
            return child
    return None
