"""Engagements, battle reports, discards and raids (O-13, O-14, O-15, O-16, O-18).

One battle is settled at a time, in area order (homes by seat, then orbits outward; O-D4),
so a seat has at most one sealed request per step. Sealed action dicts, for
``resolve(state, {seat: action}, dice)``:

- report (each side; GM when they differ): ``{"type": "report", "losses_<seat>": "7",
  "defeated": "none" | "<seat>" | [...]}``; for a side whose force totals more than 24,
  ``losses_<seat>`` is a number field (typed, 0 to the total) rather than a Select; the older
  ``losses_<seat>_tens`` and ``losses_<seat>_units`` pair is still read. Losses are in
  card-value units: each option's label shows the points it stands for (O-14, O-15, O-D5).
  With more than two sides ``defeated`` may list several (O-D10). A side that does not
  report sends the battle to the GM (O-D9). GM only: ``{"type": "cancel"}``.
- discard: ``{"type": "discard", "cards": [...]}`` (or ``cards_<suit>`` fields, O-D3).
- raid (option): ``{"type": "raid", "card": "<owner>:<code>"}`` or ``{"type": "no_raid"}``.
"""

from __future__ import annotations

from typing import Any

from bot.errors import InvalidState, RulesError
from bot.rules.base import GM_SEAT, ActionSpec, Event, InputField, Option, Request
from bot.rules.orbits import cards as C
from bot.rules.orbits import result_embeds as shown
from bot.rules.orbits.actions import KINDS, AnyAction, Cancel, Discard, NoRaid, Raid, Report
from bot.rules.orbits.battle import battle_force, check_discard, propose_discard
from bot.rules.orbits.events import public, to_gm
from bot.rules.orbits.flow import next_turn
from bot.rules.orbits.forces import battle_commands
from bot.rules.orbits.state import Battle, BattleResult, OrbitsState
from bot.rules.words import count_of, plural

SINGLE_MAX = 24


def open_battles(state: OrbitsState, events: list[Event]) -> None:
    """O-13: a battle in each area with face-up fleet of 2+ players and any attack stance."""
    state.battles = []
    for area in state.areas():
        sides = [s for s in state.seat_numbers() if state.face_up_fleet(s, area)]
        if len(sides) < 2:
            continue
        if not any(state.stance(s, area) == "attack" for s in sides):
            events.append(public("standoff", f"{state.area_label(area)}: every side blockades; "
                                 "no battle, and no resources there.", area=area))
            continue
        forces = {s: sorted((c.code for c in state.face_up_fleet(s, area)), key=C.sort_key)
                  for s in sides}
        state.battles.append(Battle(area=area, sides=sides, forces=forces))
        events.append(_battle_card(state, state.battles[-1]))
    state.battle_index = 0
    if state.battles:
        state.phase = "battle_report"
        events.extend(battle_commands(state))
    else:
        next_turn(state, events, open_battles)


def _battle_card(state: OrbitsState, b: Battle) -> Event:
    o = state.options
    lines = [f"**Battle at {state.area_label(b.area)}**"]
    for s in b.sides:
        total, size = battle_force(b.forces[s], o.size_class_cap)
        pts = f" = {total * o.points_per_value} points" if o.points_per_value > 1 else ""
        lines.append(
            f"{state.name(s)} ({(state.stance(s, b.area) or '').upper()}): "
            f"{C.show_all(b.forces[s])} → {count_of(total, o.points_label)}{pts}, "
            f"max size class {size}")
    lines.append("Fight it out, then each side reports the losses and who was defeated.")
    return public("battle", "\n".join(lines), area=b.area, sides=b.sides, ruling="O-13, O-14",
                  forces={str(k): v for k, v in b.forces.items()},
                  embed=shown.battle_card(state, b))


def current(state: OrbitsState) -> Battle:
    return state.battles[state.battle_index]


# --- requests --------------------------------------------------------------------------------


