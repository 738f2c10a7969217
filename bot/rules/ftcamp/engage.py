"""Engage orders (E-5, E-6, E-7), the engage roll (E-9) and the simultaneous reveal (E-10)."""

from __future__ import annotations

from bot.errors import RulesError
from bot.rules.base import Dice, InputField, Option
from bot.rules.ftcamp.core import (
    crippled_craft,
    engage_value,
    min_thrust,
    parts_cap,
    subdivision_bonus,
    towed_by_other,
)
from bot.rules.ftcamp.model import Choice, FleetOrder, Group, HexRun, Roll, State
from bot.rules.ftcamp.scan import groups_in
from bot.rules.words import plural

WORDS = {"RT": "Retreat", "SF": "StandOff", "EE": "Engage"}
CANDIDATES = ("EE", "EE+abandon", "EE+drop", "EE+drop+abandon", "SF", "RT", "RT+drop")
MAX_OPTIONS = 25


def supported_root(state: State, g: Group, hex_name: str) -> Group | None:
    """The group a supporter follows in this hex (chains followed to their end), or None."""
    seen = {g.name}
    cur = g
    while cur.order.kind == "support" and cur.static is None:
        nxt = state.groups.get(cur.order.target)
        if nxt is None or nxt.hex != hex_name or nxt.name in seen:
            return None if cur is g else cur
        seen.add(nxt.name)
        cur = nxt
    return None if cur is g else cur


def ordered_groups(state: State, hex_name: str, seat: int | None = None) -> list[Group]:
    """Groups given an engage order: not statics, not supporters (E-5)."""
    return [g for g in groups_in(state, hex_name)
            if g.static is None and supported_root(state, g, hex_name) is None
            and (seat is None or g.owner == seat)]


def tug_follows(state: State, tug: Group, g: Group) -> bool:
    """The tug's group supports ``g`` (directly or along a chain): it takes g's order, so a
    retreat of g takes the tug along (seed 3.1.2, E-D29)."""
    root = supported_root(state, tug, g.hex)
    return root is not None and root.name == g.name


def _refuse(order: str, g: Group, reason: str) -> RulesError:
    return RulesError(f"{WORDS[order]} is not allowed: group {g.name} {reason}.", ruling="E-6")


def _parse_split(g: Group, split: str | None, remaining: list[str]) -> list[list[str]]:
    if split is None or split.strip() in ("", "all"):
        return [remaining]
    names = [c.name for c in g.craft]
    parts: list[list[str]] = []
    for chunk in split.split("|"):
        part = []
        for token in chunk.split(","):
            token = token.strip()
            if not token.isdigit() or int(token) >= len(names):
                raise RulesError(f"Group {g.name}: split {split!r} names craft {token!r}; use "
                                 f"craft numbers 0 to {len(names) - 1}, parts separated by |.",
                                 ruling="E-7")
            part.append(names[int(token)])
        parts.append(part)
    flat = [n for p in parts for n in p]
    if sorted(flat) != sorted(remaining) or len(set(flat)) != len(flat):
        raise RulesError(f"Group {g.name}: every craft that stays must be in exactly one part "
                         f"({', '.join(remaining)}).", ruling="E-7")
    return parts


