"""P-14, O-D21: /gm undo in an Orbits campaign never unlinks a battle being fought in its
HRFT thread. The link is written outside a resolution of the campaign (O-D18), so an undo
that goes back past it links the battle again where the restored state waits for it, or
keeps the link until the same orders list the battle again; when the game goes another way,
the thread and the GM are told that it fights no battle of the campaign any more, and its
result goes nowhere.

Before P-14 (measured on the code without it): an undo to before the battle list, then the
same deployment, asked ALICE and BOB to report a battle their thread was fighting; and a
result that ended while the battle was unlisted was lost ("no longer waits")."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from bot.campaign import CampaignService, war_link, war_undo
from bot.rules.base import GM_SEAT
from bot.rules.orbits.battles import open_battles
from bot.rules.orbits.state import OrbitsState
from storage import Database, battle_links, migrate, open_database
from storage import campaigns as campaign_rows
from storage import events as event_log
from storage.battle_links import LinkState, ResultState
from storage.db import migrations
from storage.outbox import OutboxRow
from tests.campaign.conftest import (
    ALICE,
    BOB,
    GM,
    GUILD,
    SEED,
    FakeClock,
    channel_texts,
    dms_to,
    outbox,
)
from tests.campaign.test_orbits_war_loop import (
    PARENT_CHANNEL,
    THREAD,
    at_battle,
    parent,
    parent_state,
)

# the GM's log lines of each change (the GM's record; undo reads the battle_links rows)
LINKED, LINK_OWED, LINK_DROPPED = (war_link.LOGGED[s] for s in LinkState)
LINK_MARKS = (LINKED, LINK_OWED, LINK_DROPPED)
ARRIVED, OWED, DROPPED = (war_undo.LOGGED[s] for s in ResultState)
MARKS = (ARRIVED, OWED, DROPPED)

NAME = "Battle at Orbit 1"
REPORT = "battle at Orbit 1, losses"  # the report step's title in a player's panel


async def pending(service: CampaignService, pid: int) -> list[tuple[int, str]]:
    return [(r.seat, r.step) for r in (await service.snapshot(pid)).pending]


async def open_it(service: CampaignService, pid: int) -> int:
    """Opened in its thread; the report asks the players nothing from now on."""
    return (await service.open_battle(GM, GUILD, THREAD, NAME, pid, "Orbit 1")).id


async def replay(service: CampaignService) -> None:
    """The same position again (as the same deployment orders give it, P-5)."""
    await service.gm_edit_state(GM, PARENT_CHANNEL, at_battle, "the battle at Orbit 1")


async def marks(db: Database, pid: int, kinds: tuple[str, ...] = LINK_MARKS) -> list[str]:
    return [m.kind for m in await event_log.of_kinds(db, pid, kinds)]


async def link_of(db: Database, pid: int) -> tuple[LinkState | None, ResultState | None]:
    """The state of the campaign's one battle thread: its link and its result."""
    [row] = await battle_links.of_parent(db, pid)
    return row.link, row.result


def asked_to_report(rows: list[OutboxRow], since: int) -> int:
    """Panels asking a player to report the battle, after outbox row ``since``."""
    later = [r for r in rows if r.id > since]
    return sum(REPORT in r.content for r in [*dms_to(later, ALICE), *dms_to(later, BOB)])


async def last_id(db: Database) -> int:
    return max(r.id for r in await outbox(db))


async def row_state(db: Database, pid: int) -> Any:
    row = await campaign_rows.get(db, pid)
    assert row is not None
    return row