def battle_requests(state: OrbitsState) -> list[Request]:
    b = current(state)
    where = state.area_label(b.area)
    step = f"battle{state.battle_index + 1}_{state.phase.removeprefix('battle_')}"
    if state.phase == "battle_report":
        spec = _report_spec(state, b, "report", "Report the result")
        return [Request(seat=s, kind="sealed", step=step, actions=[spec], default=None,
                        prompt=f"Battle at {where}: report each side's losses and who was "
                               "defeated. Both sides must agree.")
                for s in b.sides]
    if state.phase == "battle_gm":
        specs = [_report_spec(state, b, "report", "Enter the result"),
                 # O-16: destructive: it throws both reports away, so it is confirmed
                 ActionSpec(type="cancel", label="Cancel the battle", destructive=True,
                            confirm="Cancel the battle: both reports are dropped, nothing is "
                                    "lost and nobody is defeated.")]
        return [Request(seat=GM_SEAT, kind="sealed", step=step, actions=specs, default=None,
                        prompt=f"The battle reports for {where} differ: enter the result.")]
    if state.phase == "battle_discard":
        return [_discard_request(state, b, s, step) for s in _discarding(state, b)]
    return [_raid_request(state, b, s, step) for s in _raiders(state, b)]


def _losses_fields(state: OrbitsState, seat: int, total: int) -> list[InputField]:
    o = state.options
    ppv, unit = o.points_per_value, o.points_label
    name = state.name(seat)

    def lab(k: int) -> str:
        if ppv == 1:
            return count_of(k, unit)
        return f"{k} ({(k - 1) * ppv + 1}–{k * ppv} points)" if k else "0 points"

    if total <= SINGLE_MAX:
        return [InputField(name=f"losses_{seat}", label=f"{name}'s losses", options=[
            Option(value=str(k), label=lab(k) + (" (all)" if k == total and k else ""))
            for k in range(total + 1)])]
    # Too wide for one menu: typed as a whole number (the panel checks the range).
    return [InputField(name=f"losses_{seat}", label=f"{name}'s losses", options=[],
                       kind="number", minimum=0, maximum=total)]


def report_spec(state: OrbitsState, b: Battle, kind: str, label: str) -> ActionSpec:
    return _report_spec(state, b, kind, label)


def _report_spec(state: OrbitsState, b: Battle, kind: str, label: str) -> ActionSpec:
    o = state.options
    fields: list[InputField] = []
    for s in b.sides:
        total, _ = battle_force(b.forces[s], o.size_class_cap)
        fields.extend(_losses_fields(state, s, total))
    many = len(b.sides) > 2
    fields.append(InputField(
        name="defeated", label="Defeated", max_values=len(b.sides) if many else 1,
        options=[Option(value="none", label="Nobody")] + [
            Option(value=str(s), label=state.name(s)) for s in b.sides]))
    unit = o.points_label if o.points_per_value == 1 else f"× {o.points_per_value} points"
    return ActionSpec(type=kind, label=label, fields=fields,
                      confirm=f"Losses in card value ({unit}); a side discards fleet cards worth "
                              "at least its losses.")


def _discarding(state: OrbitsState, b: Battle) -> list[int]:
    assert b.result is not None
    return [s for s in b.sides if 0 < b.result.losses[s] < battle_force(b.forces[s])[0]]


def _discard_request(state: OrbitsState, b: Battle, seat: int, step: str) -> Request:
    assert b.result is not None
    losses = b.result.losses[seat]
    force = b.forces[seat]
    proposal = propose_discard(force, losses)
    fleet = [c for c in force if C.is_fleet(c)]
    if len(fleet) <= 25:
        fields = [InputField(name="cards", label="Discard", min_values=1, max_values=len(fleet),
                             options=[Option(value=c, label=C.show(c)) for c in fleet])]
        default: dict[str, Any] = {"type": "discard", "cards": proposal}
    else:  # O-D3: one Select per suit (at most 13 cards each), Jokers in their own
        groups: dict[str, list[str]] = {}
        for c in fleet:
            groups.setdefault("X" if C.is_joker(c) else C.suit(c), []).append(c)
        fields = [InputField(name=f"cards_{k}", label=f"Discard {k}", min_values=0,
                             max_values=len(v), options=[Option(value=c, label=C.show(c))
                                                         for c in v])
                  for k, v in groups.items()]
        default = {"type": "discard", **{f"cards_{k}": [c for c in proposal if c in v]
                                         for k, v in groups.items()}}
    return Request(
        seat=seat, kind="sealed", step=step, default=default,
        actions=[ActionSpec(type="discard", label="Discard", fields=fields,
                            confirm="Discarded cards leave the game for good.")],
        prompt=f"Battle at {state.area_label(b.area)}: discard fleet cards worth at least "
               f"{losses}. Proposal: {C.show_all(proposal)}.",
    )