def check_choice(state: State, g: Group, value: str, split: str | None = None) -> Choice:
    """Validate a group's engage order and split; raises RulesError citing E-6/E-7."""
    order, *flags = value.strip().split("+")
    if order not in WORDS or any(f not in ("drop", "abandon") for f in flags):
        raise RulesError(f"Group {g.name}: {value!r} is not an engage order; use RT, SF or EE, "
                         "with +drop (abandon a hold-special) or +abandon (abandon crippled "
                         "craft) where they apply.", ruling="E-6")
    drop, abandon = "drop" in flags, "abandon" in flags
    hold, task = g.order.kind == "hold-special", g.order.target
    crippled = crippled_craft(g)
    if drop and not hold:
        raise RulesError(f"Group {g.name} is not on hold-special; +drop does not apply.",
                         ruling="E-6")
    if abandon and not crippled:
        raise RulesError(f"Group {g.name} has no FTL-crippled craft to abandon.", ruling="E-6")
    if order in ("RT", "EE"):
        if g.lost:
            raise _refuse(order, g, "is lost")
        if g.order.kind == "maintain-orbit":
            raise _refuse(order, g, "is on maintain-orbit and must take SF")
    if order == "RT":
        if hold and not drop:
            raise _refuse(order, g, f"is on hold-special {task}; choose RT+drop to abandon it")
        tug = towed_by_other(state, g)
        if tug is not None and not tug_follows(state, tug, g):
            raise RulesError(f"Retreat is not allowed: group {g.name} is tugged by {tug.name} "
                             f"and cannot retreat without its tug; order RT for {tug.name} and "
                             f"{g.name} goes with it.", ruling="E-6")
        # E-6: retreating means leaving crippled craft behind, unless the tug carries them
        abandon = bool(crippled) and tug is None
    elif order == "EE":
        if g.diplomat:
            raise _refuse(order, g, "carries a diplomat")
        if hold and task != "maintain" and not drop:
            raise _refuse(order, g, f"is on hold-special {task}; choose EE+drop to abandon it")
    elif drop or abandon:
        raise RulesError(f"Group {g.name}: StandOff keeps its hold and its crippled craft in "
                         "their orbit-sector; +drop and +abandon do not apply.", ruling="E-6")
    abandoned = crippled if abandon else []
    remaining = [c.name for c in g.craft if c.name not in abandoned]
    if not remaining:
        raise _refuse(order, g, "would abandon every craft; all are FTL-crippled")
    parts = _parse_split(g, split, remaining)
    real = sum(1 for c in g.craft if c.name in remaining and not c.is_decoy)
    cap = parts_cap(order, real, len(remaining), state.rules.group_sizes)
    if len(parts) > cap:
        raise RulesError(f"Group {g.name} may split into at most {plural(cap, 'part')} on {order}; "
                         f"{len(parts)} given.", ruling="E-7")
    return Choice(order=order, parts=parts, drop_hold=drop, abandoned=abandoned)  # type: ignore[arg-type]


def order_options(state: State, g: Group) -> list[Option]:
    out = []
    for value in CANDIDATES:
        try:
            choice = check_choice(state, g, value)
        except RulesError:
            continue
        label = WORDS[choice.order]
        if choice.drop_hold:
            label += ", abandon the hold-special"
        if choice.abandoned:
            label += f", abandon {', '.join(choice.abandoned)}"
        if choice.order == "EE" and g.order.kind == "hold-special" and not choice.drop_hold:
            label += " (completes hold-maintain, battle penalty)"
        out.append(Option(value=value, label=f"{value}: {label}"[:100]))
    return out


def split_options(state: State, g: Group) -> list[Option]:
    """'all' plus round-robin splits; any other valid split string is accepted too."""
    out = [Option(value="all", label="no split (1 part)")]
    crippled = set(crippled_craft(g))
    pools = [list(range(len(g.craft)))]
    if crippled:
        pools.append([i for i, c in enumerate(g.craft) if c.name not in crippled])
    for pool in pools:
        for k in range(2, min(6, len(pool)) + 1):
            parts = [pool[i::k] for i in range(k)]
            value = "|".join(",".join(map(str, p)) for p in parts)
            label = " | ".join("+".join(g.craft[i].name for i in p) for p in parts)
            if value not in {o.value for o in out} and len(out) < MAX_OPTIONS:
                out.append(Option(value=value, label=f"{k} parts: {label}"[:100]))
    return out


def engage_bundles(state: State, seat: int, hex_name: str) -> list[list[InputField]]:
    """Per group: the order and (with 2+ craft) the split; first, allies the seat may attack.

    E-D34: only a seat with a group that takes an engage order here is offered the attack on
    an ally (a betrayal needs its EE order, E-D31); any other seat in the hex gets the
    "nothing to do" input of E-D33 instead of a menu that could do nothing."""
    bundles: list[list[InputField]] = []
    mine = ordered_groups(state, hex_name, seat)
    allies = sorted({g.owner for g in groups_in(state, hex_name)
                     if g.owner != seat and state.allied(seat, g.owner)}) if mine else []
    if allies:
        bundles.append([InputField(
            name="betray", label="Attack an ally? (leave empty: no attack)",
            options=[Option(value=str(a), label=f"attack {state.player_name(a)}",
                            description="breaks the alliance; needs an EE order here")
                     for a in allies],
            min_values=0, max_values=len(allies))])
    for g in mine:
        fields = [InputField(name=f"order:{g.name}", label=f"{g.name}: engage order"[:45],
                             options=order_options(state, g))]
        if len(g.craft) > 1:
            fields.append(InputField(name=f"split:{g.name}", label=f"{g.name}: parts"[:45],
                                     options=split_options(state, g), min_values=0))
        bundles.append(fields)
    return bundles


