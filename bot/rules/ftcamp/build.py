"""A small builder for FTCamp scenarios in code: the demo and the test scenarios are written
with it and turned into scenario files by ``export_scenario`` (one source per scenario)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.errors import InvalidInput
from bot.rules.ftcamp.model import Craft, FleetOrder, Group, HexMap, Player, State, SystemHex
from bot.rules.ftcamp.scenario import parse_fleet_order


def craft(name: str, mass: int, thrust: int = 0, **systems: Any) -> Craft:
    """One craft; ``systems`` are the other Craft fields (armed, sensors, ftl, tug ...)."""
    return Craft(name=name, mass=mass, thrust=thrust, **systems)


def group(name: str, owner: int, hex_name: str, *crafts: Craft, order: str = "hold",
          **flags: Any) -> Group:
    """A group on a fleet order given as text (``move 0305``, ``support Vanguard`` ...)."""
    parsed = parse_fleet_order(order)
    if isinstance(parsed, str):
        raise InvalidInput(f"Group {name}: {parsed}.")
    return Group(name=name, owner=owner, hex=hex_name, craft=list(crafts),
                 order=FleetOrder(kind=parsed.kind, target=parsed.target), **flags)


def static(name: str, owner: int, hex_name: str, sector: str, *crafts: Craft,
           kind: str = "military", **flags: Any) -> Group:
    """A static in its fixed orbit-sector (E-2)."""
    return Group(name=name, owner=owner, hex=hex_name, sector=sector, static=kind,
                 craft=list(crafts), **flags)


def system(hex_name: str, name: str, system_sector: str) -> SystemHex:
    return SystemHex(hex=hex_name, name=name, system_sector=system_sector)


def scenario(name: str, size: tuple[int, int], players: Iterable[str], groups: Iterable[Group],
             systems: Iterable[SystemHex] = (),
             alliances: Iterable[tuple[int, int]] = ()) -> State:
    """A state as ``load_scenario`` makes it: players get seats 1, 2, 3 ... in order."""
    return State(name=name, map=HexMap(columns=size[0], rows=size[1], systems=list(systems)),
                 players=[Player(seat=i, name=p) for i, p in enumerate(players, start=1)],
                 alliances=list(alliances), groups={g.name: g for g in groups})
