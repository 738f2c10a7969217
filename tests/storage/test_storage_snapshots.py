"""Undo snapshots on a real SQLite file (issue 17 item 9): a snapshot of the state the
campaign's row holds is copied by SQLite, not encoded again, and reads back the same as one
encoded from the state given; an ended campaign's snapshots go."""

from __future__ import annotations

import json
from pathlib import Path

from storage import open_database, turns

STATE = {"round": 3, "groups": {"Vanguard": {"hex": "0202", "craft": ["Resolute", "Scout"]}},
         "text": "Ünïcode \u2192 and \"quotes\""}


def snap(resolution_no: int, state: dict[str, object]) -> turns.Snapshot:
    return turns.Snapshot(resolution_no=resolution_no, state=state, step_no=4,
                          step_keys=["orders:1", "orders:2"], submissions={1: {"type": "x"}})


async def test_a_stored_state_is_copied_and_reads_back_as_if_encoded(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "bot.db")
    try:
        async with db.transaction() as tx:
            for cid, state in ((1, STATE), (2, STATE), (3, None)):
                await tx.execute(
                    "INSERT INTO campaigns (id, guild_id, channel_id, ruleset, name, gm_user_id,"
                    " seed, status, state, created_at, updated_at)"
                    " VALUES (?, 1, ?, 'guess', 'c', 1, 1, 'running', ?, 0, 0)",
                    (cid, 10 + cid, json.dumps(state) if state is not None else None))
            await turns.put_snapshot(tx, 1, snap(1, STATE), 5.0, keep=10)  # encoded
            await turns.put_snapshot(tx, 2, snap(1, {"not": "used"}), 5.0, keep=10, stored=True)
            await turns.put_snapshot(tx, 3, snap(1, {}), 5.0, keep=10, stored=True)
        encoded = await turns.latest_snapshot(db, 1)
        copied = await turns.latest_snapshot(db, 2)
        assert copied == encoded and copied is not None and copied.state == STATE
        empty = await turns.latest_snapshot(db, 3)  # a row with no state yet: as ``{}``
        assert empty is not None and empty.state == {}
        # a number that comes round again after an undo is replaced, copied or not
        async with db.transaction() as tx:
            await tx.execute("UPDATE campaigns SET state = ? WHERE id = 2",
                             (json.dumps({"round": 4}),))
            await turns.put_snapshot(tx, 2, snap(1, {}), 6.0, keep=10, stored=True)
        again = await turns.latest_snapshot(db, 2)
        assert again is not None and again.state == {"round": 4}
        rows = await db.fetchall("SELECT campaign_id FROM snapshots ORDER BY campaign_id")
        assert [r[0] for r in rows] == [1, 2, 3]
        async with db.transaction() as tx:
            await turns.drop_snapshots(tx, 2)
        rows = await db.fetchall("SELECT campaign_id FROM snapshots ORDER BY campaign_id")
        assert [r[0] for r in rows] == [1, 3]
    finally:
        await db.close()