def confirm_text(state: State, groups: list[Group]) -> str:
    lines = []
    for g in groups:
        crippled = crippled_craft(g)
        tug = towed_by_other(state, g)
        if tug is not None:
            lines.append(f"{g.name} is tugged by {tug.name}: it retreats only with its tug and "
                         "then goes with it, crippled craft included.")
        elif crippled:
            lines.append(f"{g.name}: RT abandons {', '.join(crippled)} (lost with crew); "
                         "EE keeps the group in its orbit-sector unless you choose +abandon.")
    return "\n".join(lines)


def follow_choices(state: State, run: HexRun) -> None:
    """Supporters take the order of the group they support, without split (E-5, E-D24);
    then tugged groups go with their tugs (E-D29)."""
    for g in groups_in(state, run.hex):
        root = supported_root(state, g, run.hex) if g.static is None else None
        if root is None:
            continue
        order = run.choices[root.name].order if root.name in run.choices else "SF"
        run.choices[g.name] = Choice(order=order, parts=[[c.name for c in g.craft]],
                                     follows=root.name)
    carry_tugged(state, run)


def _chain(run: HexRun, start: str) -> list[str]:
    """``start``, the group it follows, that one's, ...; a cycle ends with its first
    repeated name."""
    names: list[str] = []
    cur: str | None = start
    while cur is not None:
        names.append(cur)
        if names.count(cur) > 1:
            break
        choice = run.choices.get(cur)
        cur = choice.follows if choice else None
    return names


def _leads_to(run: HexRun, start: str, target: str) -> bool:
    return target in _chain(run, start)


def _chain_order(run: HexRun, name: str) -> str:
    """The order at the end of a follow chain; a static there means SF (E-D24)."""
    choice = run.choices.get(_chain(run, name)[-1])
    return choice.order if choice is not None else "SF"


def carry_tugged(state: State, run: HexRun) -> None:
    """A group whose tug is in another group of the hex goes with a retreating tug: RT, no
    roll, placed with the tug, nothing abandoned. It never retreats without the tug: a
    supporter led away by a retreat stays with its tug instead (seed 3.1.2, E-D29)."""
    changed = True
    while changed:  # each group is re-pointed at most once, so this ends
        changed = False
        for g in groups_in(state, run.hex):
            tug = towed_by_other(state, g)
            mine = run.choices.get(g.name)
            if tug is None or mine is None or g.static is not None:
                continue
            if mine.follows == tug.name or _leads_to(run, tug.name, g.name):
                continue  # already with the tug, or the tug follows this group
            if "RT" in (_chain_order(run, tug.name), _chain_order(run, g.name)):
                run.choices[g.name] = Choice(order="SF", follows=tug.name,
                                             parts=[[c.name for c in g.craft]])
                changed = True
    for name, choice in run.choices.items():
        if choice.follows:  # followers take the order their chain ends in
            choice.order = _chain_order(run, name)  # type: ignore[assignment]


def roll_all(state: State, run: HexRun, dice: Dice) -> tuple[list[str], dict[str, str]]:
    """Abandon craft, roll 2d6 for every ordered group; return the public reveal lines and,
    per rolling group, the private line naming its craft per part (E-10, E-D33)."""
    lines = []
    parts: dict[str, str] = {}
    for name in sorted(run.choices, key=lambda n: (state.groups[n].owner, n)):
        g, choice = state.groups[name], run.choices[name]
        owner = state.player_name(g.owner)
        if choice.follows:
            how = "goes with its tug" if g.tugged_by == choice.follows else "supports"
            lines.append(f"- {name} ({owner}): {how} {choice.follows} ({choice.order})")
            continue
        if choice.abandoned:
            g.craft = [c for c in g.craft if c.name not in choice.abandoned]
        if choice.drop_hold:
            g.order = FleetOrder()  # the hold-special is abandoned for good (E-6, E-D28)
        thrust = min_thrust(state, g)
        pair = (dice.d(6), dice.d(6))
        bonus = subdivision_bonus(choice.order, len(choice.parts))
        value = engage_value(pair, bonus, thrust)
        run.rolls[name] = Roll(dice=pair, bonus=bonus, thrust=thrust, value=value)
        split = " | ".join(", ".join(p) for p in choice.parts)
        lost = f"; abandoned {', '.join(choice.abandoned)} (lost with crew)" \
            if choice.abandoned else ""
        parts[name] = (f"- {name}: {choice.order} in {plural(len(choice.parts), 'part')} "
                       f"[{split}]{lost}")
        extra = "; hold-special abandoned" if choice.drop_hold else ""
        lines.append(f"- {name} ({owner}): {choice.order} in {plural(len(choice.parts), 'part')}; "
                     f"dice {pair[0]}, {pair[1]} + bonus {bonus} + thrust {thrust} "
                     f"= **{value}**{extra}")
    return lines, parts
