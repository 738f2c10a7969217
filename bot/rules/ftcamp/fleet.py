"""The minimal Fleet Orders phase (E-3): legal orders, validation, moves applied together."""

from __future__ import annotations

from bot.errors import RulesError
from bot.rules.base import Option
from bot.rules.ftcamp import geometry as geo
from bot.rules.ftcamp import index
from bot.rules.ftcamp.core import stranded
from bot.rules.ftcamp.model import HOLD_TASKS, FleetOrder, Group, State
from bot.rules.ftcamp.scenario import parse_fleet_order

MAX_OPTIONS = 25


def orderable(state: State, seat: int) -> list[Group]:
    """The seat's groups that get a fleet order: everything but statics."""
    return [g for g in index.owned(state, seat) if g.static is None]


def has_command(state: State, seat: int) -> bool:
    return index.has_command(state, seat)


def legal_orders(state: State, g: Group) -> list[str]:
    """Every legal fleet order for the group, as order texts (at most 25)."""
    near = index.memo(state, ("neighbours", g.hex), lambda: geo.neighbours(state.map, g.hex))
    moves = [] if stranded(state, g) else [f"move {h}" for h in near]
    if g.must_leave == g.hex and moves:
        return moves  # E-13: an escaped group must move away
    out = moves + ["hold"] + [f"hold-special {t}" for t in HOLD_TASKS]
    if geo.system_at(state.map, g.hex):
        out.append("maintain-orbit")
    if has_command(state, g.owner):
        out.append("patrol")
    # E-D8: support targets beyond the Select limit are left out of the panel
    for name in _support_targets(state, g.hex, g.owner):
        if len(out) >= MAX_OPTIONS:
            break
        if name != g.name:
            out.append(f"support {name}")
    return out


def _support_targets(state: State, hex_name: str, seat: int) -> list[str]:
    """Own and allied groups in the hex by name, once per hex and seat for a read."""
    return index.memo(state, ("support", hex_name, seat), lambda: [
        other.name for other in index.groups_by_name_in(state, hex_name)
        if state.allied(seat, other.owner)])


def options_for(state: State, g: Group, legal: list[str] | None = None) -> list[Option]:
    labels = {"hold": "hold position", "maintain-orbit": "maintain orbit (system sector)",
              "patrol": "patrol (command bubble)"}
    orders = legal_orders(state, g) if legal is None else legal
    # one Option per order text for the whole read: groups of a hex offer the same texts,
    # and making 25 options per group was a third of pending() at 200 groups (issue 9)
    made: dict[str, Option] = index.memo(state, "options", dict)
    out = []
    for o in orders:
        option = made.get(o)
        if option is None:
            option = made[o] = Option(value=o, label=labels.get(o, o)[:100])
        out.append(option)
    return out


def check_order(state: State, g: Group, text: str) -> FleetOrder:
    """Validate one fleet order; raises RulesError with the reason (E-3)."""
    parsed = parse_fleet_order(text)
    if isinstance(parsed, str):
        raise RulesError(f"Group {g.name}: {parsed}.", ruling="E-3")
    stuck = stranded(state, g)
    if g.must_leave == g.hex and parsed.kind != "move" and not stuck:
        raise RulesError(f"Group {g.name} escaped from {g.hex} and must move away this round.",
                         ruling="E-13")
    if parsed.kind == "move":
        if stuck and g.tugged_by is not None:
            raise RulesError(f"Group {g.name} has FTL-crippled craft and its tug "
                             f"{g.tugged_by} is not with it in hex {g.hex}; it cannot leave "
                             "the hex.", ruling="E-D4")
        if stuck:
            raise RulesError(f"Group {g.name} has FTL-crippled craft and no tug; it cannot "
                             "leave the hex.", ruling="E-2")
        if parsed.target not in geo.neighbours(state.map, g.hex):
            near = ", ".join(geo.neighbours(state.map, g.hex))
            raise RulesError(f"Group {g.name} can only move to an adjacent hex: {near}.",
                             ruling="E-3")
    if parsed.kind == "maintain-orbit" and geo.system_at(state.map, g.hex) is None:
        raise RulesError(f"Group {g.name}: maintain-orbit needs a system hex.", ruling="E-3")
    if parsed.kind == "patrol" and not has_command(state, g.owner):
        raise RulesError(f"Group {g.name}: patrol needs a command HQ or outpost.", ruling="E-3")
    if parsed.kind == "support":
        other = state.groups.get(parsed.target)
        if (other is None or other.hex != g.hex or other.name == g.name
                or not state.allied(g.owner, other.owner)):
            raise RulesError(f"Group {g.name} can only support another own or allied group in "
                             f"hex {g.hex}.", ruling="E-3")
    return parsed


def _destination(state: State, orders: dict[str, FleetOrder], name: str, seen: set[str]) -> str:
    """Where a group ends up; a supporter follows its supported group (E-D9)."""
    g = state.groups[name]
    order = orders.get(name, g.order)
    if stranded(state, g) or g.static is not None:
        return g.hex
    if order.kind == "move":
        return order.target
    if order.kind == "support" and order.target in state.groups and name not in seen:
        return _destination(state, orders, order.target, seen | {name})
    return g.hex


def apply_orders(state: State, orders: dict[str, FleetOrder]) -> list[str]:
    """Set the orders and apply every move at once; returns one line per group."""
    dest = {name: _destination(state, orders, name, set()) for name in orders}
    lines = []
    for name in sorted(orders):
        g = state.groups[name]
        g.order = orders[name]
        line = f"- {g.name} ({state.player_name(g.owner)}): {g.order.text()}"
        # E-D35: the hex of every group is public (E-D16), so the reveal names it
        if dest[name] != g.hex:
            line += f", {g.hex} → {dest[name]}"
            g.hex, g.sector = dest[name], None
        else:
            line += f", at {g.hex}"
        if g.must_leave is not None:
            g.must_leave = None
        lines.append(line)
    return lines
