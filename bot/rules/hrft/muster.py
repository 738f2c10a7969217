"""Forces of a parent campaign fought with a budget (H-D35) and the sealed muster step in
which each side picks its ships (H-D36).

A Force gives a battle seat a budget in MASS and the largest size class it may field. The
muster step asks every force seat that can afford a ship for one sealed ``muster`` action:
per eligible design a count (field name = the design's key: a sample key such as
``vanguard`` or a catalog id), e.g. ``{"type": "muster", "vanguard": "1", "jackal": "2"}``.
Picks stay in the service's sealed submissions until every side has chosen; only the
resolution makes them ships and announces them.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

from pydantic import ValidationError

from bot.errors import PermissionDenied, RulesError
from bot.rules.base import (
    BY_DEFAULT,
    ActionSpec,
    Audience,
    Embed,
    Event,
    InputField,
    Option,
    Request,
)
from bot.rules.hrft.actions import AnyAction, Muster
from bot.rules.hrft.convert import convert_design
from bot.rules.hrft.imports import MAX_CATALOG, read_catalog, ships_from_file, skipped_text
from bot.rules.hrft.model import Ship
from bot.rules.hrft.samples import SAMPLE_KEYS, sample_ship
from bot.rules.hrft.state import MAX_SHIPS_PER_SEAT, BattleState, Force, add_ship

__all__ = ["Force", "size_class", "eligible", "muster_request", "check", "resolve"]

MAX_COUNT = 24  # a Select offers at most 25 options: "0".."24"
MAX_DESIGNS = 60  # fields of one muster panel (the panel pages them)
MAX_UPLOADED = 24  # single designs the GM may add during the muster (catalogs: MAX_CATALOG)

# H-D35: the upper MASS of size classes 1..4; class 5 is everything above 160.
CLASS_TOP = (30, 60, 100, 160)

TYPE_WORDS = {
    "SC": "scout", "CT": "corvette", "FF": "frigate", "FG": "frigate", "DD": "destroyer",
    "DE": "escort destroyer", "CE": "escort cruiser", "CL": "light cruiser",
    "CA": "heavy cruiser", "CH": "heavy cruiser", "BC": "battlecruiser", "BB": "battleship",
    "BDN": "dreadnought", "DN": "dreadnought", "SD": "superdreadnought",
    "SDN": "superdreadnought", "CV": "carrier", "CVL": "light carrier",
    "CVE": "escort carrier", "CVA": "attack carrier",
}


def size_class(mass: int) -> int:
    """H-D35: 1 up to MASS 30, 2 up to 60, 3 up to 100, 4 up to 160, 5 above."""
    return next((i for i, top in enumerate(CLASS_TOP, start=1) if mass <= top), 5)


def class_range(cls: int) -> str:
    """'MASS 61-100' for class 3, 'MASS over 160' for class 5."""
    if cls >= 5:
        return f"MASS over {CLASS_TOP[-1]}"
    low = 1 if cls == 1 else CLASS_TOP[cls - 2] + 1
    return f"MASS {low}-{CLASS_TOP[cls - 1]}"


class Design(NamedTuple):
    key: str
    name: str
    type_code: str
    mass: int

    @property
    def words(self) -> str:
        kind = TYPE_WORDS.get(self.type_code.upper())
        return f"{self.name}, {kind}, MASS {self.mass}" if kind else \
            f"{self.name}, MASS {self.mass}"


@lru_cache(maxsize=len(SAMPLE_KEYS))
def _sample(key: str) -> Design:
    ship = sample_ship(key)
    return Design(key, ship.name, ship.type_code, ship.mass)


def designs(state: BattleState) -> dict[str, Design]:
    """Every design a force may field (H-D36): the samples, the designs the GM uploaded
    during the muster, then the catalog the battle keeps (during setup, H-D34). A catalog id
    equal to another key or to ``type`` is left out: the action's field names must stay
    distinct."""
    out = {key: _sample(key) for key in SAMPLE_KEYS}
    for key, ship in state.uploaded.items():
        out.setdefault(key, Design(key, ship.class_name or ship.name, ship.type_code,
                                   ship.mass))
    for key, raw in state.catalog.items():
        if key in out or key == "type":
            continue
        try:  # catalog designs were converted when uploaded; the MASS is the design's TMF
            mass = int(raw.get("tmf", 0))
        except (TypeError, ValueError):
            continue
        if mass > 0:
            out[key] = Design(key, str(raw.get("name", key))[:60],
                              str(raw.get("type_code", "")), mass)
    return out


def force_of(state: BattleState, seat: int) -> Force | None:
    return next((f for f in state.forces if f.seat == seat), None)


def _slots(state: BattleState, force: Force) -> int:
    return max(0, MAX_SHIPS_PER_SEAT - len(state.ships_of(force.seat)))


def eligible(state: BattleState, force: Force) -> list[Design]:
    """Designs of size class <= the cap that fit the budget, largest first (H-D36)."""
    if not _slots(state, force):
        return []
    found = [d for d in designs(state).values()
             if size_class(d.mass) <= force.max_class and d.mass <= force.budget]
    return sorted(found, key=lambda d: (-d.mass, d.name.lower(), d.key))[:MAX_DESIGNS]


def asked(state: BattleState) -> list[Force]:
    """Force seats the muster step asks: those that can afford at least one ship. A force
    that affords nothing fields no ships and is never waited for."""
    return [f for f in state.forces if eligible(state, f)]


def parse_forces(state: BattleState, raw: Any) -> list[Force]:
    """The ``forces`` of ``take_in``, checked: one per battle seat at most."""
    if not isinstance(raw, list) or len(raw) > len(state.seats):
        raise RulesError(f"Forces are a list of at most {len(state.seats)} entries (one per "
                         "seat of this battle).", ruling="H-D35")
    forces: list[Force] = []
    for i, item in enumerate(raw, start=1):
        try:
            force = Force.model_validate(item)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"]) or "entry"
            raise RulesError(f"Force {i}: {where}: {err['msg']} (a force has seat, side, "
                             "label up to 80 characters, budget 0..100000 MASS, max_class "
                             "1..5).", ruling="H-D35") from None
        numbers = [s.number for s in state.seats]
        if force.seat not in numbers:
            raise RulesError(f"Force {i} names seat {force.seat}; this battle has seats "
                             f"{', '.join(map(str, numbers))}.", ruling="H-D35")
        if any(f.seat == force.seat for f in forces):
            raise RulesError(f"Seat {force.seat} has two forces; a seat fields one.",
                             ruling="H-D35")
        forces.append(force.model_copy(update={"label": force.label.strip()}))
    return forces


def _who(state: BattleState, force: Force) -> str:
    return force.label or state.seat_name(force.seat)


def _who_and_seat(state: BattleState, force: Force) -> str:
    """The force's label with its player's name, unless the label already says it."""
    who, name = _who(state, force), state.seat_name(force.seat)
    return who if name.lower() in who.lower() else f"{who} ({name})"


def _cap_text(force: Force) -> str:
    return (f"up to {force.budget} MASS, ships up to size class {force.max_class} "
            f"({class_range(force.max_class)})")


def default_picks(options: list[Design], budget: int, slots: int) -> dict[str, int]:
    """H-D36 default: the largest design that still fits, as many as fit, then the next
    smaller one, and so on (ties by name); never over the budget or the ship limit."""
    picks: dict[str, int] = {}
    left = budget
    for d in sorted(options, key=lambda d: (-d.mass, d.name.lower(), d.key)):
        n = min(left // d.mass, slots, MAX_COUNT)
        if n > 0:
            picks[d.key] = n
            left -= n * d.mass
            slots -= n
    return picks


def muster_request(state: BattleState, force: Force) -> Request:
    options = eligible(state, force)
    slots = _slots(state, force)
    fields = []
    for d in options:
        k = min(force.budget // d.mass, slots, MAX_COUNT)
        fields.append(InputField(
            name=d.key, label=f"{d.words}: how many?", min_values=0,
            options=[Option(value=str(n), label=str(n) if n else "0 (none)",
                            description=f"{n * d.mass} MASS" if n else "")
                     for n in range(k + 1)]))
    picks = default_picks(options, force.budget, slots)
    default: dict[str, Any] = {"type": "muster"}
    default.update({d.key: str(picks.get(d.key, 0)) for d in options})
    prompt = (f"{_who(state, force)}: you may field {_cap_text(force)}, at most "
              f"{slots} ships. Your choice stays secret until every side has chosen.")
    # a GM upload re-opens the step (a new step name): every side chooses again
    step = "muster" if not state.muster_round else f"muster-{state.muster_round + 1}"
    return Request(seat=force.seat, kind="sealed", step=step, prompt=prompt,
                   actions=[ActionSpec(type="muster", label="Field these ships",
                                       fields=fields)],
                   default=default)


def _count(design: Design, raw: Any, slots: int) -> int:
    value = raw[0] if isinstance(raw, list) and len(raw) == 1 else raw
    if value is None or value == []:
        return 0
    try:
        n = int(str(value))
    except ValueError:
        n = -1
    top = min(slots, MAX_COUNT)
    if not 0 <= n <= top:
        raise RulesError(f"{design.name}: '{value}' is not a whole number of ships from 0 "
                         f"to {top}.", ruling="H-D36")
    return n


def read_picks(state: BattleState, seat: int, action: AnyAction) -> dict[str, int]:
    """A seat's muster action as design key -> count; RulesError says what is wrong."""
    force = force_of(state, seat)
    if force is None or force not in asked(state):
        raise PermissionDenied(f"{state.seat_name(seat)} has no ships to choose in this "
                               "battle.")
    if not isinstance(action, Muster):
        raise RulesError("Now each side chooses its ships (the muster panel): nothing "
                         "else is possible yet.", ruling="H-D36")
    known = designs(state)
    slots = _slots(state, force)
    mine = eligible(state, force)
    picks: dict[str, int] = {}
    for key, raw in action.extras().items():
        design = known.get(key)
        if design is None:
            names = ", ".join(f"{d.key} ({d.name})" for d in mine)
            raise RulesError(f"'{key}' is not a design your side may field. Yours: {names}.",
                             ruling="H-D36")
        n = _count(design, raw, slots)
        if n and size_class(design.mass) > force.max_class:
            raise RulesError(f"{design.name} is size class {size_class(design.mass)} (MASS "
                             f"{design.mass}); your side may field ships up to size class "
                             f"{force.max_class} ({class_range(force.max_class)}).", ruling="H-D36")
        if n:
            picks[key] = n
    ships = sum(picks.values())
    if ships > slots:
        raise RulesError(f"You picked {ships} ships; your side may field at most {slots}.",
                         ruling="H-D36")
    total = sum(known[k].mass * n for k, n in picks.items())
    if total > force.budget:
        raise RulesError(f"Your picks total {total} MASS; your budget is {force.budget}.",
                         ruling="H-D36")
    if not picks:
        small = min(mine, key=lambda d: d.mass)
        raise RulesError(f"Pick at least one ship: your budget of {force.budget} MASS "
                         f"affords a {small.name} (MASS {small.mass}).", ruling="H-D36")
    return picks


