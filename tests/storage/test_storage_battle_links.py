"""Battle links as state (issue 17 item 3; P-13, P-14, P-41): the ``battle_links`` rows, and
migration 010, which makes them from the marks older versions kept in the parent's log."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from storage import battle_links, migrate, open_database
from storage import db as db_module
from storage.battle_links import BattleLinkRow, LinkState, ParentLinks, ResultState
from storage.db import migrations

PARENT, OTHER = 1, 5


def mark(conn: sqlite3.Connection, campaign_id: int, kind: str, resolution_no: int,
         data: dict[str, object]) -> None:
    """A GM event as the bot of schema 009 wrote a battle mark (as ``war_undo.log_line`` still
    does, for the GM to read)."""
    conn.execute(
        "INSERT INTO events (campaign_id, step_no, resolution_no, audience, seat, kind, text,"
        " data, created_at) VALUES (?, 1, ?, 'gm', NULL, ?, 'a line', ?, 0)",
        (campaign_id, resolution_no, kind, json.dumps(data)))


async def database_of_009(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A database as the bot of schema 009 left it: a parent (1) with three battles fought in
    threads (2, 3, 4), another parent (5) with one (6), and their marks in the log."""
    with monkeypatch.context() as only_009:
        only_009.setattr(db_module, "migrations", lambda: migrations()[:9])
        assert await migrate(path) == (0, 9)
    conn = sqlite3.connect(path)
    for cid, parent, ref in [(1, None, None), (2, 1, "Orbit 1, turn 1"),
                             (3, 1, "Orbit 2, turn 1"), (4, 1, "Orbit 3, turn 2"),
                             (5, None, None), (6, 5, "0202/A-3")]:
        conn.execute(
            "INSERT INTO campaigns (id, guild_id, channel_id, ruleset, name, gm_user_id, seed,"
            " parent_id, parent_ref, created_at, updated_at)"
            " VALUES (?, 1, ?, 'orbits', 'C', 1, 7, ?, ?, 0, 0)",
            (cid, 100 + cid, parent, ref))
    # battle 2: linked at resolution 3 (turn 1), kept by an undo, its result in
    mark(conn, 1, "link_made", 3, {"campaign": 2, "ref": "Orbit 1, turn 1", "round": 1})
    mark(conn, 1, "battle_arrival", 3, {"campaign": 2, "ref": "Orbit 1, turn 1"})
    # battle 3: linked, its result in, kept by an undo for turn 1, then dropped
    mark(conn, 1, "link_made", 2, {"campaign": 3, "ref": "Orbit 2, turn 1", "round": 1})
    mark(conn, 1, "battle_arrival", 4, {"campaign": 3, "ref": "Orbit 2, turn 1"})
    mark(conn, 1, "battle_owed", 1, {"campaign": 3, "ref": "Orbit 2, turn 1", "round": 1})
    mark(conn, 1, "link_owed", 1, {"campaign": 2, "ref": "Orbit 1, turn 1", "round": 1})
    mark(conn, 1, "battle_dropped", 5, {"campaign": 3, "ref": "Orbit 2, turn 1"})
    # battle 4: only linked, no round (a parent without ``battle_round``)
    mark(conn, 1, "link_made", 6, {"campaign": 4, "ref": "Orbit 3, turn 2"})
    mark(conn, 5, "battle_arrival", 2, {"campaign": 6, "ref": "0202/A-3"})
    # not marks of a battle: another kind, a campaign id that is no id, a campaign gone
    mark(conn, 1, "orders_locked", 3, {"seats": [1, 2]})
    mark(conn, 1, "link_made", 3, {"campaign": "2", "ref": "Orbit 1, turn 1"})
    mark(conn, 1, "link_dropped", 3, {"campaign": 99, "ref": "Orbit 9, turn 1"})
    conn.commit()
    conn.close()


async def test_010_makes_each_battle_its_row_from_its_newest_marks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.db"
    await database_of_009(path, monkeypatch)
    assert await migrate(path) == (9, len(migrations()))
    db = await open_database(path)
    try:
        rows = await battle_links.of_parent(db, PARENT)
        assert [(r.child_id, r.ref, r.link, r.link_resolution, r.link_round, r.result,
                 r.result_resolution, r.result_round) for r in rows] == [
            (2, "Orbit 1, turn 1", LinkState.OWED, 1, 1, ResultState.ARRIVED, 3, None),
            (3, "Orbit 2, turn 1", LinkState.LINKED, 2, 1, ResultState.DROPPED, 5, None),
            (4, "Orbit 3, turn 2", LinkState.LINKED, 6, None, None, 0, None),
        ]
        links = ParentLinks(PARENT, rows)
        # the order the old log wrote them in: what an undo settles first
        assert [r.child_id for r in links.links()] == [3, 2, 4]
        assert [r.child_id for r in links.results()] == [2, 3]
        [other] = await battle_links.of_parent(db, OTHER)
        assert (other.child_id, other.link, other.result) == (6, None, ResultState.ARRIVED)
        assert await battle_links.get(db, OTHER, 2) is None  # a battle of the other parent
    finally:
        await db.close()
    conn = sqlite3.connect(path)
    try:  # the log is the GM's record: kept as it was
        assert conn.execute("SELECT COUNT(*) FROM events").fetchone() == (12,)
        assert conn.execute("SELECT name FROM sqlite_temp_master").fetchall() == []
    finally:
        conn.close()
    assert await migrate(path) == (len(migrations()), len(migrations()))  # runs once


async def test_a_parents_changes_are_saved_in_one_write_and_keep_their_order(
    tmp_path: Path,
) -> None:
    db = await open_database(tmp_path / "new.db")
    try:
        async with db.transaction() as tx:
            for cid, parent in [(1, None), (2, 1), (3, 1)]:
                await tx.execute(
                    "INSERT INTO campaigns (id, guild_id, channel_id, ruleset, name,"
                    " gm_user_id, seed, parent_id, created_at, updated_at)"
                    " VALUES (?, 1, ?, 'orbits', 'C', 1, 7, ?, 0, 0)", (cid, 100 + cid, parent))
            links = await ParentLinks.load(tx, PARENT)
            links.set_link(3, "Orbit 2", LinkState.LINKED, 4, 1)
            links.set_link(2, "Orbit 1", LinkState.LINKED, 4, 1)
            await links.save(tx)
        async with db.transaction() as tx:
            links = await ParentLinks.load(tx, PARENT)
            links.set_link(3, "Orbit 2", LinkState.OWED, 3, 1)  # an undo: kept
            links.set_result(2, "Orbit 1", ResultState.ARRIVED, 3, None)
            await links.save(tx)
        links = await ParentLinks.load(db, PARENT)
        assert [r.child_id for r in links.links()] == [2, 3]
        assert links.get(3) == BattleLinkRow(PARENT, 3, "Orbit 2", LinkState.OWED, 3, 1, 3)
        [row] = links.results()
        assert (row.child_id, row.result, row.result_resolution) == (2, ResultState.ARRIVED, 3)
        async with db.transaction() as tx:  # a battle campaign deleted: its row goes
            await tx.execute("DELETE FROM campaigns WHERE id = 3")
        assert [r.child_id for r in await battle_links.of_parent(db, PARENT)] == [2]
    finally:
        await db.close()
