"""The HRFT battle as a rules-core state machine (DESIGN.md "The rules core", H-15).

Setup (open: add ships, ready) -> per turn: step 1 orders (sealed) -> step 2 reveal ->
automatic steps announced in one public event per run -> open steps (fire, small-unit,
turn-end repair) where each seat acts any number of times and then says Ready.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import NoReturn

from pydantic import BaseModel

from bot.errors import InvalidState, NotFound, PermissionDenied, RulesError
from bot.rules.actions import ActionData
from bot.rules.base import (
    GM_SEAT,
    ActionSpec,
    Audience,
    Dice,
    Event,
    Outcome,
    Request,
    Seat,
    StepName,
)
from bot.rules.hrft import combat, fm_keep, gm, maneuvers, muster, orders, requests, result
from bot.rules.hrft import result_embeds as shown
from bot.rules.hrft import view as views
from bot.rules.hrft.actions import (
    KINDS,
    AddFile,
    AddSample,
    AnyAction,
    Concede,
    Damage,
    Fire,
    Maneuver,
    Orders,
    Ready,
    Repair,
    StayOut,
)
from bot.rules.hrft.export import fleet_file
from bot.rules.hrft.imports import Imported, catalog_from_file, read_file
from bot.rules.hrft.samples import sample_ship
from bot.rules.hrft.scripted import HrftScriptedPlayer
from bot.rules.hrft.sequence import HrftOptions, next_step, step_def
from bot.rules.hrft.state import BattleState, add_ship
from bot.rules.hrft.weapons import WEAPONS
from bot.rules.ruleset_base import RulesetBase, View
from bot.rules.war_models import BattleResult, Intake
from bot.rules.words import plural

SMALL_UNIT_TYPES = {"hangar", "sm_launcher", "sm_rack", "tender_bay"}

HELP = """**High Resolution Full Thrust** (v1.4 on Full Thrust and Fleet Book 1)
Ships are Fleet Book designs converted to six hull blocks around the ship. A side that
comes with a budget instead of ships first picks its ships in secret, within its MASS and
size class. Each turn:
every side writes secret orders (speed, thrust, turn, screens), then they are revealed; the
bot announces the table steps (initiative, movement, ordnance); at the two fire steps (mid-turn
and late) pick weapons of one ship, a target, the range and the incoming arc: the bot rolls,
applies armour, rows, thresholds and cascades, and posts the ship sheet. Weapons not in the
tables (missiles, fighters, area weapons): use Enter damage. A manoeuvre after mid-turn (Hard
About, Extreme, redline...) is declared in the mid-turn fire step. At turn end: damage
control. Ready ends your part of a step. The battle ends when only one side has ships
fighting. `/help rule:` shows the rulings the bot plays by."""


_SWITCHES = {"emergency_maneuver": "emergency manoeuvres (variation 1)",
             "mid_turn_fire_only": "ships fire at mid-turn only (variation 2)",
             "vtif": "VTIF targeting (variation 3)", "beam_reroll": "beam 6s roll again",
             "overload": "weapon overload thresholds"}


def options_text(opts: HrftOptions) -> str:
    """The battle options in words: "cinematic movement, beam 6s roll again, no turn limit"."""
    parts = [f"{opts.movement} movement"]
    parts += [label for key, label in _SWITCHES.items() if getattr(opts, key)]
    if opts.redline != "off":
        parts.append(f"redlined engines (+{'1/3' if opts.redline == 'third' else '1/2'} thrust)")
    parts.append(f"at most {plural(opts.max_turns, 'turn')}" if opts.max_turns
                 else "no turn limit")
    return ", ".join(parts)



def _initiative_tie(state: BattleState, order: list[int]) -> str:
    """H-D48: a tie for the initiative is said where it is decided (H-D14: the lower seat
    number wins it), never silently."""
    best = state.initiative[order[0]]
    tied = [s for s in order if state.initiative[s] == best]
    if len(tied) < 2:
        return ""
    return f" (a tie at {best}: the side with the lower seat number wins it)"

class HrftRuleset(RulesetBase[BattleState, HrftOptions]):
    """The ``hrft`` rule set (exported as ``RULESET``)."""

    name = "hrft"
    title = "High Resolution Full Thrust"
    min_seats = 2
    max_seats = 6
    options_model = HrftOptions
    state_model = BattleState
    help_text = HELP
    writes_side_files = True  # side_file writes a side's survivors

    # -- protocol -------------------------------------------------------------------------
    @staticmethod
    def step_name(state: BattleState, pending: list[Request]) -> StepName:
        """One tracker per turn: its steps follow one another."""
        st = BattleState.model_validate(state)
        if st.step == "muster":  # H-D36: still setup (one tracker), named for what it asks
            return StepName("setup", "Setup: each side picks its ships")
        if st.step == "setup" or st.turn == 0:
            return StepName("setup", "Setup")
        try:
            title = step_def(st.options, st.step).title
        except KeyError:
            title = st.step
        return StepName(f"turn-{st.turn}", f"Turn {st.turn}: {title}")

    def start(self, options: HrftOptions, seats: list[Seat], dice: Dice) -> Outcome:
        opts = options if isinstance(options, HrftOptions) else HrftOptions.model_validate(
            options.model_dump() if isinstance(options, BaseModel) else options)
        state = BattleState(options=opts, seats=list(seats))
        # true whether the sides add ships by hand or pick them from a budget (H-D36)
        text = ("**HRFT battle**: each side brings its ships, then the turns begin. Battle "
                "options: " + options_text(opts) + ".")
        return Outcome(state=state, events=[Event(audience=Audience.public(), kind="setup",
                                                  text=text)])

    def pending(self, state: BattleState) -> list[Request]:
        state = self._state(state)
        if state.finished:
            return []
        if state.step == "setup":
            return [requests.setup_request(state, s.number) for s in state.seats
                    if s.number not in state.ready]
        if state.step == "orders":
            return [orders.orders_request(state, seat) for seat in state.living_seats()]
        if state.step == "muster":  # H-D36
            return [muster.muster_request(state, f) for f in muster.asked(state)]
        return [requests.open_request(state, seat) for seat in self._required(state)
                if seat not in state.ready]

    def check(self, state: BattleState, seat: int, action: ActionData) -> None:
        """Refuses illegal written orders when they are submitted, not at the reveal."""
        state = self._state(state)
        read = KINDS.read(action)
        if state.step == "muster":  # H-D36: over budget, over class, too many...
            muster.check(state, seat, read)
            return
        if seat not in state.living_seats():
            raise PermissionDenied(f"Seat {seat} has no ships to give orders to.")
        orders.check_orders(state, seat, read)

    def resolve(self, state: BattleState, actions: dict[int, ActionData],
                dice: Dice) -> Outcome:
        return self.resolve_with_defaults(state, actions, dice, frozenset())

    def resolve_with_defaults(self, state: BattleState, actions: dict[int, ActionData],
                              dice: Dice, defaulted: frozenset[int]) -> Outcome:
        """``defaulted``: seats whose orders the service took by default at the deadline;
        the reveal marks them."""
        state = self._state(state).model_copy(deep=True)
        read = {seat: KINDS.read(action) for seat, action in actions.items()}
        if state.step == "muster":
            events = muster.resolve(state, read, defaulted)
            self._after_muster(state, events)
            return self._outcome(state, events)
        if state.step != "orders":
            raise InvalidState("Only the written orders and the sides' ship choices are "
                               "resolved together.")
        written: dict[int, Orders] = {}
        for seat, action in read.items():
            if seat not in state.living_seats():
                raise PermissionDenied(f"Seat {seat} has no ships to give orders to.")
            orders.check_orders(state, seat, action)
            assert isinstance(action, Orders)  # check_orders refuses any other
            written[seat] = action
        events = orders.reveal(state, written, defaulted)
        self._enter(state, "initiative1", dice, events)
        return self._outcome(state, events)

    def act(self, state: BattleState, seat: int, action: ActionData, dice: Dice) -> Outcome:
        state = self._state(state).model_copy(deep=True)
        move = KINDS.read(action)
        kind = "" if move.type is None else str(move.type)
        if state.finished:
            raise InvalidState("The battle is over.")
        if seat == GM_SEAT:  # H-D29: the GM acts without being asked
            state, gm_events = gm.act(state, move, dice)
            self._settle(state, dice, gm_events)
            return self._outcome(state, gm_events)
        if state.step == "orders":
            raise InvalidState("Written orders are sealed: submit them with the orders panel.")
        if state.step == "muster":
            raise InvalidState("Each side chooses its ships in secret now: use the muster "
                               "panel.")
        if state.step == "setup" and muster.force_of(state, seat) is not None:
            raise RulesError("Your side's ships were chosen from its budget; wait for the "
                             "other sides to add theirs.", ruling="H-D36")
        if state.step == "setup":
            return self._setup_act(state, seat, move)
        sd = step_def(state.options, state.step)
        events: list[Event] = []
        if seat not in self._required(state):
            raise PermissionDenied("You have no ship that acts in this step.")
        match move:
            case Ready():
                if seat not in state.ready:
                    state.ready.append(seat)
            case Concede():
                state.conceded.append(seat)
                events.append(Event(audience=Audience.public(), kind="concede",
                                    text=f"{state.seat_name(seat)} concedes: their ships "
                                         "leave."))
            case Fire() if sd.kind == "fire":
                events.append(combat.fire(state, seat, move, dice))
            case Maneuver() if sd.kind == "fire":
                events.append(maneuvers.declare(state, seat, move))
            case Damage():
                events.append(combat.manual_damage(state, seat, move, dice))
            case Repair() if sd.kind == "repair":
                events.append(combat.do_repair(state, seat, move, dice))
            case _:
                self._refuse(state, seat, kind, sd.title)
        self._settle(state, dice, events)
        return self._outcome(state, events)

    @staticmethod
    def _refuse(state: BattleState, seat: int, kind: str, title: str) -> NoReturn:
        allowed = [a.type for a in requests.open_request(state, seat).actions]
        raise RulesError(f"'{kind}' is not possible now ({title}). Allowed: "
                         f"{', '.join(allowed)}.", ruling="H-15")

    def take_in(self, state: BattleState, intake: Intake | Mapping[str, object]) -> Outcome:
        """A parent campaign's battle comes in, once, during setup (H-D28, H-D35):
        ``intake.roster`` its craft (brought in as named designs), ``intake.forces`` its
        sides fought with a budget, which then choose their ships in the sealed muster step
        (H-D36). Either may be empty. The service applies the Outcome as the GM's, in the
        transaction that starts the battle. A plain mapping (the form before the shared
        ``Intake``) is read with the refusals it always had."""
        linked = intake.model_dump() if isinstance(intake, Intake) else intake
        state = self._state(state).model_copy(deep=True)
        if state.step != "setup" or state.turn:
            raise InvalidState("A campaign battle's craft and forces come in during setup.")
        if state.linked:
            raise RulesError("The campaign battle's craft were already brought in.", ruling="H-D28")
        if not isinstance(linked, dict) or set(linked) - {"roster", "forces"}:
            extra = sorted(map(str, set(linked) - {"roster", "forces"})) \
                if isinstance(linked, dict) else []
            raise RulesError("A campaign battle comes in as roster and forces only"
                             + (f", not {', '.join(extra)}." if extra else "."), ruling="H-D28")
        roster = gm.parse_roster(linked.get("roster") or [])
        forces = muster.parse_forces(state, linked.get("forces") or [])
        events: list[Event] = []
        if roster:
            state, events = gm.bring_in(state, roster)
        state.linked = True
        if forces:
            events += muster.begin(state, forces)
            if state.step != "muster":  # no side affords a ship: nothing to wait for
                self._after_muster(state, events)
        return self._outcome(state, events)

    def gm_actions(self, state: BattleState) -> list[ActionSpec]:
        """What the GM may do now without being asked (H-D29); applied by ``act`` with
        ``GM_SEAT``. Never part of ``pending``: nothing waits for the GM."""
        return gm.gm_actions(self._state(state))

    def view(self, state: BattleState, viewer: int | None) -> View:
        return views.view(self._state(state), viewer)

    def status(self, state: BattleState, viewer: int | None) -> str:
        return views.status(self._state(state), viewer)

    def picture_view(self, state: BattleState, viewer: int | None, name: str,
                     focus: str | None) -> tuple[View, str]:
        """(view, title) of a picture: ``sheet`` draws the ship ``focus`` (NotFound lists
        the ships)."""
        view = self.view(state, viewer)
        if name != "sheet" or focus is None:
            return view, ""
        ships = view["ships"]
        if focus not in ships:
            known = ", ".join(f"{k} ({s['name']})" for k, s in ships.items()) or "none yet"
            raise NotFound(f"No ship '{focus}' in this battle. Ships: {known}.")
        # the sheet draws one ship: its view alone (a post keeps the views of its pictures)
        return ({"ruleset": "hrft", "viewer": viewer, "sheet_ship": focus,
                 "ship": ships[focus], "ships": {focus: ships[focus]}},
                f"Ship sheet of {focus}")

    def upload_names(self, filename: str, data: bytes, state: BattleState | None = None,
                     action: str = "add_file") -> list[str]:
        """The ships a design or fleet file holds (fleets may name designs of the battle's
        uploaded catalogs), or for the GM's ``add_design`` the designs of a catalog;
        InvalidInput says what is wrong."""
        if action == "add_design":
            catalog = catalog_from_file(filename, data)
            if catalog is not None:
                return [str(d.get("name", key)) for key, d in catalog.items()]
        known = self._state(state).catalog if state is not None else None
        return [ship.name for ship in read_file(filename, data, known).ships]

    def side_file(self, state: BattleState, seat: int, title: str,
                  ended: bool = False, now: datetime | None = None) -> tuple[str, str, str]:
        """(file name, text, note) of a side's surviving ships as an .FTFleet (H-D34);
        ``ended``: the campaign is over (the GM may end it before the rules do); ``now``
        the service's clock, for the file's ``modified`` (the rules read no clock)."""
        return fleet_file(self._state(state), seat, title, ended, now)

    def battle_result(self, state: BattleState, name: str = "") -> BattleResult | None:
        """Each brought-in craft's fate, for the parent campaign (E-D36)."""
        return result.battle_result(self._state(state), name)

    def scripted_player(self, seat: int) -> HrftScriptedPlayer:
        return HrftScriptedPlayer(seat)

    # -- helpers --------------------------------------------------------------------------
    @staticmethod
    def _state(state: BattleState | Mapping[str, object]) -> BattleState:
        return state if isinstance(state, BattleState) else BattleState.model_validate(state)

    def _setup_act(self, state: BattleState, seat: int, action: AnyAction) -> Outcome:
        if isinstance(action, (AddSample, AddFile)):
            read = (Imported([sample_ship(str(action.sample))])
                    if isinstance(action, AddSample) else
                    read_file(str(action.filename), str(action.content), state.catalog))
            # H-D51: a fleet file is kept as it came, for the export (checked before any
            # ship joins: a fleet already here or one too large changes nothing)
            kept = fm_keep.check_new(state, read.fleet_doc) if read.fleet_doc else None
            before = len(state.ships_of(seat))
            for ship in read.ships:  # act() copied the state already
                state = add_ship(state, seat, ship, copy=False)
                added = state.ships_of(seat)[-1]
                if added.origin and added.origin.one_shot_used:  # H-D34: spent before
                    state.spent[added.uid] = list(added.origin.one_shot_used)
            if kept is not None:
                fm_keep.keep(state, seat, kept, state.ships_of(seat)[before:])
            names = ", ".join(f"{s.name} ({s.uid})" for s in state.ships_of(seat)[before:])
            text = (f"{state.seat_name(seat)} adds {names}." if names else
                    f"{state.seat_name(seat)} brings a fleet whose ships are all in dock.")
            if read.left_out:
                text += f" Left out: {', '.join(read.left_out)}."
            if read.remedy:
                text += f" {read.remedy}"
            return Outcome(state=state, events=[Event(
                audience=Audience.public(), kind="ship-added", text=text)])
        events: list[Event] = []
        if isinstance(action, StayOut):  # H-D38: a side with no ships stays out, as if it conceded
            if state.ships_of(seat):
                raise RulesError("Your side has ships: say Ready, or concede once the battle "
                                 "has begun.", ruling="H-D38")
            state.conceded.append(seat)
            events.append(Event(audience=Audience.public(), kind="concede",
                                text=f"{state.seat_name(seat)} stays out of this battle: "
                                     "their side has no ships."))
        elif not isinstance(action, Ready):
            raise RulesError("During setup: add ships (upload or add_sample), then ready.",
                             ruling="H-D38")
        elif not state.ships_of(seat):
            raise RulesError("Add at least one ship before you are ready (or stay out of "
                             "this battle).", ruling="H-D38")
        if seat not in state.ready:
            state.ready.append(seat)
        if all(s.number in state.ready for s in state.seats):
            state.turn = 1
            state.catalog = {}  # H-D34: only setup adds fleets; keep the turns' state small
            state.uploaded = {}  # H-D36: designs uploaded for the muster
            if len(state.living_seats()) > 1:
                self._enter(state, "orders", None, events)
            else:
                state.step = "orders"  # _outcome ends it: at most one side has ships (H-D24)
        return self._outcome(state, events)

    def _after_muster(self, state: BattleState, events: list[Event]) -> None:
        """H-D36: force seats are ready with their ships; when every seat is a force seat the
        battle's first turn opens (as when the last seat is ready in setup), else the other
        seats go on with setup."""
        state.step = "setup"
        state.ready = sorted({f.seat for f in state.forces} | set(state.ready))
        if not all(s.number in state.ready for s in state.seats):
            return
        state.turn = 1
        state.catalog, state.uploaded = {}, {}  # H-D34, H-D36: as at the end of setup
        if len(state.living_seats()) > 1:
            self._enter(state, "orders", None, events)
        else:
            state.step = "orders"  # _outcome ends it: at most one side has ships (H-D24)

    def _required(self, state: BattleState) -> list[int]:
        """Seats that must say Ready in the current open step."""
        living = state.living_seats()
        if state.step in ("setup", "muster", "orders", "finished"):
            return living
        if step_def(state.options, state.step).kind != "fire":
            return living
        # H-D16: fire is simultaneous, so a side whose ships were fighting at the start of
        # the fire step still acts in it.
        started = {state.ships[k.split(":", 1)[0]].seat for k in state.snapshot}
        seats = sorted((set(living) | started) - set(state.conceded))
        if state.fire_phase == 1:  # H-11: only ships with damaged communications, now
            return [s for s in seats if any(not sh.out and sh.core_damaged("communications")
                                            for sh in state.ships_of(s))]
        return seats

    def _small_units(self, state: BattleState) -> bool:
        return any(s.type in SMALL_UNIT_TYPES for ship in state.ships.values() if not ship.out
                   for s in ship.systems)

    def _snapshot(self, state: BattleState) -> None:
        state.snapshot = [f"{ship.uid}:{s.uid}" for ship in state.ships.values() if not ship.out
                          for s in ship.systems if s.type in WEAPONS and s.working]
        state.attacks_this_step = []

    def _enter(self, state: BattleState, key: str | None, dice: Dice | None,
               events: list[Event]) -> None:
        """Run from step ``key`` through automatic steps to the next decision."""
        lines: list[str] = []
        while True:
            if key is None:  # after turn end
                self._flush(lines, events)
                if self._end_turn(state, events):
                    return
                key = "orders"
            sd = step_def(state.options, key)
            state.step, state.ready, state.fire_phase = key, [], 0
            head = sd.title  # H-D45: steps in words, no rulebook numbers
            if sd.small_units and not self._small_units(state):
                key = next_step(state.options, key)  # H-D45: nobody has any: not listed
                continue
            if sd.kind == "sealed":
                lines.append(f"**Turn {state.turn}** - {head}: every side writes orders.")
                break
            if sd.kind == "initiative" and dice is not None:
                seats = state.living_seats()
                state.initiative = {s: dice.d(6) for s in seats}
                order = sorted(seats, key=lambda s: (-state.initiative[s], s))  # H-D14
                lines.append(f"{head}: " + ", ".join(
                    f"{state.seat_name(s)} {state.initiative[s]}" for s in seats)
                    + f" - {state.seat_name(order[0])} has the initiative"
                    + _initiative_tie(state, order) + ".")
            elif sd.kind == "announce":
                lines.append(head)
            elif sd.kind in ("small", "fire", "repair"):
                if sd.kind == "fire":
                    self._snapshot(state)
                lines.append(f"**{head}**: act, then Ready.")
                break
            key = next_step(state.options, key)
        self._flush(lines, events)

    @staticmethod
    def _flush(lines: list[str], events: list[Event]) -> None:
        if lines:
            # H-D46: the steps are lines of the turn's tracker, in order under the results
            events.append(Event(audience=Audience.public(), kind="steps", text="\n".join(lines),
                                post=False))
            lines.clear()

    def _settle(self, state: BattleState, dice: Dice, events: list[Event]) -> None:
        """Ends the open step when every seat it needs is ready, none needed counting as all:
        a concession, or damage that takes a side's last ship out, can leave a step with
        nobody to ask (the only late firer of H-11 concedes, the GM's damage removes the one
        side not yet ready), and a step that asks nobody would never end."""
        if state.finished or state.step in ("setup", "muster", "orders", "finished"):
            return
        if all(s in state.ready for s in self._required(state)):
            self._finish_step(state, dice, events)

    def _finish_step(self, state: BattleState, dice: Dice, events: list[Event]) -> None:
        sd = step_def(state.options, state.step)
        if sd.kind == "fire" and state.fire_phase == 0:  # H-D22: then the late phase
            state.fire_phase = 1
            self._snapshot(state)
            if self._required(state):
                state.ready = []
                events.append(Event(audience=Audience.public(), kind="steps",
                                    text=f"{sd.title}: ships with damaged communications "
                                         "fire now.", post=False))
                return
        if len(state.living_seats()) <= 1:
            return  # the battle is over; _outcome writes the report
        self._enter(state, next_step(state.options, state.step), dice, events)

    def _end_turn(self, state: BattleState, events: list[Event]) -> bool:
        """Clear the turn's bookkeeping; True when the turn limit ends the battle."""
        state.fired, state.targets, state.vtif_barred = {}, {}, {}
        state.maneuvers = {}
        state.dcp_used, state.medic_used, state.repair_attempts = {}, [], []
        if state.options.max_turns and state.turn >= state.options.max_turns:
            self._finish(state, events, f"the turn limit ({state.options.max_turns}) is reached")
            return True
        state.turn += 1
        return False

    def _finish(self, state: BattleState, events: list[Event], reason: str) -> None:
        state.finished, state.step = True, "finished"
        text, data = views.final_report(state, reason)
        head, *_ = text.split("\n")
        ships = {seat.number: [views.ship_line(ship) for ship in state.ships_of(seat.number)]
                 for seat in state.seats}
        events.append(Event(audience=Audience.public(), kind="report", text=text, data=data,
                            embed=shown.final(state, head, ships)))

    def _outcome(self, state: BattleState, events: list[Event]) -> Outcome:
        """H-D24: over when at most one side has ships fighting (after a fire step)."""
        in_fire = state.step not in ("setup", "muster", "orders", "finished") and step_def(
            state.options, state.step).kind == "fire" and len(self._required(state)) > 1
        if (not state.finished and state.step not in ("setup", "muster") and not in_fire
                and len(state.living_seats()) <= 1):
            living = state.living_seats()
            reason = (f"only {state.seat_name(living[0])} has ships fighting" if living
                      else "no side has ships fighting")
            self._finish(state, events, reason)
        return Outcome(state=state, events=events, finished=state.finished)


RULESET = HrftRuleset()
