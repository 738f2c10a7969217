"""Conflict resolution per orbit-sector in the order of E-12, and the battle list (E-13)."""

from __future__ import annotations

from bot.rules.base import Dice
from bot.rules.ftcamp.core import crippled_craft, forget_group, is_armed, static_value
from bot.rules.ftcamp.model import (
    Battle,
    BattleGroup,
    Group,
    HexResult,
    HexRun,
    Placed,
    State,
)
from bot.rules.ftcamp.scan import groups_in


def _order(run: HexRun, name: str) -> str:
    choice = run.choices.get(name)
    return choice.order if choice else ""


def _members(state: State, run: HexRun) -> list[Group]:
    return [g for g in groups_in(state, run.hex) if g.name in run.placements]


def in_battle(run: HexRun, name: str) -> Battle | None:
    assert run.result is not None
    for b in run.result.battles:
        if any(bg.group == name for bg in b.groups):
            return b
    return None


def _settled(run: HexRun, name: str) -> bool:
    assert run.result is not None
    return in_battle(run, name) is not None or name in run.result.escaped


def _entry(state: State, run: HexRun, g: Group, role: str, flags: list[str]) -> BattleGroup:
    choice = run.choices.get(g.name)
    if g.static is not None:
        value: int | None = static_value(g)
    else:
        roll = run.rolls.get(g.name)
        value = roll.value if roll else None
    parts = choice.parts if choice else [[c.name for c in g.craft]]
    return BattleGroup(group=g.name, owner=g.owner, role=role, order=_order(run, g.name),
                       parts=parts, engage_value=value, flags=list(flags))


def _open_battle(state: State, run: HexRun, sector: str, rule: str,
                 role_of: dict[str, tuple[str, list[str]]]) -> Battle:
    """A battle drawing in every unsettled group of the sector (E-12.1)."""
    assert run.result is not None
    battle = Battle(hex=run.hex, sector=sector, rule=rule)
    for g in _members(state, run):
        if run.placements[g.name] != sector or _settled(run, g.name):
            continue
        if g.static is not None:
            role, flags = "static", []
        elif run.choices[g.name].follows:
            role = _follower_role(g, run)
            # a tugged group shares its tug's fate (a chase flag); supporters keep none
            flags = role_of.get(g.name, ("", []))[1] if role == "tugged" else []
        else:
            role, flags = role_of.get(g.name, ("drawn in", []))
        battle.groups.append(_entry(state, run, g, role, flags))
    run.result.battles.append(battle)
    return battle


def _follower_role(g: Group, run: HexRun) -> str:
    """A group that goes with its tug is "tugged"; other followers are "supporting" (E-D29)."""
    return "tugged" if g.tugged_by == run.choices[g.name].follows else "supporting"


def _sectors(run: HexRun) -> list[str]:
    return sorted(set(run.placements.values()))


def _here(state: State, run: HexRun, sector: str, statics: bool = False) -> list[Group]:
    return [g for g in _members(state, run) if run.placements[g.name] == sector
            and (statics or g.static is None) and not _settled(run, g.name)]


def engage_battles(state: State, run: HexRun) -> None:
    """E-12.1, then list the sectors where SF owners must choose to chase (E-12.2)."""
    run.result = HexResult(round=state.round, hex=run.hex)
    # E-D19: statics are not groups here; they fight through E-12.6 only.
    for sector in _sectors(run):
        groups = _here(state, run, sector)
        hot = [g for g in groups if _order(run, g.name) == "EE" and not run.choices[g.name].follows
               and any(not state.allied(g.owner, x.owner) for x in groups)]
        if hot:
            _open_battle(state, run, sector, "E-12.1", {g.name: ("engaged", []) for g in hot})
    run.chase_sectors = [s for s in _sectors(run) if chasers(state, run, s)]


def chasers(state: State, run: HexRun, sector: str) -> list[int]:
    """Seats with SF groups facing non-allied RT groups in a sector without battle (E-12.2)."""
    groups = _here(state, run, sector)
    rt = [g for g in groups if _order(run, g.name) == "RT"]
    return sorted({g.owner for g in groups if _order(run, g.name) == "SF"
                   and any(not state.allied(g.owner, r.owner) for r in rt)})


