"""Damage control (H-10): DCPs repair systems, other DCPs (medic), hull and armour."""

from __future__ import annotations

from dataclasses import dataclass

from bot.errors import RulesError
from bot.rules.base import Dice
from bot.rules.hrft.model import Ship
from bot.rules.words import plural

MAX_PARTIES = 3


def need(parties: int, medic_bonus: bool = False) -> int:
    """Roll needed: 6 with one DCP, one less per extra DCP (at most 3: 4+); the medic roll's
    +1 lowers it by one more."""
    if not 1 <= parties <= MAX_PARTIES:
        raise RulesError(f"A repair uses 1 to {MAX_PARTIES} DCPs, not {parties}.", ruling="H-10")
    return 7 - parties - (1 if medic_bonus else 0)


@dataclass
class RepairResult:
    ship: Ship
    roll: int
    need: int
    success: bool
    text: str


def repairable(ship: Ship) -> list[tuple[str, str]]:
    """What can be repaired now: (target, label). Targets: ``system:<uid>``,
    ``hull:<block>``, ``armour:<block>``."""
    out = [(f"system:{s.uid}", s.label) for s in ship.systems if s.hits > 0]
    for name in ship.ring:
        b = ship.blocks[name]
        if b.hull_lost > b.repair_floor():
            out.append((f"hull:{name}", f"Hull {name}"))
        if b.armour_lost:
            out.append((f"armour:{name}", f"Armour {name}"))
    return out


def attempt(ship: Ship, target: str, parties: int, dice: Dice, medic_bonus: bool = False,
            ) -> RepairResult:
    """One repair attempt on a copy of ``ship``."""
    if ship.out:
        raise RulesError(f"{ship.name} is out of the battle; it cannot repair.", ruling="H-10")
    kind, _, what = target.partition(":")
    ship = ship.model_copy(deep=True)
    if kind == "system":
        try:
            system = ship.system(what)
        except KeyError:
            raise RulesError(f"{ship.name} has no system '{what}'.", ruling="H-10") from None
        if system.hits == 0:
            raise RulesError(f"{system.label} on {ship.name} is not damaged.", ruling="H-10")
        if medic_bonus and system.type != "dcp":
            raise RulesError("The medic bonus (+1) applies only to repairing a DCP.", ruling="H-10")
        label = system.label

        def fix() -> None:
            system.hits -= 1
    elif kind in ("hull", "armour"):
        if what not in ship.blocks:
            raise RulesError(f"{ship.name} has no block '{what}'. Blocks: "
                             f"{', '.join(ship.ring)}.", ruling="H-10")
        block = ship.blocks[what]
        label = f"{kind} of block {block.name}"
        if medic_bonus:
            raise RulesError("The medic bonus (+1) applies only to repairing a DCP.", ruling="H-10")
        if kind == "hull" and block.hull_lost <= block.repair_floor():
            raise RulesError(f"Block {block.name}: no hull box can be repaired; only the "
                             "current damaged row (or a stripped block's last row) may be.",
                             ruling="H-10")
        if kind == "armour" and not block.armour_lost:
            raise RulesError(f"Block {block.name} has lost no armour.", ruling="H-10")

        def fix() -> None:
            if kind == "hull":
                block.hull_lost -= 1
            else:
                block.armour_lost -= 1
    else:
        raise RulesError(f"Repair target '{target}' must be system:<id>, hull:<block> or "
                         "armour:<block>.", ruling="H-10")
    n = need(parties, medic_bonus)  # H-D19: hull and armour roll like systems
    roll = dice.d(6)
    ok = roll >= n
    if ok:
        fix()
    text = (f"{ship.name}: {plural(parties, 'DCP')} on {label}: d6 {roll} vs {n}+: "
            f"{'repaired' if ok else 'no luck'}")
    return RepairResult(ship, roll, n, ok, text)
