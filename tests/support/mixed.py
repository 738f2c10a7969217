"""A tiny rule set for tests of the service layer (never shipped): "hide and seek", "mixed".

Its one step MIXES request kinds: every seat but the last (the hiders) secretly hides in a
box 1..3 (SEALED), while the last seat (the seeker) calls a box out loud (TURN). When the
boxes are sealed and the call is made, the boxes are revealed in public. Then the GM approves
the round (a TURN request of GM_SEAT) and the next round starts, until ``rounds`` are played.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from bot.errors import RulesError
from bot.rules import registry as rules_registry
from bot.rules.base import (
    GM_SEAT,
    ActionSpec,
    Audience,
    Dice,
    Event,
    InputField,
    Option,
    Outcome,
    Request,
    Seat,
)
from bot.rules.ruleset_base import RulesetBase

BOXES = ["1", "2", "3"]


class MixedOptions(BaseModel):
    rounds: int = Field(default=1, ge=1, le=5, description="rounds to play")
    notes: str = Field(default="", description="free text (tests of long settings)")


class MixedState(BaseModel):
    names: dict[int, str]
    rounds: int
    round: int = 1
    phase: Literal["plan", "approve", "over"] = "plan"
    boxes: dict[int, str] = Field(default_factory=dict)  # SECRET until the reveal
    call: str | None = None
    found: list[int] = Field(default_factory=list)

    @property
    def seeker(self) -> int:
        return max(self.names)

    @property
    def hiders(self) -> list[int]:
        return sorted(s for s in self.names if s != self.seeker)


def _box_field(label: str) -> InputField:
    return InputField(name="box", label=label, options=[Option(value=b, label=b) for b in BOXES])


def hide_request(seat: int) -> Request:
    return Request(
        seat=seat, kind="sealed", step="hide", prompt="Hide in a box (secret).",
        actions=[ActionSpec(type="hide", label="Hide", fields=[_box_field("Your box")])],
        default={"type": "hide", "box": "1"},
    )


def call_request(seat: int) -> Request:
    return Request(
        seat=seat, kind="turn", step="call", prompt="Call a box out loud.",
        actions=[ActionSpec(type="call", label="Call", fields=[_box_field("Box called")])],
        default={"type": "call", "box": "3"},
    )


def approve_request() -> Request:
    return Request(
        seat=GM_SEAT, kind="turn", step="approve", prompt="GM: approve the round.",
        actions=[ActionSpec(type="approve", label="Approve")], default={"type": "approve"},
    )


def _box(action: dict[str, Any], kind: str) -> str:
    if action.get("type") != kind or action.get("box") not in BOXES:
        raise RulesError(f"A {kind} names a box 1..3, got {action!r}.")
    return str(action["box"])


class MixedRuleset(RulesetBase):
    name = "mixed"
    title = "Hide and seek"
    min_seats = 2
    max_seats = 4
    options_model = MixedOptions
    state_model = MixedState
    help_text = "Hiders hide in secret; the seeker calls a box out loud."

    def start(self, options: BaseModel, seats: list[Seat], dice: Dice) -> Outcome:
        opts = MixedOptions.model_validate(options.model_dump())
        state = MixedState(names={s.number: s.name for s in seats}, rounds=opts.rounds)
        start = Event(audience=Audience.public(), kind="start",
                      text=f"{opts.rounds} round(s) of hide and seek.")
        return Outcome(state=state, events=[start])

    def pending(self, state: Any) -> list[Request]:
        st = MixedState.model_validate(state)
        if st.phase == "approve":
            return [approve_request()]
        if st.phase != "plan":
            return []
        out = [] if st.boxes else [hide_request(s) for s in st.hiders]
        if st.call is None:
            out.append(call_request(st.seeker))
        return out

    def resolve(self, state: Any, actions: dict[int, dict[str, Any]], dice: Dice) -> Outcome:
        st = MixedState.model_validate(state).model_copy(deep=True)
        if st.phase != "plan" or st.boxes or set(actions) != set(st.hiders):
            raise RulesError(f"resolve needs one hiding place per hider {st.hiders}")
        st.boxes = {seat: _box(a, "hide") for seat, a in actions.items()}
        events = [Event(audience=Audience.to_seat(s), kind="hidden", text=f"You hide in box {b}.")
                  for s, b in sorted(st.boxes.items())]
        events.append(Event(audience=Audience.public(), kind="sealed",
                            text="Every hider is hidden."))
        return self._maybe_reveal(st, events)

    def act(self, state: Any, seat: int, action: dict[str, Any], dice: Dice) -> Outcome:
        st = MixedState.model_validate(state).model_copy(deep=True)
        if st.phase == "approve" and seat == GM_SEAT:
            if action.get("type") != "approve":
                raise RulesError("The GM may only approve here.")
            events = [Event(audience=Audience.public(), kind="approved",
                            text=f"The GM approves round {st.round}.")]
            if st.round >= st.rounds:
                st.phase = "over"
                return Outcome(state=st, events=events, finished=True)
            st.round, st.phase, st.boxes, st.call, st.found = st.round + 1, "plan", {}, None, []
            return Outcome(state=st, events=events)
        if st.phase != "plan" or seat != st.seeker or st.call is not None:
            raise RulesError(f"It is not seat {seat}'s turn to call.")
        st.call = _box(action, "call")
        events = [Event(audience=Audience.public(), kind="call",
                        text=f"{st.names[seat]} calls box {st.call}.")]
        return self._maybe_reveal(st, events)

    @staticmethod
    def _maybe_reveal(st: MixedState, events: list[Event]) -> Outcome:
        if not st.boxes or st.call is None:
            return Outcome(state=st, events=events)
        st.found = [s for s, b in sorted(st.boxes.items()) if b == st.call]
        places = ", ".join(f"{st.names[s]} hid in box {b}" for s, b in sorted(st.boxes.items()))
        # a one-line result: marked as a post of its own, not a line of the tracker
        events.append(Event(audience=Audience.public(), kind="reveal", post=True,
                            text=f"Reveal: {places}; found: "
                                 f"{', '.join(st.names[s] for s in st.found) or 'nobody'}."))
        st.phase = "approve"
        return Outcome(state=st, events=events)

    def view(self, state: Any, viewer: int | None) -> dict[str, Any]:
        st = MixedState.model_validate(state)
        boxes = {s: b for s, b in st.boxes.items() if viewer == s or st.phase != "plan"}
        return {"round": st.round, "phase": st.phase, "call": st.call, "boxes": boxes}

    def status(self, state: Any, viewer: int | None) -> str:
        st = MixedState.model_validate(state)
        return f"Round {st.round} of {st.rounds} ({st.phase})."

    def scripted_player(self, seat: int) -> ScriptedMixed:
        return ScriptedMixed(seat)


class ScriptedMixed:
    """Takes every request's default."""

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def choose(self, view: dict[str, Any], request: Request, dice: Dice) -> dict[str, Any]:
        assert request.default is not None
        return dict(request.default)


RULESET = MixedRuleset()


def register() -> None:
    rules_registry.register(RULESET)
