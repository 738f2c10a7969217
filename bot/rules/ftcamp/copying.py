"""Copy-on-write of the state for resolve/act (issue 9): deep-copying 200 groups costs more
than the whole step, and a step changes only a few of them.

``working_copy`` gives a state whose containers are new and whose groups that the step may
change are copies; every other group is shared with the given state. Code that changes a
group outside the current hex must replace it in ``state.groups`` (``replace_group``), never
change it in place; the reference test checks that the given state stays unchanged."""

from __future__ import annotations

import copy
from typing import Any

from bot.rules.ftcamp.model import Group, State


def working_copy(state: State) -> State:
    run = state.run
    if run is None:
        # fleet orders set order, hex, sector and must_leave of the groups: attribute
        # assignments, so a shallow copy of each group is enough (craft lists are shared).
        groups = {n: g.model_copy() for n, g in state.groups.items()}
    else:
        # an engage step changes the groups of its hex and the patrol groups sent to it
        touched = {g.name for g in state.groups.values() if g.hex == run.hex} | set(run.dispatched)
        groups = {n: g.model_copy(deep=True) if n in touched else g
                  for n, g in state.groups.items()}
    update: dict[str, Any] = {
        "groups": groups,
        "run": run.model_copy(deep=True) if run is not None else None,
        "secret": copy.deepcopy(state.secret),
        "alliances": list(state.alliances),
        "contested": list(state.contested),
        "results": list(state.results),  # results once made are never changed
        "sector_layout": dict(state.sector_layout),
        "revealed": list(state.revealed),
        "dispatched": list(state.dispatched),
    }
    return state.model_copy(update=update)


def replace_group(state: State, name: str, **changes: Any) -> Group:
    """Change a group that may be shared with an earlier state: put a changed copy in."""
    g = state.groups[name].model_copy(update=changes)
    state.groups[name] = g
    return g
