"""Campaign rows: create, load, and the version-checked update (lists: storage.listing)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import Any, Protocol

from storage.db import Row, Tx
from storage.status import Status


class Reader(Protocol):
    """Anything that can run a query: the open transaction or the database's reader."""

    async def fetchall(self, sql: str, params: Any = ()) -> list[Row]: ...

    async def fetchone(self, sql: str, params: Any = ()) -> Row | None: ...


def encode_state(state: dict[str, Any]) -> str:
    """The state column's text: compact JSON, byte for byte what pydantic's
    ``model_dump_json`` writes for the same state (tests/storage/test_state_text.py), so a state
    encoded from its model (``CampaignRow.encoded``) and one encoded from its dict read the same."""
    return json.dumps(state, separators=(",", ":"), ensure_ascii=False)


class StaleVersion(RuntimeError):
    """The campaign row changed since it was read (another writer got there first)."""


@dataclass(kw_only=True)
class CampaignHead:
    """The campaign's record as every reader shares it: its columns without the state,
    options, settings or seed. A list reads (and decodes) only these (storage.listing); the
    service's ``CampaignInfo`` is these and the seats, so no hidden state reaches a cog."""

    id: int
    guild_id: int
    channel_id: int
    ruleset: str
    name: str
    gm_user_id: int
    status: Status
    step_no: int
    parent_id: int | None = None  # a battle's campaign (P-20)
    parent_ref: str | None = None  # which of the parent's battles it is
    end_reason: str | None = None  # how an ended campaign ended (who won, or why)

    @staticmethod
    def columns(prefix: str = "") -> str:
        """The head's columns for a SELECT (``prefix``: a table alias with its dot)."""
        return ", ".join(prefix + f.name for f in fields(CampaignHead))

    @staticmethod
    def read(row: Row) -> dict[str, Any]:
        """The head's fields from a row that has its columns."""
        head = {f.name: row[f.name] for f in fields(CampaignHead)}
        head["status"] = Status(head["status"])
        return head

    def head_fields(self) -> dict[str, Any]:
        """This record's head fields (also of a CampaignRow: never its state)."""
        return {f.name: getattr(self, f.name) for f in fields(CampaignHead)}


@dataclass(frozen=True)
class _Text:
    """A state given as its column text only (``CampaignRow.put_state_text``)."""

    text: str


class _StateDict:
    """``CampaignRow.state``: the state as a dict, or the text a new state was encoded to,
    decoded only when the dict is read (issue 17 item 9: a resolution's new state is saved from
    its model's text; dumping it to a dict too cost FTCamp's 141 KB state a millisecond that
    nothing but an undo of that same transaction reads)."""

    slot = "_state_value"  # where the row keeps it: a dict, a ``_Text`` or None

    def __get__(self, row: Any, owner: type | None = None) -> Any:
        if row is None:
            return None  # (the dataclass's default)
        value = row.__dict__[self.slot]
        if isinstance(value, _Text):  # decoded once; saved again from the same text
            text, value = value.text, json.loads(value.text)
            row.__dict__[self.slot] = value
            row.encoded = (value, text)
        return value

    def __set__(self, row: Any, value: dict[str, Any] | _Text | None) -> None:
        row.__dict__[self.slot] = value


@dataclass(kw_only=True)
class CampaignRow(CampaignHead):
    """The whole row, as the service loads and saves it."""

    options: dict[str, Any]
    settings: dict[str, Any]
    state: dict[str, Any] | None = _StateDict()  # type: ignore[assignment]
    seed: int
    resolution_no: int
    step_keys: list[str]
    version: int
    created_at: float
    updated_at: float
    # ``state`` and its text, when that very dict was decoded from its model's text
    # (``put_state_text``: one encode of a new state, in Rust, instead of a dict walk then
    # json.dumps, issue 17 item 9); a new dict put in ``state`` is encoded again, never saved
    # with another's text
    encoded: tuple[dict[str, Any], str] | None = field(default=None, repr=False, compare=False)

    def put_state_text(self, text: str) -> None:
        """The new state as the text its model was encoded to (``model_dump_json``, which
        ``encode_state`` of its dict equals): saved as is, decoded only if ``state`` is read."""
        self.state = _Text(text)  # type: ignore[assignment]

    def state_text(self) -> str | None:
        """The state column's text for ``state``."""
        value = self.__dict__[_StateDict.slot]  # (read as stored: a text is not decoded)
        if isinstance(value, _Text):
            return value.text
        if value is None:
            return None
        if self.encoded is not None and self.encoded[0] is value:
            return self.encoded[1]
        return encode_state(value)

    @classmethod
    def from_row(cls, row: Row) -> CampaignRow:
        return cls(
            **CampaignHead.read(row),
            options=json.loads(row["options"]),
            settings=json.loads(row["settings"]),
            state=json.loads(row["state"]) if row["state"] is not None else None,
            seed=row["seed"],
            resolution_no=row["resolution_no"],
            step_keys=json.loads(row["step_keys"]),
            version=row["version"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
        )


async def insert(
    tx: Tx,
    *,
    guild_id: int,
    channel_id: int,
    ruleset: str,
    name: str,
    gm_user_id: int,
    options: dict[str, Any],
    settings: dict[str, Any],
    seed: int,
    parent_id: int | None,
    parent_ref: str | None,
    now: float,
) -> int:
    return await tx.insert(
        "INSERT INTO campaigns (guild_id, channel_id, ruleset, name, gm_user_id, options, settings,"
        " seed, parent_id, parent_ref, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            guild_id, channel_id, ruleset, name, gm_user_id, json.dumps(options),
            json.dumps(settings), seed, parent_id, parent_ref, now, now,
        ),
    )


