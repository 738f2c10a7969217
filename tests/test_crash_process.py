"""Every message exactly once across a crash (issue 16.2, P-33), in a real ``python -m bot``
process: SIGKILL between Discord making a message and the bot's sent-mark, then a restart on
the same database file. The retry carries the row's stored nonce with ``enforce_nonce``, so
Discord (here tests/support/fake_discord.py, which keeps its messages across the restart)
answers with the message it already made: nothing is on Discord twice and every outbox row
ends sent. With nonces ignored (Discord after its window of a few minutes) the same crash
leaves a copy, so these tests can fail."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.crashes import (
    WINDOW_MODES,
    Crasher,
    duplicates,
    expected,
    random_kills,
    three_kinds,
)
from tests.support.examples import examples
from tests.support.fake_discord import CHANNELS, FakeDiscord, seed

# each runs the real bot or a bench script in a process of its own (seconds)
pytestmark = pytest.mark.slow


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    fake = FakeDiscord()
    yield fake
    fake.close()


POINTS = {1: "after piece 1 of a long message", 2: "after the last piece of a long message",
          3: "after a panel DM", 4: "after a channel post"}


@pytest.mark.parametrize("nth", list(POINTS), ids=list(POINTS.values()))
@pytest.mark.parametrize("mode", WINDOW_MODES)
def test_p33_a_kill_between_discords_reply_and_the_sent_mark_posts_nothing_twice(
    tmp_path: Path, fake: FakeDiscord, nth: int, mode: str
) -> None:
    """Killed at the nth post, once Discord has made it: ``replied``, the bot has read
    Discord's answer and not yet written the sent-mark (or, for piece 1, the stored
    progress); ``unanswered``, the answer never reached it. The restart posts that one
    again with its nonce and Discord hands back the message it made."""
    db_path = tmp_path / "admiralty.db"
    messages = three_kinds()
    asyncio.run(seed(db_path, messages))
    crasher = Crasher(fake, db_path, tmp_path)
    first = crasher.run(nth, mode)
    assert first.killed and first.returncode == -9
    assert len(fake.all_contents()) == nth  # Discord has the interrupted one
    assert "pending" in crasher.statuses()  # and the bot never recorded it
    after = crasher.run()
    assert not after.killed and after.returncode == 0, after.stderr
    assert "Traceback" not in after.stderr
    assert sorted(fake.all_contents()) == expected(fake, messages)
    assert duplicates(fake) == 0
    assert crasher.statuses() == ["sent"] * len(messages)
    # every post carried its nonce; the retry was answered with the message Discord
    # already had
    assert all(c.nonce for c in fake.creates)
    assert [c.replayed for c in fake.creates].count(True) == 1
    assert fake.creates[nth].replayed and fake.creates[nth].nonce == fake.creates[nth - 1].nonce


def test_p33_with_nonces_ignored_the_same_kill_posts_twice(tmp_path: Path) -> None:
    """The control: Discord beyond its nonce window (the fake ignores nonces). The post the
    kill interrupted is on Discord twice; the crash tests above would see it."""
    fake = FakeDiscord(honour_nonces=False)
    try:
        db_path = tmp_path / "admiralty.db"
        messages = three_kinds()
        asyncio.run(seed(db_path, messages))
        crasher = Crasher(fake, db_path, tmp_path)
        assert crasher.run(4, "replied").killed
        assert not crasher.run().killed
        assert duplicates(fake) == 1
        assert fake.contents(CHANNELS[1]) == [messages[2].content] * 2
    finally:
        fake.close()


KILLS, BUDGET = 30, 40.0  # kills wanted; seconds they may take (2 shared cores)


def test_p33_random_kills_leave_every_message_once(tmp_path: Path, fake: FakeDiscord) -> None:
    """Kill after kill at a seeded random create and way, each a restart of the last, until
    every message is out: nothing on Discord twice, nothing missing, every row sent."""
    db_path = tmp_path / "admiralty.db"
    messages = [m for i in range(KILLS) for m in three_kinds(f"#{i} ")]
    asyncio.run(seed(db_path, messages))
    crasher = Crasher(fake, db_path, tmp_path)
    wanted = examples(KILLS)  # all 30 under the ci profile, 6 in the quick dev loop
    kills = random_kills(crasher, random.Random(1602), wanted, BUDGET)
    assert kills >= min(5, wanted)  # the loop did kill (a slow machine stops it early)
    assert duplicates(fake) == 0
    assert sorted(fake.all_contents()) == expected(fake, messages)
    assert crasher.statuses() == ["sent"] * len(messages)
    assert any(c.replayed for c in fake.creates)