def _raid_targets(state: OrbitsState, b: Battle) -> list[tuple[int, str]]:
    assert b.result is not None
    return [(c.owner, c.code) for s in b.result.defeated
            for c in state.face_up_faces(s, b.area)]


def _raiders(state: OrbitsState, b: Battle) -> list[int]:
    assert b.result is not None
    return [s for s in b.sides if s not in b.result.defeated]


def _raid_request(state: OrbitsState, b: Battle, seat: int, step: str) -> Request:
    options = [Option(value=f"{o}:{c}", label=f"{state.name(o)}'s {C.show(c)}")
               for o, c in _raid_targets(state, b)]
    return Request(
        seat=seat, kind="sealed", step=step, default={"type": "no_raid"},
        prompt=f"You won at {state.area_label(b.area)}: you may force a defeated player to "
               "discard one face-up face card there.",
        actions=[ActionSpec(type="raid", label="Raid a colony", fields=[
            InputField(name="card", label="Face card", options=options)]),
                 ActionSpec(type="no_raid", label="No raid")])


# --- reading actions -------------------------------------------------------------------------


def read_report(state: OrbitsState, b: Battle, action: AnyAction) -> BattleResult:
    """Turns a report action into losses (card-value units) and the defeated sides."""
    if not isinstance(action, Report):
        raise RulesError("Send a battle report: each side's losses and who was defeated.",
                         ruling="O-15")
    losses: dict[int, int] = {}
    for s in b.sides:
        total = battle_force(b.forces[s], state.options.size_class_cap)[0]
        if f"losses_{s}" in action.extras():
            k = _int(action.given(f"losses_{s}"), f"{state.name(s)}'s losses")
        else:
            k = (10 * _int(action.given(f"losses_{s}_tens"), f"{state.name(s)}'s losses (tens)")
                 + _int(action.given(f"losses_{s}_units"), f"{state.name(s)}'s losses (units)"))
        if not 0 <= k <= total:
            raise RulesError(f"{state.name(s)}'s losses must be 0 to {total} (their force).",
                             ruling="O-15")
        losses[s] = k
    raw = action.defeated
    picked = [raw] if isinstance(raw, str) else list(raw or [])
    if not picked or "none" in picked:
        if len(picked) > 1:
            raise RulesError("Choose either 'Nobody' or the defeated sides, not both.",
                            ruling="O-15")
        return BattleResult(losses=losses)
    defeated = sorted({_int(p, "the defeated side") for p in picked})
    if any(d not in b.sides for d in defeated):
        raise RulesError(f"The defeated side must be one of: "
                         f"{', '.join(state.name(s) for s in b.sides)}, or Nobody.",
                         ruling="O-15")
    if len(defeated) == len(b.sides) and len(b.sides) == 2:
        raise RulesError("Only one side of a two-sided battle can be the defeated one.",
                         ruling="O-D10")
    return BattleResult(losses=losses, defeated=defeated)


def _int(value: Any, what: str) -> int:
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    if isinstance(value, int) or (isinstance(value, str) and value.strip().isdigit()):
        return int(value)
    raise RulesError(f"Choose a number for {what}.", ruling="O-D5")


def read_discard(action: AnyAction) -> list[str]:
    if not isinstance(action, Discard):
        raise RulesError("Choose the cards to discard.", ruling="O-15")
    chosen: list[str] = []
    for key, val in action.extras().items():
        if key == "cards" or key.startswith("cards_"):
            chosen.extend([val] if isinstance(val, str) else list(val or []))
    return [C.parse(c) for c in chosen]


