"""/ftcamp: the FTCamp commands (RULINGS E-1 to E-13, docs/rules/ftcamp.md).

Orders themselves go through the generic DM panel (cogs.panel_items); this cog adds what is
FTCamp's own: loading and exporting scenario files, the battle lists, the hex map and the
orbit-sector pictures, and the GM's edits between rounds (named edits the service applies
with the rule set's pure functions, in one transaction with an event). The cog never holds
the campaign's state: it reads ``CampaignService.seat_view`` and passes the user's input.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from cogs import ftcamp_read as read
from cogs.common import (
    actor_of,
    campaign_channel_id,
    read_attachment,
    reply,
    split_content,
)

if TYPE_CHECKING:
    from bot.campaign import CampaignService
    from bot.client import AdmiraltyBot


def _choices(names: Sequence[str]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names][:25]


async def _public_texts(interaction: discord.Interaction, texts: list[str]) -> None:
    """Public answer in as few messages as Discord allows (2000 characters each)."""
    pieces = [p for t in texts for p in split_content(t)] or ["(nothing)"]
    joined: list[str] = []
    for piece in pieces:
        if joined and len(joined[-1]) + 1 + len(piece) <= 2000:
            joined[-1] += "\n" + piece
        else:
            joined.append(piece)
    for text in joined:
        await reply(interaction, text, ephemeral=False)


async def _read_upload(file: discord.Attachment) -> bytes:
    """The one place /ftcamp reads an uploaded file (its size checked first)."""
    return await read_attachment(file, read.MAX_FILE)


@app_commands.guild_only()
class FtcampCog(commands.GroupCog, group_name="ftcamp"):
    """FTCamp's own commands; GM rights are checked here and again by the service."""

    group = app_commands.Group(name="group", description="GM: edit groups between rounds")
    craft = app_commands.Group(name="craft", description="GM: edit craft between rounds")

    def __init__(self, service: CampaignService) -> None:
        self.service = service
        super().__init__()

    # ------------------------------------------------------------ reading the campaign

    async def _campaign(self, interaction: discord.Interaction) -> read.Campaign:
        return await read.load(self.service, campaign_channel_id(interaction),
                               actor_of(interaction))

    async def _quiet_state(self, interaction: discord.Interaction) -> read.Campaign | None:
        """For autocomplete: the campaign, or None where there is none (never an error)."""
        try:
            return await self._campaign(interaction)
        except UserError:
            return None

    async def gm_group_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Every group and static (the GM sees them all); nothing for other members."""
        camp = await self._quiet_state(interaction)
        if camp is None or not camp.view or not camp.is_gm:
            return []
        return _choices(read.matching(read.group_names(camp.view), current))

    async def gm_fleet_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Groups that are not statics (flags apply to them only)."""
        camp = await self._quiet_state(interaction)
        if camp is None or not camp.view or not camp.is_gm:
            return []
        return _choices(read.matching(read.group_names(camp.view, statics=False), current))

    async def craft_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The craft of the group already chosen in the same command."""
        camp = await self._quiet_state(interaction)
        group = str(getattr(interaction.namespace, "group", "") or "")
        if camp is None or not camp.view or not camp.is_gm:
            return []
        return _choices(read.matching(read.craft_names(camp.view, group), current))

    async def map_hex_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Hexes of the caller's view: a player never gets a hex known only from a group
        hidden from them."""
        camp = await self._quiet_state(interaction)
        if camp is None or not camp.view:
            return []
        return [app_commands.Choice(name=read.hex_title(camp.view, h)[:100], value=h)
                for h in read.matching(read.known_hexes(camp.view), current)]

    async def picture_hex_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        camp = await self._quiet_state(interaction)
        if camp is None or not camp.view:
            return []
        return [app_commands.Choice(name=read.hex_title(camp.view, h)[:100], value=h)
                for h in read.matching(read.picture_hexes(camp.view), current)]

    async def _edit(self, interaction: discord.Interaction, edit: str, **args: Any) -> None:
        """A named GM edit of the running campaign; the service checks GM rights and applies
        it."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        summary = await self.service.gm_edit(
            actor_of(interaction), campaign_channel_id(interaction), edit, args)
        await reply(interaction, f"Done: {summary}")

    # ------------------------------------------------------------ scenario files

    @app_commands.command(description="GM: load a scenario TOML file (before the start)")
    @app_commands.describe(file="The scenario (see examples/ftcamp/example.toml)")
    async def load(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        camp = await self._campaign(interaction)
        camp.require_gm()
        data = await _read_upload(file)
        text = await self.service.load_file(
            actor_of(interaction), campaign_channel_id(interaction), file.filename, data)
        await reply(interaction, text)

    @app_commands.command(description="GM: the campaign as it stands, as a scenario file")
    async def export(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        (await self._campaign(interaction)).require_gm()
        filename, data, note = await self.service.export_file(
            actor_of(interaction), campaign_channel_id(interaction))
        await reply(interaction, note, files=[discord.File(io.BytesIO(data), filename=filename)])

    # ------------------------------------------------------------ public displays

    @app_commands.command(description="Post the latest battle lists in the channel")
    async def battles(self, interaction: discord.Interaction) -> None:
        view = (await self._campaign(interaction)).started()
        lists = await self.service.texts(
            actor_of(interaction), campaign_channel_id(interaction), "battles")
        if not lists:
            await reply(interaction, f"No battle list yet (round {view['round']}, step "
                                     f"{view['step']}).", ephemeral=False)
            return
        await _public_texts(interaction, lists)

    @app_commands.command(name="map", description="Post the hex map in the channel")
    async def map_(self, interaction: discord.Interaction) -> None:
        # Refusals come before the (public) defer: its follow-up would keep it public.
        (await self._campaign(interaction)).started()
        service = self.service
        picture = await service.picture(actor_of(interaction),
                                        campaign_channel_id(interaction), "hexmap")
        await interaction.response.defer(thinking=True)
        png = await service.render(picture)
        view = picture.view
        contested = ", ".join(view["contested"]) or "none"
        await reply(interaction, f"**{view['name']}**, round {view['round']}; contested "
                                 f"hexes: {contested}.", ephemeral=False,
                    files=[discord.File(io.BytesIO(png), filename="hexmap.png")])

    @app_commands.command(name="hex", description="Post the orbit-sector picture of a hex")
    @app_commands.describe(hex="A contested hex, like 0505")
    @app_commands.autocomplete(hex=picture_hex_choices)
    async def hex_(self, interaction: discord.Interaction, hex: str) -> None:
        (await self._campaign(interaction)).started()
        service = self.service
        # an unknown hex is refused here, before the public defer, like /ftcamp map
        picture = await service.picture(actor_of(interaction),
                                        campaign_channel_id(interaction), "sector", focus=hex)
        await interaction.response.defer(thinking=True)
        png = await service.render(picture)
        await reply(interaction, f"Orbit-sectors of hex {picture.title}.", ephemeral=False,
                    files=[discord.File(io.BytesIO(png), filename="sector.png")])

    # ------------------------------------------------------------ GM edits: groups

    @group.command(name="add", description="GM: add a group with its first craft")
    @app_commands.describe(name="Group name", owner="Owner's seat", hex="Hex like 0304",
                           craft="First craft's name", mass="Its MASS", thrust="Its thrust",
                           sector="Orbit-sector (optional)", armed="Does the craft carry weapons")
    @app_commands.autocomplete(hex=map_hex_choices)
    async def group_add(
        self, interaction: discord.Interaction, name: str, owner: app_commands.Range[int, 1, 6],
        hex: str, craft: str, mass: app_commands.Range[int, 1, 10000],
        thrust: app_commands.Range[int, 0, 20], sector: str | None = None, armed: bool = True,
    ) -> None:
        await self._edit(interaction, "group_add", name=name, owner=int(owner), hex=hex,
                         craft=craft, mass=int(mass), thrust=int(thrust), sector=sector,
                         armed=armed)

    @group.command(name="move", description="GM: put a group in another hex")
    @app_commands.describe(name="The group", hex="Hex like 0304", sector="Orbit-sector (statics)")
    @app_commands.autocomplete(name=gm_group_choices, hex=map_hex_choices)
    async def group_move(
        self, interaction: discord.Interaction, name: str, hex: str, sector: str | None = None
    ) -> None:
        await self._edit(interaction, "group_move", name=name, hex=hex, sector=sector)

    @group.command(name="remove", description="GM: remove a group from the game")
    @app_commands.describe(name="The group")
    @app_commands.autocomplete(name=gm_group_choices)
    async def group_remove(self, interaction: discord.Interaction, name: str) -> None:
        await self._edit(interaction, "group_remove", name=name)

    @group.command(name="tug", description="GM: name the group whose tug tows this one")
    @app_commands.describe(name="The towed group",
                           tug="The group with the tug; leave empty to clear")
    @app_commands.autocomplete(name=gm_fleet_choices, tug=gm_fleet_choices)
    async def group_tug(
        self, interaction: discord.Interaction, name: str, tug: str | None = None
    ) -> None:
        await self._edit(interaction, "group_tug", name=name, tug=tug)

    # ------------------------------------------------------------ GM edits: craft

    @craft.command(name="add", description="GM: add a craft to a group")
    @app_commands.describe(group="The group", name="Craft name", mass="MASS", thrust="Thrust",
                           armed="Carries weapons", sensors="Sensor level",
                           crippled="FTL already crippled")
    @app_commands.autocomplete(group=gm_group_choices)
    async def craft_add(
        self, interaction: discord.Interaction, group: str, name: str,
        mass: app_commands.Range[int, 1, 10000], thrust: app_commands.Range[int, 0, 20],
        armed: bool = True, sensors: app_commands.Range[int, 0, 5] = 0, crippled: bool = False,
    ) -> None:
        await self._edit(interaction, "craft_add", group=group, name=name, mass=int(mass),
                         thrust=int(thrust), armed=armed, sensors=int(sensors), crippled=crippled)

    @craft.command(name="remove", description="GM: remove a craft from its group")
    @app_commands.describe(group="The group", craft="The craft")
    @app_commands.autocomplete(group=gm_group_choices, craft=craft_choices)
    async def craft_remove(
        self, interaction: discord.Interaction, group: str, craft: str
    ) -> None:
        await self._edit(interaction, "craft_remove", group=group, craft=craft)

    @craft.command(name="damage", description="GM: mark damage on a craft")
    @app_commands.describe(group="The group", craft="The craft", points="Damage points to add",
                           drive_lost="The main drive is out (thrust counts 0)")
    @app_commands.autocomplete(group=gm_group_choices, craft=craft_choices)
    async def craft_damage(
        self, interaction: discord.Interaction, group: str, craft: str,
        points: app_commands.Range[int, 0, 1000], drive_lost: bool = False,
    ) -> None:
        await self._edit(interaction, "craft_damage", group=group, craft=craft, points=int(points),
                         drive_lost=drive_lost)

    @craft.command(name="ftl-loss", description="GM: a craft's FTL drive is destroyed")
    @app_commands.describe(group="The group", craft="The craft")
    @app_commands.autocomplete(group=gm_group_choices, craft=craft_choices)
    async def craft_ftl_loss(
        self, interaction: discord.Interaction, group: str, craft: str
    ) -> None:
        await self._edit(interaction, "craft_ftl_loss", group=group, craft=craft)

    # ------------------------------------------------------------ GM edits: flags

    @app_commands.command(description="GM: set or clear a group's lost or diplomat flag")
    @app_commands.describe(group="The group", flag="Which flag", value="On or off")
    @app_commands.choices(flag=[app_commands.Choice(name="lost", value="lost"),
                                app_commands.Choice(name="diplomat", value="diplomat")])
    @app_commands.autocomplete(group=gm_fleet_choices)
    async def flag(
        self, interaction: discord.Interaction, group: str, flag: app_commands.Choice[str],
        value: bool,
    ) -> None:
        await self._edit(interaction, "flag", group=group, flag=flag.value, value=value)


async def setup(bot: AdmiraltyBot) -> None:
    await bot.add_cog(FtcampCog(bot.service))
