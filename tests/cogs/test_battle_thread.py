"""An HRFT battle refereed in a thread, driven as users would in simcord (issue 5).

Two sides with one sample ship each: sealed step-1 orders by DM panel, fire with dice and
thresholds, a cascade (H-7) entered as manual damage, a repair (H-10), sheets and the report.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import simcord

from bot.client import AdmiraltyBot
from bot.rules.base import Ruleset
from bot.rules.dice import ScriptedDice
from tests.cogs.conftest import ROLL_DICE
from tests.cogs.simworld import World, custom_ids, last_dm, texts

SEED = 20261130  # the campaign's dice seed: the same rolls on every run
PNG = b"\x89PNG"
ORDERS_A = {"speed": "2", "thrust": "3", "turn": "P1", "screens": "off"}
ORDERS_B = {"speed": "0", "thrust": "0", "turn": "0", "screens": "all:1"}


class SeededBot(AdmiraltyBot):
    """The real bot; only the campaign seed is fixed so that the rolls are reproducible."""

    async def setup_hook(self) -> None:
        await super().setup_hook()
        self.service._seed_source = lambda: SEED  # noqa: SLF001


@pytest.fixture
def simcord_bot(db_path: Path, guess_rules: Ruleset) -> AdmiraltyBot:
    return SeededBot(db_path, roll_dice=ScriptedDice(ROLL_DICE))


def said(result: simcord.InteractionResult) -> str:
    """Everything the bot answered to one interaction (response and follow-ups)."""
    parts = [result.response.content] if result.response is not None else []
    return "\n".join(parts + [f.content for f in result.followups])


def thread_of(w: World) -> simcord.ChannelHandle:
    threads = w.chan.threads
    assert len(threads) == 1, threads
    return threads[0]


async def open_battle(w: World) -> simcord.ChannelHandle:
    started = await w.gm.slash(w.chan, "battle start", name="Skirmish at Vega")
    assert not started.ephemeral
    thread = thread_of(w)
    assert thread.mention in said(started)
    assert "/battle join" in texts(thread)[0]
    for member in (w.alice, w.bob):
        joined = await member.slash(thread, "battle join")
        assert "joined as seat" in joined.response.content
    begun = await w.gm.slash(thread, "battle begin")
    assert begun.ephemeral
    return thread


async def add_ships(w: World, thread: simcord.ChannelHandle) -> None:
    for member, sample in ((w.alice, "vanguard"), (w.bob, "wolfhound")):
        added = await member.slash(thread, "battle add", sample=sample)
        assert added.ephemeral and "Added the sample" in said(added)
        ready = await member.slash(thread, "battle ready")
        assert ready.ephemeral


async def write_orders(member: simcord.MemberActor, ship: str, orders: dict[str, str]) -> None:
    """Fills the generic DM panel: one Select per order field, then Submit."""
    for name, value in orders.items():
        panel = last_dm(member)
        ids = [i for i in custom_ids(panel) if ":sel:" in i]
        fields = [f"{ship}.speed", f"{ship}.thrust", f"{ship}.turn", f"{ship}.screens"]
        await member.user.select(panel, [value], custom_id=ids[fields.index(f"{ship}.{name}")])
    await member.user.click(last_dm(member), label="Submit")


def joined_texts(thread: simcord.ChannelHandle) -> str:
    return "\n".join(texts(thread))


async def test_a_battle_in_a_thread_from_orders_to_report(world: World) -> None:
    w = world
    thread = await open_battle(w)
    await add_ships(w, thread)
    assert "Vanguard (1a)" in joined_texts(thread)

    # Step 1: sealed orders by DM; the thread only hears that they are in.
    assert "write orders for Vanguard" in last_dm(w.alice).content
    await write_orders(w.alice, "1a", ORDERS_A)
    assert "speed 2" not in joined_texts(thread)
    assert "P1" not in joined_texts(thread)
    await write_orders(w.bob, "2a", ORDERS_B)
    log = joined_texts(thread)
    assert "orders revealed" in log
    assert "Vanguard: speed 2, thrust 3, turn P1" in log
    print(log)

    # Step 10: fire. The command answers the firer alone; the thread gets ONE message with
    # every die and the updated sheet.
    before = len(thread.history())
    fired = await w.alice.slash(thread, "battle fire", ship="1a", weapons="all", target="2a",
                                range=5, arc="F")
    assert fired.ephemeral and "result is in the thread" in said(fired)
    new = thread.history()[before:]
    assert len(new) == 1, [m.content for m in new]
    print(new[0].content)
    damaged = await w.alice.slash(thread, "battle damage", target="2a", kind="direct",
                                  arc="F", points=25, source="heavy missile")
    print(said(damaged), thread.history()[-1].content)