def check(state: BattleState, seat: int, action: AnyAction) -> None:
    """Refuses a bad sealed muster action when it is submitted (H-D36)."""
    read_picks(state, seat, action)


def _ship(state: BattleState, design: Design) -> Ship:
    if design.key in SAMPLE_KEYS:
        return sample_ship(design.key)
    if design.key in state.uploaded:
        return state.uploaded[design.key]  # add_ship copies it
    return convert_design(state.catalog[design.key])


def _upload_key(name: str) -> str:
    """'Heavy Dread' -> 'up:heavy-dread': apart from the sample keys and catalog ids."""
    slug = "-".join("".join(c if c.isalnum() else " " for c in name.lower()).split())
    return f"up:{slug[:60] or 'design'}"


def add_designs(state: BattleState, filename: str, content: str) -> list[Event]:
    """H-D36: the GM uploads designs during the muster, a Fleet Manager catalog (kept as
    the battle's catalog, H-D34) or design files (.FTDesign, .toml). They join the designs
    the sides may field and the step opens again: every side chooses anew. Mutates
    ``state`` (the caller's copy); InvalidInput/RulesError say what is wrong."""
    before = designs(state)
    read = read_catalog(filename, content)
    catalog = read.designs if read is not None else None
    if catalog is not None:
        merged = {**state.catalog, **catalog}
        if len(merged) > MAX_CATALOG:
            raise RulesError(f"The battle would hold {len(merged)} catalog designs; at most "
                             f"{MAX_CATALOG} are kept. Upload only the designs the sides "
                             "need.", ruling="H-D33")
        state.catalog = merged
    else:
        ships = ships_from_file(filename, content, state.catalog)
        if any(ship.origin is not None for ship in ships):
            raise RulesError("That is a fleet; upload the designs the sides may field "
                             "(a Fleet Manager design or catalog, or a .toml design).",
                             ruling="H-D33")
        for ship in ships:
            state.uploaded[_upload_key(ship.class_name or ship.name)] = ship.model_copy(
                update={"uid": "", "seat": 0})
        if len(state.uploaded) > MAX_UPLOADED:
            raise RulesError(f"At most {MAX_UPLOADED} single designs can be added; upload "
                             "a catalog for more.", ruling="H-D33")
    after = designs(state)
    new = [d for k, d in after.items() if before.get(k) != d]
    state.muster_round += 1
    listed = "; ".join(f"{d.words} (size class {size_class(d.mass)})" for d in new[:20])
    more = f" and {len(new) - 20} more" if len(new) > 20 else ""
    text = (f"**The GM adds designs the sides may field**: {listed or 'nothing new'}{more}. "
            "Every side chooses its ships again."
            + (skipped_text(read) if read is not None else ""))
    return [Event(audience=Audience.public(), kind="designs", text=text,
                  data={"designs": [d.key for d in new]})]


