"""Look-ups built once per read of a state (issue 9): groups by hex and by owner, the owners
with a command craft, and a memo for the inputs of each seat.

``frozen(state)`` builds the index for a state that is only read inside the ``with`` block
(``pending``, ``check``, validating answers); the look-up helpers fall back to a scan of the
groups when no index is active, so code that changes the state never sees a stale one.

The group look-ups of the last index are used again by the next one when the groups are the
same (issue 17 item 9: a resolution used to sort its 200 groups six times): the same objects
with the same name, hex, owner and craft list of the same length. That holds because code that
changes a group sets its hex, replaces its craft list or grows it (decoys), or puts a changed
copy in (copying.py); a craft itself is never changed in place. The memo is never shared: it
holds answers of one read only."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from bot.rules.ftcamp.model import Craft, Group, State

Key = tuple[tuple[int, str, str, int, int, int], ...]


def groups_key(state: State) -> Key:
    """What the group look-ups depend on, object identities included."""
    return tuple((id(g), g.name, g.hex, g.owner, id(g.craft), len(g.craft))
                 for g in state.groups.values())


class GroupLookups:
    """Groups by hex and by owner, and the owners with a command craft, of one set of groups.
    It holds the groups and craft lists it was built from, so their ids in ``key`` stay theirs."""

    def __init__(self, state: State, key: Key) -> None:
        self.key = key
        self.held: list[list[Craft]] = [g.craft for g in state.groups.values()]
        by_name = sorted(state.groups.values(), key=lambda g: g.name)
        self.by_name: list[Group] = by_name
        self.by_hex_name: dict[str, list[Group]] = {}
        self.by_owner: dict[int, list[Group]] = {}
        self.command: set[int] = set()
        for g in by_name:
            self.by_hex_name.setdefault(g.hex, []).append(g)
            self.by_owner.setdefault(g.owner, []).append(g)
            if any(c.command for c in g.craft):
                self.command.add(g.owner)
        self.by_hex: dict[str, list[Group]] = {
            h: sorted(gs, key=lambda g: (g.owner, g.name)) for h, gs in self.by_hex_name.items()}


_LAST: GroupLookups | None = None  # read-only once built: safe to share


def group_lookups(state: State) -> GroupLookups:
    """The last look-ups when they are of the same groups, else new ones."""
    global _LAST
    key = groups_key(state)
    last = _LAST
    if last is not None and last.key == key:
        return last
    made = GroupLookups(state, key)
    _LAST = made
    return made


class Index:
    def __init__(self, state: State) -> None:
        self.state = state
        groups = group_lookups(state)
        self.by_name = groups.by_name  # every group by name
        self.by_hex_name = groups.by_hex_name
        self.by_owner = groups.by_owner
        self.command = groups.command
        self.by_hex = groups.by_hex
        self.memo: dict[Any, Any] = {}


_CURRENT: ContextVar[Index | None] = ContextVar("ftcamp_index", default=None)


@contextmanager
def frozen(state: State) -> Iterator[Index]:
    """An index of ``state`` for the block; the state must not change inside it."""
    current = _CURRENT.get()
    if current is not None and current.state is state:
        yield current
        return
    token = _CURRENT.set(Index(state))
    try:
        yield _CURRENT.get()  # type: ignore[misc]
    finally:
        _CURRENT.reset(token)


def active(state: State) -> Index | None:
    idx = _CURRENT.get()
    return idx if idx is not None and idx.state is state else None


def groups_in(state: State, hex_name: str) -> list[Group]:
    """The groups in a hex by owner, then name."""
    idx = active(state)
    if idx is not None:
        return idx.by_hex.get(hex_name, [])
    return sorted((g for g in state.groups.values() if g.hex == hex_name),
                  key=lambda g: (g.owner, g.name))


def groups_by_name_in(state: State, hex_name: str) -> list[Group]:
    """The groups in a hex by name."""
    idx = active(state)
    if idx is not None:
        return idx.by_hex_name.get(hex_name, [])
    return sorted((g for g in state.groups.values() if g.hex == hex_name),
                  key=lambda g: g.name)


def owned(state: State, seat: int) -> list[Group]:
    """The seat's groups by name."""
    idx = active(state)
    if idx is not None:
        return idx.by_owner.get(seat, [])
    return sorted((g for g in state.groups.values() if g.owner == seat), key=lambda g: g.name)


def has_command(state: State, seat: int) -> bool:
    idx = active(state)
    if idx is not None:
        return seat in idx.command
    return any(c.command for g in state.groups.values() if g.owner == seat for c in g.craft)


def memo(state: State, key: Any, make: Any) -> Any:
    """``make()``, computed once per key while an index of ``state`` is active."""
    idx = active(state)
    if idx is None:
        return make()
    if key not in idx.memo:
        idx.memo[key] = make()
    return idx.memo[key]
