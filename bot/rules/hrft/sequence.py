"""The Modified Turn Sequence (H-15): the seed's 19 steps and its three variations.

Each step has a kind: ``sealed`` (written orders), ``reveal``, ``initiative`` (rolled),
``announce`` (played on the table, the bot only says it), ``small`` (small-unit steps: open
when any ship carries fighters or missiles, H-D12), ``fire`` (open: ships fire), ``repair``
(open: damage control at turn end).

``number`` is the rulebook's step number, kept for the code and the view; players read the
steps by ``title`` only (H-D45). ``small_units``: the step is about fighters or ordnance, so
it is not listed at all when no ship carries any (H-D45).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bot.errors import InvalidInput

StepKind = Literal["sealed", "reveal", "initiative", "announce", "small", "fire", "repair"]


class HrftOptions(BaseModel):
    """Battle options (H-13, H-15, H-16, H-D31)."""

    model_config = ConfigDict(extra="forbid")

    movement: Literal["cinematic", "vector"] = Field(
        default="cinematic", description="cinematic or vector movement")
    emergency_maneuver: bool = Field(default=False, description="variation 1")
    mid_turn_fire_only: bool = Field(
        default=False, description="variation 2, cinematic only: one ship fire phase")
    vtif: bool = Field(default=False, description="variation 3, vector only: VTIF")
    beam_reroll: bool = Field(default=True, description="beam 6s roll another die")
    max_turns: int = Field(default=0, ge=0, le=100, description="0 = no limit")
    redline: Literal["off", "third", "half"] = Field(
        default="off", description="redlined engines: +1/3 or +1/2 thrust, rounded "
        "down; half of that at mid-turn")
    overload: bool = Field(
        default=False, description="optional: a weapon firing at 16/18 then 8/10 next turn "
        "rolls a threshold")

    @model_validator(mode="after")
    def _fits_movement(self) -> HrftOptions:
        if self.mid_turn_fire_only and self.movement != "cinematic":
            raise InvalidInput("mid_turn_fire_only (variation 2) is for cinematic movement.")
        if self.vtif and self.movement != "vector":
            raise InvalidInput("vtif (variation 3) is for vector movement.")
        return self


@dataclass(frozen=True)
class StepDef:
    key: str
    number: str
    title: str
    kind: StepKind
    small_units: bool = False


_BASE: list[StepDef] = [
    StepDef("orders", "1", "Write orders (speed, turn, screen settings)", "sealed"),
    StepDef("reveal", "2", "Declare screen settings and speed", "reveal"),
    StepDef("initiative1", "3", "Roll for initiative", "initiative"),
    StepDef("fighters1", "4", "Move fighter groups half their movement", "announce", True),
    StepDef("ordnance1", "5", "Launch ordnance and place it at its final target point",
            "announce", True),
    StepDef("move1", "6", "Move ships to the halfway point of their movement", "announce"),
    StepDef("allocate1", "7", "Allocate missile and fighter attacks", "announce", True),
    StepDef("pds1", "8", "Point defence fire", "small", True),
    StepDef("attacks1", "9", "Missile and fighter attacks", "small", True),
    StepDef("fire1", "10", "Ships fire (simultaneous)", "fire"),
    StepDef("initiative2", "11", "Roll initiative", "initiative"),
    StepDef("fighters2", "12", "Move fighter groups their second half", "announce", True),
    StepDef("ordnance2", "13", "Launch ordnance (it attacks early next turn, before ships "
            "fire)", "announce", True),
    StepDef("move2", "14", "Complete ship movement (rolls take effect)", "announce"),
    StepDef("allocate2", "15", "Allocate missile and fighter attacks", "announce", True),
    StepDef("pds2", "16", "Point defence fire", "small", True),
    StepDef("attacks2", "17", "Missile and fighter attacks", "small", True),
    StepDef("fire2", "18", "Ships fire weapons not yet fired (simultaneous)", "fire"),
    StepDef("end", "19", "Turn end: damage control", "repair"),
]


def steps(options: HrftOptions) -> list[StepDef]:
    """The turn's steps with the chosen variations."""
    out: list[StepDef] = []
    for s in _BASE:
        if s.key == "fire1" and options.mid_turn_fire_only:
            out.append(StepDef("fire1", "10", "Mid-turn ship fire, the only ship fire this "
                               "turn", "fire"))
            continue
        if s.key == "fire2" and options.mid_turn_fire_only:
            out.append(StepDef("fire2", "18", "No ship fire: ships fired at mid-turn",
                               "announce"))
            continue
        out.append(s)
        if s.key == "fire1" and options.emergency_maneuver:
            out.append(StepDef("emergency", "10a", "Emergency maneuver: declare unused thrust "
                               "for Hard About or Extreme Maneuver", "announce"))
    return out


def step_def(options: HrftOptions, key: str) -> StepDef:
    for s in steps(options):
        if s.key == key:
            return s
    raise KeyError(key)


def next_step(options: HrftOptions, key: str) -> str | None:
    """The step after ``key`` in the turn, or None after turn end."""
    keys = [s.key for s in steps(options)]
    i = keys.index(key)
    return keys[i + 1] if i + 1 < len(keys) else None
