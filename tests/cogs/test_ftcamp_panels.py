"""FTCamp panels (issue 10, item 9): an ally with no ship to order in a hex is not held up by
a menu that can do nothing (E-D34): its engage panel is the one-click "nothing to do"; and a
fleet-order panel keeps every group's default when one group's order changes."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import AdmiraltyBot
from bot.rules.base import Ruleset
from bot.rules.dice import ScriptedDice
from bot.rules.ftcamp import export_scenario
from bot.rules.ftcamp.build import craft, group, scenario, static
from tests.cogs.conftest import ROLL_DICE
from tests.cogs.ftcamp_support import (
    SeededBot,
    channel_text,
    give,
    nothing_to_do,
    open_with,
    placeholder_ids,
    submit,
)
from tests.cogs.simworld import World, last_dm, shown

# Carol (seat 3, allied with alice) has only a static base in the contested hex 0202.
ALLY_WITH_A_BASE = export_scenario(scenario(
    "Base at 0202", (4, 4), ["Terran Union", "Kravak Horde", "Free Colonies"], [
        group("Vanguard", 1, "0202", craft("Resolute", 60, 4, armed=True, sensors=1)),
        group("Raiders", 2, "0202", craft("Fang", 50, 6, armed=True)),
        group("Far Patrol", 2, "0404", craft("Spear", 30, 5, armed=True)),
        group("Home Guard", 3, "0404", craft("Warden", 30, 3, armed=True)),
        static("Colony Base", 3, "0202", "A-1", craft("Dock", 100, 0, armed=True)),
    ], alliances=[(1, 3)]))


@pytest.fixture
def simcord_bot(db_path: Path, guess_rules: Ruleset) -> AdmiraltyBot:
    return SeededBot(db_path, roll_dice=ScriptedDice(ROLL_DICE))


async def test_ed34_an_ally_with_only_a_base_in_the_hex_has_nothing_to_answer(
    world: World,
) -> None:
    w = world
    await open_with(w, ALLY_WITH_A_BASE, ("alice", "bob", "carol"))
    await give(w.alice, ("Vanguard (0202)", "hold"))
    await give(w.bob, ("Far Patrol (0404)", "hold"), ("Raiders (0202)", "hold"))
    await give(w.carol, ("Home Guard (0404)", "hold"))
    await nothing_to_do(w.alice, w.bob, w.carol)  # special acts (E-D33)
    assert "Round 1: engage orders in hex 0202" in last_dm(w.carol).content
    carol = placeholder_ids(last_dm(w.carol))
    # Before: a bare "Declare an attack on an ally" menu; now the plain "nothing to do"
    assert list(carol) == ["Nothing for you to do in this step"]
    alice = placeholder_ids(last_dm(w.alice))
    assert "Attack an ally? (leave empty: no attack)" in alice  # alice can make the attack
    await submit(w.carol)  # one click: the only option is already chosen
    await give(w.alice, ("Vanguard: engage order", "SF"))
    await give(w.bob, ("Raiders: engage order", "SF"))
    assert "Engage orders revealed, hex 0202" in channel_text(w)


async def test_changing_one_groups_order_keeps_the_others_default(world: World) -> None:
    """Before: Bob changed Far Patrol's order and Submit said "Choose Raiders (0202) first"."""
    from tests.cogs.ftcamp_support import TWO_PLAYERS, choose

    w = world
    await open_with(w, TWO_PLAYERS, ("alice", "bob"))
    panel = last_dm(w.bob)
    far = next(c for row in panel.components for c in row.children
               if getattr(c, "placeholder", "") == "Far Patrol (0404)")
    move = next(o.value for o in far.options if o.value != "hold")
    raiders = next(c for row in panel.components for c in row.children
                   if getattr(c, "placeholder", "") == "Raiders (0202)")
    assert [o.value for o in raiders.options if o.default] == ["hold"]
    await choose(w.bob, "Far Patrol (0404)", move)
    panel = last_dm(w.bob)
    raiders = next(c for row in panel.components for c in row.children
                   if getattr(c, "placeholder", "") == "Raiders (0202)")
    assert [o.value for o in raiders.options if o.default] == ["hold"]  # still shown
    result = await submit(w.bob)
    assert not any("first" in f.content for f in result.followups), result.followups
    assert "Your orders are in" in last_dm(w.bob).content
    await give(w.alice, ("Vanguard (0202)", "hold"))
    reveal = next(shown(m) for m in w.chan.history() if "Fleet orders revealed" in shown(m))
    # the reveal embed: a field per player, a line per group
    assert "Kravak Horde: Far Patrol: move 0304, 0404 → 0304\nRaiders: hold, at 0202" in reveal
