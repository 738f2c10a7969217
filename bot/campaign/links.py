"""An HRFT battle that fights a battle of an FTCamp campaign (H-D28): the link is checked and
the roster built here, from the parent's full state, so the /battle cog never reads it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.campaign.core import Ctx, ServiceCore, campaign_info
from bot.campaign.models import Actor, CampaignInfo
from bot.errors import InvalidInput, NotFound, PermissionDenied
from bot.rules.ftcamp.model import State as FtcampState
from bot.rules.hrft.gm import design_problem
from bot.rules.hrft.link import battle_ids, find_battle, linked_craft, looks_like_battle
from storage import listing

MAX_ENDED_PARENTS = 10


@dataclass(frozen=True)
class BattleLink:
    """What ``/battle start`` may say about the FTCamp battle it fights: preview lines for
    the thread, and the Discord users who own craft in it (to invite them)."""

    lines: list[str]
    players: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class _Parent:
    name: str
    battle_id: str
    round: int
    roster: list[dict[str, Any]]
    users: dict[int, int]  # FTCamp owner seat -> Discord user id (active seats only)

    def preview(self) -> list[str]:
        """What comes in at /battle begin, what does not and why."""
        coming, not_in = [], []
        for e in self.roster:
            why = design_problem(e["design"])
            if why:
                not_in.append(f"not brought in: {e['craft']} ({why})")
            else:
                coming.append(f"{e['craft']} ({e['design']}, {e['player']})")
        lines = [f"From **{self.name}**, battle {self.battle_id} (round {self.round}): "
                 + (", ".join(coming) + " come in at `/battle begin`." if coming
                    else "no craft names a sample design.")]
        return lines + not_in


class Links(ServiceCore):
    async def parent_choices(self, actor: Actor, guild_id: int) -> list[CampaignInfo]:
        """Campaigns a battle started by ``actor`` may resolve (``/battle start parent:``
        autocomplete): the guild's campaigns that are not battles of another campaign
        themselves and that ``actor`` is the GM of (every one for an admin); the live ones
        by id, then the latest that ended (their last battles may still be fought). Two
        queries, no state read."""
        live = await listing.live_in_guild(self.db, guild_id)
        ended = await listing.ended_in_guild(self.db, guild_id, MAX_ENDED_PARENTS)
        return [campaign_info(h, h.seats) for h in [*live, *reversed(ended)]
                if h.parent_id is None and (actor.is_admin or h.gm_user_id == actor.user_id)]

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

    async def battle_link(self, actor: Actor, guild_id: int, parent_id: int,
                          ref: str) -> BattleLink | None:
        """Checks a battle's parent reference before anything is created; None when the
        parent is not FTCamp or ``ref`` is a free description. Only the parent's GM (or an
        admin) may bring its craft in: the roster names every craft of both sides."""
        parent = await self._parent(parent_id, ref, guild_id, actor)
        if parent is None:
            return None
        players = sorted({parent.users.get(e["owner"], 0) for e in parent.roster} - {0})
        return BattleLink(parent.preview(), players)

    async def _parent(self, parent_id: int, ref: str, guild_id: int,
                      actor: Actor) -> _Parent | None:
        try:
            ctx: Ctx | None = await self._load(self.db, parent_id)
        except NotFound:
            ctx = None
        if ctx is None or ctx.row.guild_id != guild_id:
            raise NotFound(f"There is no parent campaign with id {parent_id} on this server.")
        if not isinstance(ctx.state, FtcampState) or not ref.strip():
            return None
        found = find_battle(ctx.state, ref)
        if found is None:
            if not looks_like_battle(ref):
                return None  # a free description of the battle, as for any parent
            known = ", ".join(battle_ids(ctx.state)) or "none yet"
            raise InvalidInput(f"Campaign {parent_id} has no battle '{ref.strip()}'. Battles "
                               f"of its latest battle lists (hex/sector): {known}.")
        if not ctx.is_gm(actor):
            raise PermissionDenied(f"Only the GM of **{ctx.row.name}** may open a battle that "
                                   "brings in its craft.")
        round_no, battle = found
        users = {p.seat: p.user_id for p in ctx.players if p.active}
        roster = [{"craft": c.craft, "group": c.group, "seat": 0, "player": c.owner_name,
                   "design": c.design, "owner": c.owner}
                  for c in linked_craft(ctx.state, battle)]
        return _Parent(ctx.row.name, battle.id, round_no, roster, users)