def check_sealed(state: OrbitsState, seat: int, action: AnyAction) -> None:
    """Validates one sealed action on its own (for the service at submission time)."""
    reqs = {r.seat: r for r in battle_requests(state)} if state.phase.startswith("battle") \
        else {}
    if seat not in reqs:
        raise InvalidState("Nothing is asked of you in this step.")
    b = current(state)
    if state.phase in ("battle_report", "battle_gm"):
        if not (state.phase == "battle_gm" and isinstance(action, Cancel)):
            read_report(state, b, action)
    elif state.phase == "battle_discard":
        assert b.result is not None
        check_discard(b.forces[seat], b.result.losses[seat], read_discard(action))
    elif isinstance(action, Raid):
        _read_raid(state, b, action)
    elif not isinstance(action, NoRaid):
        raise RulesError("Choose a face card to raid, or No raid.", ruling="O-18")


def _read_raid(state: OrbitsState, b: Battle, action: Raid) -> tuple[int, str]:
    raw = action.card
    if isinstance(raw, list) and len(raw) == 1:
        raw = raw[0]
    owner, _, code = str(raw).partition(":")
    target = (int(owner), code) if owner.isdigit() else None
    if target not in _raid_targets(state, b):
        raise RulesError("Raid one of the defeated side's face-up face cards here.", ruling="O-18")
    return target  # type: ignore[return-value]


# --- resolving -------------------------------------------------------------------------------


def resolve_battle(state: OrbitsState, actions: dict[int, AnyAction],
                   events: list[Event]) -> None:
    asked = {r.seat for r in battle_requests(state)}
    stray = set(actions) - asked
    if stray:
        raise InvalidState(f"Seat {min(stray)} has nothing to submit in this step.")
    for seat, action in actions.items():
        check_sealed(state, seat, action)
    b = current(state)
    if state.phase == "battle_report":
        _resolve_reports(state, b, actions, events)
    elif state.phase == "battle_gm":
        action = actions.get(GM_SEAT)
        if action is None:
            raise InvalidState("The GM must enter the result or cancel the battle.")
        if isinstance(action, Cancel):
            cancel(state, b, events)
        else:
            _accept(state, b, read_report(state, b, action), events, by_gm=True)
    elif state.phase == "battle_discard":
        _resolve_discards(state, b, actions, events)
    else:
        _resolve_raids(state, b, actions, events)


def _resolve_reports(state: OrbitsState, b: Battle, actions: dict[int, AnyAction],
                     events: list[Event]) -> None:
    b.reports = {s: read_report(state, b, a) for s, a in actions.items()}
    results = list(b.reports.values())
    if len(b.reports) == len(b.sides) and all(r == results[0] for r in results):
        _accept(state, b, results[0], events, by_gm=False)
        return
    missing = [s for s in b.sides if s not in b.reports]
    why = ("not every side reported" if missing else "the reports differ")
    events.append(public("battle_dispute", f"Battle at {state.area_label(b.area)}: {why}; the GM "
                         "will enter the result.", area=b.area))
    lines = [f"{state.name(s)}: {_describe(state, r)}" for s, r in b.reports.items()]
    events.append(to_gm("battle_reports", f"Reports for {state.area_label(b.area)}:\n"
                        + ("\n".join(lines) or "none"), area=b.area))
    state.phase = "battle_gm"


def describe(state: OrbitsState, r: BattleResult) -> str:
    return _describe(state, r)


def _describe(state: OrbitsState, r: BattleResult) -> str:
    o = state.options
    parts = [f"{state.name(s)} lost {shown.losses(o, k)}" for s, k in r.losses.items()]
    beaten = ", ".join(state.name(d) for d in r.defeated) or "nobody"
    return "; ".join(parts) + f"; defeated: {beaten}"


def cancel(state: OrbitsState, b: Battle, events: list[Event]) -> None:
    """O-16: the GM cancels the battle: no losses, nobody defeated, the next battle."""
    b.cancelled = True
    events.append(public("battle_cancelled", f"The GM cancels the battle at "
                         f"{state.area_label(b.area)}: no losses.", area=b.area))
    _next_battle(state, events)