def _numbered(state: BattleState, base: str) -> str:
    """'Kestrel 3': the next number of that design name in the whole battle."""
    base = base[:36]
    used = {s.name for s in state.ships.values()}
    n = 1
    while f"{base} {n}" in used:
        n += 1
    return f"{base} {n}"


def resolve(state: BattleState, actions: dict[int, AnyAction],
            defaulted: frozenset[int] = frozenset()) -> list[Event]:
    """H-D36: every force's picks (a missing one: its default) become its ships, in seat
    order; one public event lists each side's ships and the MASS used of its budget, marking
    the sides whose picks were taken by default at the deadline (``defaulted``, or missing).
    Mutates ``state`` (the caller's copy)."""
    to_ask = asked(state)
    chosen: dict[int, dict[str, int]] = {}
    for force in to_ask:  # all checked before any ship is added
        action = actions.get(force.seat)
        chosen[force.seat] = (read_picks(state, force.seat, action) if action is not None
                              else default_picks(eligible(state, force), force.budget,
                                                 _slots(state, force)))
    known = designs(state)
    state.step = "setup"  # ships join as in setup (add_ship); the caller moves on from here
    embed = Embed(title="The sides have chosen their ships")
    lines = ["**The sides have chosen their ships**"]
    for force in sorted(state.forces, key=lambda f: f.seat):
        picks = chosen.get(force.seat, {})
        added: list[str] = []
        used = 0
        for key in sorted(picks, key=lambda k: (-known[k].mass, known[k].name.lower(), k)):
            design = known[key]
            for _ in range(picks[key]):
                add_ship(state, force.seat, _ship(state, design),
                         name=_numbered(state, design.name), copy=False)
                ship = state.ships_of(force.seat)[-1]
                state.origin[ship.uid] = [_who(state, force), ship.name]  # E-D36, H-D37
                state.mustered[ship.uid] = force.side
                added.append(f"{ship.name} ({ship.uid})")
                used += design.mass
        who = _who_and_seat(state, force)
        missed = force in to_ask and (force.seat in defaulted or force.seat not in actions)
        if added:
            spent = f"{used} of {force.budget} MASS"
            lines.append(f"{who}: {', '.join(added)}; {spent}"
                         + (f" ({BY_DEFAULT})." if missed else "."))
            embed.field(who, "\n".join(added) + f"\n{spent}"
                        + (f"\n_{BY_DEFAULT}_" if missed else ""), inline=True)
        else:
            why = f"nothing fits {_cap_text(force)}"
            lines.append(f"{who}: no ships ({why}).")
            embed.field(who, f"No ships: {why}.", inline=True)
    return [Event(audience=Audience.public(), kind="muster", text="\n".join(lines),
                  embed=embed, data={"sides": {str(f.seat): f.side for f in state.forces}})]


def begin(state: BattleState, forces: list[Force]) -> list[Event]:
    """Keeps the forces; opens the muster step when some side can afford a ship (the caller
    continues the battle otherwise). Mutates ``state``."""
    state.forces = forces
    ask = asked(state)
    lines = ["**Forces from the campaign**: each side chooses its ships from a budget; "
             "the choices stay secret until every side has chosen."]
    for force in forces:
        tail = "" if force in ask else " (nothing fits: this side fields no ships)"
        lines.append(f"{_who_and_seat(state, force)} may field "
                     f"{_cap_text(force)}{tail}.")
    if ask:
        state.step, state.ready = "muster", []
    return [Event(audience=Audience.public(), kind="forces", text="\n".join(lines))]
