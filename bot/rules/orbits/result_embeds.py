"""The channel embeds of Orbits' results: battle cards, battle results, final standings.
Plain words: no ruling ids, correct plurals."""

from __future__ import annotations

from bot.rules.base import Embed
from bot.rules.orbits import cards as C
from bot.rules.orbits.battle import battle_force
from bot.rules.orbits.events import amount, plural
from bot.rules.orbits.forces import fits
from bot.rules.orbits.options import OrbitsOptions
from bot.rules.orbits.state import Battle, BattleResult, OrbitsState


def losses(o: OrbitsOptions, k: int) -> str:
    """A side's reported losses in the campaign's unit ("1 system box", "12 points")."""
    if o.points_per_value > 1:
        return amount(k * o.points_per_value, "points")
    return amount(k, o.points_label)


def battle_card(state: OrbitsState, b: Battle) -> Embed:
    """A field per side: its stance, its face-up cards and their strength (O-13, O-14)."""
    o = state.options
    embed = Embed(title=f"Battle at {state.area_label(b.area)}",
                  footer="Fight it out, then each side reports the losses and who was "
                         "defeated.")
    if fits(state, b):  # O-D23: its sides' budgets buy ships: the GM may open it in HRFT
        embed.buttons = [f"{state.area_label(b.area)}, turn {state.turn}"]
    for s in b.sides:
        total, size = battle_force(b.forces[s], o.size_class_cap)
        pts = f" ({amount(total * o.points_per_value, 'points')})" \
            if o.points_per_value > 1 else ""
        stance = (state.stance(s, b.area) or "").lower()
        embed.field(f"{state.name(s)}" + (f", {stance}" if stance else ""),
                    f"{C.show_all(b.forces[s]) or 'no face-up cards'}\n"
                    f"{amount(total, o.points_label)}{pts}, largest size class {size}",
                    inline=True)
    return embed


def battle_result(state: OrbitsState, b: Battle, r: BattleResult, how: str) -> Embed:
    embed = Embed(title=f"Battle at {state.area_label(b.area)}: result ({how})")
    for s, k in r.losses.items():
        embed.field(state.name(s), f"lost {losses(state.options, k)}", inline=True)
    embed.field("Defeated", ", ".join(state.name(d) for d in r.defeated) or "nobody")
    return embed


def standings(state: OrbitsState, head: str) -> Embed:
    """The final standings (O-8): a field per player."""
    embed = Embed(title=head)
    for seat in state.seat_numbers():
        left = len(state.decks[seat]) + sum(1 for c in state.table if c.owner == seat)
        embed.field(state.name(seat), f"{state.rp[seat]} RP\n{plural(left, 'card')} left\n"
                    f"{plural(state.battles_won[seat], 'battle')} won", inline=True)
    return embed
