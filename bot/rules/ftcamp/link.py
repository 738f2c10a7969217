"""An FTCamp battle fought in HRFT (H-D28): which battle a reference names, and the craft of
its groups with the designs they name (FTCamp's side of the link; it was bot/rules/hrft/link.py
until issue 17 broke the ftcamp<->hrft import cycle).

Pure: reads an FTCamp ``State`` (the service's battle link, bot/campaign/links.py) and
returns plain values; the battle's own state never holds FTCamp objects.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.rules.ftcamp.model import Battle, State

_SEPARATORS = re.compile(r"[\s,;:/]+")
_BATTLE_ID = re.compile(r"\d{4}/[A-Z]-?\d+")


@dataclass(frozen=True)
class LinkedCraft:
    """One craft of a group in the FTCamp battle; ``owner`` is the FTCamp seat."""

    group: str
    craft: str
    owner: int
    owner_name: str
    design: str | None


def normalise_ref(ref: str) -> str:
    """'0305 a-3', '0305/A-3', '0305, A-3' -> '0305/A-3' (the form of ``Battle.id``)."""
    return _SEPARATORS.sub("/", ref.strip().upper()).strip("/")


def looks_like_battle(ref: str) -> bool:
    """True when ``ref`` has the shape of a battle id (hex and orbit-sector)."""
    return _BATTLE_ID.fullmatch(normalise_ref(ref)) is not None


def battle_ids(state: State) -> list[str]:
    """The ids of the battles of the latest round that has a battle list (E-13)."""
    if not state.results:
        return []
    last = max(r.round for r in state.results)
    return [b.id for r in state.results if r.round == last for b in r.battles]


def find_battle(state: State, ref: str) -> tuple[int, Battle] | None:
    """The (round, battle) that ``ref`` names; the latest round wins when a hex and sector
    fought in several rounds."""
    key = normalise_ref(ref)
    for result in sorted(state.results, key=lambda r: -r.round):
        for battle in result.battles:
            if battle.id.upper() == key:
                return result.round, battle
    return None


def linked_craft(state: State, battle: Battle) -> list[LinkedCraft]:
    """The craft of the battle's groups, in battle-list order; decoys are not ships."""
    out: list[LinkedCraft] = []
    for bg in battle.groups:
        group = state.groups.get(bg.group)
        if group is None:  # destroyed or merged since the battle list: nothing to bring
            continue
        for craft in group.craft:
            if craft.is_decoy:
                continue
            out.append(LinkedCraft(group=group.name, craft=craft.name, owner=group.owner,
                                   owner_name=state.player_name(group.owner),
                                   design=craft.design))
    return out
