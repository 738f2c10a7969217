"""What a viewer may see (``view``), the status text and the end-of-battle report.

Nothing secret is in the public view: sealed orders live with the service until the reveal,
and orders written a turn ahead for a damaged computer (H-11) are shown only to their owner.
"""

from __future__ import annotations

from typing import Any

from bot.rules.hrft import screens
from bot.rules.hrft.model import Ship
from bot.rules.hrft.sequence import step_def
from bot.rules.hrft.state import BattleState

MAX_STATUS = 1900


def ship_status(ship: Ship) -> str:
    if ship.destroyed:
        return "destroyed"
    if ship.hulk:
        return "hulk"
    return "fighting"


def ship_view(state: BattleState, ship: Ship, viewer: int | None) -> dict[str, Any]:
    order = state.orders.get(ship.uid)
    out: dict[str, Any] = {
        "uid": ship.uid, "name": ship.name, "seat": ship.seat,
        "owner": state.seat_name(ship.seat), "class": ship.class_name,
        "type_code": ship.type_code, "mass": ship.mass, "thrust": ship.thrust,
        "current_thrust": ship.current_thrust, "status": ship_status(ship),
        "hull_total": ship.hull_total, "armour_total": ship.armour_total,
        "hull_left": ship.hull_left, "hull_boxes": sum(b.hull for b in ship.blocks.values()),
        "armour_left": ship.armour_left,
        "armour_boxes": sum(b.armour for b in ship.blocks.values()),
        "hull_rows": ship.hull_rows, "ring": list(ship.ring),
        "blocks": [{"name": b.name, "arcs": list(b.arcs), "hull": b.hull, "armour": b.armour,
                    "rows": list(b.rows), "hull_lost": b.hull_lost,
                    "armour_lost": b.armour_lost, "stripped": b.stripped}
                   for b in (ship.blocks[n] for n in ship.ring)],
        "systems": [{"uid": s.uid, "label": s.label, "type": s.type, "group": s.group,
                     "arcs": list(s.arcs), "hits": s.hits, "max_hits": s.max_hits,
                     "inverted": s.inverted} for s in ship.systems],
        "not_used": list(ship.not_used),  # H-D52: carried from the design, not used in HRFT
        "damage_control": ship.damage_control, "dcps_working": ship.working_dcps,
        "dcps_free": ship.working_dcps - state.dcp_used.get(ship.uid, 0),
        "medic_used": ship.uid in state.medic_used,
        "firecons": ship.working_firecons, "targets": list(state.targets.get(ship.uid, [])),
        "fired": list(state.fired.get(ship.uid, [])),
        "spent": list(state.spent.get(ship.uid, [])),
        "can_fire": [k.split(":", 1)[1] for k in state.snapshot if k.startswith(ship.uid + ":")],
        "attacked": [k.split(">", 1)[1] for k in state.attacks_this_step
                     if k.startswith(ship.uid + ">")],
        "comms_damaged": ship.core_damaged("communications"),
        "screen_level": ship.screen_level,
        "screens": screens.describe(state.screens.get(ship.uid, {})),
        "screens_by_arc": dict(state.screens.get(ship.uid, {})),
        "order": order.model_dump() if order else None,
        # declared publicly at step 10 (H-D32)
        "maneuver": (state.maneuvers[ship.uid].model_dump()
                     if ship.uid in state.maneuvers else None),
    }
    if viewer is not None and viewer == ship.seat and ship.uid in state.next_orders:
        out["next_orders"] = state.next_orders[ship.uid].model_dump()
    return out


def step_info(state: BattleState) -> tuple[str, str]:
    if state.step in ("setup", "finished"):
        return "", "Setting up: add ships, then Ready" if state.step == "setup" else "Finished"
    if state.step == "muster":  # H-D36
        return "", "Setting up: each side chooses its ships within its budget"
    sd = step_def(state.options, state.step)
    return sd.number, sd.title


def view(state: BattleState, viewer: int | None) -> dict[str, Any]:
    number, title = step_info(state)
    return {
        "ruleset": "hrft", "turn": state.turn, "step": state.step, "step_number": number,
        "step_title": title, "fire_phase": state.fire_phase, "finished": state.finished,
        "options": state.options.model_dump(), "sheet_ship": state.sheet_ship,
        "viewer": viewer,
        "seats": [{"number": s.number, "name": s.name, "ready": s.number in state.ready,
                   "conceded": s.number in state.conceded} for s in state.seats],
        "ships": {uid: ship_view(state, s, viewer) for uid, s in state.ships.items()},
        "initiative": {str(k): v for k, v in state.initiative.items()},
        "waiting_craft": [entry.model_dump() for entry in state.roster],  # H-D28, all public
        # H-D35: budgets and caps are public; the picks are sealed submissions, never here
        "forces": [force.model_dump() for force in state.forces],
    }


def ship_line(ship: Ship) -> str:
    out = [s.label for s in ship.systems if s.hits]
    hull = sum(b.hull for b in ship.blocks.values())
    armour = sum(b.armour for b in ship.blocks.values())
    text = (f"{ship.name} ({ship.uid}): {ship_status(ship)}, hull {ship.hull_left}/{hull}, "
            f"armour {ship.armour_left}/{armour}")
    stripped = [n for n in ship.ring if ship.blocks[n].stripped]
    if stripped and not ship.out:
        text += f", stripped {', '.join(stripped)}"
    if out:
        text += f"; out: {', '.join(out)}"
    return text


def status(state: BattleState, viewer: int | None) -> str:
    number, title = step_info(state)
    head = (f"HRFT battle, turn {state.turn}" + (f", {title}" if number
                                                   else f": {title}"))
    lines = [head]
    for seat in state.seats:
        lines.append(f"**{seat.name}**" + (" (conceded)" if seat.number in state.conceded
                                           else ""))
        lines += [f"- {ship_line(s)}" for s in state.ships_of(seat.number)]
    if state.step == "muster":  # H-D36: budgets are public, the choices sealed
        lines += [f"{f.label or state.seat_name(f.seat)}: up to {f.budget} MASS, size class "
                  f"{f.max_class} or smaller" for f in state.forces]
    if state.roster and state.step == "setup":
        lines.append("Not brought in: " + ", ".join(f"{e.craft} ({e.why})"
                                                   for e in state.roster))
    text = "\n".join(lines)
    return text if len(text) <= MAX_STATUS else text[: MAX_STATUS - 3] + "..."


def final_report(state: BattleState, reason: str) -> tuple[str, dict[str, Any]]:
    """Text and data for the end of the battle: every ship's state."""
    lines = [f"**The battle is over** after turn {state.turn}: {reason}"]
    data: dict[str, Any] = {"reason": reason, "turn": state.turn, "ships": []}
    for seat in state.seats:
        lines.append(f"**{seat.name}**")
        for ship in state.ships_of(seat.number):
            lines.append(f"- {ship_line(ship)}")
            data["ships"].append({
                "uid": ship.uid, "name": ship.name, "seat": ship.seat,
                "status": ship_status(ship), "hull_left": ship.hull_left,
                "armour_left": ship.armour_left,
                "blocks": {n: ship.blocks[n].hull_left for n in ship.ring},
                "systems_out": [s.uid for s in ship.systems if s.hits],
            })
    return "\n".join(lines), data
