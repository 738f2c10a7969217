"""The battles a campaign (the parent) fights in threads, as state (P-13, P-14, P-41).

One row per battle thread (a child campaign): whether the parent's state marks the battle
as fought there (``link``) and what became of its result (``result``), each with the
parent's resolution it came after, the round it belongs to and the order it changed in.
An undo of the parent reads these rows; it does not restore them (P-41: they are facts of
another campaign, which the parent's undo does not take back).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from storage.campaigns import Reader
from storage.db import Row, Tx


class LinkState(StrEnum):
    """Where the parent's battle stands with the thread fighting it (P-14)."""

    LINKED = "linked"  # the parent's state marks it as fought in its thread
    OWED = "owed"  # an undo went back past the link: made again once the battle comes up
    DROPPED = "dropped"  # its round went without that battle: it fights none of the parent's


class ResultState(StrEnum):
    """What became of the result the ended thread sent its parent (P-13)."""

    ARRIVED = "arrived"  # proposed to the parent (at the battle's end, or again after an undo)
    OWED = "owed"  # an undo went back past it: proposed once the battle waits again
    DROPPED = "dropped"  # its round ended without that battle: proposed nowhere


@dataclass
class BattleLinkRow:
    parent_id: int
    child_id: int
    ref: str  # the parent's battle the thread fights (the child's ``parent_ref``)
    link: LinkState | None = None
    link_resolution: int = 0  # the parent's resolution number the link came after
    link_round: int | None = None  # the parent's round it belongs to (``battle_round``)
    link_seq: int = 0  # the order of the parent's link changes
    result: ResultState | None = None
    result_resolution: int = 0
    result_round: int | None = None
    result_seq: int = 0


_COLUMNS = ("parent_id, child_id, ref, link_state, link_resolution, link_round, link_seq,"
            " result_state, result_resolution, result_round, result_seq")


def _row(r: Row) -> BattleLinkRow:
    get = r.__getitem__
    return BattleLinkRow(
        parent_id=int(get("parent_id")), child_id=int(get("child_id")), ref=str(get("ref")),
        link=LinkState(get("link_state")) if get("link_state") is not None else None,
        link_resolution=int(get("link_resolution")), link_round=get("link_round"),
        link_seq=int(get("link_seq")),
        result=(ResultState(get("result_state")) if get("result_state") is not None
                else None),
        result_resolution=int(get("result_resolution")), result_round=get("result_round"),
        result_seq=int(get("result_seq")),
    )


_LOCAL = "battle_links"  # (Tx.local: one ParentLinks per parent and transaction)


async def of_parent(db: Reader, parent_id: int) -> list[BattleLinkRow]:
    """Every battle thread of ``parent_id``, by child id."""
    rows = await db.fetchall(
        f"SELECT {_COLUMNS} FROM battle_links WHERE parent_id = ? ORDER BY child_id",
        (parent_id,))
    return [_row(r) for r in rows]


async def get(db: Reader, parent_id: int, child_id: int) -> BattleLinkRow | None:
    row = await db.fetchone(
        f"SELECT {_COLUMNS} FROM battle_links WHERE parent_id = ? AND child_id = ?",
        (parent_id, child_id))
    return _row(row) if row is not None else None


async def save(tx: Tx, rows: list[BattleLinkRow]) -> None:
    """Writes ``rows`` (new or changed) in one statement."""
    if not rows:
        return
    await tx.executemany(
        f"INSERT INTO battle_links ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (parent_id, child_id) DO UPDATE SET ref = excluded.ref,"
        " link_state = excluded.link_state, link_resolution = excluded.link_resolution,"
        " link_round = excluded.link_round, link_seq = excluded.link_seq,"
        " result_state = excluded.result_state,"
        " result_resolution = excluded.result_resolution,"
        " result_round = excluded.result_round, result_seq = excluded.result_seq",
        [(r.parent_id, r.child_id, r.ref,
          r.link.value if r.link is not None else None, r.link_resolution, r.link_round,
          r.link_seq, r.result.value if r.result is not None else None, r.result_resolution,
          r.result_round, r.result_seq) for r in rows],
    )


class ParentLinks:
    """One parent's battle threads, loaded once per intent and saved once (``save``): the
    changes are made on the rows, in the order they are made (``link_seq``/``result_seq``),
    so an undo settles them in the order they happened."""

    def __init__(self, parent_id: int, rows: list[BattleLinkRow]) -> None:
        self.parent_id = parent_id
        self._rows = {r.child_id: r for r in rows}
        self._changed: dict[int, BattleLinkRow] = {}
        self._seq = max([0, *(r.link_seq for r in rows), *(r.result_seq for r in rows)])

    @classmethod
    async def load(cls, db: Reader, parent_id: int) -> ParentLinks:
        return cls(parent_id, await of_parent(db, parent_id))

    @classmethod
    async def of(cls, tx: Tx, parent_id: int) -> ParentLinks:
        """The parent's rows in this transaction: read once (one trip), then the same object
        for every later use in it (a battle's end reads them for its result, the change it
        makes and the kept links: one trip, not three). Every write of the table goes
        through this object (``save``), so it stays true."""
        known: dict[int, ParentLinks] = tx.local.setdefault(_LOCAL, {})
        found = known.get(parent_id)
        if found is None:
            found = known[parent_id] = await cls.load(tx, parent_id)
        return found

    def get(self, child_id: int) -> BattleLinkRow | None:
        return self._rows.get(child_id)

    def links(self) -> list[BattleLinkRow]:
        """The rows with a link, in the order their links last changed."""
        return sorted((r for r in self._rows.values() if r.link is not None),
                      key=lambda r: r.link_seq)

    def results(self) -> list[BattleLinkRow]:
        """The rows with a result, in the order their results last changed."""
        return sorted((r for r in self._rows.values() if r.result is not None),
                      key=lambda r: r.result_seq)

    def _of(self, child_id: int, ref: str) -> BattleLinkRow:
        row = self._rows.get(child_id)
        if row is None:
            row = self._rows[child_id] = BattleLinkRow(self.parent_id, child_id, ref)
        self._changed[child_id] = row
        self._seq += 1
        return row

    def set_link(self, child_id: int, ref: str, state: LinkState, resolution_no: int,
                 round_no: int | None) -> None:
        row = self._of(child_id, ref)
        row.link, row.link_resolution, row.link_round = state, resolution_no, round_no
        row.link_seq = self._seq

    def set_result(self, child_id: int, ref: str, state: ResultState, resolution_no: int,
                   round_no: int | None) -> None:
        row = self._of(child_id, ref)
        row.result, row.result_resolution, row.result_round = state, resolution_no, round_no
        row.result_seq = self._seq

    async def save(self, tx: Tx) -> None:
        """The rows changed since the load, in one statement; none: no trip."""
        await save(tx, list(self._changed.values()))
        self._changed.clear()
