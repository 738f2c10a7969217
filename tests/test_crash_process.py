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
import time
from pathlib import Path

import pytest

from cogs.common import split_content
from storage.outbox import NewMessage
from tests.support.crashes import KILL_MODES, Crasher, duplicates
from tests.support.fake_discord import CHANNELS, FakeDiscord, seed

ALICE, BOB = 310000000000000001, 310000000000000002


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


@pytest.fixture
def fake() -> FakeDiscord:
    fake = FakeDiscord()
    yield fake  # type: ignore[misc]
    fake.close()


POINTS = {1: "after piece 1 of a long message", 2: "after the last piece of a long message",
          3: "after a panel DM", 4: "after a channel post"}


@pytest.mark.parametrize("nth", list(POINTS), ids=list(POINTS.values()))
@pytest.mark.parametrize("mode", KILL_MODES)
def test_p33_a_kill_between_discords_reply_and_the_sent_mark_posts_nothing_twice(
    tmp_path: Path, fake: FakeDiscord, nth: int, mode: str
) -> None:
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
    # the retry was answered with the message Discord already had (its nonce)
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
    rng = random.Random(1602)
    db_path = tmp_path / "admiralty.db"
    messages = [m for i in range(12) for m in three_kinds(f"#{i} ")]
    asyncio.run(seed(db_path, messages))
    crasher = Crasher(fake, db_path, tmp_path)
    kills, start = 0, time.monotonic()
    while True:
        if kills < KILLS and time.monotonic() - start < BUDGET:
            run = crasher.run(rng.randint(1, 3), rng.choice(KILL_MODES))
        else:
            run = crasher.run()
        if not run.killed:
            assert run.returncode == 0, run.stderr
            break
        kills += 1
    assert kills >= 5  # the loop did kill (a slow machine stops it early, never at none)
    assert duplicates(fake) == 0
    assert sorted(fake.all_contents()) == expected(fake, messages)
    assert crasher.statuses() == ["sent"] * len(messages)
    assert any(c.replayed for c in fake.creates)
