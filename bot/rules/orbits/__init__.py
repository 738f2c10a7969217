"""Orbits: the card campaign of seed 004, read through rulings O-1 to O-18 (RULINGS.md)."""

from __future__ import annotations

from bot.rules.orbits.battle import battle_force, check_discard, propose_discard
from bot.rules.orbits.geometry import distance
from bot.rules.orbits.options import OrbitsOptions
from bot.rules.orbits.ruleset import HELP_TEXT, RULESET, OrbitsRuleset
from bot.rules.orbits.scripted import scripted_player
from bot.rules.orbits.state import OrbitsState

help_text = HELP_TEXT

__all__ = [
    "RULESET", "OrbitsOptions", "OrbitsRuleset", "OrbitsState", "battle_force", "check_discard",
    "distance", "help_text", "propose_discard", "scripted_player",
]
