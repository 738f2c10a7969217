"""Pure GM edits: each validates, returns a new State, and never touches a hex whose engage
phase is running."""

from __future__ import annotations

from bot.errors import InvalidInput, InvalidState, NotFound
from bot.rules.ftcamp import geometry as geo
from bot.rules.ftcamp.core import forget_group, tows
from bot.rules.ftcamp.model import Craft, Group, State
from bot.rules.ftcamp.scenario import NAME_LIMIT


def _copy(state: State) -> State:
    return state.model_copy(deep=True)


def _group(state: State, name: str) -> Group:
    if name not in state.groups:
        raise NotFound(f"No group named {name!r}.")
    g = state.groups[name]
    if state.run is not None and g.hex == state.run.hex:
        raise InvalidState(f"Group {name} is in hex {g.hex}, whose engage phase is running; "
                           "edit it after the battle list.")
    return g


def _craft(g: Group, name: str) -> Craft:
    for c in g.craft:
        if c.name == name:
            return c
    raise NotFound(f"Group {g.name} has no craft {name!r} (craft: "
                   f"{', '.join(c.name for c in g.craft)}).")


def _check_name(name: str, what: str) -> None:
    if not name.strip() or len(name) > NAME_LIMIT:
        raise InvalidInput(f"A {what} needs a name of 1 to {NAME_LIMIT} characters.",
                           ruling="E-D18")


def _check_craft(c: Craft) -> None:
    _check_name(c.name, "craft")
    if c.mass < 1 and not c.is_decoy:
        raise InvalidInput(f"Craft {c.name}: mass must be a positive integer.")
    for key in ("thrust", "decoys", "weasel", "sensors", "stealth", "tug", "damage"):
        if getattr(c, key) < 0:
            raise InvalidInput(f"Craft {c.name}: {key} must be 0 or more.")


def _check_place(state: State, hex_name: str, sector: str | None) -> None:
    if not geo.on_map(state.map, hex_name):
        raise InvalidInput(f"{hex_name!r} is not a hex of the map (CCRR, 0101 to "
                           f"{geo.hex_name(state.map.columns, state.map.rows)}).")
    if sector is not None and sector not in geo.sectors(state.map, hex_name):
        raise InvalidInput(f"{sector!r} is not an orbit-sector of hex {hex_name}.", ruling="E-1")


def add_group(state: State, group: Group) -> State:
    _check_name(group.name, "group")
    if group.name in state.groups:
        raise InvalidInput(f"A group named {group.name!r} already exists.")
    if group.owner not in {p.seat for p in state.players}:
        raise InvalidInput(f"Seat {group.owner} is not a player.")
    if not group.craft:
        raise InvalidInput("A group needs at least one craft.")
    names = [c.name for c in group.craft]
    if len(set(names)) != len(names):
        raise InvalidInput(f"Group {group.name}: craft names must differ.")
    for c in group.craft:
        _check_craft(c)
    _check_place(state, group.hex, group.sector)
    if group.static is not None and group.sector is None:
        raise InvalidInput(f"Static {group.name} needs its fixed orbit-sector.", ruling="E-2")
    if state.run is not None and group.hex == state.run.hex:
        raise InvalidState(f"Hex {group.hex} is in its engage phase; add the group later.")
    new = _copy(state)
    new.groups[group.name] = group.model_copy(deep=True)
    return new


def move_group(state: State, name: str, hex_name: str, sector: str | None = None) -> State:
    _group(state, name)
    _check_place(state, hex_name, sector)
    if state.groups[name].static is not None and sector is None:
        raise InvalidInput(f"Static {name} needs an orbit-sector.", ruling="E-2")
    new = _copy(state)
    g = new.groups[name]
    g.hex, g.sector = hex_name, sector
    return new


def remove_group(state: State, name: str) -> State:
    """Remove a group (destroyed, say); groups it tugged lose their tug (E-D29)."""
    _group(state, name)
    new = _copy(state)
    forget_group(new, name)
    return new


def add_craft(state: State, group: str, craft: Craft) -> State:
    g = _group(state, group)
    _check_craft(craft)
    if any(c.name == craft.name for c in g.craft):
        raise InvalidInput(f"Group {group} already has a craft named {craft.name!r}.")
    new = _copy(state)
    new.groups[group].craft.append(craft.model_copy())
    return new


def remove_craft(state: State, group: str, craft: str) -> State:
    g = _group(state, group)
    _craft(g, craft)
    if len(g.craft) == 1:
        raise InvalidInput(f"{craft} is the last craft of {group}; remove the group instead.")
    new = _copy(state)
    new.groups[group].craft = [c for c in g.craft if c.name != craft]
    return new


def mark_damage(state: State, group: str, craft: str, points: int,
                drive_lost: bool = False) -> State:
    """Add damage points; ``drive_lost`` puts the main drive out (thrust counts 0, E-9)."""
    _craft(_group(state, group), craft)
    if points < 0:
        raise InvalidInput("Damage points must be 0 or more.")
    new = _copy(state)
    c = _craft(new.groups[group], craft)
    c.damage += points
    if drive_lost:
        c.drive = False
    return new


def mark_ftl_lost(state: State, group: str, craft: str) -> State:
    """The craft's FTL is destroyed: it is FTL-crippled (E-2)."""
    _craft(_group(state, group), craft)
    new = _copy(state)
    _craft(new.groups[group], craft).ftl = "crippled"
    return new


def set_flags(state: State, group: str, lost: bool | None = None,
              diplomat: bool | None = None) -> State:
    g = _group(state, group)
    if g.static is not None:
        raise InvalidInput(f"{group} is a static; statics carry no flags.", ruling="E-2")
    new = _copy(state)
    if lost is not None:
        new.groups[group].lost = lost
    if diplomat is not None:
        new.groups[group].diplomat = diplomat
    return new


def set_tug(state: State, group: str, tug: str | None) -> State:
    """Name the group whose tug tows ``group`` (itself allowed: a tug inside the group), or
    None to clear it; recovery of crippled groups is the GM's (E-D29)."""
    g = _group(state, group)
    if g.static is not None:
        raise InvalidInput(f"{group} is a static; tugs of statics are the GM's to play.",
                           ruling="E-2")
    if tug is not None:
        t = _group(state, tug)
        if not any(tows(c) for c in t.craft):
            raise InvalidInput(f"Group {tug} has no craft with a tug rating and a working FTL "
                               f"drive; it cannot tow {group}.", ruling="E-D29")
    new = _copy(state)
    new.groups[group].tugged_by = tug
    return new
