"""FTCamp's optional Ruleset hooks for the viewer-scoped reads (bot/campaign/ruleset_features.py).

The /ftcamp cog never holds the state: what it shows (the GM's view, pictures, battle lists,
scenario files) and the GM's edits are computed here, from the full state, for one viewer.
"""

from __future__ import annotations

from typing import Any

from bot.errors import InvalidInput, InvalidState, NotFound
from bot.rules.ftcamp import gm
from bot.rules.ftcamp.conflicts import battle_text
from bot.rules.ftcamp.demo import demo_scenario
from bot.rules.ftcamp.geometry import system_label
from bot.rules.ftcamp.model import Craft, Group, State
from bot.rules.ftcamp.scenario import export_scenario, load_scenario
from bot.rules.ftcamp.views import sector_view, view_of

MAX_REPLY = 1900  # a problem list fits one Discord message with its header line
MAX_SEATS = 6


def picture_hexes(state: State) -> list[str]:
    """Hexes that have a public orbit-sector picture: this round's contested hexes and the
    hexes of the latest battle lists."""
    hexes = list(state.contested)
    if state.sector_hex:
        hexes.append(state.sector_hex)
    if state.results:
        last = max(r.round for r in state.results)
        hexes += [r.hex for r in state.results if r.round == last]
    return list(dict.fromkeys(hexes))


def gm_view(state: State) -> dict[str, Any]:
    """What the GM sees: the public view plus every group with its craft (the GM's edits
    name any group; E-D16 keeps this from the players, not from the GM)."""
    view = view_of(state, None)
    view["viewer"] = "gm"
    view["groups"] = [{"name": g.name, "owner": g.owner, "hex": g.hex, "sector": g.sector,
                       "static": g.static is not None, "craft": [c.name for c in g.craft]}
                      for g in sorted(state.groups.values(), key=lambda x: x.name)]
    return view


def picture_view(state: State, viewer: int | None, name: str,
                 focus: str | None) -> tuple[dict[str, Any], str]:
    """(view, title) of a picture; ``sector`` needs a hex that has one (NotFound lists them)."""
    view = view_of(state, viewer)
    if name != "sector":
        return view, ""
    hex_name = (focus or "").strip().upper()
    if hex_name not in picture_hexes(state):
        known = ", ".join(picture_hexes(state)) or "none yet"
        raise NotFound(f"Hex {hex_name} has no orbit-sector picture; contested hexes with one: "
                       f"{known}.")
    view["sector"] = sector_view(state, hex_name)
    return view, system_label(state.map, hex_name)


def texts(state: State, name: str) -> list[str]:
    """Public texts by name: ``battles`` is the battle list of every contested hex of the
    latest round that has one (E-13)."""
    if name != "battles":
        raise NotFound(f"No text '{name}' in FTCamp.")
    if not state.results:
        return []
    last = max(r.round for r in state.results)
    return [battle_text(state, r) for r in state.results if r.round == last]


# ---------------------------------------------------------------- GM edits


def _craft(args: dict[str, Any], name_key: str = "craft") -> Craft:
    return Craft(name=str(args[name_key]).strip(), mass=int(args["mass"]),
                 thrust=int(args["thrust"]), armed=bool(args.get("armed", True)),
                 sensors=int(args.get("sensors", 0)),
                 ftl="crippled" if args.get("crippled") else "working")


def _sector(args: dict[str, Any]) -> str | None:
    sector = str(args.get("sector") or "").strip().upper()
    return sector or None


