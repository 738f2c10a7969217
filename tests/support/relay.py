"""A tests-only turn game (never shipped): "relay", for the DM panel delivery tests.

Seats take turns in seat order. "go" passes the turn on with a public line; "tip" passes it
on and tells the next seat a secret (private news that arrives with that seat's panel);
"stop" ends the game. Every turn is a new step, so a panel's custom ids change each time."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from bot.rules import registry as rules_registry
from bot.rules.base import ActionSpec, Audience, Dice, Event, Outcome, Request, Seat
from bot.rules.ruleset_base import RulesetBase

TIP = "A tip for you: the vault code is 4711."


class RelayOptions(BaseModel):
    pass


class RelayState(BaseModel):
    names: dict[int, str]
    turn_of: int = 1
    count: int = 0


class RelayRuleset(RulesetBase):
    name = "relay"
    title = "Relay"
    min_seats = 2
    max_seats = 4
    options_model = RelayOptions
    state_model = RelayState
    help_text = "Take your turn: go, tip the next player, or stop."

    def start(self, options: BaseModel, seats: list[Seat], dice: Dice) -> Outcome:
        return Outcome(state=RelayState(names={s.number: s.name for s in seats}), events=[])

    def pending(self, state: Any) -> list[Request]:
        st = RelayState.model_validate(state)
        return [Request(
            seat=st.turn_of, kind="turn", step="leg", prompt=f"Leg {st.count + 1}: your turn.",
            actions=[ActionSpec(type="go", label="Go"), ActionSpec(type="tip", label="Tip"),
                     ActionSpec(type="stop", label="Stop")],
            default={"type": "go"})]

    def resolve(self, state: Any, actions: dict[int, dict[str, Any]], dice: Dice) -> Outcome:
        raise AssertionError("the relay has no sealed step")

    def act(self, state: Any, seat: int, action: dict[str, Any], dice: Dice) -> Outcome:
        st = RelayState.model_validate(state).model_copy(deep=True)
        seats = sorted(st.names)
        nxt = seats[(seats.index(seat) + 1) % len(seats)]
        st.count += 1
        st.turn_of = nxt
        name = st.names[seat]
        if action["type"] == "stop":
            return Outcome(state=st, finished=True, events=[
                Event(audience=Audience.public(), kind="stop", text=f"{name} stops the relay.")])
        events = [Event(audience=Audience.public(), kind="go", text=f"{name} runs leg "
                        f"{st.count}.")]
        if action["type"] == "tip":
            events.append(Event(audience=Audience.to_seat(nxt), kind="tip", text=TIP))
        return Outcome(state=st, events=events)

    def view(self, state: Any, viewer: int | None) -> dict[str, Any]:
        return RelayState.model_validate(state).model_dump()

    def status(self, state: Any, viewer: int | None) -> str:
        st = RelayState.model_validate(state)
        return f"Leg {st.count + 1}: {st.names[st.turn_of]} runs."

    def scripted_player(self, seat: int) -> Any:
        raise AssertionError("no scripted relay players")


RULESET = RelayRuleset()


def register() -> None:
    rules_registry.register(RULESET)
