"""/battle for the GM and for a battle of an FTCamp campaign, in simcord (issue 5): GM manual
damage (H-D29), damage as a number or a per-hit list (H-D30), and the craft of an FTCamp
battle brought in under their players' seats (H-D28)."""

from __future__ import annotations

from bot.campaign import Actor
from bot.client import AdmiraltyBot
from bot.rules.ftcamp import State, build, export_scenario
from bot.rules.ftcamp.model import Battle, BattleGroup, HexResult
from bot.rules.ftcamp.warmodel import WarBattle
from tests.cogs.simworld import World, shown, texts
from tests.cogs.test_battle_commands import refused
from tests.cogs.test_battle_thread import (
    ORDERS_A,
    ORDERS_B,
    act_once,
    add_ships,
    open_battle,
    said,
    thread_of,
    write_orders,
)
from tests.rules.hrft.test_gm_and_link import DREAD


async def test_hd29_the_gm_enters_manual_damage_as_a_per_hit_list(world: World) -> None:
    w = world
    thread = await open_battle(w)
    await add_ships(w, thread)
    # Step 1 is sealed orders: nobody enters damage, the GM neither.
    await refused(w.gm, thread, "battle damage", "You cannot enter damage now", target="2a",
                  kind="direct", arc="A", points="3")
    await write_orders(w.alice, "1a", ORDERS_A)
    await write_orders(w.bob, "2a", ORDERS_B)
    assert "Ships fire (simultaneous)**: act" in "\n".join(texts(thread))

    # The GM holds no seat and is asked nothing, yet enters damage through the service:
    # ONE thread message with the dice and the sheet, an ephemeral answer to the GM.
    await refused(w.gm, thread, "battle damage", "'x' is not a whole number", target="2a",
                  kind="direct", arc="A", points="3,x")
    message = await act_once(w.gm, thread, "battle damage", target="2a", kind="direct",
                             arc="A", points="3,2,4", source="mine field")
    assert "entered by the GM" in shown(message) and "mine field" in shown(message)
    assert "Hits 3 + 2 + 4 = 9 (one attack)" in shown(message)
    status = await w.gm.slash(thread, "battle status")
    assert "Waiting for:" in said(status) and "the GM" not in said(status).split(
        "Waiting for:")[1]
    assert not block_a_whole(said(await w.bob.slash(thread, "battle status", ship="2a")))
    # The GM's entry is a resolution like any other: /gm undo takes it back.
    undone = await w.gm.slash(thread, "gm undo")
    assert undone.ephemeral and "the GM undid the last result" in "\n".join(texts(thread))
    assert block_a_whole(said(await w.bob.slash(thread, "battle status", ship="2a")))
    # A player's entry may be larger than the panel's 25.
    big = await act_once(w.alice, thread, "battle damage", target="2a", kind="enveloping",
                         arc="F", points="30")
    assert "enveloping damage" in shown(big) and "entered by alice" in shown(big)


def block_a_whole(status: str) -> bool:
    line = next(ln for ln in status.splitlines() if ln.startswith("- block A:"))
    hull = line.split("hull ", 1)[1].split(",", 1)[0]
    left, total = hull.split("/")
    return left == total


# Vanguard: a craft of a sample design, one with no design, one of an uploaded design.
SCENARIO = export_scenario(build.scenario("Border War", (4, 4), ["Terran Union", "Kravak Horde"], [
    build.group("Vanguard", 1, "0202", build.craft("Resolute", 60, design="Vanguard"),
                build.craft("Valiant", 40), build.craft("Titan", 40, design="Dreadnought X")),
    build.group("Raiders", 2, "0202", build.craft("Fang", 50, design="wolfhound")),
]))



def with_battle(state: State) -> State:
    groups = [BattleGroup(group="Vanguard", owner=1, role="attacker"),
              BattleGroup(group="Raiders", owner=2, role="defender")]
    battle = Battle(hex="0202", sector="A-3", rule="both engage", groups=groups)
    # P-20: the round waits for it (E-D36), so its rules list it as open now
    return state.model_copy(update={"results": [HexResult(round=1, hex="0202",
                                                          battles=[battle])],
                                    "step": "battles",
                                    "war": [WarBattle(ref="0202/A-3", round=1)]})


