"""Campaign lists (/campaign list, /orders in DMs): the columns a list shows and the seats, in
ONE query, without reading (or decoding) any campaign's state."""

from __future__ import annotations

from dataclasses import dataclass, field

from storage.campaigns import CampaignHead, Reader
from storage.players import PlayerRow

# standard SQL (a LEFT JOIN), so it runs unchanged on PostgreSQL
_SELECT = (
    f"SELECT {CampaignHead.columns('c.')}, p.seat, p.user_id AS seat_user_id,"
    " p.name AS seat_name, p.dm_ok, p.active"
    " FROM campaigns c LEFT JOIN players p ON p.campaign_id = c.id"
)


@dataclass(kw_only=True)
class ListedCampaign(CampaignHead):
    """A campaign's head with all its seats by number."""

    seats: list[PlayerRow] = field(default_factory=list)


async def _heads(db: Reader, where: str, params: tuple[object, ...]) -> list[ListedCampaign]:
    rows = await db.fetchall(f"{_SELECT} WHERE {where} ORDER BY c.id, p.seat", params)
    heads: dict[int, ListedCampaign] = {}
    for r in rows:
        head = heads.get(r["id"])
        if head is None:
            head = heads[r["id"]] = ListedCampaign(**CampaignHead.read(r))
        if r["seat"] is not None:  # NULL: a campaign nobody has joined yet
            head.seats.append(PlayerRow(
                campaign_id=r["id"], seat=r["seat"], user_id=r["seat_user_id"],
                name=r["seat_name"], dm_ok=bool(r["dm_ok"]), active=bool(r["active"]),
            ))
    return list(heads.values())


async def live_in_guild(db: Reader, guild_id: int) -> list[ListedCampaign]:
    """The guild's campaigns that are not over, by id."""
    return await _heads(db, "c.guild_id = ? AND c.status != 'ended'", (guild_id,))


async def ended_in_guild(db: Reader, guild_id: int, limit: int) -> list[ListedCampaign]:
    """The guild's ``limit`` latest ended campaigns, by id."""
    return await _heads(
        db, "c.id IN (SELECT id FROM campaigns WHERE guild_id = ? AND status = 'ended'"
        " ORDER BY id DESC LIMIT ?)", (guild_id, limit),
    )


async def running_of_user(db: Reader, user_id: int) -> list[ListedCampaign]:
    """Running or paused campaigns where the user holds an active seat or is the GM, by id."""
    return await _heads(
        db,
        "c.status IN ('running', 'paused') AND (c.gm_user_id = ? OR EXISTS (SELECT 1 FROM"
        " players mine WHERE mine.campaign_id = c.id AND mine.user_id = ? AND mine.active = 1))",
        (user_id, user_id),
    )
