"""An HRFT battle refereed in a thread, driven as users would in simcord (issue 5).

Two sides with one sample ship each: sealed step-1 orders by DM panel, fire with dice and
thresholds, a cascade (H-7) entered as manual damage, a repair (H-10), sheets and the report.
"""

from __future__ import annotations

from pathlib import Path

import discord
import pytest
import simcord

from bot.client import AdmiraltyBot
from bot.rules.base import Ruleset
from bot.rules.dice import ScriptedDice
from tests.cogs.conftest import ROLL_DICE
from tests.cogs.simworld import World, custom_ids, last_dm, shown, texts

SEED = 2  # the campaign dice seed: the same rolls on every run
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
    assert "Write orders for Vanguard" in last_dm(w.alice).content
    await write_orders(w.alice, "1a", ORDERS_A)
    assert "Your orders are in" in last_dm(w.alice).content  # her DM, not the thread
    assert "speed 2" not in joined_texts(thread)
    assert "P1" not in joined_texts(thread)
    await write_orders(w.bob, "2a", ORDERS_B)
    log = joined_texts(thread)
    assert "orders revealed" in log
    assert "Vanguard: speed 2, thrust 3, turn P1" in log
    assert "Ships fire (simultaneous)**: act, then Ready." in log  # H-D45: no step numbers
    assert "10." not in log and "fighter" not in log.lower()  # nobody has any (H-D45)

    # Ships fire. The command answers the firer alone; the fire step's post takes the
    # result with every die and the updated sheet (H-D46). With this seed the attack
    # completes row 1 of block F and rolls the level-1 threshold (H-5, H-6).
    fire = await fire_once(w, thread)
    assert "Threshold in block F, level 1" in shown(fire)
    assert "dice [" in shown(fire) and "vs 6+" in shown(fire)

    # A heavy missile entered by hand strips block F and cascades into both neighbours with
    # armour bypassed (H-7); the cascade thresholds are rolled in the same message.
    damage = await act_once(w.alice, thread, "battle damage", target="2a", kind="direct",
                            arc="F", points="25", source="heavy missile")
    assert "heavy missile" in shown(damage)
    # the same step's post, edited: both results in order, ship 2a's newest sheet once,
    # inside the newest embed about it (H-D46)
    assert damage.id == fire.id
    assert [a.filename for a in damage.attachments] == ["sheet-2a.png"]
    assert [e.image.url for e in damage.embeds if e.image] == ["attachment://sheet-2a.png"]
    assert shown(damage).index("Vanguard fires at Wolfhound") < shown(damage).index(
        "heavy missile")
    # the embed leaves ruling ids to the log (the event text keeps them)
    assert "cascade past stripped block, armour bypassed" in shown(damage)
    assert "(H-7)" not in shown(damage)
    assert "Stripped block + adjacent" in shown(damage)
    status = await w.bob.slash(thread, "battle status", ship="2a")
    assert status.ephemeral
    assert "block F: hull 0/" in said(status) and "stripped" in said(status)

    # Step 10 ends when both sides are ready; bob's communications are out (with this seed),
    # so his ship fires late, alone (H-11, H-D22). Then step 18, then step 19: damage control.
    await ready(w.alice, thread)
    await ready(w.bob, thread)
    assert "ships with damaged communications fire now" in joined_texts(thread)
    late = await w.alice.slash(thread, "battle ready")
    assert late.ephemeral and "You cannot say ready now" in said(late)
    await ready(w.bob, thread)
    assert "Ships fire weapons not yet fired" in joined_texts(thread)
    await ready(w.alice, thread)
    await ready(w.bob, thread)
    await ready(w.bob, thread)  # the late phase of step 18
    assert "Turn end: damage control" in joined_texts(thread)
    choices = await w.bob.autocomplete(thread, "battle repair", "target", "")
    assert choices and all(c["value"].startswith("2a|") for c in choices)
    repair = await act_once(w.bob, thread, "battle repair", target=choices[0]["value"],
                            parties=3)
    assert "Damage control" in shown(repair) and "d6" in shown(repair)

    # Anybody may post a sheet; the GM ends the battle with a report of every ship.
    sheet = await w.carol.slash(thread, "battle sheet", ship="2a")
    assert not sheet.ephemeral
    assert (await sheet.response.attachments[0].read()).startswith(PNG)
    before = len(thread.history())
    ended = await w.gm.slash(thread, "battle end", reason="Wolfhound withdraws")
    assert ended.ephemeral
    report = "\n".join(shown(m) for m in thread.history()[before:])
    assert "Wolfhound withdraws" in report
    assert "Vanguard (1a, alice): fighting" in report
    assert "Wolfhound (2a, bob)" in report and "out:" in report
    refused = await w.alice.slash(thread, "battle ready")
    assert refused.ephemeral and "This battle is over" in said(refused)
    # Issue 10: the finished battle stays readable: sheets, ship details, its status.
    sheet = await w.carol.slash(thread, "battle sheet", ship="2a")
    assert not sheet.ephemeral and "Ship sheet of 2a" in sheet.response.content
    assert (await sheet.response.attachments[0].read()).startswith(PNG)
    assert "Wolfhound" in said(await w.bob.slash(thread, "battle status", ship="2a"))
    status = said(await w.alice.slash(thread, "campaign status"))
    assert "finished. The GM ended it: Wolfhound withdraws" in status
    # Nothing of the battle leaked into the parent channel besides the opening line.
    assert len(w.chan.history()) <= 2


async def ready(member: simcord.MemberActor, thread: simcord.ChannelHandle) -> None:
    result = await member.slash(thread, "battle ready")
    assert result.ephemeral and said(result) == "Ready.", said(result)


async def act_once(member: simcord.MemberActor, thread: simcord.ChannelHandle, command: str,
                   **options: object) -> discord.Message:
    """Runs an action command: an ephemeral answer, and the step's post (the thread's last
    message; H-D46: no new message) carries the result as its newest embed with the target's
    sheet PNG inside."""
    before = len(thread.history())
    result = await member.slash(thread, command, **options)
    assert result.ephemeral and "result is in the thread" in said(result), said(result)
    assert len(thread.history()) - before <= 1, [m.content for m in thread.history()[before:]]
    message = thread.history()[-1]
    sheet = f"sheet-{str(options['target']).split('|', 1)[0]}.png"
    assert message.embeds[-1].image.url == f"attachment://{sheet}"
    (file,) = [f for f in message.attachments if f.filename == sheet]
    assert (await file.read()).startswith(PNG)
    return message


async def fire_once(w: World, thread: simcord.ChannelHandle) -> discord.Message:
    message = await act_once(w.alice, thread, "battle fire", ship="1a", weapons="all",
                             target="2a", range=5, arc="F")
    assert "Vanguard fires at Wolfhound (range 6 MU" in shown(message)
    # the fire report is an embed with the target's sheet inside, attached to the same post
    embed = message.embeds[-1]
    assert embed.image.url == "attachment://sheet-2a.png"
    assert [a.filename for a in message.attachments] == ["sheet-2a.png"]
    assert any(" band " in f.name and f.inline for f in embed.fields)  # a field per weapon
    return message
