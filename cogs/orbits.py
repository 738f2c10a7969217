"""/orbits: the Orbits rule set's own commands, ``hand`` (your cards) and ``map`` (the table).

Turn and battle input needs nothing here: the generic panel (cogs.panel_items) renders every
Orbits request, the discard included. These two commands only read the campaign.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.campaign.models import Actor
from bot.errors import InvalidState, NotFound
from bot.rules.orbits import cards as C  # a pure card-code formatter (allowlisted)
from cogs.common import actor_of, campaign_channel_id, reply

if TYPE_CHECKING:
    from bot.campaign import CampaignService
    from bot.client import AdmiraltyBot

RULESET = "orbits"
MAP_FILE = "orbits-map.png"


@dataclass(frozen=True)
class OrbitsTable:
    """One Orbits campaign as a viewer may see it: ``view`` is ``ruleset.view(state, seat)``
    (seat None = the public view, O-17), from ``CampaignService.seat_view``."""

    campaign_id: int
    name: str
    status: str
    seat: int | None
    view: dict[str, Any]


async def read_table(service: CampaignService, campaign_id: int, actor: Actor) -> OrbitsTable:
    """The campaign as the user may see it (their seat's view when seated)."""
    seen = await service.seat_view_of(actor, campaign_id)
    return _table(seen.info.ruleset, seen)


def _table(ruleset: str, seen: Any) -> OrbitsTable:
    if ruleset != RULESET:
        raise InvalidState(
            f"This channel's campaign plays {ruleset}, not Orbits: /orbits commands "
            "work in an Orbits campaign's channel."
        )
    if not seen.view:
        raise InvalidState("The campaign has not started yet: there are no cards on the "
                           "table until the GM starts it (/campaign start).")
    info = seen.info
    return OrbitsTable(info.id, info.name, info.status, seen.seat, seen.view)


async def table_in_channel(service: CampaignService, channel_id: int,
                           actor: Actor) -> OrbitsTable:
    """The Orbits campaign of this channel; refuses anywhere else (NotFound / InvalidState)."""
    seen = await service.seat_view(actor, channel_id)
    return _table(seen.info.ruleset, seen)


# ---------------------------------------------------------------- text of a hand


def _cards(codes: list[str]) -> str:
    return " ".join(C.show(c) for c in sorted(codes, key=C.sort_key)) if codes else "none"


def hand_text(table: OrbitsTable) -> str:
    """The seat's own cards, area by area: face up (with stance), face down, in transit."""
    v = table.view
    seat = table.seat
    assert seat is not None
    me = next(s for s in v["seats"] if s["number"] == seat)
    lines = [f"**{table.name}**: your cards, turn {v['turn']} "
             f"({me['rp']} of {v['target_rp']} RP)"]
    for area in v["areas"]:
        stack = next((s for s in area["stacks"] if s["seat"] == seat), None)
        if stack is None:
            continue
        parts = []
        if stack["face_up"]:
            stance = f" ({stack['stance'].upper()})" if stack["stance"] else ""
            parts.append(f"face up {_cards(stack['face_up'])}{stance}")
        mine = stack["face_down"].get("mine", [])
        if mine:
            parts.append(f"face down {_cards(mine)}")
        lines.append(f"{area['label']}: " + "; ".join(parts))
    labels = {a["id"]: a["label"] for a in v["areas"]}
    for group in v["transit"]:
        if group["seat"] != seat:
            continue
        tokens = group["tokens"]
        lines.append(
            f"In transit to {labels.get(group['destination'], group['destination'])} "
            f"({tokens} token{'s' if tokens != 1 else ''} left): "
            f"{_cards(group['cards'].get('mine', []))}"
        )
    lines.append(f"Deck: {me['deck']} cards; discarded: {me['discarded']}; "
                 f"battles won: {me['battles_won']}.")
    lines.append("Only you can see this.")
    return "\n".join(lines)


# ---------------------------------------------------------------- the cog


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
class OrbitsCog(commands.GroupCog, group_name="orbits"):
    """Orbits (card campaign): your hand, and the map of the table."""

    def __init__(self, service: CampaignService) -> None:
        self.service = service
        super().__init__()

    @app_commands.command(description="Your own Orbits cards, area by area (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        tables = await self._my_tables(interaction)
        seated = [t for t in tables if t.seat is not None]
        if not seated:
            raise NotFound("You hold no seat in this Orbits campaign, so you have no cards. "
                           "`/orbits map` shows the table to everyone.")
        await reply(interaction, "\n\n".join(hand_text(t) for t in seated), ephemeral=True)

    async def _my_tables(self, interaction: discord.Interaction) -> list[OrbitsTable]:
        """In a channel: its campaign. In a DM: every running Orbits campaign of the user."""
        service = self.service
        user_id = interaction.user.id
        if interaction.guild is not None:
            return [await table_in_channel(service, campaign_channel_id(interaction),
                                           actor_of(interaction))]
        # campaigns_of_user also lists campaigns the user only runs as GM: no hand there
        infos = [i for i in await service.campaigns_of_user(user_id) if i.ruleset == RULESET
                 and any(s.active and s.user_id == user_id for s in i.seats)]
        if not infos:
            raise NotFound("You hold no seat in a running Orbits campaign.")
        return [await read_table(service, i.id, actor_of(interaction)) for i in infos[:3]]

    @app_commands.command(description="Post the public map of this Orbits campaign here")
    async def map(self, interaction: discord.Interaction) -> None:
        # Every refusal happens before the public defer, so it stays ephemeral.
        service = self.service
        channel_id = campaign_channel_id(interaction)
        table = await table_in_channel(service, channel_id, actor_of(interaction))
        picture = await service.picture(actor_of(interaction), channel_id, "map")
        await interaction.response.defer(thinking=True)
        data = await service.render(picture)
        phase = picture.view["phase"].replace("_", " ")
        await reply(
            interaction,
            f"Map of **{table.name}**, turn {picture.view['turn']} ({phase}); face-down cards "
            "are shown as counts.",
            ephemeral=False,
            files=[discord.File(io.BytesIO(data), filename=MAP_FILE)],
        )


async def setup(bot: AdmiraltyBot) -> None:
    await bot.add_cog(OrbitsCog(bot.service))
