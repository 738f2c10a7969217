"""The Orbits game state (pydantic, JSON-serialisable) and read-only queries on it."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from bot.rules.base import Seat
from bot.rules.orbits import cards as C
from bot.rules.orbits.geometry import all_areas, label
from bot.rules.orbits.options import OrbitsOptions

Phase = Literal[
    "transit", "deployment", "battle_report", "battle_gm", "battle_discard", "battle_raid",
    "finished",
]
Stance = Literal["attack", "blockade"]


class TableCard(BaseModel):
    """One card out of its deck: where it lies and who may know what it is (O-17)."""

    owner: int
    code: str
    area: str
    face_up: bool = False
    known: bool = Field(default=False, description="was seen face up by everyone")
    group: int | None = Field(default=None, description="transit group id while in transit")


class TransitGroup(BaseModel):
    """Cards moving face down with their transit tokens (O-9)."""

    id: int
    owner: int
    origin: str
    destination: str
    tokens: int
    rushed_turn: int = 0


class BattleResult(BaseModel):
    """Losses in card-value units (points / points_per_value, rounded up) and the defeated."""

    losses: dict[int, int]
    defeated: list[int] = Field(default_factory=list)


class Battle(BaseModel):
    """A battle of one area (O-13): the sides, their forces as fought, and its progress."""

    area: str
    sides: list[int]
    forces: dict[int, list[str]]
    reports: dict[int, BattleResult] = Field(default_factory=dict)
    result: BattleResult | None = None
    cancelled: bool = False
    # O-D18, O-D19: the HRFT battle that fights it, and the result that came back from it
    linked: str | None = Field(default=None, description="fought in this HRFT battle")
    proposal: BattleResult | None = Field(default=None, description="its proposed result")
    # P-22: why no deadline default confirms the proposal (hand-entered damage, a GM's end)
    gm_confirms: str = ""


class OrbitsState(BaseModel):
    """Everything about a running Orbits campaign, including secrets (deck order, hands)."""

    options: OrbitsOptions
    seats: list[Seat]
    turn: int = 1
    phase: Phase = "transit"
    actor: int = 1
    passes: int = 0
    alternations: int = 0
    decks: dict[int, list[str]]
    table: list[TableCard] = Field(default_factory=list)
    discards: dict[int, list[str]] = Field(default_factory=dict)
    groups: list[TransitGroup] = Field(default_factory=list)
    next_group: int = 1
    stances: dict[str, Stance] = Field(default_factory=dict)
    rp: dict[int, int] = Field(default_factory=dict)
    battles: list[Battle] = Field(default_factory=list)
    battle_index: int = 0
    battles_won: dict[int, int] = Field(default_factory=dict)
    winners: list[int] = Field(default_factory=list)
    idle_turns: int = 0
    acted: bool = Field(default=False, description="a player decided something this turn")

    def clone(self) -> OrbitsState:
        """A copy safe to change: every mutable part copied, options and seats shared (they
        never change after the start). Much faster than a generic deep copy."""
        new = self.model_copy()
        new.decks = {k: list(v) for k, v in self.decks.items()}
        new.table = [c.model_copy() for c in self.table]
        new.discards = {k: list(v) for k, v in self.discards.items()}
        new.groups = [g.model_copy() for g in self.groups]
        new.stances = dict(self.stances)
        new.rp = dict(self.rp)
        new.battles = [b.model_copy(deep=True) for b in self.battles]
        new.battles_won = dict(self.battles_won)
        new.winners = list(self.winners)
        return new

    # --- read-only helpers -------------------------------------------------------------

    def seat_numbers(self) -> list[int]:
        return [s.number for s in self.seats]

    def names(self) -> dict[int, str]:
        return {s.number: s.name for s in self.seats}

    def name(self, seat: int) -> str:
        return self.names().get(seat, f"Seat {seat}")

    def areas(self) -> list[str]:
        return all_areas(self.options.orbits, self.seat_numbers())

    def area_label(self, area: str) -> str:
        return label(area, self.names())

    def cards_at(self, area: str) -> list[TableCard]:
        return [c for c in self.table if c.area == area]

    def face_up_fleet(self, seat: int, area: str) -> list[TableCard]:
        return [
            c for c in self.table
            if c.owner == seat and c.area == area and c.face_up and C.is_fleet(c.code)
        ]

    def face_up_faces(self, seat: int, area: str) -> list[TableCard]:
        return [
            c for c in self.table
            if c.owner == seat and c.area == area and c.face_up and C.is_face(c.code)
        ]

    def resting_face_down(self, seat: int, area: str | None = None) -> list[TableCard]:
        """Own face-down cards not in transit (the ones that may depart or deploy)."""
        return [
            c for c in self.table
            if c.owner == seat and not c.face_up and c.group is None
            and (area is None or c.area == area)
        ]

    def opponent_fleet_up(self, seat: int, area: str) -> bool:
        """Does any other player have face-up fleet cards in this area (O-7, O-11)?"""
        return any(
            c.area == area and c.owner != seat and c.face_up and C.is_fleet(c.code)
            for c in self.table
        )

    def stance(self, seat: int, area: str) -> Stance | None:
        return self.stances.get(stance_key(seat, area))

    def group(self, gid: int) -> TransitGroup | None:
        return next((g for g in self.groups if g.id == gid), None)

    def group_cards(self, gid: int) -> list[TableCard]:
        return [c for c in self.table if c.group == gid]


def stance_key(seat: int, area: str) -> str:
    return f"{seat}|{area}"