async def ftcamp_parent(w: World, bot: AdmiraltyBot) -> None:
    """An FTCamp campaign in the other channel (alice seat 1, bob seat 2) whose latest battle
    list has one battle, 0202/A-3 (set by a GM edit: the engage phase is tested elsewhere)."""
    await w.gm.slash(w.other_chan, "campaign create", ruleset="ftcamp", name="Border War")
    loaded = await w.gm.slash(w.other_chan, "ftcamp load", file=("war.toml", SCENARIO.encode()))
    assert "Loaded war.toml" in said(loaded), said(loaded)
    for member in (w.alice, w.bob):
        await member.slash(w.other_chan, "campaign join")
    await w.gm.slash(w.other_chan, "campaign start")
    await bot.service.gm_edit_state(Actor(w.gm.user.id, "gm"), w.other_chan.id, with_battle,
                                    "battle list for the test")
    await w.env.settle()


async def test_hd28_an_ftcamp_battle_brings_in_the_craft_that_name_a_design(
    world: World, simcord_bot: AdmiraltyBot
) -> None:
    w = world
    await ftcamp_parent(w, simcord_bot)
    # Only the parent's GM brings its craft in; a battle id that is not in the list is refused,
    # and neither refusal leaves a thread behind.
    await refused(w.alice, w.chan, "battle start", "Only the GM of **Border War**", name="X",
                  parent="1", ref="0202/A-3")
    await refused(w.gm, w.chan, "battle start", "has no battle '0202/B-1'", name="X",
                  parent="1", ref="0202/B-1")
    assert w.chan.threads == []

    # E-D38: a craft that names no design is not left out silently: the GM is shown what
    # comes in and chooses a design for it (or fights the battle at the table)
    await refused(w.gm, w.chan, "battle start", "these craft name no design: Valiant (Terran "
                  "Union, mass 40, nearest sample jackal)", name="X", parent="1", ref="0202/A-3")
    await refused(w.gm, w.chan, "battle start", "designs: write 'auto'", name="X", parent="1",
                  ref="0202/A-3", designs="Valiant")
    assert w.chan.threads == []
    started = await w.gm.slash(w.chan, "battle start", name="Battle of 0202", parent="1",
                               ref="0202 a-3", designs="valiant=Kestrel")
    assert not started.ephemeral
    thread = thread_of(w)
    await w.env.settle()
    # E-D36: one intent seats the owners' members (parent seat order), starts the battle and
    # brings the craft in; nobody has to join or begin.
    log = "\n".join(texts(thread))
    assert f"<@{w.alice.user.id}>" in log and f"<@{w.bob.user.id}>" in log
    assert ("brought in Resolute (Vanguard) for alice as 1a; Valiant (Kestrel) for alice as "
            "1b; Fang (Wolfhound) for bob as 2a" in log)
    assert "Not brought in: Titan (design 'Dreadnought X' not found" in log
    await refused(w.gm, thread, "battle begin", "already begun")

    # The GM uploads the missing design: the craft that names it joins its owner's side.
    await refused(w.alice, thread, "battle design", "Only the GM uploads designs",
                  file=("dread.toml", DREAD.encode()))
    up = await w.gm.slash(thread, "battle design", file=("dread.toml", DREAD.encode()))
    assert up.ephemeral and "result is in the thread" in said(up)
    assert "brought in Titan (Dreadnought X) for alice as 1c" in "\n".join(texts(thread))
    await refused(w.gm, thread, "battle design", "No craft waits for Dreadnought X",
                  file=("dread.toml", DREAD.encode()))
    status = await w.alice.slash(thread, "battle status", ship="1c")
    assert "**Titan** (1c, alice)" in said(status)
    # The parent channel heard nothing of the roster (it names every craft and design).
    assert not any("Titan" in t for t in texts(w.other_chan))


async def test_p20_a_free_text_reference_is_refused_and_makes_no_thread(
    world: World, simcord_bot: AdmiraltyBot
) -> None:
    """P-20 (was H-D28's free description): a reference that is not a battle the parent's
    rules list is refused, for its GM too; no thread is left and the parent hears nothing."""
    w = world
    await ftcamp_parent(w, simcord_bot)
    before = texts(w.other_chan)
    await refused(w.gm, w.chan, "battle start", "is not a battle of **Border War** that "
                  "waits to be fought. Pick one from the list: 0202/A-3", name="Side show",
                  parent="1", ref="the ambush at dawn")
    assert w.chan.threads == [] and texts(w.other_chan) == before
