"""Requests of the open steps: setup, fire, small-unit, turn-end repair (H-15, H-10)."""

from __future__ import annotations

from bot.rules.base import ActionSpec, InputField, Option, Request, YesNo
from bot.rules.hrft import repair
from bot.rules.hrft.arcs import ARCS
from bot.rules.hrft.combat import fireable
from bot.rules.hrft.directions import KINDS
from bot.rules.hrft.maneuvers import maneuver_spec
from bot.rules.hrft.samples import SIDES
from bot.rules.hrft.sequence import step_def
from bot.rules.hrft.state import BattleState

MAX_OPTIONS = 25
RANGES = list(range(2, 50, 2))  # 24 options: range up to N MU


def _arc_field(name: str, label: str) -> InputField:
    return InputField(name=name, label=label,
                      options=[Option(value=a, label=a) for a in ARCS])


READY = ActionSpec(type="ready", label="Ready")
# Destructive: red, apart from Ready, and confirmed with its consequence first.
CONCEDE = ActionSpec(type="concede", label="Concede", destructive=True,
                     confirm="Concede: your side leaves the battle with all its remaining "
                             "ships; this cannot be undone.")


# H-D38: a side with no ships may stay out; /gm advance takes this for a side that has none.
STAY_OUT = ActionSpec(type="stay_out", label="Stay out of this battle (no ships)",
                      destructive=True,
                      confirm="Your side stays out of this battle: it fields no ships and "
                              "counts as having conceded. This cannot be undone.")


def setup_request(state: BattleState, seat: int) -> Request:
    """H-D38: at the deadline a side with ships is ready; a side with none has no default
    (the step waits for the GM) but /gm advance keeps it out of the battle."""
    options = [Option(value=k, label=k.capitalize(), description=f"side {side} sample")
               for side, keys in SIDES.items() for k in keys]
    ships = state.ships_of(seat)
    mine = ", ".join(s.name for s in ships) or "none yet"
    return Request(seat=seat, kind="open", step="setup",
                   prompt=f"Add your ships (yours: {mine}): upload a Fleet Manager design or "
                          "pick a sample, then Ready.",
                   actions=[ActionSpec(type="add_sample", label="Add a sample ship", fields=[
                       InputField(name="sample", label="Sample design", options=options)]),
                       ADD_FILE, READY, *([] if ships else [STAY_OUT])],
                   default={"type": "ready"} if ships else None,
                   advance=None if ships else {"type": "stay_out"})


# Uploaded by `/battle add file:`; fields without options take any text (checked on import).
ADD_FILE = ActionSpec(type="add_file", label="Add ships from a design or fleet file", fields=[
    InputField(name="filename", label="File name", options=[]),
    InputField(name="content", label="File content", options=[])])


def damage_spec(state: BattleState) -> ActionSpec:
    targets = [Option(value=s.uid, label=f"{s.name} ({state.seat_name(s.seat)})")
               for s in state.ships.values() if not s.out][:MAX_OPTIONS]
    return ActionSpec(type="damage", label="Enter damage (weapon not in the tables)", fields=[
        InputField(name="target", label="Ship hit", options=targets),
        InputField(name="kind", label="Kind",
                   options=[Option(value=k, label=k) for k in KINDS]),
        _arc_field("arc", "Incoming arc on the ship hit"),
        # H-D30: the panel offers 1..25 in one Select; more, or a per-hit list such as
        # '3,2,4', comes as the free-text ``hits`` of /battle damage (checked by the rules).
        InputField(name="points", label="Damage points (more or a list: /battle damage)",
                   options=[Option(value=str(n), label=str(n)) for n in range(1, 26)],
                   min_values=0),
    ])


def fire_spec(state: BattleState, seat: int) -> ActionSpec | None:
    weapons = []
    for ship in state.ships_of(seat):
        late = ship.core_damaged("communications")
        if late != (state.fire_phase == 1):
            continue
        for s in ship.systems:
            if fireable(state, ship, s) is None:
                weapons.append(Option(value=f"{ship.uid}:{s.uid}",
                                      label=f"{ship.name}: {s.label}"[:100]))
    targets = [Option(value=s.uid, label=f"{s.name} ({state.seat_name(s.seat)})")
               for s in state.ships.values() if s.seat != seat and not s.out]
    if not weapons or not targets:
        return None
    weapons = weapons[:MAX_OPTIONS]
    return ActionSpec(type="fire", label="Fire", fields=[
        InputField(name="weapons", label="Weapons (one ship)", options=weapons,
                   max_values=len(weapons)),
        InputField(name="target", label="Target", options=targets[:MAX_OPTIONS]),
        InputField(name="range", label="Range",
                   options=[Option(value=str(r), label=f"up to {r} MU") for r in RANGES]),
        _arc_field("arc", "Incoming arc on the target"),
        _arc_field("bearing", "Target's arc from the firer"),
    ])


def repair_spec(state: BattleState, seat: int) -> ActionSpec | None:
    options = []
    for ship in state.ships_of(seat):
        if ship.out or ship.working_dcps - state.dcp_used.get(ship.uid, 0) <= 0:
            continue
        options += [Option(value=f"{ship.uid}|{t}", label=f"{ship.name}: {label}"[:100])
                    for t, label in repair.repairable(ship)
                    if f"{ship.uid}|{t}" not in state.repair_attempts]
    if not options:
        return None
    return ActionSpec(type="repair", label="Damage control", fields=[
        InputField(name="target", label="Repair", options=options[:MAX_OPTIONS]),
        InputField(name="parties", label="DCPs on the job",
                   options=[Option(value=str(n), label=f"{n} DCP ({7 - n}+)")
                            for n in range(1, repair.MAX_PARTIES + 1)]),
        InputField(name="medic", label="Medic roll (+1, DCP repair, once a turn)",
                   options=[Option(value=YesNo.NO.value, label="No"),
                            Option(value=YesNo.YES.value, label="Yes")]),
    ])


def open_request(state: BattleState, seat: int) -> Request:
    sd = step_def(state.options, state.step)
    actions: list[ActionSpec] = []
    if sd.kind == "fire":
        spec = fire_spec(state, seat)
        if spec:
            actions.append(spec)
    if sd.kind == "fire":
        declare = maneuver_spec(state, seat)  # step 10 only (H-D32)
        if declare:
            actions.append(declare)
    if sd.kind == "repair":
        spec = repair_spec(state, seat)
        if spec:
            actions.append(spec)
    actions += [damage_spec(state), READY, CONCEDE]
    late = " (ships with damaged communications)" if state.fire_phase == 1 else ""
    return Request(seat=seat, kind="open", step=state.step + ("-late" if late else ""),
                   prompt=f"Turn {state.turn}: {sd.title}{late}. Act as often "
                          "as you need, then Ready.",
                   actions=actions, default={"type": "ready"})
