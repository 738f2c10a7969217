"""Special acts before the scans (E-3, E-4): decoys, weasel settings, patrol dispatch."""

from __future__ import annotations

from bot.rules.base import InputField, Option
from bot.rules.ftcamp import index
from bot.rules.ftcamp.core import min_thrust
from bot.rules.ftcamp.model import Craft, Group, HexRun, State
from bot.rules.ftcamp.scan import groups_in
from bot.rules.words import plural, possessive

MAX_OPTIONS = 25


def decoys_left(g: Group) -> int:
    return sum(c.decoys for c in g.craft if not c.is_decoy)


def interceptors(state: State, hex_name: str, seat: int) -> list[Group]:
    """The seat's patrol groups in a contested hex: their bubble intercepted (E-3, E-D12)."""
    return [g for g in groups_in(state, hex_name)
            if g.owner == seat and g.order.kind == "patrol" and g.static is None]


def dispatchable(state: State, seat: int, busy: set[str]) -> list[Group]:
    """Own patrol groups outside this round's contested hexes, not yet dispatched (E-12.7)."""
    fought = set(state.contested) | {r.hex for r in state.results if r.round == state.round}
    return [g for g in index.owned(state, seat)
            if g.order.kind == "patrol" and g.static is None
            and g.hex not in fought and g.name not in busy][:MAX_OPTIONS]


def special_bundles(state: State, seat: int, run: HexRun,
                    dispatched: set[str]) -> list[list[InputField]]:
    bundles: list[list[InputField]] = []
    for g in groups_in(state, run.hex):
        if g.owner != seat or g.static is not None:
            continue
        n = decoys_left(g)
        if n:
            opts = [Option(value="none", label="launch no decoys")]
            for count in sorted({1, n}):
                for cls in range(1, 6):
                    opts.append(Option(value=f"add:{count}:{cls}",
                                       label=f"add {plural(count, 'decoy')} showing class {cls}"))
                    opts.append(Option(value=f"new:{count}:{cls}",
                                       label=f"launch {plural(count, 'decoy')} as a new group, "
                                             f"class "
                                             f"{cls}"))
            bundles.append([InputField(name=f"decoy:{g.name}", label=f"{g.name}: decoys"[:45],
                                       options=opts)])
        for i, c in enumerate(g.craft):
            if c.weasel > 0:
                bundles.append([InputField(
                    name=f"weasel:{g.name}#{i}", label=f"{c.name}: weasel setting"[:45],
                    # Classes stop at 5 (E-D6): a setting above +4 changes nothing.
                    options=[Option(value=str(v), label=f"+{v} class") for v in
                             range(min(c.weasel, 4) + 1)])])
    for g in interceptors(state, run.hex, seat):
        free = dispatchable(state, seat, dispatched)
        if free:
            bundles.append([InputField(
                name=f"dispatch:{g.name}",
                label=f"Dispatch to {possessive(g.name)} interception"[:45],
                options=[Option(value=x.name, label=f"{x.name} ({x.hex})") for x in free],
                min_values=0, max_values=len(free))])
    return bundles


def _launch(state: State, g: Group, count: int, cls: int, new: bool) -> str:
    """Launch decoys that move with the launcher's minimum thrust (E-D25)."""
    thrust = min_thrust(state, g)
    decoys = []
    for _ in range(count):
        state.counter += 1
        decoys.append(Craft(name=f"Decoy {state.counter}", mass=0, thrust=thrust,
                            decoy_class=cls))
    need = count
    for c in g.craft:
        take = min(c.decoys, need)
        c.decoys -= take
        need -= take
    if not new:
        g.craft.extend(decoys)
        return f"{g.name}: {plural(count, 'decoy')} of class {cls} added"
    state.counter += 1
    # E-D11: a decoy group gets a plain name so it reads like any other contact.
    name = f"Group {state.counter}"
    state.groups[name] = Group(name=name, owner=g.owner, hex=g.hex, craft=decoys)
    return f"{g.name}: {plural(count, 'decoy')} of class {cls} launched as {name}"


def apply_special(state: State, run: HexRun, seat: int, answers: dict[str, str | list[str]],
                  dispatched: set[str]) -> list[str]:
    """Apply one seat's special acts; returns private lines for that seat."""
    lines = []
    for key, value in sorted(answers.items()):
        kind, _, target = key.partition(":")
        if kind == "decoy" and isinstance(value, str) and value != "none":
            mode, count, cls = value.split(":")
            g = state.groups[target]
            lines.append(_launch(state, g, min(int(count), decoys_left(g)), int(cls),
                                 mode == "new"))
        elif kind == "weasel" and isinstance(value, str):
            gname, _, index = target.rpartition("#")
            c = state.groups[gname].craft[int(index)]
            if int(value) != c.weasel_on:
                c.weasel_on = int(value)
                lines.append(f"{c.name}: weasel set to +{value}")
        elif kind == "dispatch":
            for name in value if isinstance(value, list) else [value]:
                if name in dispatched:
                    # Two interceptors named the same group on different pages: first wins.
                    lines.append(f"{name} was already dispatched; each group answers one "
                                 "interception")
                    continue
                run.dispatched[name] = target
                dispatched.add(name)
                lines.append(f"{name} dispatched to support {possessive(target)} interception")
    return lines
