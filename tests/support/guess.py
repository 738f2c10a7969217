"""A tiny rule set for tests of the service layer (never shipped): "guess".

Each round every seat secretly guesses a number 1..6 (a SEALED step, default "1"); a d6 is
rolled and the closest guesses score a point. Then, in seat order, each seat may "bank"
(+1 more point if it scored this round) or "pass" (a TURN step). First to ``target`` wins.
"""

from __future__ import annotations

import io
from typing import Any, Literal

from PIL import Image
from pydantic import BaseModel, Field

from bot.errors import RulesError
from bot.render import registry as render_registry
from bot.rules import registry as rules_registry
from bot.rules.base import (
    ActionSpec,
    Audience,
    Dice,
    Event,
    ImageRef,
    InputField,
    Option,
    Outcome,
    Request,
    Seat,
)
from bot.rules.ruleset_base import RulesetBase

NUMBERS = [str(n) for n in range(1, 7)]


class GuessOptions(BaseModel):
    target: int = Field(default=3, ge=1, le=20, description="points needed to win")
    defaults: bool = Field(default=True, description="requests carry a default action")


class GuessState(BaseModel):
    names: dict[int, str]
    scores: dict[int, int]
    target: int
    defaults: bool = True
    round: int = 1
    phase: Literal["guess", "bank", "over"] = "guess"
    turn: int = 0
    scored: list[int] = Field(default_factory=list)
    winner: int | None = None


def _guess_request(seat: int, defaults: bool) -> Request:
    field = InputField(
        name="number", label="Your guess", options=[Option(value=n, label=n) for n in NUMBERS]
    )
    return Request(
        seat=seat, kind="sealed", step="guess", prompt="Guess the roll of a d6.",
        actions=[ActionSpec(type="guess", label="Guess", fields=[field])],
        default={"type": "guess", "number": "1"} if defaults else None,
    )


def _bank_request(seat: int, defaults: bool) -> Request:
    return Request(
        seat=seat, kind="turn", step="bank", prompt="Bank (+1 if you scored this round) or pass.",
        actions=[ActionSpec(type="bank", label="Bank"), ActionSpec(type="pass", label="Pass")],
        default={"type": "pass"} if defaults else None,
    )


def _finish_if_won(state: GuessState, events: list[Event]) -> Outcome:
    leader = max(state.scores, key=lambda s: (state.scores[s], -s))
    if state.scores[leader] >= state.target:
        state.phase, state.winner = "over", leader
        events.append(Event(audience=Audience.public(), kind="won",
                            text=f"{state.names[leader]} wins with {state.scores[leader]}!"))
        return Outcome(state=state, events=events, finished=True)
    return Outcome(state=state, events=events)


