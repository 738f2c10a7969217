"""FTCamp 0.2 engage orders (rulings E-1 to E-13): a pure rules engine.

Public API: ``RULESET`` (the Ruleset), ``group_size``, ``engage_value``, ``max_subdivisions``,
``load_scenario``, ``export_scenario``, the GM edits in ``gm`` and the ``State`` model.
"""

from __future__ import annotations

from bot.rules.ftcamp import gm
from bot.rules.ftcamp.core import engage_value, group_size, max_subdivisions
from bot.rules.ftcamp.gm import (
    add_craft,
    add_group,
    mark_damage,
    mark_ftl_lost,
    move_group,
    remove_craft,
    remove_group,
    set_flags,
)
from bot.rules.ftcamp.machine import RULESET, FTCampOptions, FTCampRuleset
from bot.rules.ftcamp.model import Craft, Group, State
from bot.rules.ftcamp.scenario import export_scenario, load_scenario

__all__ = [
    "RULESET", "Craft", "FTCampOptions", "FTCampRuleset", "Group", "State", "add_craft",
    "add_group", "engage_value", "export_scenario", "gm", "group_size", "load_scenario",
    "mark_damage", "mark_ftl_lost", "max_subdivisions", "move_group", "remove_craft",
    "remove_group", "set_flags",
]
