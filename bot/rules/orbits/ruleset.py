"""The Orbits Ruleset object: the rules-core protocol over the modules of this package."""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel

from bot.errors import InvalidInput, InvalidState
from bot.rules.actions import ActionData
from bot.rules.base import BY_DEFAULT, GM_SEAT, Dice, Event, Outcome, Request, Seat, StepName
from bot.rules.orbits import war
from bot.rules.orbits.actions import KINDS
from bot.rules.orbits.battles import battle_requests, check_sealed, open_battles, resolve_battle
from bot.rules.orbits.flow import begin_turn, new_game, settle
from bot.rules.orbits.forces import fits
from bot.rules.orbits.options import OrbitsOptions
from bot.rules.orbits.scripted import OrbitsScriptedPlayer, scripted_player
from bot.rules.orbits.state import OrbitsState
from bot.rules.orbits.turns import act_turn, deployment_request, transit_request
from bot.rules.orbits.views import build_view, status_text
from bot.rules.ruleset_base import RulesetBase, View
from bot.rules.war_models import BattleResult as SharedResult
from bot.rules.war_models import BattleSpec

HELP_TEXT = """\
**Orbits**: a card campaign in one solar system (2-6 players, one 54-card deck each).
Goal: first to the target RP (default 100) wins.
Each turn: **Development** (a full J-Q-K of one suit face up in an area draws you a card \
there, face down; you see it in DM) → **Resources** (+1 RP per face-up face card, none where \
another player shows fleet cards) → **Transit** (take turns sending face-down cards to another \
area; tokens = distance, one comes off each turn) → **Deployment** (take turns: deploy a \
face-down card face up for 1 RP, retreat (flip your fleet there face down, free), or pass).
Face cards (J Q K) earn RP; they must match the suit of face cards already up there. Fleet \
cards (A-10, Joker) declare ATTACK or BLOCKADE; your last stance in an area applies to all \
your fleet there. Any ATTACK where two players show fleet → a battle: fight it in your game \
(total value = system boxes, distinct suits = max size class), report the losses, discard \
cards worth at least your losses. `/help rule:` shows the rulings the bot plays by."""


# the sealed choices whose public line names the seat that made them (``data["seat"]``)
_MARKED = {"battle_discard": {"discard"}, "battle_raid": {"raid"}}


def _marked(event: Event) -> Event:
    text = event.text.rstrip(".")
    return event.model_copy(update={"text": f"{text} ({BY_DEFAULT})."})


def _state(state: OrbitsState | Mapping[str, object]) -> OrbitsState:
    if isinstance(state, OrbitsState):
        return state.clone()
    return OrbitsState.model_validate(state)


_BATTLE_STEPS = {"battle_report": "losses", "battle_gm": "GM ruling",
                 "battle_discard": "discards", "battle_raid": "raids"}


