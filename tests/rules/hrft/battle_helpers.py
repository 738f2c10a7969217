"""Helpers to build small HRFT battles in tests."""

from __future__ import annotations

from typing import Any

from bot.rules.base import Seat
from bot.rules.dice import ScriptedDice, SeededDice
from bot.rules.hrft import RULESET, BattleState, HrftOptions, add_ship, convert_design
from tests.rules.hrft.fixtures import design, escort

SEATS = [Seat(number=1, name="Alice"), Seat(number=2, name="Bob")]


def gunboat(hull: int = 12, **extra: Any) -> dict[str, Any]:
    """Hull 12 (blocks of 6, rows 2/2/2), a class-3 beam F/FS/FP, a class-1 beam A,
    two fire controls, screens level 1, mass 30 (3 DCPs), thrust 4."""
    return design(hull=hull, mass=30, thrust=4, systems=[
        {"uid": "s1", "type": "beam", "class": 3, "arcs": ["FP", "F", "FS"]},
        {"uid": "s2", "type": "beam", "class": 1, "arcs": ["A"]},
        {"uid": "s3", "type": "fire_control"},
        {"uid": "s4", "type": "fire_control"},
        {"uid": "s5", "type": "screen", "level": 1},
    ], **extra)


def battle(options: HrftOptions | None = None, ships: dict[int, list[dict[str, Any]]] | None
           = None) -> BattleState:
    """A battle in setup with the given designs per seat (default: one gunboat each)."""
    out = RULESET.start(options or HrftOptions(), SEATS, ScriptedDice([]))
    state = out.state
    for seat, designs in (ships or {1: [gunboat()], 2: [gunboat()]}).items():
        for d in designs:
            state = add_ship(state, seat, convert_design(d))
    return state


def ready_all(state: BattleState, dice: Any = None) -> tuple[BattleState, list[Any]]:
    events: list[Any] = []
    for seat in (1, 2):
        out = RULESET.act(state, seat, {"type": "ready"}, dice or SeededDice(0))
        state = out.state
        events += out.events
    return state, events


def to_fire_step(state: BattleState, orders: dict[int, dict[str, Any]] | None = None,
                 initiative: tuple[int, int] = (3, 4)) -> tuple[BattleState, list[Any]]:
    """From setup through ready, orders and reveal to the first open step."""
    state, events = ready_all(state)
    out = RULESET.resolve(state, orders or {1: {"type": "orders"}, 2: {"type": "orders"}},
                          ScriptedDice(list(initiative)))
    return out.state, events + out.events


__all__ = ["SEATS", "battle", "design", "escort", "gunboat", "ready_all", "to_fire_step"]
