"""Each demo played once per test run and shared by the tests that read it (issue 17 item 8).

A demo is the slowest thing the suite does (a seed-7 three-player Orbits game is seconds of
work), and many tests read the same game: what it sent, what it asked, its transcript. The
``demos`` fixture (tests/conftest.py) plays a demo the first time a test asks for it, keyed by
its arguments as ``python -m bot demo`` would play them, and hands every later test the same
``Played``: the result, its transcript folder and its recording. Tests only read it.

What a test reads comes from the demo's own recording (``run_demo(record=True)``: every
message sent, every panel answered with its state, every refusal made while it played: the
rules' refusals name their ruling, P-32, and every event the rules and the service produced,
with its embed, as the step engine's witness saw it), never from patching the service.
"""

from __future__ import annotations

import fcntl
import hashlib
import pickle
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bot.campaign import demo, demo_record, demo_transcript
from bot.campaign.demo_record import DemoResult, Recording, Routed
from bot.campaign.models import OutboxMessage
from bot.errors import RulesError, UserError
from bot.rules import registry


@dataclass
class Played:
    """One demo game, played once: read it, never change it."""

    result: DemoResult
    folder: Path

    @property
    def events(self) -> list[Routed]:
        """Every event the step engine filed while it played (its witness), in order."""
        return self.recording.events

    @property
    def recording(self) -> Recording:
        assert self.result.recording is not None
        return self.result.recording

    @property
    def refusals(self) -> list[UserError]:
        """The refusals the rules gave while the demo played (of every refusal made, as the
        recording kept them)."""
        return self.recording.refusals

    @property
    def sent(self) -> list[OutboxMessage]:
        return self.recording.sent

    def readable(self, text: str) -> str:
        """A message's text as its reader sees it (mentions as names, times in UTC), as the
        transcript shows it."""
        gm = demo_record.GM_USER_ID
        names = {gm + 1 + i: n for i, n in enumerate(self.result.players)}
        transcript = demo_transcript.Transcript(self.folder, self.result, names | {gm: "GM"})
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


def _by_the_rules(error: UserError) -> bool:
    """A RulesError, or another refusal raised by the rule sets' own code (bot/rules: a turn
    out of order, a step that is over): where it was raised is the innermost frame of its
    traceback."""
    if isinstance(error, RulesError):
        return True
    tb = error.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and f"{Path('bot') / 'rules'}" in tb.tb_frame.f_code.co_filename


class Demos:
    """The demos of one test run, each played once, in folders under ``root``.

    Under pytest-xdist every worker has its own ``Demos`` on the same ``root``: the first
    worker to ask for a demo plays it, holding that demo's lock file, and leaves it there
    pickled; a worker that asks while it plays waits for the lock, then reads the pickle.
    So a demo is played once per run, whichever workers its tests land on."""

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
            name = f"{ruleset}-seed{seed}-{hashlib.sha256(repr(key).encode()).hexdigest()[:12]}"
            kept = self.root / f"{name}.pickle"
            with _locked(self.root / f"{name}.lock"):
                if kept.exists():
                    played = pickle.loads(kept.read_bytes())
                else:
                    played = await _play(self.root / name, key)
                    part = kept.with_suffix(".part")
                    part.write_bytes(pickle.dumps(played))
                    part.replace(kept)
            self._played[key] = played
        return self._played[key]


async def _play(folder: Path, key: Key) -> Played:
    ruleset, seed, players, options, absent, pace = key
    result = await demo.run_demo(ruleset, folder, seed=seed, players=players,
                                 options=dict(options), absent=set(absent), pace=pace,
                                 record=True)
    recording = result.recording
    assert recording is not None
    # the rules' refusals, without the frames their tracebacks hold (not to be pickled)
    recording.refusals = [e.with_traceback(None) for e in recording.refusals
                          if _by_the_rules(e)]
    return Played(result, folder)


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock on ``path`` (created), held by one process at a time."""
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
