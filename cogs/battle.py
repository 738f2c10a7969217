"""/battle: HRFT battles refereed in a Discord thread (DESIGN.md "Discord conventions").

A battle is a campaign of rule set ``hrft`` whose channel is a thread. ``/battle start`` in a
text channel opens the thread and the campaign (the starter is the GM); the other commands
work inside that thread and go through the service like every panel does: the results (every
die, the updated sheet) come back as ONE thread message through the outbox, and the caller
gets a short ephemeral answer. Sealed step-1 orders use the generic DM panel.
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.campaign.models import Status
from bot.errors import InvalidInput, InvalidState, UserError
from bot.rules.base import YesNo
from cogs.battle_read import (
    Battle,
    load_battle,
    maneuver_action,
    option_values,
    parse_weapons,
    require_begun,
    require_spec,
    require_started,
    round_range,
    ship_choices,
    ship_text,
    weapon_choices,
)
from cogs.battle_start import DEFAULT_NAME, start_battle
from cogs.campaign import join_seat
from cogs.common import actor_of, campaign_channel_id, clip, read_attachment, reply
from cogs.panel_view import build_action

if TYPE_CHECKING:
    from bot.campaign import CampaignService
    from bot.client import AdmiraltyBot

log = logging.getLogger(__name__)

Arc = Literal["F", "FS", "AS", "A", "AP", "FP"]
DamageKind = Literal["direct", "missile", "fighter", "area", "enveloping"]
MAX_FILE = 200_000  # bytes: the rules refuse larger ship files too (safe_load.MAX_BYTES)


def _choices(pairs: list[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=label, value=value) for label, value in pairs]


def _filled(interaction: discord.Interaction, name: str) -> str:
    return str(getattr(interaction.namespace, name, "") or "")


def _docked_value(options: list[tuple[str, str]], typed: str) -> str:
    """The option a GM's typed ship names: its value (autocomplete), its label or its name."""
    typed = typed.strip()
    for value, label in options:
        if typed == value or typed.lower() in (label.lower(),
                                               label.rsplit(" (", 1)[0].lower()):
            return value
    names = ", ".join(label for _, label in options)
    raise InvalidInput(f"No docked ship '{typed[:40]}' waits. Docked ships: {names}.")


