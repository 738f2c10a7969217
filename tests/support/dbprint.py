"""A fingerprint of a campaign database, to prove that a refusal changed nothing."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any


def fingerprint(db_path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row that an intent could change: campaigns (version, state), seats, drafts,
    submissions, events, snapshots and the outbox."""
    con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        return {
            table: con.execute(f"SELECT * FROM {table} ORDER BY rowid").fetchall()
            for table in ("campaigns", "players", "drafts", "submissions", "events",
                          "snapshots", "deadlines", "reminders")
        } | {"outbox": con.execute("SELECT id, kind, content FROM outbox ORDER BY id").fetchall()}
    finally:
        con.close()
