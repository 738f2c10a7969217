"""What the GM may do at any time, without being asked (H-D29): enter manual damage in an
open step; during setup, upload the designs that the parent campaign's waiting craft name
(H-D28). The craft themselves come in with the start (``HrftRuleset.take_in``).

The GM is never in ``pending``: nothing waits for the GM, so no step line, panel or deadline
names them. The service offers these through ``gm_actions`` and applies them with ``act``.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from bot.errors import InvalidInput, PermissionDenied, RulesError
from bot.rules.base import GM_SEAT, ActionSpec, Audience, Dice, Event, InputField
from bot.rules.hrft import combat, fm_keep, muster
from bot.rules.hrft.actions import AddDesign, AnyAction, BringDocked, Damage
from bot.rules.hrft.convert import convert_design
from bot.rules.hrft.imports import MAX_CATALOG, read_catalog, ships_from_file, skipped_text
from bot.rules.hrft.model import Ship
from bot.rules.hrft.requests import damage_spec
from bot.rules.hrft.samples import SAMPLE_KEYS, sample_ship
from bot.rules.hrft.state import BattleState, RosterCraft, add_ship
from bot.rules.war_models import design_problem  # H-D28: shared with the parents

MAX_ROSTER = 72  # 6 seats x 12 ships (MAX_SHIPS_PER_SEAT)

ADD_DESIGN = ActionSpec(type="add_design", label="Upload designs for waiting craft", fields=[
    InputField(name="filename", label="File name", options=[]),
    InputField(name="content", label="File content", options=[])])
# H-D36: during the muster the GM's uploads are designs the sides may field
MUSTER_DESIGN = ActionSpec(type="add_design", label="Upload designs the sides may field",
                           fields=ADD_DESIGN.fields)


def gm_actions(state: BattleState) -> list[ActionSpec]:
    """The GM's actions now: setup and muster -> add_design; an open step -> damage. The craft and
    forces of a campaign battle come in with the start (``take_in``), not as a GM action."""
    if state.finished or state.step in ("orders", "finished"):
        return []
    if state.step == "setup":
        docked = fm_keep.bring_docked_spec(state)  # H-D54
        return [ADD_DESIGN, docked] if docked else [ADD_DESIGN]
    if state.step == "muster":
        return [MUSTER_DESIGN]
    return [damage_spec(state)]


def act(state: BattleState, action: AnyAction, dice: Dice) -> tuple[BattleState,
                                                                   list[Event]]:
    """Applies one GM action to a copy of ``state``; RulesError says what is allowed."""
    kind = "" if action.type is None else str(action.type)
    allowed = [spec.type for spec in gm_actions(state)]
    if kind not in allowed:
        # nothing is asked of the GM: a seat's action (ready, fire...) is not theirs
        raise PermissionDenied(f"The GM cannot '{kind}' now. Allowed now: "
                         f"{', '.join(allowed) or 'nothing (wait for an open step)'}.")
    state = state.model_copy(deep=True)
    if isinstance(action, Damage):
        return state, [combat.manual_damage(state, GM_SEAT, action, dice)]
    if isinstance(action, BringDocked):
        return state, fm_keep.bring_docked(state, action)
    assert isinstance(action, AddDesign)  # the only other action the GM is offered
    if state.step == "muster":
        return state, muster.add_designs(state, str(action.filename), str(action.content))
    return add_design(state, str(action.filename), str(action.content))


def parse_roster(raw: Any) -> list[RosterCraft]:
    """The ``roster`` of ``take_in``: a list of RosterCraft dicts."""
    if not isinstance(raw, list) or len(raw) > MAX_ROSTER:
        raise RulesError(f"The roster is a list of at most {MAX_ROSTER} craft.", ruling="H-D28")
    try:
        return [RosterCraft.model_validate(item) for item in raw]
    except ValidationError as exc:
        raise RulesError(f"The roster is not a list of craft: {exc}", ruling="H-D28") from None


def sample_for(design: str) -> Ship | None:
    """The sample design a craft names (by key or ship name, any case), if any."""
    key = design.strip().lower()
    return sample_ship(key) if key in SAMPLE_KEYS else None


def _place(state: BattleState, entry: RosterCraft,
           ship: Ship) -> tuple[BattleState, str, bool]:
    """Adds ``ship`` as the craft: (state, line, True), or (state, why not, False)."""
    try:
        new = add_ship(state, entry.seat, ship, name=entry.craft)
    except InvalidInput as exc:  # e.g. the side is full (MAX_SHIPS_PER_SEAT)
        return state, str(exc), False
    uid = new.ships_of(entry.seat)[-1].uid
    new.origin[uid] = [entry.group, entry.craft]  # its result goes back there (E-D36)
    return new, f"{entry.craft} ({ship.name}) for {new.seat_name(entry.seat)} as {uid}", True


def bring_in(state: BattleState, entries: list[RosterCraft]) -> tuple[BattleState,
                                                                      list[Event]]:
    """H-D28: each craft naming a sample design joins under its owner's battle seat; the
    rest wait in ``state.roster`` with the reason (the GM may upload designs later)."""
    if state.linked:
        raise RulesError("The campaign battle's craft were already brought in.", ruling="H-D28")
    seats = {s.number for s in state.seats}
    added: list[str] = []
    waiting: list[RosterCraft] = []
    for entry in entries:
        ship = sample_for(entry.design or "")
        if entry.seat not in seats:
            why = f"{entry.player or 'its player'} holds no seat in this battle"
        else:
            why = design_problem(entry.design)
        if ship is not None and not why:
            state, line, ok = _place(state, entry, ship)
            if ok:
                added.append(line)
                continue
            why = line
        waiting.append(entry.model_copy(update={"why": why}))
    state.linked, state.roster = True, waiting
    return state, [_event(state, "From the campaign battle", added, waiting)]


def add_design(state: BattleState, filename: str, content: str) -> tuple[BattleState,
                                                                         list[Event]]:
    """The GM uploads designs: every waiting craft that names one of them joins (H-D28). A
    Fleet Manager catalog is also kept as a design source for fleets (H-D34)."""
    read = read_catalog(filename, content)
    if read is not None:
        return add_catalog(state, filename, read.designs, skipped_text(read))
    ships = ships_from_file(filename, content)
    found = {n.lower(): s for s in ships for n in (s.name, s.class_name) if n}
    seats = {s.number for s in state.seats}
    matching = [e for e in state.roster
                if e.design and e.design.lower() in found and e.seat in seats]
    if not matching:
        names = ", ".join(s.name for s in ships)
        wanted = sorted({e.design for e in state.roster if e.design and e.seat in seats})
        raise RulesError(f"No craft waits for {names}. Designs waited for: "
                         f"{', '.join(wanted) or 'none'}.", ruling="H-D28")
    added: list[str] = []
    waiting: list[RosterCraft] = []
    for entry in state.roster:
        if entry not in matching:
            waiting.append(entry)
            continue
        state, line, ok = _place(state, entry, found[(entry.design or "").lower()])
        if ok:
            added.append(line)
        else:
            waiting.append(entry.model_copy(update={"why": line}))
    state.roster = waiting
    return state, [_event(state, f"The GM uploads {filename}", added, waiting)]


def add_catalog(state: BattleState, filename: str, catalog: dict[str, dict[str, Any]],
                skipped: str = "") -> tuple[BattleState, list[Event]]:
    """H-D34: the catalog's designs join the battle's design source (at most MAX_CATALOG in
    all); waiting craft naming one of them (by name or id) join, and so do the uploaded
    fleets' ships that name one by its built-in id (H-D55). ``skipped``: the designs the
    catalog could not give, named with why."""
    merged = {**state.catalog, **catalog}
    if len(merged) > MAX_CATALOG:
        raise RulesError(f"The battle would hold {len(merged)} catalog designs; at most "
                         f"{MAX_CATALOG} are kept. Upload only the catalog the fleets use.",
                         ruling="H-D33")
    state.catalog = merged
    seats = {s.number for s in state.seats}
    by_key: dict[str, dict[str, Any]] = {}
    for key, design in catalog.items():
        by_key[key.lower()] = design
        by_key.setdefault(str(design.get("name", "")).lower(), design)
    added: list[str] = []
    waiting: list[RosterCraft] = []
    for entry in state.roster:
        design = by_key.get((entry.design or "").lower()) if entry.seat in seats else None
        if design is None:
            waiting.append(entry)
            continue
        state, line, ok = _place(state, entry, convert_design(design))
        if ok:
            added.append(line)
        else:
            waiting.append(entry.model_copy(update={"why": line}))
    state.roster = waiting
    head = (f"The GM uploads the catalog {filename[:100]}: {len(catalog)} designs that fleet "
            f"files may name (the battle knows {len(merged)})")
    event = _event(state, head, added, waiting) if added or waiting else Event(
        audience=Audience.public(), kind="bring-in", text=f"**{head}**.",
        data={"added": [], "waiting": []})
    joined, failed = fm_keep.join_waiting(state)
    if joined:
        event.text += f"\nFleet ships that waited for these designs: {'; '.join(joined)}."
    if failed:
        event.text += f"\nStill waiting: {'; '.join(failed)}."
    event.text += skipped
    return state, [event]


def _event(state: BattleState, head: str, added: list[str],
           waiting: list[RosterCraft]) -> Event:
    lines = [f"**{head}**: brought in " + ("; ".join(added) if added else "no craft") + "."]
    lines += [f"Not brought in: {e.craft} ({e.why})" for e in waiting]
    if waiting:
        lines.append("Their players may add ships by hand (`/battle add`).")
    return Event(audience=Audience.public(), kind="bring-in", text="\n".join(lines),
                 data={"added": added, "waiting": [e.model_dump() for e in waiting]})