class GuessRuleset(RulesetBase):
    name = "guess"
    title = "Guess the die"
    min_seats = 2
    max_seats = 4
    options_model = GuessOptions
    state_model = GuessState
    help_text = "Guess the d6; closest scores."

    def start(self, options: BaseModel, seats: list[Seat], dice: Dice) -> Outcome:
        opts = GuessOptions.model_validate(options.model_dump())
        state = GuessState(names={s.number: s.name for s in seats},
                           scores={s.number: 0 for s in seats}, target=opts.target,
                           defaults=opts.defaults)
        return Outcome(state=state, events=[Event(audience=Audience.public(), kind="start",
                                                  text=f"First to {opts.target} points wins.")])

    def pending(self, state: Any) -> list[Request]:
        st = GuessState.model_validate(state)
        if st.phase == "guess":
            return [_guess_request(seat, st.defaults) for seat in sorted(st.names)]
        if st.phase == "bank":
            return [_bank_request(st.turn, st.defaults)]
        return []

    def resolve(self, state: Any, actions: dict[int, dict[str, Any]], dice: Dice) -> Outcome:
        st = GuessState.model_validate(state).model_copy(deep=True)
        if st.phase != "guess" or set(actions) != set(st.names):
            raise RulesError(f"resolve needs one guess per seat {sorted(st.names)}")
        guesses = {seat: self._number(a) for seat, a in actions.items()}
        roll = dice.d(6)
        best = min(abs(g - roll) for g in guesses.values())
        st.scored = [s for s, g in sorted(guesses.items()) if abs(g - roll) == best]
        for seat in st.scored:
            st.scores[seat] += 1
        events = [Event(audience=Audience.to_seat(s), kind="locked",
                        text=f"Your guess was locked as {g}.") for s, g in guesses.items()]
        shown = ", ".join(f"{st.names[s]} {g}" for s, g in sorted(guesses.items()))
        events.append(Event(
            audience=Audience.public(), kind="roll", data={"roll": roll},
            text=f"Round {st.round}: the die shows {roll}. Guesses: {shown}. "
                 f"Scoring: {', '.join(st.names[s] for s in st.scored)}.",
            image=ImageRef(name="board"),
        ))
        st.phase, st.turn = "bank", min(st.names)
        return _finish_if_won(st, events)

    def act(self, state: Any, seat: int, action: dict[str, Any], dice: Dice) -> Outcome:
        st = GuessState.model_validate(state).model_copy(deep=True)
        if st.phase != "bank" or seat != st.turn:
            raise RulesError(f"It is not seat {seat}'s turn to bank.")
        kind = action.get("type")
        if kind not in ("bank", "pass"):
            raise RulesError(f"Unknown action '{kind}'. Allowed: bank, pass.")
        events: list[Event] = []
        if kind == "bank" and seat in st.scored:
            st.scores[seat] += 1
            events.append(Event(audience=Audience.public(), kind="bank",
                                text=f"{st.names[seat]} banks a point."))
        else:
            verb = "banks nothing" if kind == "bank" else "passes"
            events.append(Event(audience=Audience.public(), kind=kind,
                                text=f"{st.names[seat]} {verb}."))
        later = [s for s in sorted(st.names) if s > seat]
        if later:
            st.turn = later[0]
        else:
            st.phase, st.turn, st.round, st.scored = "guess", 0, st.round + 1, []
        return _finish_if_won(st, events)

    def view(self, state: Any, viewer: int | None) -> dict[str, Any]:
        st = GuessState.model_validate(state)
        return {"scores": st.scores, "round": st.round, "phase": st.phase, "viewer": viewer}

    def status(self, state: Any, viewer: int | None) -> str:
        st = GuessState.model_validate(state)
        scores = ", ".join(f"{st.names[s]} {p}" for s, p in sorted(st.scores.items()))
        mine = f" You are seat {viewer}." if viewer else ""
        return f"Round {st.round} ({st.phase}). Scores: {scores}.{mine}"

    def scripted_player(self, seat: int) -> ScriptedGuesser:
        return ScriptedGuesser(seat)

    @staticmethod
    def _number(action: dict[str, Any]) -> int:
        if action.get("type") != "guess" or action.get("number") not in NUMBERS:
            raise RulesError(f"A guess is a number 1..6, got {action.get('number')!r}.")
        return int(action["number"])


class ScriptedGuesser:
    """Guesses a die roll; banks whenever it may."""

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def choose(self, view: dict[str, Any], request: Request, dice: Dice) -> dict[str, Any]:
        if request.step == "guess":
            return {"type": "guess", "number": str(dice.d(6))}
        return {"type": "bank"}


def render_board(view: dict[str, Any]) -> bytes:
    """A tiny PNG: one grey bar per seat, as long as its score."""
    img = Image.new("RGB", (64, 16 * max(1, len(view["scores"]))), "white")
    for i, score in enumerate(view["scores"].values()):
        img.paste((90, 90, 90), (0, 16 * i + 2, min(64, 8 * (score + 1)), 16 * i + 14))
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()


RULESET = GuessRuleset()


def register() -> None:
    rules_registry.register(RULESET)
    render_registry.register("guess", "board", render_board)
