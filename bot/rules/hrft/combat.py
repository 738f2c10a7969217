"""Open-step actions: fire (tables), manual damage, repair (H-5, H-9..H-14, H-16).

Each action works on a deep copy of the state and returns it with ONE public event that
lists every die and what it did; damage events carry ``image=ImageRef(name="sheet",
file="sheet-<ship>", focus=<ship>)`` (H-D46: the picture is a view of that ship alone) and
``data["sheet_ship"]`` (the ship the sheet shows; also ``view["sheet_ship"]``).
"""

from __future__ import annotations

from typing import Any

from bot.errors import RulesError
from bot.rules.base import Audience, Dice, Event, ImageRef
from bot.rules.hrft import directions, maneuvers, overload, repair, vtif
from bot.rules.hrft import result_embeds as shown
from bot.rules.hrft.actions import Damage, Fire, Repair
from bot.rules.hrft.arcs import check_arc
from bot.rules.hrft.damage import AttackReport, apply_attack
from bot.rules.hrft.model import Ship, System
from bot.rules.hrft.sequence import step_def
from bot.rules.hrft.state import BattleState
from bot.rules.hrft.weapons import WEAPONS, fire_weapon
from bot.rules.words import plural

MAX_RANGE = 200
MAX_POINTS = 200  # one hit (a number in a list, or the whole entry)
MAX_HITS = 30  # amounts in one manual entry (H-D30)


def _ship(state: BattleState, uid: Any, what: str) -> Ship:
    ship = state.ships.get(str(uid))
    if ship is None:
        known = ", ".join(f"{s.uid} ({s.name})" for s in state.ships.values())
        raise RulesError(f"No {what} ship '{uid}'. Ships: {known}.", ruling="H-D15")
    return ship


def _number(raw: Any, what: str, low: int, high: int) -> int:
    try:
        value = int(float(str(raw)))
    except ValueError:
        raise RulesError(f"{what} must be a number from {low} to {high}, not '{raw}'.",
                         ruling="H-D15") from None
    if not low <= value <= high:
        raise RulesError(f"{what} must be from {low} to {high}, not {value}.", ruling="H-D15")
    return value


def _as_list(raw: Any) -> list[str]:
    if raw is None:
        return []
    if isinstance(raw, str):
        return [x for x in raw.replace(",", " ").split() if x]
    return [str(x) for x in raw]


def damage_event(state: BattleState, kind: str, title: str, lines: list[str],
                 target: Ship, data: dict[str, Any], weapons: int = 0) -> Event:
    """``weapons``: how many of ``lines`` are one shot each (a field each in the embed)."""
    state.sheet_ship = target.uid
    data = {**data, "sheet_ship": target.uid, "target": target.uid}
    return Event(audience=Audience.public(), kind=kind, text="\n".join([title, *lines]),
                 data=data, image=ImageRef(name="sheet", file=f"sheet-{target.uid}",
                                                focus=target.uid),
                 embed=shown.report(title, lines, weapons))


def _report_data(report: AttackReport) -> dict[str, Any]:
    return {"placements": [p.__dict__ for p in report.placements], "threshold_dice": report.dice,
            "destroyed": report.ship.destroyed, "hulk": report.ship.hulk,
            "overkill": report.overkill}


def fireable(state: BattleState, ship: Ship, system: System) -> str | None:
    """Why ``system`` cannot fire now, or None."""
    if system.type not in WEAPONS:
        return f"{system.label} has no fire table (use manual damage)"
    if f"{ship.uid}:{system.uid}" not in state.snapshot:
        return f"{system.label} was not working at the start of this fire step"
    if system.uid in state.fired.get(ship.uid, []):
        return f"{system.label} has fired this turn"
    if system.uid in state.spent.get(ship.uid, []):
        return f"{system.label} is a one-shot weapon and has been used"
    if system.uid in state.vtif_barred.get(ship.uid, []):
        return f"{system.label} failed a VTIF targeting roll this turn"
    return None