async def get(db: Reader, campaign_id: int) -> CampaignRow | None:
    row = await db.fetchone("SELECT * FROM campaigns WHERE id = ?", (campaign_id,))
    return CampaignRow.from_row(row) if row else None


async def live_in_channel(db: Reader, channel_id: int) -> CampaignRow | None:
    row = await db.fetchone(
        "SELECT * FROM campaigns WHERE channel_id = ? AND status != 'ended'", (channel_id,)
    )
    return CampaignRow.from_row(row) if row else None


async def live_children(db: Reader, parent_id: int) -> list[CampaignRow]:
    """The battles of ``parent_id`` still being fought (not ended), oldest first: where a
    battle of the parent is fought now (open-once, the parent's tracker; P-15, P-18)."""
    rows = await db.fetchall(
        "SELECT * FROM campaigns WHERE parent_id = ? AND status != 'ended' ORDER BY id",
        (parent_id,),
    )
    return [CampaignRow.from_row(r) for r in rows]


async def id_in_channel(db: Reader, channel_id: int) -> int | None:
    row = await db.fetchone(
        "SELECT id FROM campaigns WHERE channel_id = ? AND status != 'ended'", (channel_id,)
    )
    return int(row[0]) if row else None


async def id_to_read(db: Reader, channel_id: int) -> int | None:
    """The channel's live campaign, else the latest one that ended there (for reads: a
    finished campaign stays readable until a new one starts in its channel)."""
    row = await db.fetchone(
        "SELECT id FROM campaigns WHERE channel_id = ?"
        " ORDER BY CASE WHEN status = 'ended' THEN 1 ELSE 0 END, id DESC LIMIT 1",
        (channel_id,),
    )
    return int(row[0]) if row else None


async def save(tx: Tx, row: CampaignRow, now: float, *, state_changed: bool = True) -> None:
    """Writes the mutable columns if nobody else wrote since ``row.version``; bumps it.
    StaleVersion (at the next read or the commit) otherwise.

    ``state_changed=False`` skips re-serialising the (possibly large) state."""
    sets = (
        "status = ?, name = ?, options = ?, settings = ?, step_no = ?, resolution_no = ?,"
        " step_keys = ?, end_reason = ?, gm_user_id = ?, updated_at = ?, version = version + 1"
    )
    params: list[Any] = [
        row.status, row.name, json.dumps(row.options), json.dumps(row.settings), row.step_no,
        row.resolution_no, json.dumps(row.step_keys), row.end_reason, row.gm_user_id, now,
    ]
    if state_changed:
        sets += ", state = ?"
        params.append(row.state_text())
    await tx.execute(
        f"UPDATE campaigns SET {sets} WHERE id = ? AND version = ?",
        (*params, row.id, row.version),
        must_change=StaleVersion(f"campaign {row.id} changed since version {row.version}"),
    )
    row.version += 1
    row.updated_at = now


async def touch(tx: Tx, campaign_id: int, version: int, now: float) -> None:
    """Bumps the version only (a write that leaves the campaign row itself as it was)."""
    await tx.execute(
        "UPDATE campaigns SET version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
        (now, campaign_id, version),
        must_change=StaleVersion(f"campaign {campaign_id} changed since version {version}"),
    )


async def bump(tx: Tx, campaign_id: int, now: float) -> None:
    """Bumps the version whatever it is: a change to the campaign's other rows made outside
    its lock, so any copy of the campaign held in memory is stale."""
    await tx.execute(
        "UPDATE campaigns SET version = version + 1, updated_at = ? WHERE id = ?",
        (now, campaign_id),
    )


async def version(db: Reader, campaign_id: int) -> int | None:
    """The campaign's committed version (None: no such campaign): a copy held in memory at
    that version is the committed campaign (every write bumps it)."""
    row = await db.fetchone("SELECT version FROM campaigns WHERE id = ?", (campaign_id,))
    return int(row[0]) if row is not None else None