def accept(state: OrbitsState, b: Battle, result: BattleResult, events: list[Event],
           how: str) -> None:
    """A battle's result (O-15), however it was reached: the discards follow."""
    _accept(state, b, result, events, by_gm=True, how=how)


def _accept(state: OrbitsState, b: Battle, result: BattleResult, events: list[Event],
            by_gm: bool, how: str = "") -> None:
    b.result = result
    how = how or ("entered by the GM" if by_gm else "agreed")
    events.append(public("battle_result", f"Battle at {state.area_label(b.area)} ({how}): "
                         f"{_describe(state, result)}.", area=b.area,
                         losses={str(k): v for k, v in result.losses.items()},
                         defeated=result.defeated,
                         embed=shown.battle_result(state, b, result, how)))
    for s in b.sides:
        if s not in _discarding(state, b) and result.losses[s] > 0:
            _discard(state, b, s, b.forces[s], events)  # losses >= total: everything goes
    if _discarding(state, b):
        state.phase = "battle_discard"
    else:
        _after_discards(state, b, events)


def _discard(state: OrbitsState, b: Battle, seat: int, codes: list[str],
             events: list[Event]) -> None:
    gone = set(codes)
    state.table = [c for c in state.table
                   if not (c.owner == seat and c.area == b.area and c.code in gone)]
    state.discards[seat].extend(sorted(gone, key=C.sort_key))
    events.append(public("discard", f"{state.name(seat)} discards "
                         f"{C.show_all(sorted(gone, key=C.sort_key))}.",
                         seat=seat, cards=sorted(gone, key=C.sort_key)))


def _resolve_discards(state: OrbitsState, b: Battle, actions: dict[int, AnyAction],
                      events: list[Event]) -> None:
    for r in battle_requests(state):
        action = actions.get(r.seat) or KINDS.read(r.default or {})
        _discard(state, b, r.seat, read_discard(action), events)
    _after_discards(state, b, events)


def _after_discards(state: OrbitsState, b: Battle, events: list[Event]) -> None:
    """The defeated flip their fleet there face down (O-15); then raids (O-18) or the next."""
    assert b.result is not None
    for s in b.result.defeated:
        left = state.face_up_fleet(s, b.area)
        for c in left:
            c.face_up = False
        state.stances.pop(f"{s}|{b.area}", None)
        if left:
            verb = "flips" if len(left) == 1 else "flip"
            events.append(public("defeat_flip", f"{state.name(s)}'s "
                                 f"{plural(len(left), 'remaining fleet card')} at "
                                 f"{state.area_label(b.area)} {verb} face down.", seat=s))
    if b.result.defeated:  # O-D7: every side not defeated wins when somebody is defeated
        for s in _raiders(state, b):
            state.battles_won[s] += 1
    if (state.options.raid_colonies and b.result.defeated and _raiders(state, b)
            and _raid_targets(state, b)):
        state.phase = "battle_raid"
        return
    _next_battle(state, events)


def _resolve_raids(state: OrbitsState, b: Battle, actions: dict[int, AnyAction],
                   events: list[Event]) -> None:
    raided: set[int] = set()
    for seat in sorted(actions):
        action = actions[seat]
        if not isinstance(action, Raid):
            continue
        raw = action.card[0] if isinstance(action.card, list) else action.card
        owner_s, _, code = str(raw).partition(":")
        owner = int(owner_s)  # checked by check_sealed before anything changed
        if owner in raided:  # O-D7: each defeated player loses at most one face card
            continue
        raided.add(owner)
        state.table = [c for c in state.table
                       if not (c.owner == owner and c.code == code)]
        state.discards[owner].append(code)
        events.append(public("raid", f"{state.name(seat)} raids {state.name(owner)}'s colony at "
                             f"{state.area_label(b.area)}: {C.show(code)} is discarded.",
                             seat=seat, owner=owner, card=code))
    _next_battle(state, events)


def _next_battle(state: OrbitsState, events: list[Event]) -> None:
    state.battle_index += 1
    if state.battle_index < len(state.battles):
        state.phase = "battle_report"
    else:
        next_turn(state, events, open_battles)
