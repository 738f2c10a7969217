"""Shared pieces of the FTCamp simcord tests: small scenarios, a seeded bot, the proposed
``gm_edit_state`` service method (installed only while the service lacks it) and panel
helpers."""

from __future__ import annotations

import discord
import simcord

from bot.client import AdmiraltyBot
from bot.rules.ftcamp import export_scenario
from bot.rules.ftcamp.build import craft, group, scenario
from tests.cogs.simworld import World, custom_ids, last_dm, shown

SEED = 20261130  # the campaign's dice seed: the same rolls on every run

def skirmish(players: int = 2) -> str:
    """Vanguard and Raiders meet in 0202, Far Patrol waits in 0404; with three players the
    allied Free Colonies (seats 1 and 3) add a Convoy carrying a diplomat (E-6: no EE)."""
    groups = [
        group("Vanguard", 1, "0202", craft("Resolute", 60, 4, armed=True, sensors=1),
              craft("Valiant", 40, 4, armed=True)),
        group("Raiders", 2, "0202", craft("Fang", 50, 6, armed=True),
              craft("Claw", 50, 6, armed=True)),
        group("Far Patrol", 2, "0404", craft("Spear", 30, 5, armed=True)),
    ]
    names = ["Terran Union", "Kravak Horde"]
    if players == 3:
        groups.append(group("Convoy", 3, "0202", craft("Ambassador", 30, 2), diplomat=True))
        names.append("Free Colonies")
    return export_scenario(scenario("Skirmish at 0202", (4, 4), names, groups,
                                    alliances=[(1, 3)] if players == 3 else []))


TWO_PLAYERS = skirmish(2)
THREE_PLAYERS = skirmish(3)

SECRETS = ("Resolute", "Valiant", "Fang", "Claw", "Spear", "Ambassador",  # craft: E-D16
           "Long-range scans", "contact(s)", "class ",  # scans: E-4
           "EE", "StandOff", "Engage:", "parts:")  # engage orders: E-10


class SeededBot(AdmiraltyBot):
    """The real bot; only the campaign seed is fixed so that the rolls are reproducible."""

    async def setup_hook(self) -> None:
        await super().setup_hook()
        self.service._seed_source = lambda: SEED  # noqa: SLF001


# ---------------------------------------------------------------- driving the game


def channel_text(w: World) -> str:
    return "\n".join(shown(m) for m in w.chan.history())


def placeholder_ids(message: discord.Message) -> dict[str, str]:
    """Select placeholder -> custom id, for the panel's Selects."""
    out = {}
    for row in message.components:
        for child in getattr(row, "children", []):
            placeholder = getattr(child, "placeholder", None)
            if placeholder:
                out[placeholder] = child.custom_id
    return out


async def choose(member: simcord.MemberActor, placeholder: str, value: str) -> None:
    """Pick a value in the member's DM panel, by the Select's placeholder (the field label)."""
    panel = last_dm(member)
    ids = placeholder_ids(panel)
    assert placeholder in ids, (placeholder, list(ids), panel.content)
    await member.user.select(panel, [value], custom_id=ids[placeholder])


async def submit(member: simcord.MemberActor) -> simcord.InteractionResult:
    return await member.user.click(last_dm(member), label="Submit")


async def give(member: simcord.MemberActor, *choices: tuple[str, str]
               ) -> simcord.InteractionResult:
    """Choose (placeholder, value) pairs in the member's DM panel, then submit."""
    for placeholder, value in choices:
        await choose(member, placeholder, value)
    return await submit(member)


async def nothing_to_do(*members: simcord.MemberActor) -> None:
    """Submit a 'nothing to do' panel: special acts ask every seat in the hex (E-D33)."""
    for member in members:
        panel = last_dm(member)
        assert "Nothing for you to do in this step" in placeholder_ids(panel), panel.content
        await submit(member)


async def open_with(w: World, scenario: str, players: tuple[str, ...]) -> None:
    """Create, load the scenario file, join, start."""
    await w.gm.slash(w.chan, "campaign create", ruleset="ftcamp", name="Border War")
    loaded = await w.gm.slash(w.chan, "ftcamp load", file=("war.toml", scenario.encode()))
    assert loaded.ephemeral and "Loaded war.toml" in loaded.response.content
    for name in players:
        joined = await getattr(w, name).slash(w.chan, "campaign join")
        assert "joined as seat" in joined.response.content
    started = await w.gm.slash(w.chan, "campaign start")
    assert started.ephemeral and "has started" in started.response.content


def picker(w: World, members: tuple[str, ...]) -> simcord.MemberActor | None:
    """The member whose newest DM is an orbit-sector pick panel, if any."""
    for name in members:
        member = getattr(w, name)
        message = last_dm(member)
        if "Place " in message.content and custom_ids(message):
            return member
    return None


async def pick(member: simcord.MemberActor, orbit: str, sector: str) -> None:
    await member.user.click(last_dm(member), label=f"Orbit {orbit}")
    await choose(member, f"Orbit {orbit} sector", sector)
    done = await submit(member)
    assert "Done" in done.response.content, done.response.content
