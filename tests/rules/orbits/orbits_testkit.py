"""Helpers for the Orbits rule tests: small games and hand-built table positions."""

from __future__ import annotations

from typing import Any

from bot.rules.base import Event, Outcome, Seat
from bot.rules.dice import ScriptedDice
from bot.rules.orbits import RULESET, OrbitsOptions, OrbitsState
from bot.rules.orbits.state import TableCard, stance_key

NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Gina"]


def seats(n: int) -> list[Seat]:
    return [Seat(number=i + 1, name=NAMES[i]) for i in range(n)]


def start(n: int = 2, **options: Any) -> Outcome:
    """A started game; ScriptedDice keeps every deck in catalogue order (AS, 2S, ...)."""
    return RULESET.start(OrbitsOptions(**options), seats(n), ScriptedDice())


def put(state: OrbitsState, seat: int, code: str, area: str, face_up: bool = False,
        stance: str | None = None) -> TableCard:
    """Moves a card from its owner's deck (or wherever it is) to the table."""
    if code in state.decks[seat]:
        state.decks[seat].remove(code)
    state.table = [c for c in state.table if not (c.owner == seat and c.code == code)]
    card = TableCard(owner=seat, code=code, area=area, face_up=face_up, known=face_up)
    state.table.append(card)
    if stance:
        state.stances[stance_key(seat, area)] = stance  # type: ignore[assignment]
    return card


def clear_hands(state: OrbitsState) -> None:
    """Puts every face-down card back on top of its deck (for clean positions)."""
    for c in [c for c in state.table if not c.face_up]:
        state.decks[c.owner].insert(0, c.code)
    state.table = [c for c in state.table if c.face_up]
    state.groups = []


def at(state: OrbitsState, phase: str, actor: int) -> OrbitsState:
    state.phase = phase  # type: ignore[assignment]
    state.actor = actor
    state.passes = 0
    return state


def act(state: OrbitsState, seat: int, **action: Any) -> Outcome:
    return RULESET.act(state, seat, action, ScriptedDice())


def texts(events: list[Event], kind: str | None = None, audience: str | None = None) -> list[str]:
    return [e.text for e in events if (kind is None or e.kind == kind)
            and (audience is None or e.audience.kind == audience)]


def where(state: OrbitsState, seat: int, code: str) -> TableCard | None:
    return next((c for c in state.table if c.owner == seat and c.code == code), None)


def all_pass(state: OrbitsState) -> Outcome:
    """Everyone passes the current alternation (turn requests only)."""
    out = Outcome(state=state)
    events: list[Event] = []
    phase = state.phase
    while out.state.phase == phase and RULESET.pending(out.state)[0].kind == "turn":
        out = RULESET.act(out.state, out.state.actor, {"type": "pass"}, ScriptedDice())
        events.extend(out.events)
    return Outcome(state=out.state, events=events, finished=out.finished)
