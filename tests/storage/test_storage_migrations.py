"""Migration 002 on a database written by migration 001: old undo snapshots are pruned."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from storage import db as db_module
from storage import migrate
from storage.db import migrations

KEEP = 10  # what migration 002 keeps per campaign (a migration cannot read undo_depth)


async def database_of_001(
    path: Path, snapshots: dict[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database as the bot of schema 001 left it: campaigns with ``snapshots[id]``
    snapshots each (numbered 1..n), and a sent outbox message with its file."""
    with monkeypatch.context() as only_001:
        only_001.setattr(db_module, "migrations", lambda: migrations()[:1])
        assert await migrate(path) == (0, 1)
    conn = sqlite3.connect(path)
    for campaign_id, count in snapshots.items():
        conn.execute(
            "INSERT INTO campaigns (id, guild_id, channel_id, ruleset, name, gm_user_id, seed,"
            " resolution_no, created_at, updated_at) VALUES (?, 1, ?, 'guess', 'C', 1, 7, ?, 0, 0)",
            (campaign_id, 100 + campaign_id, count),
        )
        conn.executemany(
            "INSERT INTO snapshots (campaign_id, resolution_no, state, step_no, step_keys,"
            " submissions, created_at) VALUES (?, ?, ?, ?, '[]', '{}', 0)",
            [(campaign_id, n, json.dumps({"n": n}), n) for n in range(1, count + 1)],
        )
    conn.execute(
        "INSERT INTO outbox (id, campaign_id, kind, channel_id, content, status,"
        " next_attempt_at, discord_message_id, created_at)"
        " VALUES (1, 1, 'channel', 101, 'hello', 'sent', 0, 555, 0)"
    )
    conn.execute("INSERT INTO outbox_files VALUES (1, 0, 'map.png', x'89504e47')")
    conn.commit()
    conn.close()


async def test_002_keeps_the_newest_ten_snapshots_of_each_campaign(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.db"
    await database_of_001(path, {1: 60, 2: KEEP, 3: 4}, monkeypatch)
    assert await migrate(path) == (1, len(migrations()))
    conn = sqlite3.connect(path)
    try:
        def kept(campaign_id: int) -> list[tuple[int, str]]:
            return conn.execute(
                "SELECT resolution_no, state FROM snapshots WHERE campaign_id = ?"
                " ORDER BY resolution_no", (campaign_id,)).fetchall()

        assert kept(1) == [(n, json.dumps({"n": n})) for n in range(51, 61)]
        assert [n for n, _ in kept(2)] == list(range(1, KEEP + 1))
        assert [n for n, _ in kept(3)] == [1, 2, 3, 4]
        # the sent message stays sent; its file is dropped by migration 003 (sent messages
        # keep no pictures), not by 002
        assert conn.execute("SELECT status, discord_message_id FROM outbox").fetchall() == [
            ("sent", 555)]
        assert conn.execute("SELECT COUNT(*) FROM outbox_files").fetchone() == (0,)
        assert conn.execute("SELECT COUNT(*) FROM campaigns").fetchone() == (3,)
    finally:
        conn.close()
    assert await migrate(path) == (len(migrations()), len(migrations()))  # runs once


async def test_order_lock_marks_are_read_through_an_index(tmp_path: Path) -> None:
    """Migration 007: the marks read by kind in the write transaction (P-23's locked orders,
    at every change of sealed orders; the battle marks of P-13 and P-14 are rows of
    ``battle_links`` since migration 010) come from the index, not from a scan of the
    campaign's whole log."""
    path = tmp_path / "marks.db"
    await migrate(path)
    conn = sqlite3.connect(path)
    plan = conn.execute(
        "EXPLAIN QUERY PLAN SELECT * FROM events WHERE campaign_id = ? AND kind IN (?, ?)",
        (1, "orders_locked", "orders_reopened")).fetchall()
    conn.close()
    assert any("events_by_kind" in str(step) for step in plan), plan