def gm_edit(state: State, edit: str, args: dict[str, Any]) -> tuple[State, str]:
    """One named GM edit between rounds (the pure ``gm`` functions): the new state and the
    summary the GM log keeps."""
    a = args
    if edit == "group_add":
        group = Group(name=str(a["name"]).strip(), owner=int(a["owner"]),
                      hex=str(a["hex"]).strip().upper(), sector=_sector(a), craft=[_craft(a)])
        return (gm.add_group(state, group),
                f"group {group.name} (seat {group.owner}) added in hex {group.hex}.")
    if edit == "group_move":
        target, where = str(a["hex"]).strip().upper(), _sector(a)
        return (gm.move_group(state, a["name"], target, where),
                f"group {a['name']} moved to hex {target}{'/' + where if where else ''}.")
    if edit == "group_remove":
        return gm.remove_group(state, a["name"]), f"group {a['name']} removed."
    if edit == "group_tug":
        tug = a.get("tug") or None
        done = f"{a['name']} is towed by {tug}." if tug else f"{a['name']} has no tug now."
        return gm.set_tug(state, a["name"], tug), done
    if edit == "craft_add":
        new = _craft(a, "name")
        return gm.add_craft(state, a["group"], new), f"craft {new.name} added to {a['group']}."
    if edit == "craft_remove":
        return (gm.remove_craft(state, a["group"], a["craft"]),
                f"craft {a['craft']} removed from {a['group']}.")
    if edit == "craft_damage":
        drive = "; main drive out" if a.get("drive_lost") else ""
        return (gm.mark_damage(state, a["group"], a["craft"], int(a["points"]),
                               bool(a.get("drive_lost"))),
                f"{a['craft']} of {a['group']} takes {a['points']} damage{drive}.")
    if edit == "craft_ftl_loss":
        return (gm.mark_ftl_lost(state, a["group"], a["craft"]),
                f"{a['craft']} of {a['group']} is FTL-crippled.")
    if edit == "flag":
        value = bool(a["value"])
        flags = {"lost": value} if a["flag"] == "lost" else {"diplomat": value}
        return (gm.set_flags(state, a["group"], **flags),
                f"{a['group']}: {a['flag']} {'on' if value else 'off'}.")
    raise InvalidInput(f"FTCamp has no GM edit '{edit}'.")


# ---------------------------------------------------------------- scenario files


def problems_text(filename: str, message: str, limit: int = MAX_REPLY) -> str:
    """The engine's problem list, cut on whole lines with a count of what was left out."""
    head = f"Nothing was loaded: {filename} has problems."
    lines = message.split("\n")
    if lines and lines[0].startswith("Scenario has problems"):
        lines = lines[1:]
    kept: list[str] = []
    used = len(head)
    for i, line in enumerate(lines):
        line = line if len(line) <= 300 else line[:297] + "..."
        rest = len(lines) - i
        tail = len(f"\n... and {rest} more") + 1
        if used + len(line) + 1 + tail > limit:
            kept.append(f"... and {rest} more")
            break
        kept.append(line)
        used += len(line) + 1
    return "\n".join([head, *kept])


def scenario_summary(state: State) -> str:
    statics = sum(1 for g in state.groups.values() if g.static is not None)
    players = ", ".join(f"{p.seat}. {p.name}" for p in state.players)
    return (f"**{state.name}**: {len(state.players)} players ({players}); "
            f"{len(state.groups) - statics} groups and {statics} statics on a "
            f"{state.map.columns} x {state.map.rows} map, round {state.round}.")


def load_file(filename: str, text: str) -> tuple[dict[str, str], str, int]:
    """A scenario file: (option changes, summary, seats it needs); InvalidInput lists every
    problem."""
    try:
        state = load_scenario(text)
    except InvalidInput as exc:
        raise InvalidInput(problems_text(filename, exc.message)) from exc
    return {"scenario": text}, scenario_summary(state), len(state.players)


def export_file(state: State | None, options: dict[str, Any],
                seats: int) -> tuple[str, str, str]:
    """(file name, scenario TOML, note) of the campaign as it stands now."""
    if state is None:
        text = str(options.get("scenario") or "")
        if text:
            return "ftcamp.toml", text, "The scenario loaded for this campaign (not started yet)."
        seats = min(max(seats, 2), MAX_SEATS)
        return "ftcamp.toml", demo_scenario(seats), (
            f"No scenario loaded: this is the built-in demo for {seats} players.")
    note = f"The campaign as it stands in round {state.round}."
    if state.run is not None:
        note += (f" The engage phase of hex {state.run.hex} is running: the file holds the "
                 "forces and fleet orders, not the phase in progress.")
    return "ftcamp.toml", export_scenario(state), note


def require_state(state: Any) -> State:
    if not isinstance(state, State):
        raise InvalidState("This campaign has no FTCamp state.")
    return state