class OrbitsRuleset(RulesetBase[OrbitsState, OrbitsOptions]):
    """The card campaign (seed 004), read through rulings O-1 to O-18."""

    name = "orbits"
    title = "Orbits (card campaign)"
    min_seats = 2
    max_seats = 6
    options_model = OrbitsOptions
    state_model = OrbitsState
    help_text = HELP_TEXT
    takes_battle_results = True  # propose_battle takes HRFT battles' results

    def start(self, options: OrbitsOptions, seats: list[Seat], dice: Dice) -> Outcome:
        opts = OrbitsOptions.model_validate(options.model_dump() if isinstance(
            options, BaseModel) else options)
        if not self.min_seats <= len(seats) <= self.max_seats:
            raise InvalidInput(f"Orbits needs 2 to 6 players, not {len(seats)}.", ruling="O-1")
        if sorted(s.number for s in seats) != list(range(1, len(seats) + 1)):
            raise InvalidInput("Seats must be numbered 1, 2, 3 and on.", ruling="O-2")
        state = new_game(opts, sorted(seats, key=lambda s: s.number), dice.shuffle)
        events: list[Event] = []
        begin_turn(state, events)
        settle(state, events, open_battles)
        return Outcome(state=state, events=events, finished=state.phase == "finished")

    @staticmethod
    def step_name(state: OrbitsState, pending: list[Request]) -> StepName:
        """One tracker per game turn (transit and deployment follow one another) and one per
        battle (reports, ruling, discards, raids)."""
        st = OrbitsState.model_validate(state)
        if st.phase.startswith("battle") and st.battle_index < len(st.battles):
            area = st.area_label(st.battles[st.battle_index].area)
            step = _BATTLE_STEPS.get(st.phase, "")
            return StepName(f"turn-{st.turn}-battle-{st.battle_index}",
                            f"Turn {st.turn}: battle at {area}, {step}")
        return StepName(f"turn-{st.turn}", f"Turn {st.turn}: {st.phase}")

    def pending(self, state: OrbitsState) -> list[Request]:
        st = state if isinstance(state, OrbitsState) else OrbitsState.model_validate(state)
        if st.phase == "transit":
            return [transit_request(st)]
        if st.phase == "deployment":
            return [deployment_request(st)]
        if st.phase == "finished":
            return []
        if war.asks_gm(st):  # O-D18: a battle fought in its thread asks the GM
            return [war.gm_request(st)]
        return battle_requests(st)

    def act(self, state: OrbitsState, seat: int, action: ActionData, dice: Dice) -> Outcome:
        st = _state(state)
        if st.phase not in ("transit", "deployment"):
            raise InvalidState("No turn is open now: this step takes sealed submissions.")
        events: list[Event] = []
        act_turn(st, seat, KINDS.read(action), events)
        settle(st, events, open_battles)
        return Outcome(state=st, events=events, finished=st.phase == "finished")

    def resolve(self, state: OrbitsState, actions: dict[int, ActionData],
                dice: Dice) -> Outcome:
        return self._resolve(state, actions, False)

    def _resolve(self, state: OrbitsState, stored: dict[int, ActionData],
                 gm_defaulted: bool) -> Outcome:
        st = _state(state)
        actions = {seat: KINDS.read(action) for seat, action in stored.items()}
        if not st.phase.startswith("battle_"):
            raise InvalidState("Nothing sealed is open now: act in turn instead.")
        events: list[Event] = []
        st.acted = True
        if war.asks_gm(st):
            stray = set(actions) - {GM_SEAT}
            if stray:
                raise InvalidState(f"Seat {min(stray)} has nothing to submit in this step.")
            war.resolve_gm(st, actions, events, by_default=gm_defaulted)
        else:
            resolve_battle(st, actions, events)
        return Outcome(state=st, events=events, finished=st.phase == "finished")

    def resolve_with_defaults(self, state: OrbitsState, actions: dict[int, ActionData],
                              dice: Dice, defaulted: frozenset[int]) -> Outcome:
        """``resolve``, with the discards and raids the service took by default at the
        deadline (``defaulted`` seats) marked as such in their public lines, and a linked
        battle's proposed result the GM let stand at the deadline said so."""
        phase = (state if isinstance(state, OrbitsState) else _state(state)).phase
        out = self._resolve(state, actions, GM_SEAT in defaulted)  # O-D19's proposal
        kinds = _MARKED.get(phase, set())
        return out.model_copy(update={"events": [
            _marked(e) if e.kind in kinds and e.data.get("seat") in defaulted else e
            for e in out.events]})

    def check(self, state: OrbitsState, seat: int, action: ActionData) -> None:
        """Validates one sealed submission before all are in (raises RulesError/InvalidState)."""
        st = state if isinstance(state, OrbitsState) else OrbitsState.model_validate(state)
        if not st.phase.startswith("battle_"):
            raise InvalidState("Nothing sealed is open now.")
        if war.asks_gm(st):
            war.check_gm(st, seat, KINDS.read(action))
            return
        check_sealed(st, seat, KINDS.read(action))

    def view(self, state: OrbitsState, viewer: int | None) -> View:
        st = state if isinstance(state, OrbitsState) else OrbitsState.model_validate(state)
        return build_view(st, viewer)

    def status(self, state: OrbitsState, viewer: int | None) -> str:
        st = state if isinstance(state, OrbitsState) else OrbitsState.model_validate(state)
        return status_text(st, viewer)

    # --- battles fought in HRFT (O-D17 to O-D20): the service's war hooks -----------------

    def battle_refs(self, state: OrbitsState) -> list[str]:
        return war.refs(OrbitsState.model_validate(state))

    def battle_link(self, state: OrbitsState, ref: str, designs: str = "") -> BattleSpec | None:
        return war.link_spec(OrbitsState.model_validate(state), ref)

    def battles_in_threads(self, state: OrbitsState) -> list[str]:
        return war.in_threads(OrbitsState.model_validate(state))

    def link_battle(self, state: OrbitsState, ref: str, name: str) -> Outcome:
        new, events = war.link(_state(state), ref, name)
        return Outcome(state=new, events=events)

    def propose_battle(self, state: OrbitsState, ref: str,
                       result: SharedResult) -> Outcome | None:
        done = war.propose(_state(state), ref, result)
        return Outcome(state=done[0], events=done[1]) if done is not None else None

    def battle_round(self, state: OrbitsState) -> int:
        """P-13, O-D21: a result or link kept by an undo belongs to its turn."""
        return OrbitsState.model_validate(state).turn

    def demo_battles(self, state: OrbitsState) -> list[str]:
        """The battles a demo fights in HRFT: the current one, when it may be (O-D17) and
        the campaign set points_per_value (the demo's switch: a group fighting its battles
        in HRFT sets it, O-D17; with 1 the demo reports battles as before)."""
        st = OrbitsState.model_validate(state)
        if (st.options.points_per_value == 1 or st.phase != "battle_report"
                or st.battle_index >= len(st.battles)):
            return []
        b = st.battles[st.battle_index]
        mine = war.ref_of(st, b)
        return [mine] if mine in war.refs(st) and fits(st, b) else []

    def scripted_player(self, seat: int) -> OrbitsScriptedPlayer:
        return scripted_player(seat)


RULESET = OrbitsRuleset()
