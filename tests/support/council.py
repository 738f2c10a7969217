"""A tests-only rule set with an OPEN step (never shipped): "council".

Every seat may "speak" as often as it likes (a private echo), then says "ready"; when every
seat is ready the council is over. It exercises open steps that seats leave one by one."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from bot.rules import registry as rules_registry
from bot.rules.base import ActionSpec, Audience, Dice, Event, Outcome, Request, Seat
from bot.rules.ruleset_base import RulesetBase


class CouncilOptions(BaseModel):
    pass


class CouncilState(BaseModel):
    names: dict[int, str]
    ready: list[int] = Field(default_factory=list)


class CouncilRuleset(RulesetBase):
    name = "council"
    title = "Council"
    min_seats = 2
    max_seats = 4
    options_model = CouncilOptions
    state_model = CouncilState
    help_text = "Speak, then say ready."

    def start(self, options: BaseModel, seats: list[Seat], dice: Dice) -> Outcome:
        return Outcome(state=CouncilState(names={s.number: s.name for s in seats}), events=[])

    def pending(self, state: Any) -> list[Request]:
        st = CouncilState.model_validate(state)
        return [
            Request(seat=s, kind="open", step="talk", prompt="Speak, then say ready.",
                    actions=[ActionSpec(type="speak", label="Speak"),
                             ActionSpec(type="ready", label="Ready")],
                    default={"type": "ready"})
            for s in sorted(st.names) if s not in st.ready
        ]

    def resolve(self, state: Any, actions: dict[int, dict[str, Any]], dice: Dice) -> Outcome:
        raise AssertionError("the council has no sealed step")

    def act(self, state: Any, seat: int, action: dict[str, Any], dice: Dice) -> Outcome:
        st = CouncilState.model_validate(state).model_copy(deep=True)
        if action["type"] == "speak":
            return Outcome(state=st, events=[Event(audience=Audience.to_seat(seat),
                                                   kind="echo", text="You spoke.")])
        st.ready.append(seat)
        events = [Event(audience=Audience.public(), kind="ready",
                        text=f"{st.names[seat]} is ready.")]
        return Outcome(state=st, events=events, finished=set(st.ready) == set(st.names))

    def view(self, state: Any, viewer: int | None) -> dict[str, Any]:
        return CouncilState.model_validate(state).model_dump()

    def status(self, state: Any, viewer: int | None) -> str:
        st = CouncilState.model_validate(state)
        return f"Ready: {len(st.ready)} of {len(st.names)}."

    def scripted_player(self, seat: int) -> Any:
        raise AssertionError("no scripted council players")


RULESET = CouncilRuleset()


def register() -> None:
    rules_registry.register(RULESET)
