"""Weapons as data tables (H-13, H-14, H-11 sensors) and the dice they roll.

A table gives a weapon's range band length, how many bands it has, how many dice each band
rolls and how the dice score. Weapons missing here are handled by the manual damage action.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from bot.errors import RulesError
from bot.rules.base import Dice
from bot.rules.hrft.model import System
from bot.rules.words import plural

Scoring = Literal["beam", "torpedo"]


@dataclass(frozen=True)
class WeaponTable:
    """How one weapon type fires at ships."""

    type: str
    band_mu: int
    bands: int | None  # None: as many bands as the beam class
    dice: tuple[int, ...] | None  # dice per band; None: class - band + 1 (FB1 beams)
    scoring: Scoring
    to_hit: tuple[int, ...] = ()  # torpedo: d6 needed per band
    screens: bool = True
    one_shot: bool = False


WEAPONS: dict[str, WeaponTable] = {
    # H-13: FB1 beams, 12 MU bands, class k rolls k - band + 1 dice.
    "beam": WeaponTable("beam", 12, None, None, "beam"),
    # FB1: a PDS fires at ships as a class-1 beam (H-D9).
    "pds": WeaponTable("pds", 12, 1, (1,), "beam"),
    # Pulse torpedo and submunition: figures from FB1 as recalled, not given by seed 003 or
    # RULINGS.md (H-D9); the GM may enter their damage by hand instead.
    # FB1 pulse torpedo: 6 MU bands to 30 MU, to hit 2+ .. 6, d6 damage, screens ignored.
    "pulse_torpedo": WeaponTable("pulse_torpedo", 6, 5, (1, 1, 1, 1, 1), "torpedo",
                                 to_hit=(2, 3, 4, 5, 6), screens=False),
    # FB1 submunition pack: one shot, 6 MU bands, 3/2/1 dice scored as beams.
    "submunition": WeaponTable("submunition", 6, 3, (3, 2, 1), "beam", one_shot=True),
}


@dataclass
class Shot:
    """One weapon's fire: every die and the damage it scored."""

    system: str
    label: str
    band: int
    damage: int = 0
    dice: list[dict[str, object]] = field(default_factory=list)
    text: str = ""


def band_length(table: WeaponTable, stealth_steps: int) -> int:
    """Band length after Stealth-2 steps (aft fire with drive used, target stealth), each
    x 2/3 rounded up (H-14: beams 12 -> 8 -> 6 MU)."""
    length = table.band_mu
    for _ in range(stealth_steps):
        length = -(-length * 2 // 3)
    return length


def bands_of(table: WeaponTable, system: System) -> int:
    return table.bands if table.bands is not None else int(system.params.get("class", 1))


def range_band(table: WeaponTable, system: System, range_mu: float, stealth_steps: int = 0,
               sensors_damaged: bool = False) -> int:
    """The band the target is in, or RulesError if out of range.

    H-11 sensors damage: one band further; a one-band weapon counts the range double."""
    if range_mu < 0:
        raise RulesError("Range cannot be negative.", ruling="H-13")
    length = band_length(table, stealth_steps)
    bands = bands_of(table, system)
    if sensors_damaged and bands == 1:
        range_mu *= 2
    band = max(1, -(-int(range_mu * 1000) // (length * 1000)))
    if sensors_damaged and bands > 1:
        band += 1
    if band > bands:
        raise RulesError(f"{system.label}: range {range_mu:g} MU is out of range (bands of "
                         f"{length} MU, {plural(bands, 'band')}"
                         f"{', sensors damaged' if sensors_damaged else ''}).", ruling="H-11")
    return band


def dice_for(table: WeaponTable, system: System, band: int) -> int:
    if table.dice is None:
        return int(system.params.get("class", 1)) - band + 1
    return table.dice[band - 1]


def beam_die(roll: int, screen: int, rerolled: bool) -> int:
    """Points of one beam die (H-13): 4-5 one, 6 two; screens ignore 4s (level 1) and 5s
    (level 2 or more, H-D10); re-rolled dice ignore screens."""
    if roll <= 3:
        return 0
    if roll == 6:
        return 2
    level = 0 if rerolled else screen
    if roll == 4 and level >= 1:
        return 0
    if roll == 5 and level >= 2:
        return 0
    return 1


def roll_beam_dice(count: int, screen: int, dice: Dice, reroll: bool,
                   ) -> tuple[int, list[dict[str, object]]]:
    """Roll ``count`` beam dice; each 6 adds another die when ``reroll`` (H-13)."""
    total = 0
    records: list[dict[str, object]] = []
    queue = [False] * count
    while queue:
        rerolled = queue.pop(0)
        roll = dice.d(6)
        points = beam_die(roll, screen, rerolled)
        total += points
        records.append({"roll": roll, "points": points, "reroll": rerolled})
        if roll == 6 and reroll:
            queue.append(True)
    return total, records


def fire_weapon(system: System, range_mu: float, screen: int, dice: Dice, *,
                stealth_steps: int = 0, sensors_damaged: bool = False,
                beam_reroll: bool = True) -> Shot:
    """Roll one weapon at a target ``range_mu`` away behind screens of ``screen`` level."""
    table = WEAPONS.get(system.type)
    if table is None:
        raise RulesError(f"{system.label} has no fire table; enter its damage with the "
                         "manual damage action.", ruling="H-D30")
    band = range_band(table, system, range_mu, stealth_steps, sensors_damaged)
    shot = Shot(system=system.uid, label=system.label, band=band)
    count = dice_for(table, system, band)
    if table.scoring == "beam":
        shot.damage, shot.dice = roll_beam_dice(count, screen if table.screens else 0, dice,
                                                beam_reroll)
        faces = " ".join(f"{d['roll']}{'r' if d['reroll'] else ''}" for d in shot.dice)
        shot.text = (f"{system.label} band {band}: {plural(count, 'die')} [{faces}]"
                     f"{f' vs screen {screen}' if screen and table.screens else ''}"
                     f" = {shot.damage}")
        return shot
    need = table.to_hit[band - 1]
    roll = dice.d(6)
    shot.dice.append({"roll": roll, "for": "to hit", "need": need})
    if roll < need:
        shot.text = f"{system.label} band {band}: to hit {roll} vs {need}+: miss"
        return shot
    dmg = dice.d(6)
    shot.damage = dmg
    shot.dice.append({"roll": dmg, "for": "damage", "points": dmg})
    shot.text = f"{system.label} band {band}: to hit {roll} vs {need}+: hit, d6 damage {dmg}"
    return shot