def fire(state: BattleState, seat: int, action: Fire, dice: Dice) -> Event:
    """Fire weapons of one ship at one target: one attack (H-5). Mutates ``state``."""
    picks = _as_list(action.weapons)
    if not picks:
        raise RulesError("Choose at least one weapon (values 'ship:system').", ruling="H-D15")
    ship_ids = {p.split(":", 1)[0] for p in picks}
    if len(ship_ids) != 1 or any(":" not in p for p in picks):
        raise RulesError("All weapons of one fire action must belong to one ship (one attack); "
                         "give them as 'ship:system'.", ruling="H-5")
    firer = _ship(state, ship_ids.pop(), "firing")
    if firer.seat != seat:
        raise RulesError(f"{firer.name} is not your ship.", ruling="H-D15")
    late = firer.core_damaged("communications")
    if state.fire_phase == 0 and late:
        raise RulesError(f"{firer.name} has damaged communications: it fires after all ships "
                         "with working communications.", ruling="H-11")
    if state.fire_phase == 1 and not late:
        raise RulesError("Only ships with damaged communications fire now.", ruling="H-11")
    target = _ship(state, action.target, "target")
    if target.seat == seat:
        raise RulesError("Choose an enemy ship as the target.", ruling="H-D15")
    if target.out:
        raise RulesError(f"{target.name} is out of the battle.", ruling="H-D15")
    rng = _number(action.range, "Range (MU)", 0, MAX_RANGE)
    arc = check_arc(action.arc)
    bearing = check_arc(action.bearing or "F")
    key = f"{firer.uid}>{target.uid}"  # H-D15: one attack per ship and target a step
    if key in state.attacks_this_step:
        raise RulesError(f"{firer.name} has already fired at {target.name} this step; fire all "
                         "weapons at one target together (one attack).", ruling="H-5")
    used = state.targets.setdefault(firer.uid, [])
    if target.uid not in used and len(used) >= firer.working_firecons:
        raise RulesError(f"{firer.name} has no free fire control: each tracks one target per "
                         f"turn; targets so far: {', '.join(used) or 'none'}.", ruling="H-15")
    systems = []
    for p in picks:
        try:
            system = firer.system(p.split(":", 1)[1])
        except KeyError:
            raise RulesError(f"{firer.name} has no weapon '{p}'.", ruling="H-D15") from None
        why = fireable(state, firer, system)
        if why:
            raise RulesError(why + ".", ruling="H-D15")
        if not state.options.vtif and bearing not in system.arcs:
            raise RulesError(f"{system.label} does not cover {bearing}; its arcs: "
                             f"{'/'.join(system.arcs)}.", ruling="H-1")
        systems.append(system)
    order = state.orders.get(firer.uid)
    stealth = 1 if bearing == "A" and maneuvers.drive_used(state, firer.uid) else 0
    screen = min(state.screens.get(target.uid, {}).get(arc, 0), target.screen_level)
    sensors = firer.core_damaged("sensors")
    lines: list[str] = []
    all_dice: list[dict[str, Any]] = []
    total = 0
    declared = maneuvers.evasive_of(state, target.uid)  # H-D32: the target's own declaration
    given = action.evasive
    evasive = declared if given in (None, "") else _number(given, "Evasive points", 0, 12)
    step = step_def(state.options, state.step).number
    overloaded: list[tuple[System, str]] = []  # H-D31: weapons firing faster than their rate
    for system in systems:
        state.fired.setdefault(firer.uid, []).append(system.uid)
        if WEAPONS[system.type].one_shot:
            state.spent.setdefault(firer.uid, []).append(system.uid)
        if state.options.vtif:
            t = vtif.roll(system.arcs, bearing, dice, order.tracking if order else 0,
                          order.turn_points if order else 0, evasive)
            all_dice.append({"roll": t.roll, "for": f"{system.label} VTIF", "total": t.total,
                             "need": t.need, "result": "fires" if t.ok else "cannot fire"})
            lines.append(f"{system.label}: VTIF d6 {t.roll} {t.modifier:+d} = {t.total} vs "
                         f"<= {t.need}: {'fires' if t.ok else 'cannot fire this turn'}")
            if not t.ok:
                state.vtif_barred.setdefault(firer.uid, []).append(system.uid)
                continue
        shot = fire_weapon(system, rng, screen, dice, stealth_steps=stealth,
                           sensors_damaged=sensors, beam_reroll=state.options.beam_reroll)
        before = overload.overloaded_after(state, firer, system, step)
        if before is not None:
            overloaded.append((system, before))
        overload.mark(state, firer, system, step)
        total += shot.damage
        lines.append(shot.text)
        all_dice += [{**d, "for": d.get("for", system.label)} for d in shot.dice]
    if target.uid not in used:
        used.append(target.uid)
    state.attacks_this_step.append(key)
    notes = []
    if stealth:
        notes.append("aft fire with the main drive used: Stealth 2")  # H-14
    if sensors:
        notes.append("sensors damaged")  # H-11
    title = (f"**{firer.name}** fires at **{target.name}** (range {rng} MU, through "
             f"{target.name}'s {arc} arc{', ' + '; '.join(notes) if notes else ''}): "
             f"{total} damage")
    report = apply_attack(target, [(arc, total)], dice)
    state.ships[target.uid] = report.ship
    over_lines: list[str] = []
    over_dice: list[dict[str, Any]] = []
    for system, before in overloaded:  # after the shot is resolved (H-D31)
        more, rolled = overload.check(state.ships[firer.uid], system, before, dice)
        over_lines += more
        over_dice += rolled
    return damage_event(state, "fire", title, lines + report.lines + over_lines, report.ship,
                        {"attacker": firer.uid, "damage": total, "weapon_dice": all_dice,
                         "overload_dice": over_dice, **_report_data(report)},
                        weapons=len(lines))