@app_commands.guild_only()
class BattleCog(commands.GroupCog, group_name="battle"):
    """HRFT battles: start one in a thread, add ships, fire, damage, repair, sheets."""

    def __init__(self, service: CampaignService) -> None:
        self.service = service
        super().__init__()

    async def _battle(self, interaction: discord.Interaction) -> Battle:
        return await load_battle(
            self.service, campaign_channel_id(interaction), actor_of(interaction)
        )

    async def _quiet_battle(self, interaction: discord.Interaction) -> Battle | None:
        """For autocomplete: no battle here means no suggestions, not an error."""
        try:
            return await self._battle(interaction)
        except UserError:
            return None

    # ------------------------------------------------------------ lifecycle

    @app_commands.command(description="Open an HRFT battle in a new thread (you are its GM)")
    @app_commands.describe(
        name="A name for the battle (also the thread's name)",
        parent="Optional: the campaign this battle resolves (it hears the result); pick it "
               "from the list",
        ref="Optional: which battle of that campaign (pick it from the list), e.g. 0202/A-3 "
            "or Orbit 2",
        designs="For craft that name no design: 'auto' (the sample nearest each one's mass) "
                "or 'Craft=design; ...' (a sample or an uploaded catalog's design)",
    )
    async def start(
        self, interaction: discord.Interaction, name: str = DEFAULT_NAME,
        parent: str | None = None, ref: str | None = None, designs: str = "",
    ) -> None:
        await start_battle(self.service, interaction, name, parent, ref, designs)

    @start.autocomplete("parent")
    async def parent_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The GM's (an admin's: every) campaigns of this server, by name; the value is the
        campaign id."""
        if interaction.guild is None:
            return []
        mine = await self.service.parent_choices(actor_of(interaction),
                                                 interaction.guild.id)
        typed = current.strip().lower()
        return [app_commands.Choice(name=clip(f"{c.name} ({c.ruleset}, id {c.id}"
                                              + (", finished)" if c.status == Status.ENDED
                                                 else ")"),
                                              100),
                                    value=str(c.id))
                for c in mine if typed in c.name.lower() or typed == str(c.id)][:25]

    @start.autocomplete("ref")
    async def ref_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The chosen parent's battles that wait to be fought (its battle list or battle
        cards), for its GM; nothing for anyone else."""
        parent = _filled(interaction, "parent").strip()
        if interaction.guild is None or not parent:
            return []
        service, actor = self.service, actor_of(interaction)
        try:
            parent_id = await service.parent_id(actor, interaction.guild.id, parent)
            refs = await service.battle_refs(actor, interaction.guild.id, parent_id)
        except UserError:
            return []
        typed = current.strip().lower()
        return _choices([(clip(r, 100), r[:100]) for r in refs if typed in r.lower()][:25])

    @app_commands.command(description="Take a seat in this thread's battle")
    async def join(self, interaction: discord.Interaction) -> None:
        await self._battle(interaction)  # refuses outside a battle thread
        await join_seat(self.service, interaction)  # as /campaign join (welcome DM, notice)

    @app_commands.command(description="GM: begin the battle with the players who joined")
    async def begin(self, interaction: discord.Interaction) -> None:
        await self._battle(interaction)  # refuses outside a battle thread
        await interaction.response.defer(ephemeral=True, thinking=True)
        info = await self.service.begin_battle(actor_of(interaction),
                                               campaign_channel_id(interaction))
        await reply(interaction, f"**{info.name}** begins.")

    @app_commands.command(description="GM: upload designs that waiting campaign craft name, "
                                      "or a Fleet Manager catalog for fleet files")
    @app_commands.describe(file="A Fleet Manager .FTDesign / .FTFleet / catalog (JSON) or the "
                                "bot's TOML")
    async def design(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        battle = await self._battle(interaction)
        require_started(battle)
        if battle.gm_spec("add_design") is None:
            raise InvalidState("Only the GM uploads designs for the campaign's craft, during "
                               "setup (before every side is ready).")
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await _read_upload(file)
        await self.service.upload(actor_of(interaction),
                                  campaign_channel_id(interaction), "add_design",
                                  file.filename, data)
        await reply(interaction, "Design uploaded: the result is in the thread.")

    @app_commands.command(description="GM: bring a ship docked in its Fleet Manager fleet "
                                      "into the battle")
    @app_commands.describe(ship="The docked ship (its name)")
    async def undock(self, interaction: discord.Interaction, ship: str) -> None:
        battle = await self._battle(interaction)
        require_started(battle)
        spec = battle.gm_spec("bring_docked")  # H-D54: the GM's action, during setup
        if spec is None:
            raise InvalidState("No docked ship waits to come in: the GM brings docked ships "
                               "of an uploaded fleet in during setup.")
        value = _docked_value(option_values(spec, "ship"), ship)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.gm_act(actor_of(interaction),
                                  campaign_channel_id(interaction),
                                  {"type": "bring_docked", "ship": value})
        await reply(interaction, "Ship brought in: the result is in the thread.")

    @undock.autocomplete("ship")
    async def docked_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        battle = await self._quiet_battle(interaction)
        spec = battle.gm_spec("bring_docked") if battle else None
        if spec is None:
            return []
        return _choices([(label, value) for value, label in option_values(spec, "ship")
                         if current.lower() in label.lower()][:25])

    @app_commands.command(description="GM: end the battle now, with a report of every ship")
    @app_commands.describe(reason="Shown in the thread (and to the parent campaign)")
    async def end(self, interaction: discord.Interaction, reason: str = "") -> None:
        battle = await self._battle(interaction)  # the service checks that the caller is the GM
        lines = [reason.strip() or "ended by the GM", "**Report**"]
        for ship in battle.ships.values():
            lines.append(f"- {ship['name']} ({ship['uid']}, {ship['owner']}): "
                         f"{ship['status']}, hull {ship['hull_left']}/{ship['hull_boxes']}, "
                         f"armour {ship['armour_left']}/{ship['armour_boxes']}" +
                         _out_systems(ship))
        if not battle.ships:
            lines.append("No ships were added.")
        await self.service.end(
            actor_of(interaction), campaign_channel_id(interaction), clip("\n".join(lines), 1800)
        )
        await reply(interaction, "Battle ended; the report is in the thread.")

    @app_commands.command(description="Your side's fleet as a Fleet Manager .FTFleet: an update "
                                      "of the one you uploaded (GM: any side)")
    @app_commands.describe(side="GM: the number of the side to export (players: their own)")
    async def export(self, interaction: discord.Interaction,
                     side: app_commands.Range[int, 1, 6] | None = None) -> None:
        # ephemeral: the file is the side's own; the service refuses another side to a player
        await interaction.response.defer(ephemeral=True, thinking=True)
        filename, data, note = await self.service.side_file(
            actor_of(interaction), campaign_channel_id(interaction), side)
        await reply(interaction, note, files=[discord.File(io.BytesIO(data), filename=filename)])

    # ------------------------------------------------------------ ships

    @app_commands.command(description="Add a ship: a sample design, or a design/fleet file")
    @app_commands.describe(
        sample="A sample design shipped with the bot",
        file="A Fleet Manager .FTDesign / .FTFleet (JSON) or the bot's TOML form",
    )
    async def add(
        self, interaction: discord.Interaction, sample: str | None = None,
        file: discord.Attachment | None = None,
    ) -> None:
        if (sample is None) == (file is None):
            raise InvalidInput("Give either a sample design or a file, not both or neither; "
                               "the sample list offers the designs shipped with the bot.")
        # adding a ship may resolve the step or convert a file: longer than 3 seconds
        await interaction.response.defer(ephemeral=True, thinking=True)
        battle = await self._battle(interaction)
        if file is not None:
            await self._add_file(interaction, battle, file)
            return
        assert sample is not None
        key = sample.strip().lower()
        spec = require_spec(battle, "add_sample", "add ships")
        samples = [v for v, _ in option_values(spec, "sample")]
        if key not in samples:
            raise InvalidInput(f"No sample '{sample}'. Samples: {', '.join(samples)}.")
        await self._submit(interaction, battle, {"type": "add_sample", "sample": key})
        await reply(interaction, f"Added the sample {key}; add more or `/battle ready`.")

    async def _add_file(
        self, interaction: discord.Interaction, battle: Battle, file: discord.Attachment
    ) -> None:
        require_spec(battle, "add_file", "add ships")
        data = await _read_upload(file)
        names = await self.service.upload(
            actor_of(interaction), campaign_channel_id(interaction), "add_file",
            file.filename, data)
        if not names:  # H-D54: a fleet whose ships are all docked waits for the GM
            await reply(interaction, "Your fleet is kept, but its ships are all in dock: the "
                                     "GM may bring them in (`/battle undock`), or add more.")
            return
        await reply(interaction, f"Added {', '.join(names)}; add more or `/battle ready`.")

    @add.autocomplete("sample")
    async def add_sample_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        battle = await self._quiet_battle(interaction)
        spec = battle.spec("add_sample") if battle else None
        if spec is None:
            return []
        return _choices([(v, v) for v, _ in option_values(spec, "sample")
                         if current.lower() in v][:25])

    @app_commands.command(description="Post a ship's sheet in the thread")
    @app_commands.describe(ship="The ship (id like 1a)")
    async def sheet(self, interaction: discord.Interaction, ship: str) -> None:
        battle = await self._battle(interaction)
        require_begun(battle)  # a finished battle's sheets stay readable
        # refusals (unknown ship) come before the public defer, so they stay ephemeral
        picture = await self.service.picture(
            actor_of(interaction), campaign_channel_id(interaction), "sheet", focus=ship.strip())
        await interaction.response.defer(thinking=True)
        png = await self.service.render(picture)
        await reply(interaction, f"{picture.title}.", ephemeral=False,
                    files=[discord.File(io.BytesIO(png), filename="sheet.png")])

    @app_commands.command(description="The battle, or one ship in detail (only you see it)")
    @app_commands.describe(ship="Optional: one ship in detail")
    async def status(self, interaction: discord.Interaction, ship: str | None = None) -> None:
        battle = await self._battle(interaction)
        if ship is None:
            status = await self.service.status(
                campaign_channel_id(interaction), interaction.user.id
            )
            waiting = f"\nWaiting for: {', '.join(status.pending)}" if status.pending else ""
            await reply(interaction, f"**{status.name}** ({status.status})\n{status.text}"
                                     + waiting)
            return
        require_begun(battle)
        await reply(interaction, ship_text(battle.ship(ship.strip())))

    # ------------------------------------------------------------ open-step actions

    @app_commands.command(description="Fire weapons of one ship at one target (one attack)")
    @app_commands.describe(
        ship="Your firing ship", weapons="'all' or system ids, e.g. s1,s2",
        target="The enemy ship", range="Range in MU", arc="Incoming arc on the target",
        bearing="The target's arc as seen from the firer (default F)",
        evasive="VTIF: the target's Evasive/Extreme points, +1 each (default: what it "
                "declared at mid-turn)",
    )
    async def fire(
        self, interaction: discord.Interaction, ship: str, weapons: str, target: str,
        range: app_commands.Range[int, 0, 200], arc: Arc, bearing: Arc = "F",
        evasive: app_commands.Range[int, 0, 12] | None = None,
    ) -> None:
        battle = await self._battle(interaction)
        spec = require_spec(battle, "fire", "fire")
        offered = [o.value for f in spec.fields if f.name == "weapons" for o in f.options]
        action = {"type": "fire", "weapons": parse_weapons(weapons, ship.strip(), offered),
                  "target": target.strip(), "range": round_range(spec, range), "arc": arc,
                  "bearing": bearing}
        if evasive is not None:
            action["evasive"] = str(evasive)
        await self._act(interaction, battle, action, "Fired")

    @app_commands.command(description="Add a note to your written orders, revealed "
                                      "with them (e.g. manoeuvres)")
    @app_commands.describe(text="e.g. '1a: Corkscrew; Hard About after mid-turn' (at most 300)")
    async def note(self, interaction: discord.Interaction,
                   text: app_commands.Range[str, 1, 300]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)  # may resolve a step
        battle = await self._battle(interaction)
        spec = require_spec(battle, "orders", "write orders")
        service = self.service
        if battle.seat is None:
            raise InvalidState("You hold no seat in this battle.")
        panel = await service.panel(battle.campaign_id, battle.step_no, battle.seat,
                                    interaction.user.id)
        # H-D32: the note joins the orders stored so far, or the panel's current choices
        action = dict(panel.submitted) if panel.submitted else build_action(panel, spec)
        action["note"] = text.strip()
        result = await service.submit(actor_of(interaction), battle.campaign_id,
                                      battle.step_no, action, seat=battle.seat)
        await reply(interaction, f"Note added to your orders: _{clip(text.strip(), 300)}_\n"
                                 f"{result.message}\nSubmitting the orders panel again replaces "
                                 "them without the note: then run `/battle note` again.")

    @app_commands.command(description="Declare a ship's manoeuvre after mid-turn "
                                      "(Hard About, Extreme, redline, ...)")
    @app_commands.describe(
        ship="Your ship", kinds="One or more, commas between: hard_about, extreme, redline, "
        "roll, corkscrew, dead_rotate, other", thrust="Un-allocated thrust it uses (0: none)",
        evasive="VTIF only: Evasive/Extreme points, +1 each to rolls against it in late fire",
    )
    async def maneuver(
        self, interaction: discord.Interaction, ship: str, kinds: str,
        thrust: app_commands.Range[int, 0, 40] = 0, evasive: app_commands.Range[int, 0, 6] = 0,
    ) -> None:
        battle = await self._battle(interaction)
        spec = require_spec(battle, "maneuver", "declare a manoeuvre")
        action = maneuver_action(spec, ship, kinds, thrust, evasive)
        await self._act(interaction, battle, action, "Manoeuvre declared")

    @app_commands.command(description="Enter damage from a weapon not in the tables")
    @app_commands.describe(
        target="The ship hit", kind="How the damage spreads",
        arc="Incoming arc on the ship hit",
        points="A number (1-200) or per-hit amounts, e.g. 3,2,4 (missiles: one each)",
        nearer="Fighters: the nearer adjacent arc for the remainder",
        concentrate="Fighters: all damage through the facing arc",
        source="What did it, e.g. 'heavy missile'",
    )
    async def damage(
        self, interaction: discord.Interaction, target: str, kind: DamageKind, arc: Arc,
        points: str, nearer: Arc | None = None,
        concentrate: bool = False, source: str = "",
    ) -> None:
        battle = await self._battle(interaction)
        gm = battle.gm_spec("damage") is not None  # H-D29: the GM enters damage any time
        if not gm:
            require_spec(battle, "damage", "enter damage")
        # the rules read the amounts; a bad one is refused in the (ephemeral) answer
        action: dict[str, Any] = {
            "type": "damage", "target": target.strip(), "kind": kind, "arc": arc,
            "hits": points.strip(), "concentrate": YesNo.of(concentrate).value,
            "source": source.strip()[:60],
        }
        if nearer is not None:
            action["nearer"] = nearer
        if not gm:
            await self._act(interaction, battle, action, "Damage entered")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.gm_act(actor_of(interaction),
                                  campaign_channel_id(interaction), action)
        await reply(interaction, "Damage entered: the result is in the thread.")

    @app_commands.command(description="Damage control: try to repair (at turn end)")
    @app_commands.describe(target="What to repair", parties="DCPs on the job (1-3)",
                           medic="Use the ship's medic roll (+1, once a turn)")
    async def repair(
        self, interaction: discord.Interaction, target: str,
        parties: app_commands.Range[int, 1, 3] = 1, medic: bool = False,
    ) -> None:
        battle = await self._battle(interaction)
        require_spec(battle, "repair", "repair")
        action = {"type": "repair", "target": target.strip(), "parties": str(parties),
                  "medic": YesNo.of(medic).value}
        await self._act(interaction, battle, action, "Repair tried")

    @app_commands.command(description="Say you are done with this step (or with setup)")
    async def ready(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)  # may resolve a step
        battle = await self._battle(interaction)
        require_spec(battle, "ready", "say ready")
        await self._submit(interaction, battle, {"type": "ready"})
        await reply(interaction, "Ready.")

    async def _act(self, interaction: discord.Interaction, battle: Battle,
                   action: dict[str, Any], done: str) -> None:
        # rolling and drawing the sheet may take longer than Discord's 3 seconds
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._submit(interaction, battle, action)
        await reply(interaction, f"{done}: the result is in the thread.")

    async def _submit(self, interaction: discord.Interaction, battle: Battle,
                      action: dict[str, Any]) -> None:
        await self.service.submit(
            actor_of(interaction), battle.campaign_id, battle.step_no, action, seat=battle.seat
        )

    # ------------------------------------------------------------ autocomplete

    @sheet.autocomplete("ship")
    @status.autocomplete("ship")
    async def any_ship(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        battle = await self._quiet_battle(interaction)
        return _choices(ship_choices(battle, current)) if battle else []

    @fire.autocomplete("ship")
    @maneuver.autocomplete("ship")
    async def own_ship(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        battle = await self._quiet_battle(interaction)
        return _choices(ship_choices(battle, current, own=True)) if battle else []

    @fire.autocomplete("target")
    async def enemy_ship(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        battle = await self._quiet_battle(interaction)
        return _choices(ship_choices(battle, current, enemy=True)) if battle else []

    @damage.autocomplete("target")
    async def fighting_ship(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        battle = await self._quiet_battle(interaction)
        if battle is None:
            return []
        return _choices([(label, uid) for label, uid in ship_choices(battle, current)
                         if battle.ships[uid]["status"] == "fighting"])

    @fire.autocomplete("weapons")
    async def weapons_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        battle = await self._quiet_battle(interaction)
        if battle is None:
            return []
        return _choices(weapon_choices(battle, _filled(interaction, "ship"), current))

    @maneuver.autocomplete("kinds")
    async def maneuver_kinds(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        battle = await self._quiet_battle(interaction)
        spec = battle.spec("maneuver") if battle else None
        if spec is None:
            return []
        done, _, typed = current.rpartition(",")
        head = f"{done}," if done else ""
        return _choices([(f"{head}{value}"[:100], f"{head}{value}"[:100])
                         for value, _label in option_values(spec, "kinds")
                         if value.startswith(typed.strip().lower())][:25])

    @repair.autocomplete("target")
    async def repair_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        battle = await self._quiet_battle(interaction)
        spec = battle.spec("repair") if battle else None
        if spec is None:
            return []
        field = next(f for f in spec.fields if f.name == "target")
        return _choices([(o.label[:100], o.value) for o in field.options
                         if current.lower() in f"{o.value} {o.label}".lower()][:25])


async def _read_upload(file: discord.Attachment) -> bytes:
    """The one place /battle reads an uploaded file (its size checked first)."""
    return await read_attachment(file, MAX_FILE)


def _out_systems(ship: dict[str, Any]) -> str:
    out = [s["label"] for s in ship["systems"] if s["hits"]]
    return f"; out: {', '.join(out)}" if out else ""


async def setup(bot: AdmiraltyBot) -> None:
    await bot.add_cog(BattleCog(bot.service))
