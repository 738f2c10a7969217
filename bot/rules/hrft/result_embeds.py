"""The channel embeds of HRFT's results: fire and damage reports (a field per weapon, the
ship's sheet inside) and the final report (a field per side)."""

from __future__ import annotations

from bot.rules.base import Embed
from bot.rules.hrft.state import BattleState


def report(title: str, lines: list[str], weapons: int = 0) -> Embed:
    """``lines``: the first ``weapons`` are one shot each ("label: dice = damage"), the rest
    what the damage did."""
    embed = Embed(title=title.replace("**", ""))
    for line in lines[:weapons]:
        label, _, result = line.partition(": ")
        embed.field(label, result or line, inline=True)
    rest = lines[weapons:]
    if rest:
        embed.field("Damage" if weapons else "Result", "\n".join(rest))
    return embed


def reveal(title: str, sides: list[tuple[str, list[str]]]) -> Embed:
    """The orders revealed: a field per side, a line per ship (H-D46)."""
    embed = Embed(title=title.replace("**", ""))
    for name, ships in sides:
        embed.field(name, "\n".join(ships) or "no ships")
    return embed


def final(state: BattleState, head: str, ships: dict[int, list[str]]) -> Embed:
    embed = Embed(title=head.replace("**", ""))
    for seat in state.seats:
        embed.field(seat.name, "\n".join(ships.get(seat.number, [])) or "no ships",
                    inline=True)
    return embed
