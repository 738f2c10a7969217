"""Rule-set cogs see only what the user may see (issue 8, "What must exist" 2), in simcord:
no autocomplete offers anything hidden from the user typing, and a server admin is the GM
in /battle exactly as in /ftcamp (one rule, ``Ctx.is_gm``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.client import AdmiraltyBot
from bot.rules.base import Ruleset
from bot.rules.dice import ScriptedDice
from tests.cogs.conftest import ROLL_DICE
from tests.cogs.ftcamp_support import TWO_PLAYERS, SeededBot, open_with
from tests.cogs.simworld import World, shown
from tests.cogs.test_battle_commands import refused
from tests.cogs.test_battle_thread import (
    ORDERS_A,
    ORDERS_B,
    act_once,
    add_ships,
    open_battle,
    said,
    write_orders,
)

HIDDEN_HEX = "0404"  # only Bob's Far Patrol is there, hidden from Alice (E-D16)


@pytest.fixture
def simcord_bot(db_path: Path, guess_rules: Ruleset) -> AdmiraltyBot:
    return SeededBot(db_path, roll_dice=ScriptedDice(ROLL_DICE))


def values(choices: list[dict[str, Any]]) -> list[str]:
    return [c["value"] for c in choices]


async def test_ftcamp_hex_autocomplete_offers_no_hex_known_only_from_a_hidden_group(
    world: World,
) -> None:
    w = world
    await open_with(w, TWO_PLAYERS, ("alice", "bob"))
    for command in ("ftcamp group add", "ftcamp group move"):
        alice = values(await w.alice.autocomplete(w.chan, command, "hex", ""))
        assert "0202" in alice and HIDDEN_HEX not in alice  # her own group's hex only
        carol = values(await w.carol.autocomplete(w.chan, command, "hex", ""))
        assert HIDDEN_HEX not in carol  # a non-member: the public view
        assert HIDDEN_HEX in values(await w.bob.autocomplete(w.chan, command, "hex", ""))
        assert HIDDEN_HEX in values(await w.gm.autocomplete(w.chan, command, "hex", ""))
        assert HIDDEN_HEX in values(await w.admin.autocomplete(w.chan, command, "hex", ""))
    # Nothing is contested or pictured yet: the picture list is empty for everyone.
    assert await w.alice.autocomplete(w.chan, "ftcamp hex", "hex", "") == []


async def test_ftcamp_gm_autocompletes_answer_the_gm_and_admins_only(world: World) -> None:
    w = world
    await open_with(w, TWO_PLAYERS, ("alice", "bob"))
    every = ["Far Patrol", "Raiders", "Vanguard"]
    for member in (w.gm, w.admin):  # the one GM rule: the campaign's GM or Manage Server
        assert values(await member.autocomplete(w.chan, "ftcamp group move", "name", "")) == every
        assert values(await member.autocomplete(w.chan, "ftcamp flag", "group", "")) == every
        assert values(await member.autocomplete(w.chan, "ftcamp craft remove", "craft", "",
                                                group="Raiders")) == ["Fang", "Claw"]
    for member in (w.alice, w.bob, w.carol):
        assert await member.autocomplete(w.chan, "ftcamp group move", "name", "") == []
        assert await member.autocomplete(w.chan, "ftcamp group tug", "tug", "") == []
        assert await member.autocomplete(w.chan, "ftcamp craft damage", "craft", "",
                                         group="Raiders") == []
    # The GM rule also holds for the edits themselves.
    await refused(w.alice, w.chan, "ftcamp group remove", "Only the GM", name="Raiders")
    moved = await w.admin.slash(w.chan, "ftcamp group move", name="Far Patrol", hex="0303")
    assert moved.ephemeral and "group Far Patrol moved to hex 0303" in said(moved)


async def test_an_admin_is_the_gm_in_battle_commands_as_in_ftcamp(world: World) -> None:
    w = world
    thread = await open_battle(w)
    await add_ships(w, thread)
    await write_orders(w.alice, "1a", ORDERS_A)
    await write_orders(w.bob, "2a", ORDERS_B)
    # The admin holds no seat and did not open the battle, yet enters GM damage (H-D29).
    message = await act_once(w.admin, thread, "battle damage", target="2a", kind="direct",
                             arc="A", points="2", source="mine field")
    assert "entered by the GM" in shown(message)
    # A member who is neither is refused, as in /ftcamp.
    await refused(w.carol, thread, "battle damage", "You hold no seat", target="2a",
                  kind="direct", arc="A", points="2")


async def test_battle_autocompletes_follow_the_caller_s_requests(world: World) -> None:
    w = world
    thread = await open_battle(w)
    # Setup: a seated player is offered the samples; a non-member is offered nothing.
    assert "vanguard" in values(await w.alice.autocomplete(thread, "battle add", "sample", ""))
    assert await w.carol.autocomplete(thread, "battle add", "sample", "") == []
    await add_ships(w, thread)
    # Only the caller's own ships as the firer; a non-member has none.
    own = values(await w.alice.autocomplete(thread, "battle fire", "ship", ""))
    assert own == ["1a"]
    assert await w.carol.autocomplete(thread, "battle fire", "ship", "") == []
    assert await w.carol.autocomplete(thread, "battle fire", "weapons", "", ship="1a") == []
