"""What rule sets hand each other through the service's war hooks (H-D28, E-D36, O-D17):
the battle a parent opens (``BattleSpec``, from ``battle_link``), the result a battle sends
back (``BattleResult``, from ``battle_result``), and the sample designs a battle can field.

One shared module, so no rule set imports another (issue 17: ftcamp and hrft imported each
other, a package-level cycle): FTCamp and Orbits write these shapes, HRFT reads them, and
back. The dicts the hooks pass keep these keys; the models say what each means.
Pure; imports nothing of a rule set."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

# The sample designs HRFT ships (bot/rules/hrft/samples/*.toml): key -> (ship name, MASS).
# Kept here as data so a parent can choose the nearest sample (E-D38) or budget against the
# smallest (O-D17) without importing HRFT; tests/rules/test_war_models.py checks that it
# matches the converted samples.
SAMPLE_DESIGNS: dict[str, tuple[str, int]] = {
    "kestrel": ("Kestrel", 24),
    "harrier": ("Harrier", 36),
    "vanguard": ("Vanguard", 72),
    "lynx": ("Lynx", 16),
    "jackal": ("Jackal", 38),
    "wolfhound": ("Wolfhound", 64),
}


def nearest_sample(mass: int) -> str:
    """The sample design nearest a campaign craft's mass (E-D38; ties: the lighter)."""
    return min(SAMPLE_DESIGNS, key=lambda k: (abs(SAMPLE_DESIGNS[k][1] - mass),
                                              SAMPLE_DESIGNS[k][1]))


def smallest_design() -> tuple[str, int]:
    """(name, MASS) of the smallest sample design: a budget below it buys nothing (O-D17)."""
    return min(SAMPLE_DESIGNS.values(), key=lambda d: (d[1], d[0]))


def design_problem(design: str | None) -> str:
    """Why a craft cannot come in as a sample design ('' when it can), in the words of the
    start message and the bring-in report (H-D28)."""
    if not design:
        return "it names no design"
    if design.strip().lower() not in SAMPLE_DESIGNS:
        return (f"design '{design}' not found: not a sample ({', '.join(SAMPLE_DESIGNS)}); "
                "the GM may upload it with /battle design")
    return ""


class RosterCraft(BaseModel):
    """One craft of a parent's battle that comes in as a named design (H-D28); ``owner`` is
    the parent's seat, ``seat`` the battle seat (0 until the service seats it)."""

    model_config = ConfigDict(extra="forbid")

    craft: str
    group: str
    seat: int = 0
    player: str = ""
    design: str | None = None
    owner: int = 0
    mass: int = 0


class ForceSpec(BaseModel):
    """One side of a parent's battle fought with a budget (O-D17, H-D35): ``owner`` the
    parent's seat, ``side`` the parent's key for it, the MASS and largest size class."""

    model_config = ConfigDict(extra="forbid")

    owner: int
    side: str
    label: str = ""
    budget: int = 0
    max_class: int = 1


class BattleSpec(BaseModel):
    """What a battle for a parent's ``ref`` brings in (``battle_link``): the parent's seats
    that fight in battle-seat order, the craft (FTCamp) or forces (Orbits), the preview lines
    and the battle's name (P-16)."""

    ref: str
    owners: list[int] = Field(default_factory=list)
    roster: list[RosterCraft] = Field(default_factory=list)
    forces: list[ForceSpec] = Field(default_factory=list)
    lines: list[str] = Field(default_factory=list)
    name: str = ""


class IntakeForce(BaseModel):
    """One side of a parent's battle as the battle seats it (``Intake.forces``): the
    ``ForceSpec`` with the battle seat in place of the parent's. The battle's rule set
    checks the bounds (HRFT: H-D35) and says what is wrong in its own words."""

    model_config = ConfigDict(extra="forbid")

    seat: int
    side: str
    label: str = ""
    budget: int = 0
    max_class: int = 1


class Intake(BaseModel):
    """What a parent's battle brings in when it starts (``take_in``, H-D28, H-D35): the
    craft that come in as named designs, seated, and the sides fought with a budget."""

    model_config = ConfigDict(extra="forbid")

    roster: list[RosterCraft] = Field(default_factory=list)
    forces: list[IntakeForce] = Field(default_factory=list)


class CraftFate(BaseModel):
    """One brought-in or mustered craft's end of a battle (E-D36, H-D37): ``side`` is the
    force's side key of a mustered ship, '' for a roster craft; hull boxes are HRFT's."""

    group: str = ""
    craft: str = ""
    fate: str = "intact"  # destroyed, hulk or intact
    ftl_lost: bool = False
    thrust: int = 0
    thrust_left: int = 0
    hull_lost: int = 0
    seat: int = 0
    side: str = ""
    mass: int = 0
    hull_total: int = 0


class BattleResult(BaseModel):
    """An ended battle's result for its parent (``battle_result``, ``propose_battle``):
    each craft's fate, the defeated sides and seats, and whether damage was entered by hand
    or the battle's GM ended it (P-22)."""

    name: str = ""
    craft: list[CraftFate] = Field(default_factory=list)
    defeated: list[str] = Field(default_factory=list)
    defeated_seats: list[int] = Field(default_factory=list)
    hand_entered: bool = False
    gm_ended: bool = False


def as_data(result: BattleResult | dict[str, Any] | Any) -> Any:
    """A result as the plain data a rule set validates into its own model (FTCamp keeps
    results in its state, Orbits reads part of one): a shared model is dumped, anything else
    (a dict from a test or an older caller) is passed on to be validated."""
    return result.model_dump() if isinstance(result, BaseModel) else result
