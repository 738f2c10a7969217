"""Reading an FTCamp campaign for the /ftcamp commands: its state, scenario files, battle
lists, pictures and autocomplete names.

State comes from ``CampaignService.snapshot`` (the committed campaign); only views drawn
for the caller's seat, the public view, or (GM only) the full scenario export leave it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.campaign.models import Actor
from bot.errors import InvalidInput, InvalidState, NotFound, PermissionDenied
from bot.render import registry as render_registry
from bot.rules.ftcamp import RULESET, State, export_scenario, load_scenario
from bot.rules.ftcamp.conflicts import battle_text
from bot.rules.ftcamp.demo import demo_scenario
from bot.rules.ftcamp.geometry import system_label
from bot.rules.ftcamp.views import sector_view

if TYPE_CHECKING:
    from bot.campaign import CampaignService

NAME = "ftcamp"
MAX_FILE = 200_000  # bytes; a scenario is a few kB, this is far beyond any real one
MAX_REPLY = 1900  # under Discord's 2000, leaving room for a header line


@dataclass(frozen=True)
class Campaign:
    """The FTCamp campaign of a channel as the caller may use it."""

    campaign_id: int
    status: str  # setup | running | paused | ended
    name: str
    is_gm: bool
    seat: int | None
    seats: int
    state: State | None
    options: dict[str, Any]

    def started(self) -> State:
        if self.state is None:
            raise InvalidState("The campaign has not started yet (the GM starts it with "
                               "/campaign start).")
        return self.state

    def require_gm(self) -> None:
        if not self.is_gm:
            raise PermissionDenied("Only the GM of this campaign (or a server admin) may do "
                                   "that.")


async def load(service: CampaignService, channel_id: int, actor: Actor) -> Campaign:
    """The channel's campaign; refuses when it plays another rule set."""
    status = await service.status(channel_id, actor.user_id)
    if status.ruleset != NAME:
        raise InvalidState(f"This channel's campaign plays {status.ruleset}, not FTCamp; "
                           "/ftcamp commands work in an FTCamp campaign's channel.")
    ctx = await service.snapshot(status.id)
    mine = ctx.seat_of(actor.user_id)
    state = ctx.state if isinstance(ctx.state, State) else None
    return Campaign(
        campaign_id=status.id, status=status.status, name=status.name,
        is_gm=actor.is_admin or actor.user_id == ctx.row.gm_user_id,
        seat=mine.seat if mine is not None else None,
        seats=len([p for p in ctx.players if p.active]), state=state,
        options=dict(ctx.row.options),
    )


# ---------------------------------------------------------------- scenario files


def read_scenario(filename: str, size: int, data: bytes) -> tuple[str, State]:
    """The text of an uploaded scenario and its state; InvalidInput lists every problem."""
    if size > MAX_FILE or len(data) > MAX_FILE:
        raise InvalidInput(f"{filename} is larger than {MAX_FILE // 1000} kB; a scenario is a "
                           "small TOML file (see examples/ftcamp/example.toml).")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{filename} is not UTF-8 text (byte {exc.start}); save the "
                           "scenario as a UTF-8 TOML file.") from exc
    try:
        return text, load_scenario(text)
    except InvalidInput as exc:
        raise InvalidInput(problems_text(filename, exc.message)) from exc


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


def export_text(camp: Campaign) -> tuple[str, str]:
    """(scenario TOML, note) of the campaign as it stands now."""
    if camp.state is None:
        text = str(camp.options.get("scenario") or "")
        if text:
            return text, "The scenario loaded for this campaign (not started yet)."
        seats = min(max(camp.seats, 2), RULESET.max_seats)
        return demo_scenario(seats), (f"No scenario loaded: this is the built-in demo for "
                                      f"{seats} players.")
    state = camp.state
    note = f"The campaign as it stands in round {state.round}."
    if state.run is not None:
        note += (f" The engage phase of hex {state.run.hex} is running: the file holds the "
                 "forces and fleet orders, not the phase in progress.")
    return export_scenario(state), note


# ---------------------------------------------------------------- battle lists and pictures


def battle_lists(state: State) -> list[str]:
    """The battle list of every contested hex of the latest round that has one (E-13)."""
    if not state.results:
        return []
    last = max(r.round for r in state.results)
    return [battle_text(state, r) for r in state.results if r.round == last]


def hexmap_png(state: State) -> bytes:
    return render_registry.render(NAME, "hexmap", RULESET.view(state, None))


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


def check_picture_hex(state: State, hex_name: str) -> str:
    """The hex name, normalised; NotFound lists the hexes that have a picture."""
    hex_name = hex_name.strip().upper()
    if hex_name not in picture_hexes(state):
        known = ", ".join(picture_hexes(state)) or "none yet"
        raise NotFound(f"Hex {hex_name} has no orbit-sector picture; contested hexes with one: "
                       f"{known}.")
    return hex_name


def sector_png(state: State, hex_name: str) -> bytes:
    """The public orbit-sector picture of a contested hex: every group placed there, as far
    as it is public (picks and battle lists are public events; statics are public, E-D16)."""
    hex_name = check_picture_hex(state, hex_name)
    view = RULESET.view(state, None)
    view["sector"] = sector_view(state, hex_name)
    return render_registry.render(NAME, "sector", view)


def hex_title(state: State, hex_name: str) -> str:
    return system_label(state.map, hex_name.strip().upper())


# ---------------------------------------------------------------- autocomplete


def group_names(state: State, *, statics: bool = True) -> list[str]:
    return sorted(n for n, g in state.groups.items() if statics or g.static is None)


def craft_names(state: State, group: str) -> list[str]:
    g = state.groups.get(group)
    return [c.name for c in g.craft] if g is not None else []


def known_hexes(state: State) -> list[str]:
    """Hexes worth offering: systems, hexes with groups, contested hexes."""
    hexes = {s.hex for s in state.map.systems} | {g.hex for g in state.groups.values()}
    return sorted(hexes | set(state.contested))


def matching(names: list[str], typed: str, limit: int = 25) -> list[str]:
    low = typed.strip().lower()
    return [n for n in names if low in n.lower()][:limit]
