"""Kills a real ``python -m bot`` with SIGKILL inside a chosen message create, for the crash
tests of issue 16.2 (P-33) and bench/crash_duplicates.py.

Two kinds of kill, both between Discord making the message and the bot's sent-mark:

- ``replied``: Discord answers and the bot READS the answer, then dies. To make the window
  certain, the harness holds SQLite's write lock from just before the answer until the kill
  (the bot's readers are not blocked in WAL mode; its sent-mark or piece-mark waits for the
  lock), and the bot process appends a line to a file once it has read each answer
  (``REPLY_WATCH``, which only watches).
- ``unanswered``: Discord makes the message and the answer never reaches the bot (it dies
  while waiting for it).

And one that may fall anywhere around a send: ``timed`` kills a few milliseconds after the
create arrives, with nothing held (before or after the sent-mark, inside a write, during the
next request), as a crash at a random moment would.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cogs.common import split_content
from storage.outbox import NewMessage
from tests.support.fake_discord import CHANNELS, Create, FakeDiscord, start_bot

WINDOW_MODES = ("replied", "unanswered")  # always between Discord's create and the sent-mark
KILL_MODES = (*WINDOW_MODES, "timed")
WAIT = 60.0  # seconds any one step may take before the harness gives up (a hung bot)


@dataclass
class Run:
    """One bot process from start to its end."""

    killed: bool  # SIGKILLed at the armed create; else it sent everything and stopped
    stderr: str
    returncode: int


class Crasher:
    """Runs the bot on ``db_path`` against ``fake`` and kills it at the armed create."""

    def __init__(self, fake: FakeDiscord, db_path: Path, workdir: Path) -> None:
        self.fake = fake
        self.db_path = db_path
        self.workdir = workdir
        self.runs = 0
        self._nth = 0
        self._mode = ""
        self._seen = 0
        self._hit = threading.Event()
        self._lock: sqlite3.Connection | None = None
        self._proc: subprocess.Popen[str] | None = None
        self._delay = 0.0
        fake.on_create = self._on_create

    def _on_create(self, create: Create) -> bool:
        self._seen += 1
        if self._seen != self._nth:
            return True
        if self._mode == "replied":
            # no sent-mark (or piece-mark) can be written until the bot is dead
            self._lock = sqlite3.connect(self.db_path, timeout=10, isolation_level=None,
                                         check_same_thread=False)
            self._lock.execute("BEGIN IMMEDIATE")
        elif self._mode == "timed" and self._proc is not None:
            # from the stand-in's own loop: on time, whatever the test thread is doing
            self.fake.loop.call_later(self._delay, self._proc.send_signal, signal.SIGKILL)
        self._hit.set()
        return self._mode != "unanswered"  # that one's answer is held back

    def run(self, nth: int = 0, mode: str = "replied", delay: float = 0.0) -> Run:
        """One bot process; ``nth`` > 0 kills it at its nth message create (``mode`` one of
        ``KILL_MODES``; ``timed``: ``delay`` seconds after it arrived), else (or when it never
        gets that far) it runs until every outbox row is done and stops on SIGTERM."""
        assert mode in KILL_MODES
        self.runs += 1
        replies = self.workdir / f"replies-{self.runs}.txt"
        replies.touch()
        self._nth, self._mode, self._seen = nth, mode, 0
        self._hit.clear()
        self._delay = delay
        proc = self._proc = start_bot(self.workdir, self.db_path, self.fake, replies)
        try:
            killed = self._kill_or_finish(proc, replies, nth)
            _, stderr = proc.communicate(timeout=WAIT)
        finally:
            self._nth, self._proc = 0, None
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
            if self._lock is not None:
                self._lock.rollback()
                self._lock.close()
                self._lock = None
            self.fake.release()
        return Run(killed, stderr, proc.returncode)

    def _kill_or_finish(self, proc: subprocess.Popen[str], replies: Path, nth: int) -> bool:
        deadline = time.monotonic() + WAIT
        logins = self.fake.identifies
        while time.monotonic() < deadline:
            if proc.poll() is not None and not self._hit.is_set():
                raise AssertionError(f"the bot ended by itself: {proc.communicate()[1]}")
            if self._hit.wait(0.02):
                if self._mode == "replied":
                    # the nth answer read: creates are one at a time, each answer read in turn
                    while _lines(replies) < nth and time.monotonic() < deadline:
                        time.sleep(0.005)
                    assert _lines(replies) >= nth, "the bot never read the answer"
                if self._mode != "timed":
                    proc.send_signal(signal.SIGKILL)
                proc.wait(WAIT)
                return True
            if self.fake.identifies > logins and self.pending() == 0:
                # connected, so its graceful stop is in place (P-38), and nothing is left
                proc.send_signal(signal.SIGTERM)
                return False
        raise AssertionError("the bot neither reached the create nor finished")

    def pending(self) -> int:
        conn = sqlite3.connect(self.db_path, timeout=10)
        try:
            return conn.execute(
                "SELECT COUNT(*) FROM outbox WHERE status = 'pending'").fetchone()[0]
        finally:
            conn.close()

    def statuses(self) -> list[str]:
        conn = sqlite3.connect(self.db_path, timeout=10)
        try:
            return [r[0] for r in conn.execute("SELECT status FROM outbox ORDER BY id")]
        finally:
            conn.close()


ALICE = 310000000000000001


def long_report(tag: str) -> str:
    """Two pieces, each with the tag: every text seeded is unique on its channel."""
    return "\n".join(f"{tag}line {i} of the war report, long enough to need two pieces"
                     for i in range(60))


def three_kinds(tag: str = "") -> list[NewMessage]:
    """A long channel message (two pieces), a panel DM, a short channel post: the creates
    come in that order (1 and 2 the long one's pieces, 3 the DM, 4 the post)."""
    return [
        NewMessage(None, "channel", long_report(tag), channel_id=CHANNELS[0]),
        NewMessage(None, "dm", f"{tag}Your orders for step 3, Alice.", user_id=ALICE,
                   panel=(77, 3, 1)),  # no such campaign: the panel goes without buttons
        NewMessage(None, "channel", f"{tag}The fleet sails at dawn.", channel_id=CHANNELS[1]),
    ]


def expected(fake: FakeDiscord, messages: list[NewMessage]) -> list[tuple[int, str]]:
    """(channel id, text) of every piece the messages should leave on Discord."""
    out: list[tuple[int, str]] = []
    for m in messages:
        where = m.channel_id if m.kind == "channel" else fake.dm_channel(m.user_id or 0)
        assert where is not None
        out += [(where, piece) for piece in split_content(m.content)]
    assert len(set(out)) == len(out)  # else ``duplicates`` would count a repeat text
    return sorted(out)


def random_kills(crasher: Crasher, rng: random.Random, kills: int, budget: float,
                 after: Callable[[str], None] | None = None) -> int:
    """Kill after kill at a random create (1 to 3 into the run), way and delay (``timed``),
    each run a restart after the last, ``kills`` of them or as many as ``budget`` seconds
    allow; then one run that sends the rest. Returns the number of kills. ``after`` is told,
    after each restart, how the run before it was killed (its retry has run by then)."""
    done, start, last = 0, time.monotonic(), ""
    while True:
        mode = rng.choice(KILL_MODES)
        if done < kills and time.monotonic() - start < budget:
            run = crasher.run(rng.randint(1, 3), mode, rng.uniform(0, 0.02))
        else:
            run = crasher.run()
        if after is not None and last:
            after(last)
        if not run.killed:
            assert run.returncode == 0, run.stderr
            return done
        done, last = done + 1, mode


def _lines(path: Path) -> int:
    return path.read_text(encoding="utf-8").count("\n")


def duplicates(fake: FakeDiscord, *, dms_only: bool = False) -> int:
    """Extra copies on Discord: every text the tests seed is unique per destination."""
    on_discord = [(c, t) for c, t in fake.all_contents()
                  if not dms_only or c not in CHANNELS]
    return sum(n - 1 for n in Counter(on_discord).values())
