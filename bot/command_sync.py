"""What Discord already has of the slash commands (P-38): one hash of the command payload per
scope ("global", or "guild:<id>" for each development guild), kept in a small JSON file next to
the database. The bot syncs a scope only when its payload's hash differs from the stored one
(or when forced with ``python -m bot sync``), as discord.py's maintainers advise: syncing on
every start wastes Discord's rate limit for command updates."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

GLOBAL = "global"
SUFFIX = ".commands.json"


@dataclass
class SyncRecord:
    """The hashes Discord has, per scope, for one application (another token, another
    application: nothing is known)."""

    application_id: int | None = None
    scopes: dict[str, str] = field(default_factory=dict)


def scope_name(guild_id: int | None) -> str:
    return GLOBAL if guild_id is None else f"guild:{guild_id}"


def payload_hash(payload: list[dict[str, Any]]) -> str:
    """The same commands give the same hash whatever the order of keys or commands."""
    ordered = sorted(payload, key=lambda c: (str(c.get("type", 1)), str(c.get("name", ""))))
    text = json.dumps(ordered, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def record_path(db_path: str | os.PathLike[str]) -> Path | None:
    """``data/admiralty.db`` keeps its record in ``data/admiralty.db.commands.json``; an
    in-memory database keeps none (every start syncs)."""
    text = str(db_path)
    if not text or text == ":memory:" or text.startswith("file:"):
        return None
    path = Path(text)
    return path.with_name(path.name + SUFFIX)


def load_record(path: Path | None, application_id: int | None) -> SyncRecord:
    """The stored record of this application; empty when missing, unreadable or another's."""
    empty = SyncRecord(application_id=application_id)
    if path is None:
        return empty
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        stored = SyncRecord(application_id=data.get("application_id"),
                            scopes={str(k): str(v) for k, v in data["scopes"].items()})
    except (OSError, ValueError, KeyError, AttributeError, TypeError):
        return empty
    return stored if stored.application_id == application_id else empty


def save_record(path: Path | None, record: SyncRecord) -> None:
    """Written whole and then renamed, so a crash leaves the old record or the new one."""
    if path is None:
        return
    text = json.dumps({"application_id": record.application_id, "scopes": record.scopes},
                      indent=1, sort_keys=True)
    partial = path.with_name(path.name + ".tmp")
    partial.write_text(text + "\n", encoding="utf-8")
    try:
        os.replace(partial, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
