"""The battle state (pydantic, JSON-serialisable) and adding ships to it."""

from __future__ import annotations

import string
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bot.errors import InvalidInput, InvalidState
from bot.rules.base import Seat
from bot.rules.hrft.model import KeptFleet, Ship
from bot.rules.hrft.sequence import HrftOptions

MAX_SHIPS_PER_SEAT = 12


class Order(BaseModel):
    """One ship's written orders for a turn (H-15 step 1)."""

    speed: int = 0
    thrust: int = 0
    turn: str = "0"
    screens: str = "off"
    tracking: int = 0
    redline: bool = False  # engines redlined in the written orders (H-D32)

    @property
    def turn_points(self) -> int:
        return int(self.turn[1:]) if self.turn[:1] in ("P", "S") else 0


class Maneuver(BaseModel):
    """One ship's after-mid-turn manoeuvre, declared at step 10 (seed "Additional Maneuver
    rules", H-D32): what it is, thrust used from what the orders left, evasive points."""

    kinds: list[str] = Field(default_factory=list)
    thrust: int = 0
    evasive: int = 0
    redline: bool = False  # redlined at mid-turn: half the additional thrust


class RosterCraft(BaseModel):
    """A craft of the parent campaign's battle not (yet) brought in, and why (H-D28)."""

    craft: str
    group: str = ""
    seat: int = 0  # the battle seat of its owner's player; 0 = that player holds none
    player: str = ""
    design: str | None = None
    why: str = ""


class Force(BaseModel):
    """One side of a parent campaign fought here with a budget instead of ships (H-D35): its
    battle seat, the parent's key for the side, a label, the MASS it may field and the
    largest size class (1..5) it may field."""

    model_config = ConfigDict(extra="forbid")

    seat: int = Field(ge=1)
    side: str = Field(min_length=1, max_length=40)
    label: str = Field(default="", max_length=80)
    budget: int = Field(ge=0, le=100_000)
    max_class: int = Field(ge=1, le=5)


class BattleState(BaseModel):
    """Everything about one HRFT battle. ``next_orders`` are secret (H-11 computer)."""

    options: HrftOptions = Field(default_factory=HrftOptions)
    seats: list[Seat]
    turn: int = 0
    step: str = "setup"
    ships: dict[str, Ship] = Field(default_factory=dict)
    orders: dict[str, Order] = Field(default_factory=dict)
    notes: dict[int, str] = Field(default_factory=dict)
    next_orders: dict[str, Order] = Field(default_factory=dict)
    screens: dict[str, dict[str, int]] = Field(default_factory=dict)
    ready: list[int] = Field(default_factory=list)
    conceded: list[int] = Field(default_factory=list)
    fire_phase: int = 0
    snapshot: list[str] = Field(default_factory=list)  # "ship:system" able to fire this step
    fired: dict[str, list[str]] = Field(default_factory=dict)  # this turn
    spent: dict[str, list[str]] = Field(default_factory=dict)  # one-shot weapons used
    # "ship:system" -> (turn, step number) it last fired; kept across turns (H-D31 overload)
    last_fire: dict[str, tuple[int, str]] = Field(default_factory=dict)
    targets: dict[str, list[str]] = Field(default_factory=dict)  # firecon targets this turn
    attacks_this_step: list[str] = Field(default_factory=list)  # "ship>target"
    vtif_barred: dict[str, list[str]] = Field(default_factory=dict)
    maneuvers: dict[str, Maneuver] = Field(default_factory=dict)  # this turn (H-D32)
    dcp_used: dict[str, int] = Field(default_factory=dict)
    medic_used: list[str] = Field(default_factory=list)
    repair_attempts: list[str] = Field(default_factory=list)  # "ship|target" this turn
    initiative: dict[int, int] = Field(default_factory=dict)
    sheet_ship: str = ""
    finished: bool = False
    linked: bool = False  # the parent battle's craft were brought in (H-D28)
    # P-22: damage was entered by hand (a player or the GM): the parent's GM confirms it
    hand_entered: bool = False
    roster: list[RosterCraft] = Field(default_factory=list)  # craft still waiting
    # H-D34: designs of a Fleet Manager catalog the GM uploaded, by id, for fleets naming them
    catalog: dict[str, dict[str, Any]] = Field(default_factory=dict)
    # ship uid -> [group, craft] of the parent campaign it came from (H-D28, E-D36)
    origin: dict[str, list[str]] = Field(default_factory=dict)
    # H-D35: the parent's sides fought with a budget; H-D36: ship uid -> its Force's side
    forces: list[Force] = Field(default_factory=list)
    mustered: dict[str, str] = Field(default_factory=dict)
    # H-D36: designs the GM uploaded during the muster (dropped with the end of setup) and
    # how many uploads re-opened it (each makes every side choose again)
    uploaded: dict[str, Ship] = Field(default_factory=dict)
    muster_round: int = 0
    # H-D51: the Fleet Manager fleets the sides uploaded, kept as they came for the export
    fm_fleets: list[KeptFleet] = Field(default_factory=list)

    def seat_name(self, seat: int) -> str:
        if seat == 0:
            return "the GM"
        for s in self.seats:
            if s.number == seat:
                return s.name
        return f"seat {seat}"

    def ships_of(self, seat: int) -> list[Ship]:
        return [s for s in self.ships.values() if s.seat == seat]

    def living_seats(self) -> list[int]:
        """Seats with a ship still fighting, in seat order."""
        return sorted({s.seat for s in self.ships.values() if not s.out
                       and s.seat not in self.conceded})


def add_ship(state: BattleState, seat: int, ship: Ship, name: str | None = None, *,
             copy: bool = True) -> BattleState:
    """A new state with ``ship`` added for ``seat`` during setup; the ship gets an id like
    ``1a`` (seat number and a letter). ``copy=False`` adds it to ``state`` itself, for a
    caller that already holds its own copy: a file of 12 large ships then costs one copy of
    the battle, not twelve (issue 8: no conversion holds the loop)."""
    if state.step != "setup":
        raise InvalidState("Ships can only be added before the battle's first turn.")
    if seat not in [s.number for s in state.seats]:
        raise InvalidInput(f"There is no seat {seat} in this battle.")
    mine = state.ships_of(seat)
    if len(mine) >= MAX_SHIPS_PER_SEAT:
        raise InvalidInput(f"A side may bring at most {MAX_SHIPS_PER_SEAT} ships.")
    new = state.model_copy(deep=True) if copy else state
    used = {s.uid for s in mine}
    letter = next(c for c in string.ascii_lowercase if f"{seat}{c}" not in used)
    uid = f"{seat}{letter}"
    fresh = ship.model_copy(deep=True, update={"uid": uid, "seat": seat,
                                               "name": (name or ship.name)[:40]})
    new.ships[uid] = fresh
    new.orders[uid] = Order()
    new.screens[uid] = {}
    if seat in new.ready:
        new.ready.remove(seat)
    return new
