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


# A face-down pile as views show it: its count, the codes known to all (sorted) and its
# codes for the owner's view (sorted; None when no view built shows them).
Hidden = tuple[int, list[str], list[str] | None]


def _hidden_part(hidden: Hidden, viewer: int | None, owner: int) -> dict[str, Any]:
    """Count, known codes and (for the owner only) the codes of face-down cards."""
    count, known, mine = hidden
    part: dict[str, Any] = {"count": count, "known": list(known)}
    if viewer == owner and mine is not None:
        part["mine"] = list(mine)
    return part


def build_view(state: OrbitsState, viewer: int | None) -> dict[str, Any]:
    return build_views(state, [viewer])[0]


def build_views(state: OrbitsState, viewers: list[int | None]) -> list[dict[str, Any]]:
    """The view of each viewer of one state (issue 17 item 9): the table is read in one pass
    and what every viewer sees alike is worked out once (the maps after a deployment are the
    public view and each seat's). Each view is a dict of its own, sharing no list."""
    o = state.options
    seat_numbers = state.seat_numbers()
    seat_views = [v if v in seat_numbers else None for v in viewers]
    owners = set(seat_views)
    names = state.names()

    def hidden(cards: list[TableCard], owner: int) -> Hidden:
        known = _sorted([c for c in cards if c.known]) if o.mark_known_cards else []
        return len(cards), known, _sorted(cards) if owner in owners else None

    # one pass over the table: each (area, seat)'s resting face-down and face-up cards and
    # each transit group's cards, every list in table order
    here: dict[tuple[str, int], tuple[list[TableCard], list[TableCard]]] = {}
    moving: dict[int, list[TableCard]] = {}
    for c in state.table:
        if c.group is not None:
            moving.setdefault(c.group, []).append(c)
        if c.face_up:
            here.setdefault((c.area, c.owner), ([], []))[1].append(c)
        elif c.group is None:
            here.setdefault((c.area, c.owner), ([], []))[0].append(c)
    areas: list[tuple[str, str, list[tuple[Any, ...]]]] = []
    for area in state.areas():
        stacks = []
        for seat in seat_numbers:
            resting_down, up = here.get((area, seat), ([], []))
            if not (resting_down or up):
                continue
            fleet_up = [c.code for c in up if C.is_fleet(c.code)]
            total, size = battle_force(fleet_up, o.size_class_cap)
            stacks.append((seat, _sorted(up), state.stance(seat, area) if fleet_up else None,
                           total, size, hidden(resting_down, seat)))
        areas.append((area, label(area, names), stacks))
    transit = [(g, hidden(moving.get(g.id, []), g.owner)) for g in state.groups]
    battle = None
    if state.phase.startswith("battle_") and state.battle_index < len(state.battles):
        b = state.battles[state.battle_index]
        forces = {}
        for s in b.sides:
            total, size = battle_force(b.forces[s], o.size_class_cap)
            forces[str(s)] = (s, total, size, state.stance(s, b.area))
        battle = (b, forces)
    return [_assemble(state, seat_view, areas, transit, battle) for seat_view in seat_views]


def _assemble(state: OrbitsState, seat_view: int | None, areas: list[tuple[str, str, Any]],
              transit: list[tuple[Any, Hidden]], battle: Any) -> dict[str, Any]:
    """One viewer's view from the parts worked out once (fresh dicts and lists)."""
    o = state.options
    battle_view = None
    if battle is not None:
        b, forces = battle
        battle_view = {
            "area": b.area, "sides": list(b.sides),
            "forces": {k: {"cards": list(b.forces[s]), "total": total, "size_class": size,
                           "stance": stance} for k, (s, total, size, stance) in forces.items()},
            "result": b.result.model_dump(mode="json") if b.result else None,
        }
    return {
        "ruleset": "orbits", "viewer": seat_view, "turn": state.turn, "phase": state.phase,
        "actor": state.actor if state.phase in ("transit", "deployment") else None,
        "orbits": o.orbits, "target_rp": o.target_rp, "points_label": o.points_label,
        "points_per_value": o.points_per_value, "home_to_home": o.home_to_home,
        "rush_transit": o.rush_transit,
        "seats": [{
            "number": s.number, "name": s.name, "rp": state.rp[s.number],
            "deck": len(state.decks[s.number]), "discarded": len(state.discards[s.number]),
            "battles_won": state.battles_won[s.number],
        } for s in state.seats],
        "areas": [{"id": area, "label": text, "stacks": [{
            "seat": seat, "face_up": list(up), "stance": stance,
            "fleet_total": total, "size_class": size,
            "face_down": _hidden_part(down, seat_view, seat),
        } for seat, up, stance, total, size, down in stacks]} for area, text, stacks in areas],
        "transit": [{
            "id": g.id, "seat": g.owner, "origin": g.origin, "destination": g.destination,
            "tokens": g.tokens, "cards": _hidden_part(cards, seat_view, g.owner),
        } for g, cards in transit],
        "battle": battle_view, "winners": list(state.winners),
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
