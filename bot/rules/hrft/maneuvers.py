"""The seed's "Additional Maneuver rules" as far as the bot keeps their books (H-D32).

Roll, Corkscrew, Redlined Engines, Hard About, Extreme Maneuvers and Dead Rotate are "as in
WDA", a book the bot does not have, and ships move on the table. The bot records what a side
declares and uses the numbers it keeps itself:

- Redlined engines (option ``redline``): redlined in the written orders, a ship may use its
  thrust plus a third (``third``) or a half (``half``), rounded down; redlined at mid-turn
  it gets half of that bonus, rounded down (seed).
- After mid-turn (declared at step 10): thrust used from what the orders left un-allocated
  (Hard About, Extreme Maneuver, a mid-turn redline); any thrust used counts as the main
  drive used for aft fire at step 18 (H-14); Evasive/Extreme points add +1 each to VTIF
  targeting rolls against the ship for the rest of the turn (H-16).
"""

from __future__ import annotations

from typing import Any

from bot.errors import RulesError
from bot.rules.base import ActionSpec, Audience, Event, InputField, Option
from bot.rules.hrft.actions import Maneuver as ManeuverAction
from bot.rules.hrft.model import Ship
from bot.rules.hrft.state import BattleState, Maneuver, Order

KINDS: dict[str, str] = {
    "hard_about": "Hard About",
    "extreme": "Extreme Maneuver",
    "redline": "Redlined engines (mid-turn)",
    "roll": "Roll (takes effect when movement completes)",
    "corkscrew": "Corkscrew (rolled at mid-turn)",
    "dead_rotate": "Dead/driveless rotate (when movement completes)",
    "other": "Other special movement",
}
MAX_EVASIVE = 6
DECLARE_STEP = "fire1"  # step 10, the mid-turn open step


def offered_kinds(state: BattleState) -> list[str]:
    """The manoeuvres a ship may declare: redline only with the battle option on."""
    return [k for k in KINDS if k != "redline" or state.options.redline != "off"]


def redline_bonus(thrust: int, option: str) -> int:
    """The additional thrust of redlined engines, rounded down (H-D32)."""
    if option == "third":
        return thrust // 3
    if option == "half":
        return thrust // 2
    return 0


def thrust_limit(state: BattleState, ship: Ship, redline: bool) -> int:
    """Thrust the written orders may use: current thrust, plus the redline bonus."""
    bonus = redline_bonus(ship.current_thrust, state.options.redline) if redline else 0
    return ship.current_thrust + bonus


def unallocated(state: BattleState, ship: Ship, redline_now: bool) -> int:
    """Thrust left after the written orders; a mid-turn redline adds half the bonus."""
    order = state.orders.get(ship.uid, Order())
    left = thrust_limit(state, ship, order.redline) - order.thrust
    if redline_now and not order.redline:
        left += redline_bonus(ship.current_thrust, state.options.redline) // 2
    return max(0, left)


def _after_mid_turn(state: BattleState) -> bool:
    # a manoeuvre declared at step 10 is flown in the second half (step 14): it counts for
    # the fire of step 18, not for the simultaneous fire of step 10 itself
    return state.step == "fire2"


def drive_used(state: BattleState, uid: str) -> bool:
    """Main drive used this turn so far, in the orders or after mid-turn (H-14 aft fire)."""
    order = state.orders.get(uid)
    later = state.maneuvers.get(uid) if _after_mid_turn(state) else None
    return (order is not None and order.thrust > 0) or (later is not None and later.thrust > 0)


def evasive_of(state: BattleState, uid: str) -> int:
    """Evasive/Extreme points the ship declared at mid-turn, from step 18 on (+1 each to VTIF
    rolls against it, H-16); 0 before."""
    later = state.maneuvers.get(uid) if _after_mid_turn(state) else None
    return later.evasive if later is not None else 0


