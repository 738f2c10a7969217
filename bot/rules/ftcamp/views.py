"""What each viewer may see (hex map, contested hex layout) and the status text."""

from __future__ import annotations

from typing import Any

from bot.rules.ftcamp import geometry as geo
from bot.rules.ftcamp import index
from bot.rules.ftcamp.core import group_size, real_craft_count
from bot.rules.ftcamp.model import Group, Placed, State
from bot.rules.ftcamp.scan import contacts


def visible(state: State, viewer: int | None, g: Group) -> bool:
    """Own and allied groups; others once named in a public event (E-D16)."""
    if viewer is not None and state.allied(viewer, g.owner):
        return True
    return g.name in state.revealed


def _group_view(state: State, viewer: int | None, g: Group, here: set[str],
                ally: bool) -> dict[str, Any]:
    """``here``: the hexes where the viewer has groups (it sees contacts there, E-4);
    ``ally``: the group is the viewer's own or an ally's."""
    out: dict[str, Any] = {"name": g.name, "owner": g.owner, "hex": g.hex,
                           "static": g.static is not None}
    if viewer is not None and ally:
        out.update(craft=[c.name for c in g.craft], size=group_size(real_craft_count(g),
                                                                    state.rules.group_sizes),
                   order=g.order.text(), sector=g.sector)
    elif viewer is not None and g.hex in here:
        out["contacts"] = contacts(state, viewer, g)
    if g.static is not None:
        out["sector"] = g.sector
    return out


def placements(state: State, hex_name: str) -> list[Placed]:
    """The public orbit-sector placements of a hex: the allocation running there, else the
    latest battle list of the hex (every group placed, E-11), else its statics."""
    running = state.run is not None and state.run.hex == hex_name
    if not running:
        for result in reversed(state.results):
            if result.hex == hex_name and result.placed:
                return list(result.placed)
    layout = {g.name: g.sector for g in state.groups.values()
              if g.static is not None and g.hex == hex_name and g.sector}
    if state.run is not None and running:
        layout.update(state.run.placements)
    elif state.sector_hex == hex_name:
        layout.update(state.sector_layout)
    else:  # a battle list stored before placements were kept: its battles only
        for result in state.results:
            if result.hex == hex_name:
                for b in result.battles:
                    layout.update({bg.group: b.sector for bg in b.groups})
    return [Placed(group=n, sector=s, owner=state.groups[n].owner if n in state.groups else 0,
                   static=bool(n in state.groups and state.groups[n].static))
            for n, s in sorted(layout.items())]


def sector_view(state: State, hex_name: str) -> dict[str, Any]:
    """A contested hex's orbits and its placements, the same for every viewer (E-D16)."""
    return {
        "hex": hex_name, "label": geo.system_label(state.map, hex_name),
        "system_sector": geo.system_at(state.map, hex_name),
        "orbits": [list(o) for o in geo.orbits(state.map, hex_name)],
        "placements": [p.model_dump() for p in placements(state, hex_name)],
    }


def view_of(state: State, viewer: int | None) -> dict[str, Any]:
    """A JSON-able view for one seat (None = the public) for status and pictures."""
    here = {x.hex for x in state.groups.values() if x.owner == viewer}
    revealed = set(state.revealed)  # what visible() asks, once per view (issue 17 item 9)
    allies = {o for o in {g.owner for g in state.groups.values()}
              if viewer is not None and state.allied(viewer, o)}
    with index.frozen(state) as idx:  # sensors once per hex, not once per contact (issue 9)
        groups = [_group_view(state, viewer, g, here, g.owner in allies) for g in idx.by_name
                  if g.owner in allies or g.name in revealed]
    sector = sector_view(state, state.sector_hex) if state.sector_hex else None
    return {
        "ruleset": "ftcamp", "viewer": viewer, "round": state.round, "step": state.step,
        "name": state.name,
        "players": [{"seat": p.seat, "name": p.name} for p in state.players],
        "map": {"columns": state.map.columns, "rows": state.map.rows,
                "systems": [s.model_dump() for s in state.map.systems]},
        "contested": list(state.contested),
        "current_hex": state.run.hex if state.run else None,
        "groups": groups,
        "sector": sector,
        "battles": [r.model_dump() for r in state.results if r.round == state.round
                    or r.round == state.round - 1],
    }


STEP_WORDS = {"setup": "setting up", "orders": "fleet orders", "special": "special acts",
              "engage": "engage orders", "allocate": "picking orbit-sectors",
              "chase": "chase decisions", "reserves": "reserves", "patrol": "patrol reserves"}


def status_text(state: State, viewer: int | None, waiting: list[int]) -> str:
    lines = [f"{state.name}: round {state.round}, {STEP_WORDS.get(state.step, state.step)}"]
    if state.over:
        lines.append(f"The campaign is over (after round {state.round}).")
    elif state.run:
        rest = ", ".join(state.contested)
        lines.append(f"Engage phase in hex {state.run.hex}"
                     + (f"; contested: {rest}" if rest else ""))
    if waiting:
        lines.append("Waiting for: " + ", ".join(state.player_name(s) for s in waiting))
    if viewer is not None:
        mine = [g for g in state.groups.values() if g.owner == viewer]
        for g in sorted(mine, key=lambda x: x.name):
            where = f"{g.hex}{'/' + g.sector if g.sector else ''}"
            lines.append(f"- {g.name} at {where}: {g.order.text()}, {len(g.craft)} craft"
                         + (" (must move away)" if g.must_leave == g.hex else ""))
    return "\n".join(lines)