async def test_p14_undo_to_before_the_battle_list_links_it_again_when_it_comes_up(
    service: CampaignService, db: Database
) -> None:
    pid = await parent(service)
    await open_it(service, pid)
    opened = await last_id(db)
    text = await service.gm_undo(GM, PARENT_CHANNEL)  # back before the battle list
    assert (f"The **{NAME}** (Orbit 1, turn 1) is still being fought in its thread: "
            "it is linked again as soon as that battle comes up.") in text
    assert (await parent_state(db, pid)).battles == []
    assert await marks(db, pid) == [LINKED, LINK_OWED]
    assert await link_of(db, pid) == (LinkState.OWED, None)
    await replay(service)
    state = await parent_state(db, pid)
    assert state.battles[0].linked == NAME
    assert await pending(service, pid) == [(GM_SEAT, "battle1_linked")]
    rows = await outbox(db)
    assert asked_to_report(rows, opened) == 0  # the players are never asked for this battle
    assert await marks(db, pid, ("battle_linked",)) == ["battle_linked"] * 2  # said again
    assert await marks(db, pid) == [LINKED, LINK_OWED, LINKED]
    assert await link_of(db, pid) == (LinkState.LINKED, None)
    # the thread's result reaches the campaign, under its thread's name
    await service.end(GM, THREAD, "the sides part")
    assert await pending(service, pid) == [(GM_SEAT, "battle1_confirm")]
    assert (await parent_state(db, pid)).battles[0].linked == NAME
    # a further undo (of the replay) keeps it again, silently for the thread's result
    text = await service.gm_undo(GM, PARENT_CHANNEL)
    assert "it is kept, and proposed again" in text
    await replay(service)
    assert await pending(service, pid) == [(GM_SEAT, "battle1_confirm")]
    assert asked_to_report(await outbox(db), opened) == 0


async def test_p14_undo_that_keeps_the_battle_waiting_links_it_in_the_same_step(
    service: CampaignService, db: Database
) -> None:
    pid = await parent(service)
    await service.gm_edit_state(GM, PARENT_CHANNEL, lambda s: s.clone(), "nothing")
    await open_it(service, pid)
    opened = await last_id(db)
    linked = (await row_state(db, pid)).state
    text = await service.gm_undo(GM, PARENT_CHANNEL)  # the battle list stays
    assert (f"The **{NAME}** (Orbit 1, turn 1) is still being fought in its thread: "
            "its result will be proposed here when it ends.") in text
    assert (await row_state(db, pid)).state == linked
    assert await pending(service, pid) == [(GM_SEAT, "battle1_linked")]
    assert asked_to_report(await outbox(db), opened) == 0
    # undo again, past the battle list: kept, then linked by the same list
    await service.gm_undo(GM, PARENT_CHANNEL)
    await replay(service)
    assert await pending(service, pid) == [(GM_SEAT, "battle1_linked")]
    assert await marks(db, pid) == [LINKED, LINKED, LINK_OWED, LINKED]
    assert await link_of(db, pid) == (LinkState.LINKED, None)


async def test_p14_result_in_then_undo_before_the_confirmation(
    service: CampaignService, db: Database
) -> None:
    pid = await parent(service)
    await open_it(service, pid)
    opened = await last_id(db)
    await service.end(GM, THREAD, "the sides part")
    proposal = await row_state(db, pid)
    assert (await parent_state(db, pid)).battles[0].proposal is not None
    text = await service.gm_undo(GM, PARENT_CHANNEL)
    assert "it is kept, and proposed again as soon as that battle waits" in text
    assert "still being fought" not in text  # it is over: its result is what matters
    await replay(service)
    again = await row_state(db, pid)
    assert again.state == proposal.state  # linked to its thread by name, result proposed
    assert await pending(service, pid) == [(GM_SEAT, "battle1_confirm")]
    rows = await outbox(db)
    assert asked_to_report(rows, opened) == 0
    # P-15: the parent heard of the thread's result as a proposal, never its closing words
    assert sum("result proposed" in t and NAME in t for t in channel_texts(rows)) == 2
    assert not any("is over" in t and NAME in t for t in channel_texts(rows))
    assert await marks(db, pid, MARKS) == [ARRIVED, OWED, ARRIVED]
    assert await link_of(db, pid) == (LinkState.LINKED, ResultState.ARRIVED)
    await service.submit(GM, pid, again.step_no, {"type": "confirm"}, seat=GM_SEAT)
    assert (await parent_state(db, pid)).turn == 2  # nobody lost anything: the next turn


