"""Scenario files: TOML in, State out, and back (format in docs/rules/ftcamp.md).

Every problem is reported with its location and reason; nothing is loaded from a bad file.
"""

from __future__ import annotations

from typing import Any

from bot.errors import InvalidInput
from bot.rules import safe_load
from bot.rules.ftcamp import geometry as geo
from bot.rules.ftcamp.model import (
    FLEET_KINDS,
    HOLD_TASKS,
    Craft,
    FleetOrder,
    Group,
    HexMap,
    Player,
    RulesConfig,
    State,
    SystemHex,
)

_CRAFT_INTS = ("thrust", "decoys", "weasel", "weasel_on", "sensors", "stealth", "tug", "damage")
_CRAFT_BOOLS = ("drive", "ecm", "armed", "command")
# E-D18: names go into Select values (100 characters at most, with a prefix).
NAME_LIMIT = 60
# Characters: the example scenario is 4 kB; tomllib is pure Python (about 1.5 ms per kB at
# worst), so the limit keeps even a hostile file to about 0.1 s, once, before the start.
MAX_SCENARIO = 64_000
MAX_ENTRIES = 200  # groups, statics or players in one scenario
_TOP_KEYS = {"campaign", "rules", "map", "players", "alliances", "groups", "statics"}


class _Checker:
    """Collects problems as ``location: reason`` lines."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def bad(self, loc: str, reason: str) -> None:
        self.problems.append(f"{loc}: {reason}")

    def table(self, data: Any, loc: str) -> dict[str, Any]:
        if not isinstance(data, dict):
            self.bad(loc, "must be a table")
            return {}
        return data

    def tables(self, data: dict[str, Any], key: str, loc: str) -> list[dict[str, Any]]:
        value = data.get(key, [])
        if not isinstance(value, list):
            self.bad(loc, "must be an array of tables")
            return []
        return [self.table(v, f"{loc}[{i}]") for i, v in enumerate(value)]

    def string(self, data: dict[str, Any], key: str, loc: str, default: str | None = None,
               limit: int = 200) -> str:
        value = data.get(key, default)
        if not isinstance(value, str) or not value.strip():
            self.bad(f"{loc}.{key}", "must be a non-empty string")
            return ""
        if len(value) > limit:
            self.bad(f"{loc}.{key}", f"must be at most {limit} characters")
        return value

    def integer(self, data: dict[str, Any], key: str, loc: str, default: int | None = None,
                low: int = 0, positive: bool = False) -> int:
        value = data.get(key, default)
        low = 1 if positive else low
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            what = "a positive integer" if positive else f"an integer >= {low}"
            self.bad(f"{loc}.{key}", f"must be {what}")
            return low
        return value

    def flag(self, data: dict[str, Any], key: str, loc: str, default: bool) -> bool:
        value = data.get(key, default)
        if not isinstance(value, bool):
            self.bad(f"{loc}.{key}", "must be true or false")
            return default
        return value

    def unknown(self, data: dict[str, Any], allowed: set[str], loc: str) -> None:
        for key in sorted(set(data) - allowed):
            self.bad(f"{loc}.{key}" if loc else key,
                     f"unknown key (allowed: {', '.join(sorted(allowed))})")


def parse_fleet_order(text: str) -> FleetOrder | str:
    """``move 0305``, ``hold``, ``hold-special maintain``, ``support Name``... or a reason."""
    kind, _, target = text.strip().partition(" ")
    target = target.strip()
    if kind not in FLEET_KINDS:
        return f"unknown fleet order {kind!r} (allowed: {', '.join(FLEET_KINDS)})"
    if kind in ("move", "support", "hold-special") and not target:
        return f"{kind} needs a target"
    if kind == "hold-special" and target not in HOLD_TASKS:
        return f"hold-special task must be one of {', '.join(HOLD_TASKS)}"
    if kind in ("hold", "maintain-orbit", "patrol") and target:
        return f"{kind} takes no target"
    return FleetOrder(kind=kind, target=target)  # type: ignore[arg-type]


def _craft(ck: _Checker, data: dict[str, Any], loc: str) -> Craft:
    allowed = {"name", "mass", "ftl", "decoy_class", "design", *_CRAFT_INTS, *_CRAFT_BOOLS}
    ck.unknown(data, allowed, loc)
    ftl = data.get("ftl", "working")
    if ftl not in ("working", "crippled"):
        ck.bad(f"{loc}.ftl", "must be 'working' or 'crippled'")
        ftl = "working"
    decoy = data.get("decoy_class")
    if decoy is not None and (isinstance(decoy, bool) or decoy not in range(1, 6)):
        ck.bad(f"{loc}.decoy_class", "must be an integer 1 to 5")
        decoy = None
    ints = {k: ck.integer(data, k, loc, default=0) for k in _CRAFT_INTS}
    bools = {k: ck.flag(data, k, loc, default=k == "drive") for k in _CRAFT_BOOLS}
    if ints["weasel_on"] > ints["weasel"]:
        ck.bad(f"{loc}.weasel_on", "must not exceed weasel")
    mass = ck.integer(data, "mass", loc, positive=decoy is None, default=0 if decoy else None)
    # the HRFT design the craft flies as, when a battle of it is fought in HRFT (H-D28)
    design = ck.string(data, "design", loc, limit=NAME_LIMIT) if "design" in data else None
    return Craft(name=ck.string(data, "name", loc, limit=NAME_LIMIT), mass=mass, ftl=ftl,
                 decoy_class=decoy, design=design or None, **ints, **bools)


def _group(ck: _Checker, data: dict[str, Any], loc: str, static: bool) -> Group:
    common = {"name", "owner", "hex", "sector", "craft", "lost", "diplomat"}
    extra = {"kind", "show_civilian"} if static else {"order", "tugged_by", "must_leave"}
    ck.unknown(data, common | extra, loc)
    craft = [_craft(ck, c, f"{loc}.craft[{i}]") for i, c in
             enumerate(ck.tables(data, "craft", f"{loc}.craft"))]
    if not craft:
        ck.bad(f"{loc}.craft", "a group needs at least one craft")
    order = FleetOrder()
    if not static:
        parsed = parse_fleet_order(str(data.get("order", "hold")))
        if isinstance(parsed, str):
            ck.bad(f"{loc}.order", parsed)
        else:
            order = parsed
    kind = data.get("kind", "military") if static else None
    if static and kind not in ("military", "civilian"):
        ck.bad(f"{loc}.kind", "must be 'military' or 'civilian'")
        kind = "military"
    sector = data.get("sector")
    if sector is not None and not isinstance(sector, str):
        ck.bad(f"{loc}.sector", "must be a string like 'A-3'")
        sector = None
    if static and sector is None:
        ck.bad(f"{loc}.sector", "a static needs its fixed orbit-sector")
    opt = {k: data.get(k) for k in ("tugged_by", "must_leave") if data.get(k) is not None}
    for k, v in opt.items():
        if not isinstance(v, str):
            ck.bad(f"{loc}.{k}", "must be a string")
    return Group(
        name=ck.string(data, "name", loc, limit=NAME_LIMIT),
        owner=ck.integer(data, "owner", loc, positive=True),
        hex=ck.string(data, "hex", loc), sector=sector, craft=craft, order=order,
        lost=ck.flag(data, "lost", loc, False), diplomat=ck.flag(data, "diplomat", loc, False),
        static=kind, show_civilian=ck.flag(data, "show_civilian", loc, False) if static else False,
        **{k: str(v) for k, v in opt.items()},
    )


def _rules(ck: _Checker, data: dict[str, Any]) -> RulesConfig:
    ck.unknown(data, {"signature_limits", "group_sizes", "missing_engage_order"}, "rules")
    config = RulesConfig()
    for key, length in (("signature_limits", 4), ("group_sizes", 4)):
        value = data.get(key, getattr(config, key))
        ok = (isinstance(value, list) and len(value) == length
              and all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value)
              and value == sorted(set(value)))
        if not ok:
            ck.bad(f"rules.{key}", f"must be {length} increasing positive integers")
        else:
            setattr(config, key, value)
    if data.get("missing_engage_order", "SF") != "SF":
        ck.bad("rules.missing_engage_order", "only 'SF' is supported")
    return config


def _map(ck: _Checker, data: dict[str, Any]) -> HexMap:
    ck.unknown(data, {"columns", "rows", "systems"}, "map")
    cols = ck.integer(data, "columns", "map", positive=True)
    rows = ck.integer(data, "rows", "map", positive=True)
    if cols > 99 or rows > 99:
        ck.bad("map", "at most 99 columns and 99 rows (hex names are CCRR)")
    hex_map = HexMap(columns=cols, rows=rows)
    for i, s in enumerate(ck.tables(data, "systems", "map.systems")):
        loc = f"map.systems[{i}]"
        ck.unknown(s, {"hex", "name", "system_sector"}, loc)
        hx, name = ck.string(s, "hex", loc), ck.string(s, "name", loc)
        sector = ck.string(s, "system_sector", loc, default="A-1")
        if hx and not geo.on_map(hex_map, hx):
            ck.bad(f"{loc}.hex", f"{hx!r} is not a hex of the map (CCRR, 0101 to "
                   f"{geo.hex_name(cols, rows)})")
        if sector and (not geo.valid_sector(geo.SYSTEM_ORBITS, sector) or sector[0] == "C"):
            ck.bad(f"{loc}.system_sector", "must be a sector of orbit A or B, like 'A-3'")
        hex_map.systems.append(SystemHex(hex=hx, name=name, system_sector=sector))
    seen = [s.hex for s in hex_map.systems]
    for hx in sorted({h for h in seen if seen.count(h) > 1}):
        ck.bad("map.systems", f"hex {hx} has more than one system")
    return hex_map


def _cross_check(ck: _Checker, state: State, locs: dict[str, str]) -> None:
    seats = {p.seat for p in state.players}
    for name, g in state.groups.items():
        loc = locs[name]
        if g.owner not in seats:
            ck.bad(f"{loc}.owner", f"seat {g.owner} is not a player (players: "
                   f"{', '.join(map(str, sorted(seats)))})")
        if not geo.on_map(state.map, g.hex):
            ck.bad(f"{loc}.hex", f"{g.hex!r} is not a hex of the map")
            continue
        if g.sector is not None and g.sector not in geo.sectors(state.map, g.hex):
            ck.bad(f"{loc}.sector", f"{g.sector!r} is not an orbit-sector of hex {g.hex}")
        names = [c.name for c in g.craft]
        for c in sorted({n for n in names if names.count(n) > 1}):
            ck.bad(f"{loc}.craft", f"craft name {c!r} is used twice in the group")
        for key in ("tugged_by",):
            ref = getattr(g, key)
            if ref is not None and ref not in state.groups:
                ck.bad(f"{loc}.{key}", f"no group named {ref!r}")
        if g.must_leave is not None and not geo.on_map(state.map, g.must_leave):
            ck.bad(f"{loc}.must_leave", f"{g.must_leave!r} is not a hex of the map")
        problem = order_problem(state, g)
        if problem:
            ck.bad(f"{loc}.order", problem)


def order_problem(state: State, g: Group) -> str | None:
    """Why a fleet order standing in a scenario is impossible, or None (E-3)."""
    o = g.order
    if o.kind == "move" and o.target not in geo.neighbours(state.map, g.hex):
        return f"move target {o.target} is not adjacent to {g.hex}"
    if o.kind == "maintain-orbit" and geo.system_at(state.map, g.hex) is None:
        return "maintain-orbit needs a system hex"
    if o.kind == "support":
        target = state.groups.get(o.target)
        if target is None or target.hex != g.hex or target.name == g.name:
            return f"support target {o.target!r} must be another group in hex {g.hex}"
    return None


def _check_counts(data: dict[str, Any]) -> None:
    """Refuses more groups than a campaign can use before each is checked (the checks cost
    time per group, and a 64 kB file holds thousands of empty ones)."""
    for key in ("groups", "statics", "players"):
        value = data.get(key)
        if isinstance(value, list) and len(value) > MAX_ENTRIES:
            raise InvalidInput(f"Scenario has {len(value)} {key}; at most {MAX_ENTRIES} are "
                               "allowed.")


def load_scenario(text: str) -> State:
    """Parse a TOML scenario; raises InvalidInput listing every problem with its location."""
    data = safe_load.load_toml(text, "Scenario", MAX_SCENARIO)  # size, nesting, numbers
    _check_counts(data)
    ck = _Checker()
    ck.unknown(data, _TOP_KEYS, "")
    camp = ck.table(data.get("campaign", {}), "campaign")
    ck.unknown(camp, {"name", "round"}, "campaign")
    rules = _rules(ck, ck.table(data.get("rules", {}), "rules"))
    hex_map = _map(ck, ck.table(data.get("map", {}), "map"))
    players = []
    for i, p in enumerate(ck.tables(data, "players", "players")):
        ck.unknown(p, {"seat", "name"}, f"players[{i}]")
        players.append(Player(seat=ck.integer(p, "seat", f"players[{i}]", positive=True),
                              name=ck.string(p, "name", f"players[{i}]")))
    seats = [p.seat for p in players]
    if not players:
        ck.bad("players", "at least one player is needed")
    if seats != list(range(1, len(seats) + 1)):
        ck.bad("players", "seats must be numbered 1, 2, 3 ... in order")
    alliances = _alliances(ck, data.get("alliances", []), set(seats))
    groups: dict[str, Group] = {}
    locs: dict[str, str] = {}
    for key, static in (("groups", False), ("statics", True)):
        for i, g in enumerate(ck.tables(data, key, key)):
            group = _group(ck, g, f"{key}[{i}]", static)
            if group.name in groups:
                ck.bad(f"{key}[{i}].name", f"group name {group.name!r} is used twice")
                continue
            groups[group.name], locs[group.name] = group, f"{key}[{i}]"
    state = State(name=ck.string(camp, "name", "campaign", default="FTCamp campaign"),
                  rules=rules, map=hex_map,
                  players=players, alliances=alliances, groups=groups,
                  round=ck.integer(camp, "round", "campaign", default=1, positive=True))
    if not ck.problems:
        _cross_check(ck, state, locs)
    if ck.problems:
        raise InvalidInput("Scenario has problems:\n" + "\n".join(f"- {p}" for p in ck.problems))
    return state


def _alliances(ck: _Checker, value: Any, seats: set[int]) -> list[tuple[int, int]]:
    pairs: list[tuple[int, int]] = []
    if not isinstance(value, list):
        ck.bad("alliances", "must be a list of seat pairs like [[1, 3]]")
        return pairs
    for i, pair in enumerate(value):
        if (not isinstance(pair, list) or len(pair) != 2 or pair[0] == pair[1]
                or any(p not in seats for p in pair)):
            ck.bad(f"alliances[{i}]", "must be two different player seats like [1, 3]")
            continue
        pairs.append((min(pair), max(pair)))
    return sorted(set(pairs))


# --- export ---------------------------------------------------------------------------------

def _s(text: str) -> str:
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _v(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _s(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_v(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} to TOML")


def _craft_lines(prefix: str, c: Craft) -> list[str]:
    lines = [f"[[{prefix}.craft]]", f"name = {_s(c.name)}", f"mass = {c.mass}"]
    default = Craft(name="", mass=1)
    for key in (*_CRAFT_INTS, *_CRAFT_BOOLS, "ftl", "decoy_class", "design"):
        value = getattr(c, key)
        if value != getattr(default, key):
            lines.append(f"{key} = {_v(value)}")
    return lines


def export_scenario(state: State) -> str:
    """The scenario part of a state as TOML; ``load_scenario(export_scenario(s)) == s`` for a
    state between rounds."""
    # Top-level keys must come before the first table header.
    lines = [f"alliances = {_v([list(a) for a in state.alliances])}", "",
             "[campaign]", f"name = {_s(state.name)}", f"round = {state.round}", "",
             "[rules]", f"signature_limits = {_v(state.rules.signature_limits)}",
             f"group_sizes = {_v(state.rules.group_sizes)}",
             f"missing_engage_order = {_s(state.rules.missing_engage_order)}", "",
             "[map]", f"columns = {state.map.columns}", f"rows = {state.map.rows}", ""]
    for s in state.map.systems:
        lines += ["[[map.systems]]", f"hex = {_s(s.hex)}", f"name = {_s(s.name)}",
                  f"system_sector = {_s(s.system_sector)}", ""]
    for p in state.players:
        lines += ["[[players]]", f"seat = {p.seat}", f"name = {_s(p.name)}", ""]
    for key, static in (("groups", False), ("statics", True)):
        for g in state.groups.values():
            if (g.static is not None) != static:
                continue
            lines += [f"[[{key}]]", f"name = {_s(g.name)}", f"owner = {g.owner}",
                      f"hex = {_s(g.hex)}"]
            if g.sector is not None:
                lines.append(f"sector = {_s(g.sector)}")
            if static:
                lines += [f"kind = {_s(g.static or 'military')}",
                          f"show_civilian = {_v(g.show_civilian)}"]
            else:
                lines.append(f"order = {_s(g.order.text())}")
                lines += [f"{k} = {_s(getattr(g, k))}" for k in ("tugged_by", "must_leave")
                          if getattr(g, k) is not None]
            lines += [f"lost = {_v(g.lost)}", f"diplomat = {_v(g.diplomat)}"]
            for c in g.craft:
                lines += _craft_lines(key, c)
            lines.append("")
    return "\n".join(lines)