def manual_damage(state: BattleState, seat: int, action: Damage, dice: Dice) -> Event:
    """Damage from a weapon not in the tables (missiles, fighters, area, enveloping, ...)."""
    target = _ship(state, action.target, "target")
    if target.out:
        raise RulesError(f"{target.name} is out of the battle.", ruling="H-D15")
    kind = str(action.kind)
    arc = check_arc(action.arc)
    lines: list[str] = []
    extra: dict[str, Any] = {}
    amounts = damage_amounts(action)
    extra["amounts"] = amounts
    if kind == "missile":  # H-D23: damage per missile, a direction d6 each
        hits, rolls = directions.missiles(arc, amounts, dice)
        extra["direction_dice"] = rolls
        lines += [f"Missile {i}: d6 {r} -> through {a}" for i, (r, (a, _)) in
                  enumerate(zip(rolls, hits, strict=True), start=1)]
    else:
        points = sum(amounts)  # H-D30: one attack; its total spreads as H-9 says
        if len(amounts) > 1:
            lines.append(f"Hits {' + '.join(map(str, amounts))} = {points} (one attack)")
        nearer = action.nearer or None
        concentrate = action.concentrate
        if kind not in directions.KINDS:
            raise RulesError(f"Unknown damage kind '{kind}'. Kinds: "
                             f"{', '.join(directions.KINDS)}.", ruling="H-9")
        hits = directions.hits_for(kind, arc, points, nearer, concentrate)
    source = str(action.source).strip()[:60]
    report = apply_attack(target, hits, dice)
    state.ships[target.uid] = report.ship
    state.hand_entered = True  # P-22: no deadline default confirms this battle's result
    spread = ", ".join(f"{p} {a}" for a, p in hits if p)
    title = (f"**{target.name}** takes {kind} damage{' from ' + source if source else ''} "
             f"({spread}), entered by {state.seat_name(seat)}")
    return damage_event(state, "damage", title, lines + report.lines, report.ship,
                        {"kind": kind, **extra, **_report_data(report)})


def damage_amounts(action: Damage) -> list[int]:
    """H-D30: the damage of a manual entry, from ``hits`` (free text: '30' or '3,2,4') or the
    panel's ``points``: each amount a whole number 1..MAX_POINTS, at most MAX_HITS of them."""
    hits, points = action.hits, action.points
    if hits not in (None, "", []) and points not in (None, "", []):
        raise RulesError("Give the damage once: as points (panel) or hits (text), not both.",
                         ruling="H-D30")
    raw = hits if hits not in (None, "", []) else points
    tokens = _as_list(raw)
    usage = (f"a whole number from 1 to {MAX_POINTS}, or a list of per-hit amounts such as "
             f"'3,2,4' (at most {MAX_HITS}; missiles: one amount per missile)")
    if not tokens:
        raise RulesError(f"Give the damage points: {usage}.", ruling="H-D30")
    if len(tokens) > MAX_HITS:
        raise RulesError(f"{len(tokens)} amounts is too many: {usage}.", ruling="H-D30")
    amounts = []
    for token in tokens:
        if not token.isdigit() or not 1 <= int(token) <= MAX_POINTS:
            raise RulesError(f"Damage points: '{token}' is not {usage}.", ruling="H-D30")
        amounts.append(int(token))
    return amounts


def do_repair(state: BattleState, seat: int, action: Repair, dice: Dice) -> Event:
    """One damage-control attempt (H-10); target given as '<ship>|<target>'."""
    raw = str(action.target)
    ship_id, _, what = raw.partition("|")
    ship = _ship(state, ship_id, "repairing")
    if ship.seat != seat:
        raise RulesError(f"{ship.name} is not your ship.", ruling="H-10")
    parties = _number(action.parties, "DCPs", 1, repair.MAX_PARTIES)
    free = ship.working_dcps - state.dcp_used.get(ship.uid, 0)
    if parties > free:
        raise RulesError(f"{ship.name} has {plural(free, 'DCP')} free this turn; each acts once a "
                         "turn.", ruling="H-10")
    if f"{ship.uid}|{what}" in state.repair_attempts:
        raise RulesError(f"{ship.name} has already tried that repair this turn; put up to "
                         f"{repair.MAX_PARTIES} DCPs on one attempt instead.", ruling="H-10")
    medic = action.medic
    if medic and ship.uid in state.medic_used:
        raise RulesError(f"{ship.name} has had its medic roll (+1) this turn.", ruling="H-10")
    result = repair.attempt(ship, what, parties, dice, medic_bonus=medic)
    state.ships[ship.uid] = result.ship
    state.dcp_used[ship.uid] = state.dcp_used.get(ship.uid, 0) + parties
    state.repair_attempts.append(f"{ship.uid}|{what}")
    if medic:
        state.medic_used.append(ship.uid)
    return damage_event(state, "repair", "**Damage control**", [result.text],
                        result.ship, {"roll": result.roll, "need": result.need,
                                      "success": result.success, "repair": what})
