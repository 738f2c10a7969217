"""What each viewer may see (O-17): the view dict for status and the map, and status text.

The public view (viewer None, also used for the GM) shows face-down cards as counts only;
a known card (seen face up by everyone) may be named when ``mark_known_cards`` is on. A
seat's view adds that seat's own face-down cards. Deck order never appears in any view."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.rules.orbits import cards as C
from bot.rules.orbits.battle import battle_force
from bot.rules.orbits.geometry import label
from bot.rules.orbits.state import OrbitsState, TableCard
from bot.rules.words import plural


def _sorted(cards: list[TableCard]) -> list[str]:
    return sorted((c.code for c in cards), key=C.sort_key)


def _hidden_part(state: OrbitsState, cards: list[TableCard], viewer: int | None,
                 owner: int) -> dict[str, Any]:
    """Count, known codes and (for the owner only) the codes of face-down cards."""
    part: dict[str, Any] = {"count": len(cards)}
    part["known"] = _sorted([c for c in cards if c.known]) if state.options.mark_known_cards \
        else []
    if viewer == owner:
        part["mine"] = _sorted(cards)
    return part


def build_view(state: OrbitsState, viewer: int | None) -> dict[str, Any]:
    o = state.options
    seat_numbers = state.seat_numbers()
    seat_view = viewer if viewer in seat_numbers else None
    names = state.names()
    # one pass over the table (issue 9): each (area, seat)'s resting face-down and face-up
    # cards and each transit group's cards, every list in table order
    here: dict[tuple[str, int], tuple[list[TableCard], list[TableCard]]] = {}
    moving: dict[int, list[TableCard]] = {}
    for c in state.table:
        if c.group is not None:
            moving.setdefault(c.group, []).append(c)
        if c.face_up:
            here.setdefault((c.area, c.owner), ([], []))[1].append(c)
        elif c.group is None:
            here.setdefault((c.area, c.owner), ([], []))[0].append(c)
    areas = []
    for area in state.areas():
        stacks = []
        for seat in seat_numbers:
            resting_down, up = here.get((area, seat), ([], []))
            if not (resting_down or up):
                continue
            fleet_up = [c.code for c in up if C.is_fleet(c.code)]
            total, size = battle_force(fleet_up, o.size_class_cap)
            stacks.append({
                "seat": seat,
                "face_up": _sorted(up),
                "stance": state.stance(seat, area) if fleet_up else None,
                "fleet_total": total, "size_class": size,
                "face_down": _hidden_part(state, resting_down, seat_view, seat),
            })
        areas.append({"id": area, "label": label(area, names), "stacks": stacks})
    transit = [{
        "id": g.id, "seat": g.owner, "origin": g.origin, "destination": g.destination,
        "tokens": g.tokens, "cards": _hidden_part(state, moving.get(g.id, []), seat_view, g.owner),
    } for g in state.groups]
    seats = [{
        "number": s.number, "name": s.name, "rp": state.rp[s.number],
        "deck": len(state.decks[s.number]), "discarded": len(state.discards[s.number]),
        "battles_won": state.battles_won[s.number],
    } for s in state.seats]
    battle = None
    if state.phase.startswith("battle_") and state.battle_index < len(state.battles):
        b = state.battles[state.battle_index]
        forces = {}
        for s in b.sides:
            total, size = battle_force(b.forces[s], o.size_class_cap)
            forces[str(s)] = {"cards": b.forces[s], "total": total, "size_class": size,
                              "stance": state.stance(s, b.area)}
        battle = {
            "area": b.area, "sides": b.sides, "forces": forces,
            "result": b.result.model_dump(mode="json") if b.result else None,
        }
    return {
        "ruleset": "orbits", "viewer": seat_view, "turn": state.turn, "phase": state.phase,
        "actor": state.actor if state.phase in ("transit", "deployment") else None,
        "orbits": o.orbits, "target_rp": o.target_rp, "points_label": o.points_label,
        "points_per_value": o.points_per_value, "home_to_home": o.home_to_home,
        "rush_transit": o.rush_transit, "seats": seats, "areas": areas, "transit": transit,
        "battle": battle, "winners": list(state.winners),
    }


PHASE_TEXT = {
    "transit": "Transit phase", "deployment": "Deployment phase",
    "battle_report": "battle reports", "battle_gm": "GM entering a battle result",
    "battle_discard": "battle discards", "battle_raid": "colony raids", "finished": "finished",
}


def status_text(state: OrbitsState, viewer: int | None) -> str:
    """A few lines: turn, phase, whose turn, RP and card counts (own cards for a seat)."""
    v = build_view(state, viewer)
    names = state.names()
    head = f"Turn {state.turn}, {PHASE_TEXT[state.phase]}"
    if v["actor"]:
        head += f": {names[v['actor']]} to act"
    if state.phase == "finished":
        head += ": won by " + (", ".join(names[w] for w in state.winners) or "nobody")
    lines = [head]
    on_table = Counter(c.owner for c in state.table)
    for s in v["seats"]:
        lines.append(f"{s['name']}: {s['rp']}/{state.options.target_rp} RP, "
                     f"{plural(on_table[s['number']], 'card')} on the table, {s['deck']} in deck, "
                     f"{plural(s['battles_won'], 'battle')} won")
    if v["viewer"] is not None:
        mine = []
        for a in v["areas"]:
            for st in a["stacks"]:
                if st["seat"] == viewer and st["face_down"].get("mine"):
                    mine.append(f"{a['label']}: {C.show_all(st['face_down']['mine'])}")
        for g in v["transit"]:
            if g["seat"] == viewer:
                mine.append(f"in transit to {state.area_label(g['destination'])} "
                            f"({g['tokens']} tokens): {C.show_all(g['cards']['mine'])}")
        lines.append("Your face-down cards: " + ("; ".join(mine) if mine else "none"))
    return "\n".join(lines)