def apply_chase(state: State, run: HexRun, attacks: dict[int, set[str]]) -> None:
    """Any attack makes a battle with chase flagged on the retreating groups (E-12.2, E-D23)."""
    for sector in run.chase_sectors:
        attackers = [s for s in chasers(state, run, sector) if sector in attacks.get(s, set())]
        if not attackers:
            continue
        roles: dict[str, tuple[str, list[str]]] = {}
        for g in _here(state, run, sector):
            if _order(run, g.name) == "RT":
                roles[g.name] = ("chased", ["chase"])
            elif g.owner in attackers and _order(run, g.name) == "SF":
                roles[g.name] = ("chasing", [])
        _open_battle(state, run, sector, "E-12.2", roles)


def escapes_and_reserves(state: State, run: HexRun) -> None:
    """E-12.3: remaining RT groups escape (before statics, E-D20); E-12.4: list the groups
    that may join as reserves: their sector holds only their side (E-D21)."""
    assert run.result is not None
    for g in _members(state, run):
        if g.static is None and _order(run, g.name) == "RT" and not _settled(run, g.name):
            run.result.escaped.append(g.name)
    # crippled groups cannot join (E-12.4)
    run.reserve_groups = [g.name for g in reserve_candidates(state, run)
                          if not crippled_craft(g)]


def reserve_candidates(state: State, run: HexRun) -> list[Group]:
    """Groups that may join a battle as far as every player can tell: a battle exists and
    their sector holds only their side (a contested sector is a standoff, E-12.5). Whether
    one is FTL-crippled is the owner's secret, so it is left out here (E-D33)."""
    assert run.result is not None
    if not run.result.battles:
        return []
    out = []
    for g in _members(state, run):
        if g.static is not None or _settled(run, g.name) or run.choices[g.name].follows:
            continue
        others = _here(state, run, run.placements[g.name])
        if not any(not state.allied(g.owner, x.owner) for x in others):
            out.append(g)
    return out


def patrol_step(state: State, run: HexRun) -> bool:
    """Patrol reserves are asked when an interceptor of the hex (a group on patrol, a public
    fleet order) is in a battle; never on the secret dispatches (E-12.7, E-D33)."""
    return any(g.order.kind == "patrol" and g.static is None and in_battle(run, g.name)
               for g in groups_in(state, run.hex))


def _join(state: State, run: HexRun, name: str, battle: Battle, role: str,
          flags: list[str]) -> None:
    g = state.groups[name]
    battle.groups.append(_entry(state, run, g, role, flags))
    run.placements[name] = battle.sector
    for other, choice in sorted(run.choices.items()):
        if choice.follows == name and not _settled(run, other):
            follower = state.groups[other]
            battle.groups.append(_entry(state, run, follower, _follower_role(follower, run),
                                        flags))
            run.placements[other] = battle.sector


def apply_reserves(state: State, run: HexRun, joins: dict[str, str]) -> None:
    """Reserves join one battle each, flagged late (E-12.4); statics do not stop them."""
    assert run.result is not None
    targets = {b.sector: b for b in run.result.battles}
    for name in run.reserve_groups:
        sector = joins.get(name)
        if sector in targets:
            _join(state, run, name, targets[sector], "reserve", ["late"])


def locks_and_statics(state: State, run: HexRun) -> None:
    """E-12.5 locked standoffs, E-12.6 statics, then the patrol groups that may join."""
    assert run.result is not None
    for sector in _sectors(run):
        groups = _here(state, run, sector)
        sf = [g for g in groups if _order(run, g.name) == "SF"]
        locked = [g.name for g in sf if any(not state.allied(g.owner, x.owner) for x in sf)]
        if locked:
            run.result.locked[sector] = locked
    for sector in _sectors(run):
        present = _here(state, run, sector, statics=True)
        statics = [g for g in present if g.static is not None]
        movers = [g for g in present if g.static is None]
        armed = [s for s in statics if is_armed(s)
                 and any(not state.allied(s.owner, m.owner) for m in movers)]
        if armed:
            run.result.locked.pop(sector, None)  # E-D14: an armed static breaks the lock
            _open_battle(state, run, sector, "E-12.6", {})
            continue
        for s in statics:
            if any(not state.allied(s.owner, m.owner) for m in movers):
                run.result.exposed.append(s.name)
    run.patrol_groups = [d for d, i in sorted(run.dispatched.items()) if in_battle(run, i)]


def apply_patrol(state: State, run: HexRun, joins: set[str]) -> None:
    """Patrol reserves join the interceptor's battle (E-12.7)."""
    for name in run.patrol_groups:
        if name not in joins:
            continue
        interceptor = run.dispatched[name]
        battle = in_battle(run, interceptor)
        assert battle is not None
        role = next(bg.role for bg in battle.groups if bg.group == interceptor)
        flags = ["patrol penalty"] + (["reserve penalty"] if role == "reserve" else [])
        g = state.groups[name]
        g.hex = run.hex
        battle.groups.append(_entry(state, run, g, "patrol reserve", flags))
        run.placements[name] = battle.sector


