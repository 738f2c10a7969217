"""Step 1 written orders (sealed) and their reveal at step 2 (H-15, H-12, H-11 computer).

One sealed ``orders`` action per seat holds, per ship ``<id>``, the fields ``<id>.speed``,
``<id>.thrust`` (thrust used this turn: any use of the main drive counts for H-14),
``<id>.turn`` (``0``, ``P1``.., ``S1``..), ``<id>.screens`` (ships with screens) and, with
VTIF, ``<id>.tracking``; and an optional free-text ``note`` revealed with the orders.
"""

from __future__ import annotations

from typing import Any

from bot.errors import RulesError
from bot.rules.base import (
    BY_DEFAULT,
    ActionSpec,
    ActionValue,
    Audience,
    Event,
    InputField,
    Option,
    Request,
    YesNo,
)
from bot.rules.hrft import result_embeds as shown
from bot.rules.hrft import screens
from bot.rules.hrft.actions import KINDS, AnyAction, Orders
from bot.rules.hrft.maneuvers import redline_bonus, thrust_limit
from bot.rules.hrft.model import Ship
from bot.rules.hrft.state import BattleState, Order
from bot.rules.hrft.vtif import max_tracking

MAX_SPEED = 24
MAX_NOTE = 300


def _turn_options(thrust: int) -> list[Option]:
    n = max(0, (thrust + 1) // 2)  # cinematic: at most half the thrust in turns (H-D13)
    out = [Option(value="0", label="No turn")]
    out += [Option(value=f"P{i}", label=f"Port {i}") for i in range(1, n + 1)]
    out += [Option(value=f"S{i}", label=f"Starboard {i}") for i in range(1, n + 1)]
    return out


def ship_fields(state: BattleState, ship: Ship) -> list[InputField]:
    uid, thrust = ship.uid, ship.current_thrust
    fields = [
        InputField(name=f"{uid}.speed", label=f"{ship.name}: speed",
                   options=[Option(value=str(v), label=str(v)) for v in range(MAX_SPEED + 1)]),
        InputField(name=f"{uid}.thrust", label=f"{ship.name}: thrust used",
                   options=[Option(value=str(v), label=str(v))
                            for v in range(thrust_limit(state, ship, True) + 1)]),
        InputField(name=f"{uid}.turn", label=f"{ship.name}: turn",
                   options=_turn_options(thrust)),
    ]
    if ship.screen_level:
        fields.append(InputField(
            name=f"{uid}.screens", label=f"{ship.name}: screens",
            options=[Option(value=v, label=lbl) for v, lbl in screens.presets(ship.screen_level)]))
    if state.options.redline != "off":
        bonus = redline_bonus(thrust, state.options.redline)
        fields.append(InputField(
            name=f"{uid}.redline", label=f"{ship.name}: redline engines (+{bonus})",
            options=[Option(value=YesNo.NO.value, label="No"),
                     Option(value=YesNo.YES.value, label="Yes")]))
    if state.options.vtif:
        fields.append(InputField(
            name=f"{uid}.tracking", label=f"{ship.name}: tracking",
            options=[Option(value=str(v), label=str(v)) for v in range(max_tracking(thrust) + 1)]))
    return fields


def default_order(state: BattleState, ship: Ship) -> dict[str, str]:
    """Keep speed, no thrust, no turn, screens as last turn."""
    prev = state.orders.get(ship.uid, Order())
    out = {f"{ship.uid}.speed": str(min(prev.speed, MAX_SPEED)), f"{ship.uid}.thrust": "0",
           f"{ship.uid}.turn": "0"}
    if ship.screen_level:
        try:
            screens.parse(prev.screens, ship.screen_level)
            out[f"{ship.uid}.screens"] = prev.screens
        except RulesError:
            out[f"{ship.uid}.screens"] = "off"
    if state.options.redline != "off":
        out[f"{ship.uid}.redline"] = YesNo.NO.value
    if state.options.vtif:
        out[f"{ship.uid}.tracking"] = "0"
    return out


def orders_request(state: BattleState, seat: int) -> Request:
    ships = [s for s in state.ships_of(seat) if not s.out]
    fields = [f for s in ships for f in ship_fields(state, s)]
    default: dict[str, Any] = {"type": "orders"}
    for s in ships:
        default.update(default_order(state, s))
    names = ", ".join(f"{s.name} ({s.uid})" for s in ships)
    return Request(seat=seat, kind="sealed", step="orders",
                   prompt=f"Turn {state.turn}: write orders for {names}. Orders stay "
                          "secret until every side has written them.",
                   actions=[ActionSpec(type="orders", label="Submit orders", fields=fields)],
                   default=default)


def _int(given: dict[str, ActionValue], key: str, default: int, low: int, high: int,
         what: str) -> int:
    raw = given.get(key, default)
    try:
        value = int(str(raw))
    except ValueError:
        raise RulesError(f"{what} must be a whole number from {low} to {high}, not "
                         f"'{raw}'.", ruling="H-D13") from None
    if not low <= value <= high:
        raise RulesError(f"{what} must be from {low} to {high}, not {value}.", ruling="H-D13")
    return value


def read_order(state: BattleState, ship: Ship, action: Orders) -> Order:
    """One ship's order from the action (missing fields: the default), checked."""
    uid, thrust = ship.uid, ship.current_thrust
    base = default_order(state, ship)
    get = {k: action.given(k, v) for k, v in base.items()}
    speed = _int(get, f"{uid}.speed", 0, 0, 99, f"{ship.name}: speed")
    redline = action.redline(uid)
    if redline and state.options.redline == "off":
        raise RulesError(f"{ship.name}: redlined engines need the battle option redline "
                         "(third or half).", ruling="H-D32")
    limit = thrust_limit(state, ship, redline)
    if redline and not ship.current_thrust:
        raise RulesError(f"{ship.name}: a ship without working drive cannot redline.",
                         ruling="H-D13")
    used = _int(get, f"{uid}.thrust", 0, 0, limit, f"{ship.name}: thrust used"
                + ("" if redline or state.options.redline == "off" else " (redlined engines "
                   "allow more)"))
    turn = str(get.get(f"{uid}.turn", "0")).upper()
    if turn not in [o.value for o in _turn_options(thrust)]:
        raise RulesError(f"{ship.name}: turn '{turn}' is not allowed; choose 0, P1.. or S1.. "
                         f"up to half the thrust ({(thrust + 1) // 2}).", ruling="H-D13")
    order = Order(speed=speed, thrust=used, turn=turn, redline=redline)
    if order.turn_points > used:
        raise RulesError(f"{ship.name}: turning {order.turn_points} needs that much thrust; "
                         f"thrust used is {used}.", ruling="H-D13")
    if state.options.movement == "cinematic":
        prev = state.orders.get(uid, Order()).speed
        if abs(speed - prev) > used - order.turn_points:
            raise RulesError(f"{ship.name}: changing speed {prev} -> {speed} needs "
                             f"{abs(speed - prev)} thrust besides the turn; thrust used is "
                             f"{used}.", ruling="H-D13")
    order.screens = str(get.get(f"{uid}.screens", "off"))
    screens.parse(order.screens, ship.screen_level)
    if state.options.vtif:
        order.tracking = _int(get, f"{uid}.tracking", 0, 0, max_tracking(thrust),
                              f"{ship.name}: tracking")
        if order.tracking + order.turn_points > used:
            raise RulesError(f"{ship.name}: tracking and turning take maneuver thrust; "
                             f"{order.tracking} + {order.turn_points} is more than {used}.",
                             ruling="H-D13")
    return order


def check_orders(state: BattleState, seat: int, action: AnyAction) -> None:
    """Raise RulesError if the seat's sealed orders are not legal."""
    if not isinstance(action, Orders):
        raise RulesError("Written orders are one 'orders' action for all your ships.",
                         ruling="H-D13")
    for ship in state.ships_of(seat):
        if not ship.out:
            read_order(state, ship, action)
    if len(str(action.note)) > MAX_NOTE:
        raise RulesError(f"The note may be at most {MAX_NOTE} characters.", ruling="H-D13")


def reveal(state: BattleState, actions: dict[int, Orders],
           defaulted: frozenset[int] = frozenset()) -> list[Event]:
    """Step 2: apply every seat's orders (mutates ``state``) and announce them publicly;
    the orders of ``defaulted`` seats (taken by the service at the deadline) and of seats
    with no action are marked as defaults."""
    lines = [f"**Turn {state.turn}: orders revealed**"]
    sides: list[tuple[str, list[str]]] = []  # the embed: a field per side (H-D46)
    private: list[Event] = []
    state.notes = {}
    for seat in state.living_seats():
        action = actions.get(seat) or KINDS.read(orders_request(state, seat).default or {})
        if not isinstance(action, Orders):  # the default is always orders
            raise RulesError("Written orders are one 'orders' action for all your ships.",
                             ruling="H-D13")
        note = str(action.note).strip()[:MAX_NOTE]
        if note:
            state.notes[seat] = note
        mark = f" ({BY_DEFAULT})" if seat in defaulted or seat not in actions else ""
        lines.append(f"{state.seat_name(seat)}:" + (f" _{note}_" if note else "") + mark)
        sides.append((state.seat_name(seat) + mark, [f"_{note}_"] if note else []))
        for ship in state.ships_of(seat):
            if ship.out:
                continue
            written = read_order(state, ship, action)
            order = written
            extra = ""
            if ship.core_damaged("computer"):
                # H-11, H-D21: a damaged computer follows the orders written a turn ahead.
                order = state.next_orders.get(ship.uid) or Order(
                    speed=state.orders[ship.uid].speed, screens=state.orders[ship.uid].screens)
                state.next_orders[ship.uid] = written
                extra = " (computer damaged: follows last turn's written orders)"
                private.append(Event(audience=Audience.to_seat(seat), kind="orders-ahead",
                                     text=f"{ship.name}: your orders are stored for next turn "
                                          "(computer damaged)."))
            else:
                state.next_orders.pop(ship.uid, None)
            state.orders[ship.uid] = order
            try:
                state.screens[ship.uid] = screens.parse(order.screens, ship.screen_level)
            except RulesError:  # screens lost since the orders were written a turn ahead
                state.screens[ship.uid] = {}
            lines.append(f"- {ship.name}: speed {order.speed}, thrust {order.thrust}, turn "
                         f"{order.turn}, screens {screens.describe(state.screens[ship.uid])}"
                         + (f", tracking {order.tracking}" if state.options.vtif else "")
                         + (", engines redlined" if order.redline else "")  # H-D32
                         + extra)
            sides[-1][1].append(lines[-1][2:])
    return [Event(audience=Audience.public(), kind="orders", text="\n".join(lines),
                  embed=shown.reveal(lines[0], sides)), *private]
