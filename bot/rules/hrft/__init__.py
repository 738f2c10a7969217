"""High Resolution Full Thrust (seed 003, rulings H-1 to H-17): ship conversion, damage,
weapons, damage control, the turn sequence and the battle state machine."""

from __future__ import annotations

from bot.rules.hrft.convert import convert_design, convert_fleet, convert_toml
from bot.rules.hrft.imports import ships_from_file
from bot.rules.hrft.model import Block, Ship, System

__all__ = ["Block", "Ship", "System", "convert_design", "convert_fleet", "convert_toml",
           "ships_from_file"]

# The rule set object and the battle API the service drives (imported last: it needs the
# modules above).
from bot.rules.hrft.ruleset import RULESET, HrftRuleset  # noqa: E402
from bot.rules.hrft.samples import SAMPLE_KEYS, sample_ship  # noqa: E402
from bot.rules.hrft.sequence import HrftOptions  # noqa: E402
from bot.rules.hrft.state import BattleState, Force, add_ship  # noqa: E402

__all__ += ["RULESET", "SAMPLE_KEYS", "BattleState", "Force", "HrftOptions", "HrftRuleset",
            "add_ship", "sample_ship"]
