"""The channel embeds of FTCamp's results: the fleet-order reveal, the engage reveal, the
allocation of a hex and its battle list. Plain words, only what the public texts may say
(E-D33): groups and hexes, never craft before the battle list."""

from __future__ import annotations

from bot.rules.base import BY_DEFAULT, Embed
from bot.rules.ftcamp import geometry as geo
from bot.rules.ftcamp.conflicts import group_arrival, group_role
from bot.rules.ftcamp.model import HexResult, HexRun, State


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _by_owner(state: State, names: list[str]) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for name in names:
        out.setdefault(state.groups[name].owner if name in state.groups else 0, []).append(name)
    return dict(sorted(out.items()))


def fleet_reveal(state: State, moves: dict[str, tuple[str, str]],
                 missed: set[str] | None = None) -> Embed:
    """``moves``: group -> (hex before, hex after) for every revealed order (E-3, E-D35);
    ``missed``: groups whose order was taken by default at the deadline."""
    embed = Embed(title=f"Fleet orders revealed, round {state.round}",
                  description="The map below shows where every group is now.")
    for owner, names in _by_owner(state, sorted(moves)).items():
        lines = []
        for name in names:
            before, after = moves[name]
            order = state.groups[name].order.text()
            where = f"{before} → {after}" if before != after else f"at {after}"
            mark = f" ({BY_DEFAULT})" if name in (missed or set()) else ""
            lines.append(f"{name}: {order}, {where}{mark}")
        embed.field(state.player_name(owner), "\n".join(lines), inline=True)
    contested = ", ".join(geo.system_label(state.map, h) for h in state.contested)
    embed.field("Contested hexes", contested or "none (the next round opens)")
    return embed


def engage_reveal(state: State, run: HexRun, notes: list[str],
                  missed: set[str] | None = None) -> Embed:
    """Every order, its number of parts and the engage roll with both dice (E-10, E-D33);
    ``missed``: groups whose engage order was taken by default at the deadline."""
    embed = Embed(title=f"Engage orders revealed, hex {geo.system_label(state.map, run.hex)}",
                  description="\n".join(notes))
    for name in sorted(run.choices, key=lambda n: (state.groups[n].owner, n)):
        choice = run.choices[name]
        owner = state.player_name(state.groups[name].owner)
        if choice.follows:
            how = ("goes with its tug" if state.groups[name].tugged_by == choice.follows
                   else "supports")
            embed.field(f"{name} ({owner})", f"{choice.order}: {how} {choice.follows}",
                        inline=True)
            continue
        roll = run.rolls[name]
        extra = "\nhold-special abandoned" if choice.drop_hold else ""
        if name in (missed or set()):
            extra += f"\n_{BY_DEFAULT}_"
        embed.field(f"{name} ({owner})",
                    f"{choice.order} in {plural(len(choice.parts), 'part')}\n"
                    f"dice {roll.dice[0]} + {roll.dice[1]}, bonus {roll.bonus}, thrust "
                    f"{roll.thrust}: engage value **{roll.value}**{extra}", inline=True)
    return embed


def allocation(state: State, run: HexRun) -> Embed:
    """The orbit-sector of every group of the hex; the hex's sector picture goes inside."""
    embed = Embed(title=f"Allocation, hex {geo.system_label(state.map, run.hex)}")
    for owner, names in _by_owner(state, sorted(run.placements)).items():
        embed.field(state.player_name(owner) if owner else "Others",
                    "\n".join(f"{n}: {run.placements[n]}" for n in names), inline=True)
    return embed


def battle_list(state: State, result: HexResult, marks: list[str] | None = None) -> Embed:
    """A field per battle (each group with its role, arrival order and flags), then who
    escaped, stood locked or stayed out (E-13); ``marks``: whose chase, reserve and patrol
    answers were taken by default at a deadline."""
    embed = Embed(title=f"Battle list, hex {geo.system_label(state.map, result.hex)}, "
                        f"round {result.round}",
                  description="" if result.battles else "No battle.")
    for b in result.battles:
        lines = []
        for bg in b.groups:
            flags = f"; {', '.join(bg.flags)}" if bg.flags else ""
            lines.append(f"**{bg.group}** ({state.player_name(bg.owner)}): {group_role(bg)}"
                         f"; arrival {group_arrival(bg)}{flags}")
        embed.field(f"Battle in {b.sector}", "\n".join(lines))
        embed.buttons.append(b.id)  # E-D37: the GM may open it in a thread from here
    if result.escaped:
        embed.field("Escaped (must move away next round)", ", ".join(result.escaped))
    for sector, names in sorted(result.locked.items()):
        embed.field(f"Locked standoff in {sector}", ", ".join(names))
    if result.unengaged:
        embed.field("Stayed unengaged", ", ".join(result.unengaged))
    if result.statics:
        embed.field("Statics not in battle", ", ".join(result.statics))
    if result.exposed:
        embed.field("Unarmed statics with enemies in their sector", ", ".join(result.exposed))
    if marks:
        embed.field("Missed deadlines", "\n".join(marks))
    return embed