def maneuver_spec(state: BattleState, seat: int) -> ActionSpec | None:
    """The step-10 declaration, for ships of ``seat`` that have not declared this turn."""
    if state.step != DECLARE_STEP or state.fire_phase != 0:
        return None
    ships = [s for s in state.ships_of(seat) if not s.out and s.uid not in state.maneuvers]
    if not ships:
        return None
    kinds = offered_kinds(state)
    top = max(unallocated(state, s, True) for s in ships)
    fields = [
        InputField(name="ship", label="Ship", options=[
            Option(value=s.uid, label=f"{s.name} ({s.uid})") for s in ships][:25]),
        InputField(name="kinds", label="Manoeuvres after mid-turn", options=[
            Option(value=k, label=KINDS[k]) for k in kinds], max_values=len(kinds)),
        InputField(name="thrust", label="Un-allocated thrust used", options=[
            Option(value=str(n), label=str(n)) for n in range(top + 1)], min_values=0),
    ]
    if state.options.vtif:
        fields.append(InputField(name="evasive", label="Evasive/Extreme points (VTIF +1 each)",
                                 options=[Option(value=str(n), label=str(n))
                                          for n in range(MAX_EVASIVE + 1)], min_values=0))
    return ActionSpec(type="maneuver", label="Declare a manoeuvre after mid-turn",
                      fields=fields)


def _number(raw: Any, what: str, high: int) -> int:
    try:
        value = int(str(raw if raw not in (None, "") else 0))
    except ValueError:
        raise RulesError(f"{what} must be a whole number from 0 to {high}, not '{raw}'."
                         , ruling="H-D32") from None
    if not 0 <= value <= high:
        raise RulesError(f"{what} must be from 0 to {high}, not {value}.", ruling="H-D32")
    return value


def declare(state: BattleState, seat: int, action: ManeuverAction) -> Event:
    """Record one ship's after-mid-turn manoeuvre (mutates ``state``); a public event."""
    if state.step != DECLARE_STEP or state.fire_phase != 0:
        raise RulesError("Manoeuvres after mid-turn are declared in the mid-turn fire step.",
                         ruling="H-D32")
    ship = state.ships.get(str(action.ship))
    if ship is None or ship.seat != seat or ship.out:
        mine = ", ".join(s.uid for s in state.ships_of(seat) if not s.out) or "none"
        raise RulesError(f"Choose one of your ships still fighting: {mine}.", ruling="H-D32")
    if ship.uid in state.maneuvers:
        raise RulesError(f"{ship.name} has already declared its manoeuvre this turn.",
                         ruling="H-D32")
    raw = action.kinds or []
    kinds = [raw] if isinstance(raw, str) else [str(k) for k in raw]
    allowed = offered_kinds(state)
    bad = [k for k in kinds if k not in allowed]
    if not kinds or bad:
        raise RulesError(f"Manoeuvres: choose from {', '.join(allowed)}"
                         f"{' (redline needs the redline option)' if 'redline' in bad else ''}.",
                         ruling="H-D32")
    redline = "redline" in kinds
    left = unallocated(state, ship, redline)
    thrust = _number(action.thrust, f"{ship.name}: thrust used", left)
    evasive = _number(action.evasive, f"{ship.name}: evasive points", MAX_EVASIVE)
    state.maneuvers[ship.uid] = Maneuver(kinds=kinds, thrust=thrust, evasive=evasive,
                                         redline=redline)
    parts = [", ".join(KINDS[k] for k in kinds), f"thrust {thrust} of {left} un-allocated"]
    if evasive:
        parts.append(f"evasive {evasive} (+{evasive} to VTIF rolls against it)")
    if thrust and not state.orders.get(ship.uid, Order()).thrust:
        parts.append("main drive used: its aft fire late in the turn counts as Stealth 2")
    return Event(audience=Audience.public(), kind="maneuver",
                 text=f"**{ship.name}** declares after mid-turn: {'; '.join(parts)}.",
                 data={"ship": ship.uid, "kinds": kinds, "thrust": thrust, "evasive": evasive})
