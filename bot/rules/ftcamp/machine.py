"""The FTCamp state machine: fleet orders, then the engage phase of each contested hex."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from bot.errors import InvalidInput, InvalidState, PermissionDenied, RulesError
from bot.rules.actions import ActionData, ActionValue
from bot.rules.base import (
    BY_DEFAULT,
    GM_SEAT,
    ActionSpec,
    Audience,
    Dice,
    Event,
    ImageRef,
    InputField,
    Option,
    Outcome,
    Request,
    ScriptedPlayer,
    Seat,
)
from bot.rules.ftcamp import (
    allocation,
    conflicts,
    engage,
    fleet,
    hooks,
    index,
    special,
    spelled,
    steps,
    war,
)
from bot.rules.ftcamp import geometry as geo
from bot.rules.ftcamp import result_embeds as shown
from bot.rules.ftcamp.actions import KINDS, AnyAction, Place
from bot.rules.ftcamp.copying import replace_group, working_copy
from bot.rules.ftcamp.demo import demo_scenario
from bot.rules.ftcamp.model import Choice, Group, HexRun, State
from bot.rules.ftcamp.scan import groups_in, is_contested, scan_report
from bot.rules.ftcamp.scenario import load_scenario
from bot.rules.ftcamp.step_names import step_name
from bot.rules.ftcamp.views import status_text, view_of
from bot.rules.ruleset_base import RulesetBase, View
from bot.rules.war_models import BattleResult as SharedResult
from bot.rules.war_models import BattleSpec
from bot.rules.words import plural

SEALED = ("orders", "special", "engage", "chase", "reserves", "patrol")
HELP = """**FTCamp engage orders** (`/help rule:` shows the rulings the bot plays by)
To begin: the GM loads the scenario (map, players, forces) with `/ftcamp load file:` before
`/campaign start` (see examples/ftcamp/example.toml); a campaign started without one plays
the built-in example, for trying the game out.
Each round: every player gives each group a secret fleet order (move, hold, hold-special,
maintain-orbit, support, patrol). Orders are revealed and moves applied together. In every
contested hex: special acts (decoys, weasels, dispatch), private long-range scans, secret engage
orders (RT retreat, SF standoff, EE engage, with splits), one public reveal with the dice, picks
of orbit-sectors lowest engage value first, then conflicts and the battle list."""


class FTCampOptions(BaseModel):
    """Campaign options: the scenario TOML (map, players, groups, statics, orders in force)."""

    # Secret: the file holds every player's forces, decoys and stealth (P-11).
    scenario: str = Field(default="", description="scenario TOML text; empty = built-in demo",
                          json_schema_extra={"secret": True})
    rounds: int = Field(default=0, ge=0, le=1000,
                        description="end the campaign after this many rounds; 0 = no limit")


def _defaulted_groups(state: State, kind: str = "") -> set[str]:
    """The groups whose sealed answers of this step were taken by default (``kind``: only
    answers of that field kind, e.g. "order")."""
    return {key.split(":", 1)[1] for key in state.by_default
            if ":" in key and key.startswith(kind)}


# A seat's whole answer taken by default is kept as "<step>@<seat>" until the public post
# that shows that step's effect: special acts in the hex's engage reveal, chase and reserve
# answers in its battle list. Seat names only: these steps ask every seat in the hex alike
# (E-D33), so the mark tells nothing of which groups had a choice.
CARRIED = {"engage": ("special",), "reserves": ("chase",), "patrol": ("chase", "reserves")}
STEP_WORDS = {"special": "Special acts", "chase": "Chase decisions", "reserves": "Reserves",
              "patrol": "Patrol reserves"}


def _defaulted_lines(state: State, steps_shown: tuple[str, ...]) -> list[str]:
    """"Chase decisions by default: missed the deadline: Bob" per step with such seats."""
    seats: dict[str, list[int]] = {}
    for key in state.by_default:
        step, at, seat = key.partition("@")
        if at and step in steps_shown:
            seats.setdefault(step, []).append(int(seat))
    return [f"{STEP_WORDS[step]} {BY_DEFAULT}: "
            + ", ".join(state.player_name(s) for s in sorted(seats[step]))
            for step in steps_shown if step in seats]


def _public(text: str, kind: str, **kw: Any) -> Event:
    return Event(audience=Audience.public(), kind=kind, text=text, **kw)


class FTCampRuleset(RulesetBase[State, FTCampOptions]):
    name = "ftcamp"
    title = "FTCamp 0.2 engage orders"
    min_seats = 2
    max_seats = 6
    options_model = FTCampOptions
    demo_options = {"rounds": "1"}  # E-D32: the seed has no end; the demo plays one round
    step_name = staticmethod(step_name)  # the step tracker's name (bot.rules.base.StepName)
    state_model = State
    help_text = HELP
    offers_texts = reads_setup_file = takes_battle_results = True  # see RulesetBase

    # --- protocol ---------------------------------------------------------------------------

    def start(self, options: FTCampOptions, seats: list[Seat], dice: Dice) -> Outcome:
        text = getattr(options, "scenario", "") or demo_scenario(len(seats))
        state = load_scenario(text)
        if len(state.players) != len(seats):
            raise InvalidInput(f"The scenario has {len(state.players)} players but the campaign "
                               f"has {len(seats)} seats; they must match.")
        state.revealed = sorted(g.name for g in state.groups.values() if g.static)
        state.max_rounds = getattr(options, "rounds", 0)
        return Outcome(state=state, events=self._begin_round(state))

    def pending(self, state: State) -> list[Request]:
        if state.over:
            return []
        if state.step == "battles":  # E-D36: the GM, until every battle has a result
            return war.requests(state)
        with index.frozen(state):  # one index of the groups for the whole read (issue 9)
            if state.step in SEALED:
                return [r for seat in self._seats(state)
                        if (r := self._sealed_request(state, seat))]
            if state.step == "allocate" and state.run and state.run.queue:
                return [self._pick_request(state)]
        return []

    def check(self, state: State, seat: int, action: ActionData) -> None:
        """Validate a submission without applying it (the service calls it at submit time)."""
        with index.frozen(state):
            self._check(state, seat, KINDS.read(action))

    def _check(self, state: State, seat: int, action: AnyAction) -> None:
        if state.step == "battles":
            if seat != GM_SEAT:
                raise PermissionDenied("Only the GM settles the round's battles.")
            war.check(state, action)
        elif state.step in SEALED:
            fields = self._page_fields(state, seat)
            if fields is None:
                raise PermissionDenied(f"Seat {seat} has nothing to submit in this step.")
            steps.read(state, fields, action)
        elif state.step == "allocate":
            self._check_pick(state, seat, action)
        else:
            raise InvalidState("Nothing to submit now.")

    def resolve(self, state: State, actions: dict[int, ActionData], dice: Dice) -> Outcome:
        return self.resolve_with_defaults(state, actions, dice, frozenset())

    def resolve_with_defaults(self, state: State, actions: dict[int, ActionData],
                              dice: Dice, defaulted: frozenset[int]) -> Outcome:
        """What ``_resolve`` says, the short order names spelled out (E-D44)."""
        read = {seat: KINDS.read(action) for seat, action in actions.items()}
        return spelled.outcome(self._resolve(state, read, dice, defaulted))

    def _resolve(self, state: State, actions: dict[int, AnyAction],
                 dice: Dice, defaulted: frozenset[int]) -> Outcome:
        """``defaulted``: seats whose answers the service took by default at a deadline; the
        reveal marks their groups (a page not answered at all is a default too)."""
        if state.step == "battles":
            state, events, settled = war.resolve(working_copy(state), actions.get(GM_SEAT))
            if settled:
                events += self._next_hex(state, dice)
            return Outcome(state=state, events=events, finished=state.over)
        if state.step not in SEALED:
            raise InvalidState(f"Step {state.step!r} has no sealed requests.")
        state = working_copy(state)
        more = False
        with index.frozen(state):  # answers are read before anything changes
            for seat in self._seats(state):
                fields = self._page_fields(state, seat)
                if fields is None:
                    continue
                action = actions.get(seat) or KINDS.read(steps.default_for(state, fields))
                read = steps.read(state, fields, action)
                state.secret.setdefault(seat, {}).update(read)
                if seat in defaulted or seat not in actions:
                    state.by_default = sorted(set(state.by_default) | set(read))
                if seat in defaulted:  # the service's word only (see CARRIED)
                    state.by_default = sorted({*state.by_default, f"{state.step}@{seat}"})
                more = more or steps.page_count(state, seat) > state.page
        if more:
            state.page += 1
            return Outcome(state=state)
        answers, state.secret, state.page = state.secret, {}, 1
        finish = {"orders": self._finish_orders, "special": self._finish_special,
                  "engage": self._finish_engage, "chase": self._finish_chase,
                  "reserves": self._finish_reserves, "patrol": self._finish_patrol}
        events = finish[state.step](state, answers, dice)
        keep = CARRIED.get(state.step, ())  # marks still to show (see CARRIED)
        state.by_default = [k for k in state.by_default if k.partition("@")[0] in keep
                            and "@" in k]
        return Outcome(state=state, events=events, finished=state.over)

    def act(self, state: State, seat: int, action: ActionData, dice: Dice) -> Outcome:
        return spelled.outcome(self._act(state, seat, KINDS.read(action), dice))

    def _act(self, state: State, seat: int, action: AnyAction, dice: Dice) -> Outcome:
        if state.step != "allocate":
            raise InvalidState("Orbit-sector picks are only taken during allocation.")
        self._check_pick(state, seat, action)
        assert isinstance(action, Place)  # _check_pick refuses any other
        state = working_copy(state)
        run = state.run
        assert run is not None
        lines = allocation.pick(state, run, run.queue[0], str(action.sector))
        lines += allocation.auto_place(state, run)
        # the pick's own line carries its seat: a default taken for it is said in that line
        events = [_public(line, "pick", data={"seat": seat} if i == 0 else {})
                  for i, line in enumerate(lines)]
        if not run.queue:
            events += self._after_allocation(state, dice)
        return Outcome(state=state, events=events, finished=state.over)

    def view(self, state: State, viewer: int | None) -> View:
        return view_of(state, viewer)

    def status(self, state: State, viewer: int | None) -> str:
        return status_text(state, viewer, [r.seat for r in self.pending(state)])

    # --- optional hooks of the service's viewer-scoped reads (hooks.py) ---------------------

    def gm_view(self, state: State) -> View:
        return hooks.gm_view(state)

    def picture_view(self, state: State, viewer: int | None, name: str,
                     focus: str | None) -> tuple[View, str]:
        return hooks.picture_view(state, viewer, name, focus)

    def texts(self, state: State, name: str) -> list[str]:
        return hooks.texts(state, name)

    def gm_edit(self, state: State, edit: str,
                args: dict[str, ActionValue]) -> tuple[State, str]:
        return hooks.gm_edit(hooks.require_state(state), edit, args)

    def load_file(self, filename: str, text: str) -> tuple[dict[str, str], str, int]:
        return hooks.load_file(filename, text)

    def export_file(self, state: State | None, options: dict[str, object],
                    seats: int) -> tuple[str, str, str]:
        return hooks.export_file(state, options, seats)

    def propose_battle(self, state: State, ref: str, result: SharedResult) -> Outcome | None:
        """A battle fought elsewhere (HRFT) ended: its result waits for the GM (E-D36)."""
        done = war.propose(state, ref, result)
        return Outcome(state=done[0], events=done[1]) if done is not None else None

    def battle_round(self, state: State) -> int:
        """P-13: a result kept by an undo belongs to the round its battle was fought in."""
        return state.round

    def battle_refs(self, state: State) -> list[str]:
        from bot.rules.ftcamp.battle_link import battle_refs
        return battle_refs(state)

    def battle_link(self, state: State, ref: str, designs: str = "") -> BattleSpec | None:
        """H-D28: the craft an HRFT battle for ``ref`` brings in (the service's war hook);
        ``designs``: the GM's designs for craft that name none (E-D38)."""
        from bot.rules.ftcamp.battle_link import battle_link
        return battle_link(state, ref, designs)

    def link_battle(self, state: State, ref: str, name: str) -> Outcome | None:
        """E-D37: the battle is marked as fought in its thread: offered once."""
        done = war.link(state, ref, name)
        return Outcome(state=done[0], events=done[1]) if done is not None else None

    def battles_in_threads(self, state: State) -> list[str]:
        return war.in_threads(state)

    def demo_battles(self, state: State) -> list[str]:
        """The battles a demo fights in HRFT: those of a round waiting for its results and
        not opened yet (E-D37: each is fought once)."""
        from bot.rules.ftcamp.battle_link import battle_refs
        return battle_refs(state) if state.step == "battles" else []

    def scripted_player(self, seat: int) -> ScriptedPlayer:
        from bot.rules.ftcamp.scripted import HeuristicPlayer
        return HeuristicPlayer(seat)

    # --- requests ---------------------------------------------------------------------------

    def _seats(self, state: State) -> list[int]:
        return [p.seat for p in state.players]

    def _page_fields(self, state: State, seat: int) -> list[InputField] | None:
        return steps.page_fields(state, seat, state.page)

    def _sealed_request(self, state: State, seat: int) -> Request | None:
        fields = steps.page_fields(state, seat, state.page)
        if fields is None:
            return None
        total = steps.page_count(state, seat)
        where = f" in hex {state.run.hex}" if state.run else ""
        page = f" (page {state.page} of {total})" if total > 1 else ""
        names = {"orders": "Fleet orders", "special": "Special acts", "engage": "Engage orders",
                 "chase": "Chase decisions", "reserves": "Reserves", "patrol": "Patrol reserves"}
        confirm = ""
        if state.step == "engage" and state.run:
            groups = [state.groups[f.name.split(":", 1)[1]] for f in fields
                      if f.name.startswith("order:")]
            confirm = engage.confirm_text(state, groups)
        step = f"{state.step}-{state.run.hex}" if state.run else state.step
        return Request(
            seat=seat, kind="sealed", step=f"{step}-p{state.page}",
            prompt=f"{names[state.step]}{where}, round {state.round}{page}: secret until every "
                   "player has submitted.",
            actions=[ActionSpec(type=steps.ACTION_TYPES[state.step], label="Submit",
                                fields=fields, confirm=confirm)],
            default=steps.default_for(state, fields))

    def _pick_request(self, state: State) -> Request:
        run = state.run
        assert run is not None
        g = state.groups[run.queue[0]]
        legal, reason = allocation.legal_sectors(state, run, g)
        taken: dict[str, list[str]] = {}
        for name, sector in run.placements.items():
            taken.setdefault(sector, []).append(name)
        specs = []
        for letter, _ in geo.orbits(state.map, run.hex):
            opts = [Option(value=s, label=s, description=", ".join(taken.get(s, []))[:100])
                    for s in legal if s.startswith(letter)]
            if opts:
                specs.append(ActionSpec(type=f"place-{letter}", label=f"Orbit {letter}", fields=[
                    InputField(name="sector", label=f"Orbit {letter} sector", options=opts)]))
        roll = run.rolls[g.name]
        return Request(
            seat=g.owner, kind="turn", step=f"allocate-{run.hex}",
            prompt=spelled.spell_out(
                f"Place {g.name} (engage value {roll.value}, {run.choices[g.name].order}) in "
                f"an orbit-sector of hex {run.hex}{': ' + reason if reason else ''}. "
                "Earlier picks are shown beside each sector.", set()),  # E-D44
            actions=specs,
            default=self._default_pick(state, run, g))

    @staticmethod
    def _default_pick(state: State, run: HexRun, g: Group) -> dict[str, ActionValue]:
        """E-11's deadline pick, typed like the panel's own choice (one action per orbit)."""
        sector = allocation.default_pick(state, run, g)
        return Place(type=f"place-{sector.split('-')[0]}", sector=sector).stored()

    def _check_pick(self, state: State, seat: int, action: AnyAction) -> None:
        run = state.run
        if run is None or not run.queue:
            raise InvalidState("No orbit-sector pick is waiting.")
        g = state.groups[run.queue[0]]
        if seat != g.owner:
            raise PermissionDenied(f"It is {state.player_name(g.owner)}'s pick for {g.name}.")
        if not isinstance(action, Place):
            raise RulesError("Send a 'place' action with the chosen 'sector'.", ruling="E-11")
        legal, reason = allocation.legal_sectors(state, run, g)
        if action.sector not in legal:
            why = f" ({reason})" if reason else ""
            raise RulesError(f"{g.name} cannot go to {action.sector!r}{why}; allowed: "
                             f"{', '.join(legal)}.", ruling="E-11")

    # --- flow -------------------------------------------------------------------------------

    def _begin_round(self, state: State) -> list[Event]:
        state.step, state.page, state.run = "orders", 1, None
        return [_public(f"**Round {state.round}**: fleet orders are open. Give each group "
                        "one order; they are revealed together.", "round")]

    def _finish_orders(self, state: State, answers: dict[int, steps.Answers],
                       dice: Dice) -> list[Event]:
        orders = {}
        with index.frozen(state):
            for seat_answers in answers.values():
                for key, value in seat_answers.items():
                    name = key.split(":", 1)[1]
                    orders[name] = fleet.check_order(state, state.groups[name], str(value))
        before = {name: state.groups[name].hex for name in orders}
        missed = _defaulted_groups(state)
        lines = [line + (f" ({BY_DEFAULT})" if name in missed else "")
                 for name, line in zip(sorted(orders), fleet.apply_orders(state, orders),
                                       strict=True)]
        moves = {name: (hex_, state.groups[name].hex) for name, hex_ in before.items()}
        state.revealed = sorted(set(state.revealed) | set(orders))
        hexes = sorted({g.hex for g in state.groups.values()})
        with index.frozen(state):  # the moves are applied: a fresh index
            state.contested = [h for h in hexes if is_contested(state, h)]
        contested = ", ".join(state.contested) or "none"
        text = (f"**Fleet orders revealed, round {state.round}**\n" + "\n".join(lines)
                + f"\nContested hexes: {contested}")
        # E-D35: the public hex map goes inside the reveal, showing where everything is now
        events = [_public(text, "fleet_orders", data={"contested": list(state.contested),
                                                      "ruling": "E-3"},
                          # P-31: drawn as revealed, even if the next round opens now
                          image=ImageRef(name="hexmap", viewer=None,
                                         view=view_of(state, None)),
                          embed=shown.fleet_reveal(state, moves, missed))]
        return events + self._next_hex(state, dice)

    def _next_hex(self, state: State, dice: Dice) -> list[Event]:
        if not state.contested and war.open_battles(state):  # E-D36: the round waits
            state.step, state.page, state.run = "battles", 1, None
            refs = ", ".join(w.ref for w in war.open_battles(state))
            return [_public(f"**Round {state.round}** waits for its battles ({refs}); the next "
                            "round opens when each has its result.", "battles")]
        if not state.contested and state.max_rounds and state.round >= state.max_rounds:
            state.over = True  # E-D32: the GM's round limit ends the campaign
            return [_public(f"**Round {state.round} complete.** The campaign's "
                            f"{plural(state.max_rounds, 'round')} "
                            f"{'is' if state.max_rounds == 1 else 'are'} played; it ends here.",
                            "over")]
        if not state.contested:  # E-D30: the next round opens at once
            state.round += 1
            state.dispatched = []
            for name, g in list(state.groups.items()):
                if any(c.weasel_on for c in g.craft):  # E-4: a setting holds for one round
                    replace_group(state, name, craft=[
                        c.model_copy(update={"weasel_on": 0}) if c.weasel_on else c
                        for c in g.craft])
            return self._begin_round(state)
        state.run = HexRun(hex=state.contested[0])
        seats = sorted({g.owner for g in groups_in(state, state.run.hex)})
        who = ", ".join(state.player_name(s) for s in seats)
        events = [_public(f"**Engage phase, hex {geo.system_label(state.map, state.run.hex)}** "
                          f"({who}).", "hex")]
        # E-D33: special acts are asked in every contested hex, of every seat there: kit is
        # secret, so whether the step happens may not depend on it.
        state.step, state.page = "special", 1
        return events

    def _finish_special(self, state: State, answers: dict[int, steps.Answers],
                        dice: Dice) -> list[Event]:
        run = state.run
        assert run is not None
        busy = set(state.dispatched)
        events = []
        for seat, seat_answers in sorted(answers.items()):
            lines = special.apply_special(state, run, seat, seat_answers, busy)
            if lines:
                events.append(Event(audience=Audience.to_seat(seat), kind="special",
                                    text="Your special acts:\n" + "\n".join(lines)))
        state.dispatched = sorted(busy)
        return events + self._after_special(state, dice)

    def _after_special(self, state: State, dice: Dice) -> list[Event]:
        run = state.run
        assert run is not None
        events = []
        for seat in sorted({g.owner for g in groups_in(state, run.hex)}):
            text, data = scan_report(state, seat, run.hex)
            events.append(Event(audience=Audience.to_seat(seat), kind="scan", text=text,
                                data=data))
        state.step, state.page = "engage", 1
        if any(steps.pages(state, s) for s in self._seats(state)):
            return events
        return events + self._finish_engage(state, {}, dice)

    def _finish_engage(self, state: State, answers: dict[int, steps.Answers],
                       dice: Dice) -> list[Event]:
        run = state.run
        assert run is not None
        for g in engage.ordered_groups(state, run.hex):
            mine = answers.get(g.owner, {})
            value = mine.get(f"order:{g.name}")
            split = mine.get(f"split:{g.name}")
            run.choices[g.name] = (
                engage.check_choice(state, g, value, split if isinstance(split, str) else None)
                if isinstance(value, str) else Choice(order="SF", parts=[[c.name for c in
                                                                           g.craft]]))
        engage.follow_choices(state, run)
        lines = self._betrayals(state, run, answers)
        notes = list(lines) + _defaulted_lines(state, ("special",))
        public, parts = engage.roll_all(state, run, dice)
        lines += public
        missed = sorted(_defaulted_groups(state, "order:") & set(run.choices))
        if missed:
            lines.append(f"Engage orders {BY_DEFAULT}: {', '.join(missed)}")
        lines += _defaulted_lines(state, ("special",))
        state.revealed = sorted(set(state.revealed) | set(run.choices))
        text = f"**Engage orders revealed, hex {run.hex}**\n" + "\n".join(lines)
        # E-D33: the public post carries orders, part counts and rolls; which craft are in
        # which part goes only to the owner and allies (E-D16), so no hidden craft is named.
        events = [_public(text, "engage_reveal", data={
            "ruling": "E-10", "hex": run.hex,
            "rolls": {k: v.model_dump() for k, v in run.rolls.items()},
            "choices": {k: {"order": v.order, "parts": len(v.parts), "follows": v.follows,
                            "drop_hold": v.drop_hold} for k, v in run.choices.items()}},
            embed=shown.engage_reveal(state, run, notes, set(missed)))]
        events += self._parts_events(state, run, parts)
        events += [_public(line, "tie", data={"ruling": "E-11"})
                   for line in allocation.start(state, run, dice)]
        events += [_public(line, "pick") for line in allocation.auto_place(state, run)]
        state.step = "allocate"
        if run.queue:
            return events
        return events + self._after_allocation(state, dice)

    def _parts_events(self, state: State, run: HexRun, parts: dict[str, str]) -> list[Event]:
        """One private event per seat with the parts of its own and allied groups, alliances
        as they stand after this hex's betrayals (E-D16, E-D33)."""
        events = []
        for seat in self._seats(state):
            lines = [line for name, line in sorted(parts.items(), key=lambda kv: (
                state.groups[kv[0]].owner, kv[0])) if state.allied(seat, state.groups[name].owner)]
            if lines:
                events.append(Event(audience=Audience.to_seat(seat), kind="engage_parts",
                                    text=f"Parts of your and your allies' groups, hex {run.hex} "
                                         "(not shown to other players):\n" + "\n".join(lines)))
        return events

    def _betrayals(self, state: State, run: HexRun,
                   answers: dict[int, steps.Answers]) -> list[str]:
        """An attack declared on an ally breaks the alliance; it needs an EE order of the
        declaring player in the hex, else it has no effect (E-12, E-D31)."""
        lines = []
        for seat, seat_answers in sorted(answers.items()):
            engaging = any(c.order == "EE" and state.groups[n].owner == seat
                           for n, c in run.choices.items())
            named = seat_answers.get("betray", [])
            for ally in [named] if isinstance(named, str) else named:
                pair = (min(seat, int(ally)), max(seat, int(ally)))
                if pair not in state.alliances:
                    continue
                if not engaging:
                    lines.append(f"{state.player_name(seat)} named an ally to attack but gave "
                                 "no EE order: the alliance stands.")
                    continue
                state.alliances.remove(pair)
                run.betrayals.append((seat, int(ally)))
                lines.append(f"{state.player_name(seat)} declares an attack on "
                             f"{state.player_name(int(ally))}: the alliance is broken.")
        return lines

    def _after_allocation(self, state: State, dice: Dice) -> list[Event]:
        run = state.run
        assert run is not None
        events = [_public(line, "pick") for line in allocation.finish_unplaced(state, run)]
        layout = ", ".join(f"{n} {s}" for n, s in sorted(run.placements.items()))
        # the hex's sector picture inside the hex's own allocation embed (not the next post)
        events.append(_public(f"Allocation, hex {run.hex}: {layout}", "allocation",
                              image=ImageRef(name="sector", viewer=None,  # P-31
                                             view=view_of(state, None)),
                              embed=shown.allocation(state, run)))
        conflicts.engage_battles(state, run)
        state.step, state.page = "chase", 1
        if run.chase_sectors:
            return events
        return events + self._finish_chase(state, {}, dice)

    def _finish_chase(self, state: State, answers: dict[int, steps.Answers],
                      dice: Dice) -> list[Event]:
        run = state.run
        assert run is not None
        attacks = {seat: {k.split(":", 1)[1] for k, v in a.items() if v == "attack"}
                   for seat, a in answers.items()}
        conflicts.apply_chase(state, run, attacks)
        conflicts.escapes_and_reserves(state, run)
        state.step, state.page = "reserves", 1
        if conflicts.reserve_candidates(state, run):  # E-D33: on public facts only
            return []
        return self._finish_reserves(state, {}, dice)

    def _finish_reserves(self, state: State, answers: dict[int, steps.Answers],
                         dice: Dice) -> list[Event]:
        run = state.run
        assert run is not None
        joins = {k.split(":", 1)[1]: str(v) for a in answers.values() for k, v in a.items()
                 if k.startswith("reserve:")}
        conflicts.apply_reserves(state, run, joins)
        conflicts.locks_and_statics(state, run)
        state.step, state.page = "patrol", 1
        if conflicts.patrol_step(state, run):  # E-D33: never on the secret dispatches
            return []
        return self._finish_patrol(state, {}, dice)

    def _finish_patrol(self, state: State, answers: dict[int, steps.Answers],
                       dice: Dice) -> list[Event]:
        run = state.run
        assert run is not None
        joins = {k.split(":", 1)[1] for a in answers.values() for k, v in a.items()
                 if v == "join"}
        conflicts.apply_patrol(state, run, joins)
        result = conflicts.finalize(state, run, dice)
        state.results.append(result)
        war.add_round_battles(state, state.round, [b.id for b in result.battles])
        marks = _defaulted_lines(state, ("chase", "reserves", "patrol"))
        events = [_public("\n".join([conflicts.battle_text(state, result), *marks]),
                          "battle_list", data=result.model_dump(),
                          embed=shown.battle_list(state, result, marks))]
        if result.battles:  # the GM alone is shown how to fight each one in Discord
            events.append(Event(audience=Audience.gm(), kind="battle_commands",
                                text=conflicts.battle_commands(result),
                                data={"battles": [b.id for b in result.battles]}))
        state.contested.pop(0)
        return events + self._next_hex(state, dice)


RULESET = FTCampRuleset()
