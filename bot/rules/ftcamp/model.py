"""The FTCamp state: map, players, groups of craft, and the round in progress (E-1, E-2)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from bot.rules.ftcamp.warmodel import WarBattle

EngageOrder = Literal["RT", "SF", "EE"]
FleetKind = Literal["move", "hold", "hold-special", "maintain-orbit", "support", "patrol"]
FLEET_KINDS: tuple[str, ...] = (
    "move", "hold", "hold-special", "maintain-orbit", "support", "patrol",
)
HOLD_TASKS: tuple[str, ...] = ("maintain", "tug", "other")


class Craft(BaseModel):
    """One craft and its systems (E-2). ``decoy_class`` set means a launched decoy."""

    name: str
    mass: int
    thrust: int = 0
    drive: bool = True
    ftl: Literal["working", "crippled"] = "working"
    decoys: int = 0
    weasel: int = 0
    weasel_on: int = 0
    sensors: int = 0
    ecm: bool = False
    stealth: int = 0
    tug: int = 0
    armed: bool = False
    command: bool = False
    damage: int = 0
    decoy_class: int | None = None
    design: str | None = None  # an HRFT design to bring into a battle (H-D28)

    @property
    def crippled(self) -> bool:
        return self.ftl == "crippled"

    @property
    def is_decoy(self) -> bool:
        return self.decoy_class is not None


class FleetOrder(BaseModel):
    """A fleet order (E-3); ``target`` is the hex, the hold task or the supported group."""

    kind: FleetKind = "hold"
    target: str = ""

    def text(self) -> str:
        return f"{self.kind} {self.target}".strip()


class Group(BaseModel):
    """A group of craft owned by one seat; statics carry ``static`` (E-2)."""

    name: str
    owner: int
    hex: str
    sector: str | None = None
    craft: list[Craft]
    order: FleetOrder = Field(default_factory=FleetOrder)
    lost: bool = False
    diplomat: bool = False
    static: Literal["military", "civilian"] | None = None
    show_civilian: bool = False
    tugged_by: str | None = None
    must_leave: str | None = None


class SystemHex(BaseModel):
    hex: str
    name: str
    system_sector: str


class HexMap(BaseModel):
    columns: int
    rows: int
    systems: list[SystemHex] = Field(default_factory=list)


class Player(BaseModel):
    seat: int
    name: str


class RulesConfig(BaseModel):
    """Rule options carried by the scenario (E-4, E-8, E-10)."""

    signature_limits: list[int] = Field(default_factory=lambda: [20, 40, 80, 160])
    group_sizes: list[int] = Field(default_factory=lambda: [3, 6, 10, 15])
    missing_engage_order: Literal["SF"] = "SF"


class Choice(BaseModel):
    """A group's engage order once revealed (E-6, E-7)."""

    order: EngageOrder
    parts: list[list[str]]
    drop_hold: bool = False
    abandoned: list[str] = Field(default_factory=list)
    follows: str | None = None


class Roll(BaseModel):
    dice: tuple[int, int]
    bonus: int
    thrust: int
    value: int


class BattleGroup(BaseModel):
    group: str
    owner: int
    role: str
    order: str = ""
    parts: list[list[str]] = Field(default_factory=list)
    engage_value: int | None = None
    flags: list[str] = Field(default_factory=list)


class Battle(BaseModel):
    hex: str
    sector: str
    rule: str
    groups: list[BattleGroup] = Field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.hex}/{self.sector}"


class Placed(BaseModel):
    """Where a group stood in a hex's orbit-sectors when its battle list was made; every
    pick is a public event, so this is public (E-11, E-D16)."""

    group: str
    sector: str
    owner: int
    static: bool = False


class HexResult(BaseModel):
    """The battle list of one contested hex (E-13) and the groups' final orbit-sectors."""

    round: int
    hex: str
    battles: list[Battle] = Field(default_factory=list)
    escaped: list[str] = Field(default_factory=list)
    locked: dict[str, list[str]] = Field(default_factory=dict)
    unengaged: list[str] = Field(default_factory=list)
    statics: list[str] = Field(default_factory=list)
    exposed: list[str] = Field(default_factory=list)
    placed: list[Placed] = Field(default_factory=list)


class HexRun(BaseModel):
    """The engage phase of one contested hex in progress."""

    hex: str
    choices: dict[str, Choice] = Field(default_factory=dict)
    rolls: dict[str, Roll] = Field(default_factory=dict)
    queue: list[str] = Field(default_factory=list)
    placements: dict[str, str] = Field(default_factory=dict)
    dispatched: dict[str, str] = Field(default_factory=dict)
    betrayals: list[tuple[int, int]] = Field(default_factory=list)
    result: HexResult | None = None
    chase_sectors: list[str] = Field(default_factory=list)
    reserve_groups: list[str] = Field(default_factory=list)
    patrol_groups: list[str] = Field(default_factory=list)


Step = Literal["setup", "orders", "special", "engage", "allocate", "chase", "reserves", "patrol",
               "battles"]


class State(BaseModel):
    """The whole campaign. ``secret`` holds sealed answers while a paged step collects them."""

    name: str = "FTCamp campaign"
    round: int = 1
    rules: RulesConfig = Field(default_factory=RulesConfig)
    map: HexMap
    players: list[Player]
    alliances: list[tuple[int, int]] = Field(default_factory=list)
    groups: dict[str, Group] = Field(default_factory=dict)
    step: Step = "setup"
    page: int = 1
    contested: list[str] = Field(default_factory=list)
    run: HexRun | None = None
    secret: dict[int, dict[str, str | list[str]]] = Field(default_factory=dict)
    # answer keys of ``secret`` the service took by default at a deadline (never set by a
    # player's action): the reveal marks them; always reassigned, never mutated in place
    by_default: list[str] = Field(default_factory=list)
    results: list[HexResult] = Field(default_factory=list)
    sector_hex: str | None = None
    sector_layout: dict[str, str] = Field(default_factory=dict)
    revealed: list[str] = Field(default_factory=list)
    dispatched: list[str] = Field(default_factory=list)
    counter: int = 0
    max_rounds: int = 0
    over: bool = False
    war: list[WarBattle] = Field(default_factory=list)  # the round's battles (E-D36)

    def player_name(self, seat: int) -> str:
        for p in self.players:
            if p.seat == seat:
                return p.name
        return f"seat {seat}"

    def allied(self, a: int, b: int) -> bool:
        """Same player, or an alliance pair not broken (E-12)."""
        return a == b or (min(a, b), max(a, b)) in self.alliances