async def test_p14_after_the_confirmation_undo_twice_then_the_same_battle_again(
    service: CampaignService, db: Database
) -> None:
    pid = await parent(service)
    await open_it(service, pid)
    opened = await last_id(db)
    await service.end(GM, THREAD, "the sides part")
    proposal = await row_state(db, pid)
    await service.submit(GM, pid, proposal.step_no, {"type": "confirm"}, seat=GM_SEAT)
    confirmed = (await row_state(db, pid)).state
    first = await service.gm_undo(GM, PARENT_CHANNEL)
    assert (await row_state(db, pid)).state == proposal.state
    assert "still being fought" not in first and "kept" not in first
    second = await service.gm_undo(GM, PARENT_CHANNEL)
    assert "it is kept" in second
    await replay(service)
    again = await row_state(db, pid)
    assert again.state == proposal.state
    await service.submit(GM, pid, again.step_no, {"type": "confirm"}, seat=GM_SEAT)
    assert (await row_state(db, pid)).state == confirmed
    rows = await outbox(db)
    assert asked_to_report(rows, opened) == 0
    assert sum("Proposed result of the battle at Orbit 1" in r.content
               for r in dms_to(rows, GM)) == 2  # at its end, and when it came up again


async def test_p14_thread_ends_while_its_battle_is_unlisted_the_result_is_kept(
    service: CampaignService, db: Database
) -> None:
    pid = await parent(service)
    await open_it(service, pid)
    opened = await last_id(db)
    await service.gm_undo(GM, PARENT_CHANNEL)
    await service.end(GM, THREAD, "the sides part")  # nothing waits in the campaign now
    note = [r.content for r in dms_to(await outbox(db), GM) if "ended before" in r.content]
    assert note == [f"**{NAME}** (Orbit 1, turn 1) ended before that battle came up "
                    "again after the undo: its result is kept, and proposed as soon as that "
                    "battle waits for it."]
    assert await marks(db, pid, MARKS) == [OWED]
    assert await link_of(db, pid) == (LinkState.OWED, ResultState.OWED)
    await replay(service)
    state = await parent_state(db, pid)
    assert state.battles[0].linked == NAME and state.battles[0].proposal is not None
    assert await pending(service, pid) == [(GM_SEAT, "battle1_confirm")]
    assert asked_to_report(await outbox(db), opened) == 0


def at_orbit_2(state: OrbitsState) -> OrbitsState:
    """The game went another way: the fleets meet at Orbit 2, not Orbit 1."""
    st = at_battle(state)
    for c in st.table:
        if c.area == "orbit:1":
            c.area = "orbit:2"
    st.stances = {k.replace("orbit:1", "orbit:2"): v for k, v in st.stances.items()}
    st.battles, st.phase = [], "deployment"
    open_battles(st, [])
    return st


async def test_p14_the_battle_does_not_come_up_again_the_thread_and_gm_are_told(
    service: CampaignService, db: Database
) -> None:
    pid = await parent(service)
    battle = await open_it(service, pid)
    await service.gm_undo(GM, PARENT_CHANNEL)
    await service.gm_edit_state(GM, PARENT_CHANNEL, at_orbit_2, "the fleets at Orbit 2")
    state = await parent_state(db, pid)
    assert [b.area for b in state.battles] == ["orbit:2"] and state.battles[0].linked is None
    assert await pending(service, pid) == [(1, "battle1_report"), (2, "battle1_report")]
    gone = (f"**{NAME}** (Orbit 1, turn 1) no longer fights a battle of **Sol**: the "
            "GM there undid the game to before that battle, and it did not come up again. "
            "When it ends, its result is not sent to the campaign.")
    rows = await outbox(db)
    thread = await row_state(db, battle)
    assert [r.content for r in rows if r.kind == "channel" and r.channel_id == THREAD
            and gone in r.content] == [gone]
    assert thread.channel_id == THREAD
    assert sum(gone in r.content for r in dms_to(rows, GM)) == 1
    assert await marks(db, pid) == [LINKED, LINK_OWED, LINK_DROPPED]
    before = (await row_state(db, pid)).state
    await service.end(GM, THREAD, "the sides part")
    assert (await row_state(db, pid)).state == before  # proposed nowhere
    ended = [r.content for r in dms_to(await outbox(db), GM)
             if "ended, but it no longer fights" in r.content]
    assert len(ended) == 1 and "its result is not proposed" in ended[0]
    assert await marks(db, pid, MARKS) == []
    assert await link_of(db, pid) == (LinkState.DROPPED, None)
    # even an undo back to Orbit 1's battle does not make it fight for the campaign again
    await service.gm_undo(GM, PARENT_CHANNEL)
    await replay(service)
    assert await pending(service, pid) == [(1, "battle1_report"), (2, "battle1_report")]