def finalize(state: State, run: HexRun, dice: Dice) -> HexResult:
    """Arrival order of parts, flags, escapes (E-13); decoys are spent (E-D15)."""
    result = run.result
    assert result is not None
    for battle in result.battles:
        for bg in battle.groups:
            g = state.groups[bg.group]
            choice = run.choices.get(bg.group)
            if len(bg.parts) > 1:
                bg.parts = dice.shuffle(bg.parts)  # E-7: which part sets up first is random
            if (g.order.kind == "hold-special" and g.order.target == "maintain"
                    and not (choice and choice.drop_hold)):
                bg.flags.append("hold-maintain penalty")
            if g.craft and all(c.is_decoy for c in g.craft):
                bg.flags.append("decoys only")
    locked = {n for names in result.locked.values() for n in names}
    for g in _members(state, run):
        if g.static is not None:
            if in_battle(run, g.name) is None:
                result.statics.append(g.name)
        elif not _settled(run, g.name) and g.name not in locked:
            result.unengaged.append(g.name)
    for name in result.escaped:
        state.groups[name].must_leave = run.hex
    for name, sector in run.placements.items():
        state.groups[name].sector = sector
    state.sector_layout = dict(run.placements)  # reserves moved: the picture shows them
    # Every group placed in the hex, kept for its picture after later hexes (decoys vanish).
    result.placed = [Placed(group=n, sector=s, owner=state.groups[n].owner,
                            static=state.groups[n].static is not None)
                     for n, s in sorted(run.placements.items())]
    _spend_decoys(state, run.hex)
    return result


def _spend_decoys(state: State, hex_name: str) -> None:
    for g in list(state.groups.values()):
        if g.hex != hex_name:
            continue
        g.craft = [c for c in g.craft if not c.is_decoy]
        if not g.craft:
            forget_group(state, g.name)


def group_role(bg: BattleGroup) -> str:
    """A battle group's role, order and engage value, as the battle list shows them."""
    order = f" {bg.order}" if bg.order else ""
    value = "" if bg.engage_value is None else f", engage value {bg.engage_value}"
    return f"{bg.role}{order}{value}"


def group_arrival(bg: BattleGroup) -> str:
    """The order in which a battle group's parts arrive: "1) A, B then 2) C"."""
    return " then ".join(f"{i}) {', '.join(p)}" for i, p in enumerate(bg.parts, 1))


def battle_text(state: State, result: HexResult) -> str:
    lines = [f"**Battle list, hex {result.hex}, round {result.round}**"]  # E-13
    for b in result.battles:
        lines.append(f"Battle in {b.sector}:")  # why it is one (b.rule) is in the event's data
        for bg in b.groups:
            role, parts = group_role(bg), group_arrival(bg)
            flags = f"; flags: {', '.join(bg.flags)}" if bg.flags else ""
            lines.append(f"- {bg.group} ({state.player_name(bg.owner)}): {role}"
                         f"; arrival: {parts}{flags}")
    if not result.battles:
        lines.append("No battle.")
    if result.escaped:
        lines.append(f"Escaped (must move away next Fleet Orders): {', '.join(result.escaped)}")
    for sector, names in sorted(result.locked.items()):
        lines.append(f"Locked standoff in {sector}: {', '.join(names)}")
    if result.unengaged:
        lines.append(f"Stayed unengaged: {', '.join(result.unengaged)}")
    if result.statics:
        lines.append(f"Statics not in battle: {', '.join(result.statics)}")
    if result.exposed:
        lines.append(f"Unarmed statics with enemies in their sector: {', '.join(result.exposed)}")
    return "\n".join(lines)


def battle_commands(result: HexResult) -> str:
    """For the GM: the command that opens each battle of a list as an HRFT battle in its own
    thread (the ids are public already; the command only saves looking them up)."""
    lines = [f"GM: to fight a battle of hex {result.hex} in its own thread, run this in the "
             "campaign's channel (for parent, pick this campaign from the list):"]
    lines += [f"`/battle start parent:<this campaign> ref:{b.id}`" for b in result.battles]
    lines.append("Or use the button under the battle list (only you may).")  # E-D37
    return "\n".join(lines)
