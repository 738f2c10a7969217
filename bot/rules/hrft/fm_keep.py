"""The Fleet Manager fleets a battle's sides uploaded, kept as they came (H-D51).

``/battle export`` patches the kept fleet (export.py) rather than writing a new one, so the
Fleet Manager takes the file as a newer copy of the same fleet. Here: keeping a fleet when its
ships come in (bounded, H-D51), bringing a docked ship in by the GM (H-D54), and ships whose
built-in design the GM's catalog upload supplies later (H-D55).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from bot.errors import InvalidInput, RulesError
from bot.rules.base import ActionSpec, Audience, Event, InputField, Option
from bot.rules.hrft.actions import BringDocked
from bot.rules.hrft.carried import OUT_STATUSES
from bot.rules.hrft.convert import BUILTIN_REMEDY, fleet_designs, fleet_ship, is_builtin
from bot.rules.hrft.model import KeptFleet, Ship
from bot.rules.hrft.state import BattleState, add_ship

# H-D51: every kept fleet is one upload (at most safe_load.MAX_BYTES); the battle keeps at
# most this many characters of them in all, so its state (and its undo snapshots) stay small.
MAX_KEPT_CHARS = 400_000


def kept_doc(kept: KeptFleet) -> dict[str, Any]:
    """The kept ``.FTFleet`` document (a fresh copy, the caller may change it)."""
    doc: dict[str, Any] = json.loads(kept.doc)
    return doc


@lru_cache(maxsize=16)
def _read_only(text: str) -> Any:
    """The parsed kept text, shared: only for reading (the GM's actions are listed often)."""
    return json.loads(text)


def _fleet_id(doc: dict[str, Any]) -> str | None:
    fid = doc.get("fleet", {}).get("id")
    return fid if isinstance(fid, str) and fid else None


def check_new(state: BattleState, doc: dict[str, Any]) -> str:
    """The compact text of ``doc`` to keep; refuses a fleet the battle has already (its ships
    would come in twice) or one that would make the kept fleets too large."""
    fid = _fleet_id(doc)
    for kept in state.fm_fleets:
        if fid is not None and _fleet_id(kept_doc(kept)) == fid:
            name = str(kept_doc(kept)["fleet"].get("name") or "this fleet")[:80]
            raise InvalidInput(f"The fleet '{name}' is already in this battle (for "
                               f"{state.seat_name(kept.seat)}); its ships came in then.")
    text = json.dumps(doc, separators=(",", ":"), ensure_ascii=False)
    total = len(text) + sum(len(k.doc) for k in state.fm_fleets)
    if total > MAX_KEPT_CHARS:
        raise InvalidInput(f"This battle keeps at most {MAX_KEPT_CHARS // 1000} kB of Fleet "
                           f"Manager fleets for the export; this fleet would make "
                           f"{total // 1000} kB. Leave out long notes or logs and upload it "
                           "again.")
    return text


def keep(state: BattleState, seat: int, text: str, added: list[Ship]) -> None:
    """Keeps the fleet (``text`` from ``check_new``) with the battle ships its entries
    became. Mutates ``state``."""
    ships = {str(s.origin.entry): s.uid for s in added if s.origin and s.origin.entry >= 0}
    state.fm_fleets.append(KeptFleet(seat=seat, doc=text, ships=ships))


def _entries(doc: dict[str, Any]) -> list[Any]:
    ships = doc.get("fleet", {}).get("ships")
    return ships if isinstance(ships, list) else []


def docked(state: BattleState) -> list[tuple[int, int, dict[str, Any]]]:
    """(kept fleet index, entry index, entry) of every docked ship not brought in yet."""
    out = []
    for k, kept in enumerate(state.fm_fleets):
        for i, entry in enumerate(_entries(_read_only(kept.doc))):
            if (isinstance(entry, dict) and entry.get("status") == "docked"
                    and str(i) not in kept.ships):
                out.append((k, i, dict(entry)))
    return out


def bring_docked_spec(state: BattleState) -> ActionSpec | None:
    """H-D54: the GM's action to bring a docked ship into the battle (during setup)."""
    waiting = docked(state)[:25]
    if not waiting:
        return None
    options = [Option(value=f"{k}.{i}",
                      label=f"{str(e.get('name') or e.get('uid') or 'ship')[:60]} "
                            f"({state.seat_name(state.fm_fleets[k].seat)})"[:100],
                      description="docked in the Fleet Manager")
               for k, i, e in waiting]
    return ActionSpec(type="bring_docked", label="Bring a docked ship into the battle",
                      fields=[InputField(name="ship", label="Docked ship", options=options)])


def _join(state: BattleState, k: int, i: int, entry: dict[str, Any]) -> Ship:
    """Adds fleet ``k``'s entry ``i`` to its seat (RulesError when its design is unknown or
    the side is full). Mutates ``state``."""
    kept = state.fm_fleets[k]
    doc = kept_doc(kept)
    design = fleet_designs({"designs": doc.get("designs") or []},
                           state.catalog).get(str(entry.get("design_id", "")))
    name = str(entry.get("name") or entry.get("uid") or "The ship")[:80]
    if design is None:
        raise RulesError(f"{name}'s design {str(entry.get('design_id'))[:80]} is not known "
                         "to this battle. " + BUILTIN_REMEDY, ruling="H-D55")
    ship = fleet_ship(entry, design, i)
    try:
        add_ship(state, kept.seat, ship, copy=False)
    except InvalidInput as exc:
        raise RulesError(f"{name} cannot come in: {exc}", ruling="H-D54") from None
    added = state.ships_of(kept.seat)[-1]
    if added.origin and added.origin.one_shot_used:  # H-D34: spent before
        state.spent[added.uid] = list(added.origin.one_shot_used)
    kept.ships[str(i)] = added.uid
    return added


def bring_docked(state: BattleState, action: BringDocked) -> list[Event]:
    """H-D54: the GM brings one docked ship in. Mutates ``state`` (the caller's copy)."""
    wanted = str(action.ship)
    waiting = {f"{k}.{i}": (k, i, e) for k, i, e in docked(state)}
    if wanted not in waiting:
        names = ", ".join(str(e.get("name") or e.get("uid")) for _, _, e in waiting.values())
        raise RulesError(f"No docked ship '{wanted[:20]}' waits. Docked ships: "
                         f"{names or 'none'}.", ruling="H-D54")
    added = _join(state, *waiting[wanted])
    text = (f"**The GM brings {added.name} out of dock** for "
            f"{state.seat_name(added.seat)} as {added.uid}.")
    return [Event(audience=Audience.public(), kind="ship-added", text=text)]


def join_waiting(state: BattleState) -> tuple[list[str], list[str]]:
    """H-D55: after a catalog upload, the kept fleets' ships whose built-in design it holds
    come in: (lines of the ships added, lines of those that could not). Mutates ``state``."""
    added: list[str] = []
    failed: list[str] = []
    for k, kept in enumerate(state.fm_fleets):
        doc = kept_doc(kept)
        for i, entry in enumerate(_entries(doc)):
            if (not isinstance(entry, dict) or str(i) in kept.ships
                    or entry.get("status") in (*OUT_STATUSES, "docked")):
                continue
            design_id = str(entry.get("design_id", ""))
            if not is_builtin(design_id) or design_id not in state.catalog:
                continue
            try:
                ship = _join(state, k, i, entry)
            except (RulesError, InvalidInput) as exc:
                failed.append(f"{str(entry.get('name') or design_id)[:80]} ({exc})")
                continue
            added.append(f"{ship.name} for {state.seat_name(ship.seat)} as {ship.uid}")
    return added, failed
