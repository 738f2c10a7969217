"""Each demo played once per test run and shared by the tests that read it (issue 17 item 8).

A demo is the slowest thing the suite does (a seed-7 three-player Orbits game is seconds of
work), and many tests read the same game: what it sent, what it asked, its transcript. The
``demos`` fixture (tests/conftest.py) plays a demo the first time a test asks for it, keyed by
its arguments as ``python -m bot demo`` would play them, and hands every later test the same
``Played``: the result, its transcript folder and its recording. Tests only read it.

What a test reads comes from the demo's own recording (``run_demo(record=True)``: every
message sent, every panel answered with its state), not from patching the service, plus the
two things only the process can tell: every refusal made while it played (the rules' refusals
name their ruling, P-32) and every event the rules and the service produced (``events``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.campaign import demo
from bot.campaign.demo import DemoResult, Recording
from bot.campaign.models import OutboxMessage
from bot.errors import RulesError, UserError
from bot.rules import registry
from bot.rules.base import Event


@dataclass
class Routed:
    """An event as the step engine filed it: of a campaign, or (``battle``) of a battle."""

    event: Event
    battle: bool


@dataclass
class Played:
    """One demo game, played once: read it, never change it."""

    result: DemoResult
    folder: Path
    refusals: list[UserError] = field(default_factory=list)
    events: list[Routed] = field(default_factory=list)

    @property
    def recording(self) -> Recording:
        assert self.result.recording is not None
        return self.result.recording

    @property
    def sent(self) -> list[OutboxMessage]:
        return self.recording.sent

    def readable(self, text: str) -> str:
        """A message's text as its reader sees it (mentions as names, times in UTC), as the
        transcript shows it."""
        names = {demo.GM_USER_ID + 1 + i: n for i, n in enumerate(self.result.players)}
        transcript = demo.Transcript(self.folder, self.result, names | {demo.GM_USER_ID: "GM"})
        return transcript._readable(text)


Key = tuple[str, int, int, tuple[tuple[str, str], ...], tuple[int, ...], str]


def _key(ruleset: str, seed: int, players: int | None, options: dict[str, str] | None,
         absent: set[int] | frozenset[int], pace: str) -> Key:
    """The game the arguments play: the default player count and the rule set's demo
    options spelled out, so two ways of asking for one game share it."""
    rules = registry.get(ruleset)
    seats = rules.min_seats if players is None else players
    merged = {**rules.demo_options, **(options or {})}
    return (ruleset, seed, seats, tuple(sorted(merged.items())), tuple(sorted(absent)), pace)


@contextmanager
def refusals_made(made: list[UserError]) -> Iterator[None]:
    """Every RulesError made while the demo plays, caught or not, and every other refusal
    made by the rule sets' own code (bot/rules: a turn out of order, a step that is over)."""
    original = UserError.__init__

    def record(self: UserError, message: str, *, ruling: str | None = None) -> None:
        original(self, message, ruling=ruling)
        frame = sys._getframe(1)
        while frame is not None and frame.f_code.co_filename.endswith("errors.py"):
            frame = frame.f_back
        where = frame.f_code.co_filename if frame is not None else ""
        if isinstance(self, RulesError) or f"{Path('bot') / 'rules'}" in where:
            made.append(self)

    UserError.__init__ = record  # type: ignore[method-assign]
    try:
        yield
    finally:
        UserError.__init__ = original  # type: ignore[method-assign]


@contextmanager
def _events_routed(routed: list[Routed]) -> Iterator[None]:
    """Every event the step engine files (the rules' and the service's own, every audience):
    the one place the suite taps the engine, so a refactor of it is mended here alone."""
    from bot.campaign.steps import StepEngine

    route = StepEngine._route

    def recording(self: StepEngine, ctx: Any, fx: Any, events: list[Event], *a: Any,
                  **kw: Any) -> None:
        battle = ctx.row.parent_id is not None
        routed.extend(Routed(ev, battle) for ev in events)
        route(self, ctx, fx, events, *a, **kw)

    StepEngine._route = recording  # type: ignore[method-assign]
    try:
        yield
    finally:
        StepEngine._route = route  # type: ignore[method-assign]


class Demos:
    """The demos of one test run, each played once, in folders under ``root``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._played: dict[Key, Played] = {}

    async def play(self, ruleset: str, *, seed: int = 1, players: int | None = None,
                   options: dict[str, str] | None = None,
                   absent: set[int] | frozenset[int] = frozenset(),
                   pace: str = "instant") -> Played:
        """The demo ``python -m bot demo`` plays with these arguments, played to its end
        once (a demo that fails is played again by the next test that asks, and fails it
        too)."""
        key = _key(ruleset, seed, players, options, absent, pace)
        if key not in self._played:
            folder = self.root / f"{len(self._played):02d}-{ruleset}-seed{seed}"
            refusals: list[UserError] = []
            events: list[Routed] = []
            with refusals_made(refusals), _events_routed(events):
                result = await demo.run_demo(ruleset, folder, seed=seed, players=players,
                                             options=options, absent=absent, pace=pace,
                                             record=True)
            self._played[key] = Played(result, folder, refusals, events)
        return self._played[key]
