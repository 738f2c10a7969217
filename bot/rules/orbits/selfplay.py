"""Plays whole games with scripted players (benchmarks, demos, tests). Engine only."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.rules.base import GM_SEAT, Dice, Event, Seat
from bot.rules.orbits.options import OrbitsOptions
from bot.rules.orbits.ruleset import RULESET
from bot.rules.orbits.scripted import scripted_player
from bot.rules.orbits.state import OrbitsState


@dataclass
class GameRecord:
    state: OrbitsState
    events: list[Event] = field(default_factory=list)
    decisions: int = 0
    finished: bool = False


def play_game(seats: int, dice: Dice, options: OrbitsOptions | None = None,
              max_decisions: int = 20_000) -> GameRecord:
    """Runs one game to its end (or ``max_decisions``) with scripted players on every seat,
    the GM seat included (it enters battle results by the same formula)."""
    table = [Seat(number=n, name=f"P{n}") for n in range(1, seats + 1)]
    out = RULESET.start(options or OrbitsOptions(), table, dice)
    rec = GameRecord(state=out.state, events=list(out.events), finished=out.finished)
    players = {n: scripted_player(n) for n in range(0, seats + 1)}
    while not rec.finished and rec.decisions < max_decisions:
        requests = RULESET.pending(rec.state)
        if requests[0].kind == "turn":
            r = requests[0]
            action = players[r.seat].choose(RULESET.view(rec.state, r.seat), r, dice)
            out = RULESET.act(rec.state, r.seat, action, dice)
        else:
            actions: dict[int, dict[str, Any]] = {}
            for r in requests:
                viewer = None if r.seat == GM_SEAT else r.seat
                actions[r.seat] = players[r.seat].choose(RULESET.view(rec.state, viewer), r, dice)
            out = RULESET.resolve(rec.state, actions, dice)
        rec.state, rec.finished = out.state, out.finished
        rec.events.extend(out.events)
        rec.decisions += 1
    return rec
