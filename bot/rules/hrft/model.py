"""Ships as HRFT sees them: hull blocks with rows and armour, systems grouped by arc (H-2..H-6).

Everything here is a pydantic model so a battle state serialises to JSON. Damage is kept as
counts (hull boxes and armour boxes lost per block, hits per system); rows fill from row 1.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

from bot.rules.hrft.arcs import ARCS

SystemGroup = Literal["arc", "central", "core"]

# H-D33: design limits. Fleet Book 1's largest ship is 280 MASS, 88 hull boxes, 14 armour,
# thrust 8, 25 systems of which 16 weapons; the caps leave room for FB2 and custom designs
# while keeping a ship's state small (DCPs grow with MASS: 400 MASS gives 20).
MAX_MASS = 400
MAX_HULL = 200
MAX_ARMOUR = 100
MAX_THRUST = 20
MAX_SYSTEMS = 60
MAX_WEAPONS = 40
MAX_NAME = 80  # Fleet Manager allows 80 characters in design and ship names (H-D53)
MAX_CODE = 8  # type code (CE, DD, SDN ...)
MAX_UID = 20  # a system's id inside its design ("s1", "s12")
MAX_PARAM = 1000  # a kept system number (bays, capacity)
MAX_FEEDS = MAX_SYSTEMS  # launcher ids a magazine feeds
MAX_FILE_SHIPS = 12  # ships in one uploaded file: one side's limit (state.MAX_SHIPS_PER_SEAT)
MAX_FILE_DESIGNS = 24  # designs carried in one fleet file
# A TOML ship is a few hundred bytes; tomllib is pure Python (about 1.5 ms per kB at worst),
# so TOML files are held far below the JSON limit (safe_load.MAX_BYTES, read in C).
MAX_TOML_BYTES = 32_000


class System(BaseModel):
    """One thresholdable system. ``group`` says how it rolls at a threshold (H-6)."""

    uid: str
    type: str
    label: str
    group: SystemGroup
    arcs: list[str] = Field(default_factory=list)
    params: dict[str, Any] = Field(default_factory=dict)
    max_hits: int = 1
    hits: int = 0
    inverted: bool = False  # the last DCP (H-10): never lost before the ship is destroyed

    @property
    def working(self) -> bool:
        """Fully working (a drive with one hit is damaged: half thrust)."""
        return self.hits == 0

    @property
    def destroyed(self) -> bool:
        return self.hits >= self.max_hits

    @property
    def can_be_hit(self) -> bool:
        """May be picked by a threshold: not destroyed and not the inverted DCP (H-6, H-10)."""
        return not self.destroyed and not self.inverted


class Block(BaseModel):
    """A hull block: its arcs, hull boxes split into rows (row 1 first) and armour boxes."""

    name: str
    arcs: list[str]
    hull: int
    armour: int
    rows: list[int]
    hull_lost: int = 0
    armour_lost: int = 0

    @property
    def hull_left(self) -> int:
        return self.hull - self.hull_lost

    @property
    def armour_left(self) -> int:
        return self.armour - self.armour_lost

    @property
    def stripped(self) -> bool:
        """Every hull box damaged (H-7)."""
        return self.hull_lost >= self.hull

    def rows_done(self, lost: int | None = None) -> list[int]:
        """Numbers (1-based) of the non-empty rows completed with ``lost`` boxes gone (H-5).

        Empty rows (a 2-box block has rows 1/1/0) never count (H-D2)."""
        lost = self.hull_lost if lost is None else lost
        done: list[int] = []
        end = 0
        for number, size in enumerate(self.rows, start=1):
            end += size
            if size and lost >= end:
                done.append(number)
        return done

    @property
    def stripped_level(self) -> int:
        """The threshold level of a stripped block: its last non-empty row (H-7, H-D2)."""
        return max((n for n, s in enumerate(self.rows, start=1) if s), default=0)

    def repair_floor(self) -> int:
        """Fewest lost boxes a hull repair may reach: the start of the current damaged row,
        or for a stripped block the start of its last row (H-10)."""
        if self.stripped:
            return self.hull - self.rows[self.stripped_level - 1] if self.hull else 0
        done = self.rows_done()
        return sum(self.rows[: done[-1]]) if done else 0


class BlockMap(dict[str, Block]):
    """Blocks by name; a joined block may be looked up with its arcs in any order."""

    def _find(self, key: object) -> Block | None:
        wanted = sorted(str(key).upper().split("+"))
        for block in self.values():
            if sorted(block.arcs) == wanted:
                return block
        return None

    def __missing__(self, key: str) -> Block:
        block = self._find(key)
        if block is None:
            raise KeyError(key)
        return block

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or self._find(key) is not None


class FleetOrigin(BaseModel):
    """Where a ship of a Fleet Manager fleet came from, kept so ``/battle export`` writes it
    back under the same ids, with the campaign damage HRFT does not track (H-D34)."""

    design_id: str = ""
    ship_uid: str = ""
    table_id: str = ""
    squadron: str = ""
    fighters_lost: dict[str, int] = Field(default_factory=dict)
    salvos_spent: dict[str, int] = Field(default_factory=dict)
    one_shot_used: list[str] = Field(default_factory=list)
    entry: int = -1  # H-D51: the ship's place in its fleet file's ``ships`` list


class KeptFleet(BaseModel):
    """H-D51: a Fleet Manager fleet as it was uploaded, so ``/battle export`` patches it (an
    update of that fleet) instead of writing a new one. ``doc`` is compact JSON of
    ``{"schema_version", "kind", "fleet", "designs", "factions"}`` (a str: deep copies of the
    state stay cheap and the text is exactly what came in); ``ships`` maps the place (index, as
    text) of each fleet ship that came into the battle to its battle uid."""

    seat: int
    doc: str
    ships: dict[str, str] = Field(default_factory=dict)


class Ship(BaseModel):
    """A converted ship (H-2, H-3, H-10, H-17) and its damage."""

    uid: str = ""
    name: str
    class_name: str = ""
    type_code: str = ""
    hull_kind: str = "warship"
    mass: int
    hull_total: int = Field(description="hull boxes of the original Full Thrust design")
    armour_total: int = Field(description="armour boxes of the original design")
    hull_rows: int = 4
    thrust: int = 0
    ftl: bool = False
    ring: list[str] = Field(description="block names clockwise from the fore block")
    blocks: dict[str, Block]
    systems: list[System]
    damage_control: int
    seat: int = 0
    destroyed: bool = False
    hulk: bool = False
    origin: FleetOrigin | None = None  # a Fleet Manager fleet ship (H-D34)
    # H-D52: design systems HRFT does not model (cloak, nova cannon, holds ...): carried with
    # the design and shown on the sheet as "not used in HRFT", never rolled or hit
    not_used: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _lookup_blocks(self) -> Ship:
        if not isinstance(self.blocks, BlockMap):
            object.__setattr__(self, "blocks", BlockMap(self.blocks))
        return self

    def block_for(self, arc: str) -> Block:
        """The block covering arc ``arc``."""
        for name in self.ring:
            if arc in self.blocks[name].arcs:
                return self.blocks[name]
        raise KeyError(arc)

    def system(self, uid: str) -> System:
        for s in self.systems:
            if s.uid == uid:
                return s
        raise KeyError(uid)

    @property
    def hull_left(self) -> int:
        return sum(b.hull_left for b in self.blocks.values())

    @property
    def armour_left(self) -> int:
        return sum(b.armour_left for b in self.blocks.values())

    @property
    def all_stripped(self) -> bool:
        """Every hull box gone; armour left does not count (H-8, H-D18)."""
        return all(b.stripped for b in self.blocks.values())

    @property
    def out(self) -> bool:
        """No longer fighting: destroyed or a hulk (H-8)."""
        return self.destroyed or self.hulk

    def systems_of(self, kind: str) -> list[System]:
        return [s for s in self.systems if s.type == kind]

    def core_damaged(self, kind: str) -> bool:
        """Whether the core system ``kind`` (computer, communications, sensors) is out (H-11)."""
        return any(s.type == kind and not s.working for s in self.systems)

    @property
    def screen_level(self) -> int:
        """Working screen level: sum of working screen generators' levels, at most 3 (H-D8)."""
        return min(3, sum(int(s.params.get("level", 1)) for s in self.systems_of("screen")
                          if s.working))

    @property
    def working_dcps(self) -> int:
        return sum(1 for s in self.systems_of("dcp") if s.working)

    @property
    def working_firecons(self) -> int:
        return sum(1 for s in self.systems_of("fire_control") if s.working)

    @property
    def current_thrust(self) -> int:
        """Thrust with drive damage: one hit halves it (rounded down), two stop it (FB1)."""
        drives = self.systems_of("drive")
        if not drives:
            return 0
        hits = drives[0].hits
        return self.thrust if hits == 0 else (self.thrust // 2 if hits == 1 else 0)


def arc_order(arcs: list[str]) -> list[str]:
    """Arcs sorted clockwise from F (H-1)."""
    return sorted(set(arcs), key=ARCS.index)