def next_turn(state: OrbitsState) -> OrbitsState:
    st = state.clone()
    st.turn += 1
    return st


async def test_o_d21_a_kept_link_belongs_to_its_turn(
    service: CampaignService, db: Database
) -> None:
    """The turn ends without the battle (here the GM moves the game on): the kept link is
    dropped and the thread told, never linked to next turn's battle at Orbit 1."""
    pid = await parent(service)
    await open_it(service, pid)
    await service.gm_undo(GM, PARENT_CHANNEL)
    await service.gm_edit_state(GM, PARENT_CHANNEL, next_turn, "turn 2")
    assert await marks(db, pid) == [LINKED, LINK_OWED, LINK_DROPPED]
    told = [r.content for r in await outbox(db) if r.channel_id == THREAD
            and "no longer fights a battle of **Sol**" in r.content]
    assert len(told) == 1


async def test_o_d21_a_kept_result_belongs_to_its_turn(
    service: CampaignService, db: Database
) -> None:
    """P-13 with Orbits' round (its turn): a result kept after an undo is dropped, the GM
    told, when its turn is over without the battle; its thread is over, so it is not told."""
    pid = await parent(service)
    await open_it(service, pid)
    await service.end(GM, THREAD, "over")
    assert "it is kept" in await service.gm_undo(GM, PARENT_CHANNEL)
    sent = len(await outbox(db))
    await service.gm_edit_state(GM, PARENT_CHANNEL, next_turn, "turn 2")
    assert await marks(db, pid, MARKS) == [ARRIVED, OWED, DROPPED]
    assert await marks(db, pid) == [LINKED, LINK_OWED, LINK_DROPPED]
    assert await link_of(db, pid) == (LinkState.DROPPED, ResultState.DROPPED)
    rows = (await outbox(db))[sent:]
    note = [r.content for r in dms_to(rows, GM) if "was kept after an undo" in r.content]
    assert len(note) == 1 and "round 1" in note[0] and NAME in note[0]
    assert not [r for r in rows if r.channel_id == THREAD]


async def test_p14_a_link_an_older_version_kept_is_made_again_after_the_upgrade(
    tmp_path: Path,
) -> None:
    """Migration 010 on a database the bot of schema 009 left with a battle kept linked by
    an undo (only its marks in the log said so): after the upgrade the same deployment links
    it again, and the players are never asked to report it."""
    path = tmp_path / "war.db"
    db = await open_database(path)
    try:
        service = CampaignService(db, clock=FakeClock(), seed_source=lambda: SEED)
        pid = await parent(service)
        await open_it(service, pid)
        opened = await last_id(db)
        assert "linked again as soon as" in await service.gm_undo(GM, PARENT_CHANNEL)
        assert await marks(db, pid) == [LINKED, LINK_OWED]
    finally:
        await db.close()
    conn = sqlite3.connect(path)  # schema 009: the same marks, no table of links
    conn.executescript("DROP TABLE battle_links; UPDATE schema_version SET version = 9;")
    conn.close()
    assert await migrate(path) == (9, len(migrations()))
    db = await open_database(path)
    try:
        assert await link_of(db, pid) == (LinkState.OWED, None)
        service = CampaignService(db, clock=FakeClock(), seed_source=lambda: SEED)
        await replay(service)
        assert (await parent_state(db, pid)).battles[0].linked == NAME
        assert await pending(service, pid) == [(GM_SEAT, "battle1_linked")]
        assert asked_to_report(await outbox(db), opened) == 0
        assert await link_of(db, pid) == (LinkState.LINKED, None)
    finally:
        await db.close()
