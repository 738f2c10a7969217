"""What the FTCamp state keeps about the battles of a round and their results (E-D36)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Fate = Literal["destroyed", "hulk", "ftl", "drive", "damaged", "intact"]
FATES: dict[str, str] = {
    "destroyed": "destroyed (removed)", "hulk": "hulk (removed)",
    "ftl": "FTL destroyed (crippled)", "drive": "drive damaged (thrust lowered)",
    "damaged": "hull damage only", "intact": "no damage",
}


class CraftFate(BaseModel):
    """One craft's end of a battle, in the battle's terms (HRFT ``battle_result``)."""

    group: str
    craft: str
    fate: Fate = "intact"
    ftl_lost: bool = False
    thrust: int = 0  # the battle ship's design thrust
    thrust_left: int = 0  # its thrust at the end (drive damage)
    hull_lost: int = 0  # hull boxes lost
    edited: bool = False  # the GM set ``fate`` by hand: only that fate applies
    seat: int = 0  # its battle seat (0: not known)


class BattleResult(BaseModel):
    name: str = ""
    craft: list[CraftFate] = Field(default_factory=list)
    # E-D37: the battle seats left with no ship fighting (None: not known, an older result)
    defeated_seats: list[int] | None = None


Status = Literal["waiting", "proposed", "applied", "closed"]


class WarBattle(BaseModel):
    """A battle of a round's battle lists and where its result stands."""

    ref: str
    round: int
    status: Status = "waiting"
    result: BattleResult | None = None
    # E-D37: the name of the battle (its thread) it is being fought in; "" = not opened
    linked: str = ""
