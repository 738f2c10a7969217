"""Helpers for the FTCamp rule tests: hand-built hexes driven through the real state machine."""

from __future__ import annotations

from typing import Any

from bot.rules.base import Event, Outcome
from bot.rules.dice import ScriptedDice
from bot.rules.ftcamp import RULESET
from bot.rules.ftcamp.model import (
    Craft,
    FleetOrder,
    Group,
    HexMap,
    Player,
    State,
    SystemHex,
)
from bot.rules.ftcamp.steps import IDLE

HEX = "0505"
SYS = "0304"


def craft(name: str, mass: int = 30, thrust: int = 4, **kw: Any) -> Craft:
    return Craft(name=name, mass=mass, thrust=thrust, **kw)


def group(name: str, owner: int, hex_name: str = HEX, n: int = 1, thrust: int = 4,
          order: str = "hold", crafts: list[Craft] | None = None, **kw: Any) -> Group:
    kind, _, target = order.partition(" ")
    return Group(name=name, owner=owner, hex=hex_name,
                 craft=crafts or [craft(f"{name}-{i}", thrust=thrust) for i in range(n)],
                 order=FleetOrder(kind=kind, target=target), **kw)  # type: ignore[arg-type]


def static(name: str, owner: int, sector: str, hex_name: str = HEX, armed: bool = True,
           kind: str = "military") -> Group:
    return Group(name=name, owner=owner, hex=hex_name, sector=sector, static=kind,  # type: ignore[arg-type]
                 craft=[craft(f"{name}-s", mass=100, thrust=0, armed=armed)])


def world(*groups: Group, players: int = 2, alliances: tuple[tuple[int, int], ...] = ()
          ) -> State:
    return State(map=HexMap(columns=8, rows=6,
                            systems=[SystemHex(hex=SYS, name="Tau Ceti", system_sector="A-2")]),
                 players=[Player(seat=i, name=f"P{i}") for i in range(1, players + 1)],
                 alliances=list(alliances), groups={g.name: g for g in groups}, step="orders")


def orders_in(state: State, actions: dict[int, dict[str, Any]] | None = None,
              skip_special: bool = True) -> Outcome:
    """Resolve the fleet orders (default: everybody keeps its order) and skip empty special
    acts; stops at the first step needing input."""
    if actions is not None:
        out = RULESET.resolve(state, actions, ScriptedDice())
    else:
        out = Outcome(state=state)
        events: list[Event] = []
        while out.state.step == "orders" and out.state.round == state.round:
            out = RULESET.resolve(out.state, _keep_orders(out.state), ScriptedDice())
            events += out.events
        out = Outcome(state=out.state, events=events)
    if out.state.step == "special" and skip_special:
        special = RULESET.resolve(out.state, {}, ScriptedDice())
        return Outcome(state=special.state, events=out.events + special.events)
    return out


def _keep_orders(state: State) -> dict[int, dict[str, Any]]:
    actions = {}
    for req in RULESET.pending(state):
        act: dict[str, Any] = {"type": "fleet_orders"}
        for f in req.actions[0].fields:
            g = state.groups[f.name.split(":", 1)[1]]
            values = [o.value for o in f.options]
            act[f.name] = g.order.text() if g.order.text() in values else "hold"
        actions[req.seat] = act
    return actions


def engage(state: State, orders: dict[int, dict[str, Any]], rolls: list[int],
           shuffles: list[list[Any]] | None = None) -> Outcome:
    """Submit engage orders (missing ones take the default) with scripted dice."""
    actions = {seat: {"type": "engage_orders", **o} for seat, o in orders.items()}
    return RULESET.resolve(state, actions, ScriptedDice(rolls, shuffles or []))


def idle_only(state: State) -> bool:
    """Every seat is asked but nobody has anything to do (E-D33's uniform steps)."""
    reqs = RULESET.pending(state)
    return bool(reqs) and all(r.kind == "sealed" and [f.name for f in r.actions[0].fields]
                              == [IDLE] for r in reqs)


def settle(out: Outcome, rolls: list[int] | None = None,
           shuffles: list[list[Any]] | None = None) -> Outcome:
    """Submit 'nothing to do' for every step where nobody has anything to do."""
    events = list(out.events)
    while idle_only(out.state):
        out = RULESET.resolve(out.state, {}, ScriptedDice(rolls or [], shuffles or []))
        events += out.events
    return Outcome(state=out.state, events=events, finished=out.finished)


def pick(state: State, sector: str, rolls: list[int] | None = None,
         shuffles: list[list[Any]] | None = None) -> Outcome:
    seat = RULESET.pending(state)[0].seat
    return settle(RULESET.act(state, seat, {"type": "place", "sector": sector},
                              ScriptedDice(rolls or [], shuffles or [])), rolls, shuffles)


def picks(state: State, sectors: list[str], rolls: list[int] | None = None,
          shuffles: list[list[Any]] | None = None) -> Outcome:
    """Pick in queue order; dice go to the last pick (which runs the conflicts)."""
    events: list[Event] = []
    out = Outcome(state=state)
    for i, s in enumerate(sectors):
        last = i == len(sectors) - 1
        out = pick(out.state, s, rolls if last else None, shuffles if last else None)
        events += out.events
    return Outcome(state=out.state, events=events)


def sealed(state: State, actions: dict[int, dict[str, Any]], rolls: list[int] | None = None
           ) -> Outcome:
    return settle(RULESET.resolve(state, actions, ScriptedDice(rolls or [])), rolls)


def result_of(state: State, hex_name: str = HEX) -> Any:
    return next(r for r in reversed(state.results) if r.hex == hex_name)


def roles(result: Any) -> dict[str, str]:
    return {bg.group: bg.role for b in result.battles for bg in b.groups}


def public(events: list[Event]) -> list[str]:
    return [e.text for e in events if e.audience.kind == "public"]


def play_hex(*groups: Group, orders: dict[str, str], where: dict[str, str], players: int = 2,
             alliances: tuple[tuple[int, int], ...] = (),
             special: dict[int, dict[str, Any]] | None = None,
             shuffles: list[list[Any]] | None = None) -> Outcome:
    """Run one contested hex up to the first decision after allocation. Give the groups
    distinct thrusts: all dice show 1, so the engage values order the picks."""
    out = orders_in(world(*groups, players=players, alliances=alliances),
                    skip_special=special is None)
    events = list(out.events)
    if special is not None:
        out = RULESET.resolve(out.state, {s: {"type": "special_acts", **a}
                                          for s, a in special.items()}, ScriptedDice())
        events += out.events
    actions: dict[int, dict[str, Any]] = {}
    for name, order in orders.items():
        g = out.state.groups[name]
        actions.setdefault(g.owner, {})[f"order:{name}"] = order
    rolling = sum(1 for n in out.state.groups if n in orders)
    out = settle(engage(out.state, actions, [1] * (2 * rolling), shuffles), shuffles=shuffles)
    events += out.events
    while out.state.step == "allocate" and RULESET.pending(out.state):
        out = pick(out.state, where[out.state.run.queue[0]], shuffles=shuffles)
        events += out.events
    return Outcome(state=out.state, events=events)
