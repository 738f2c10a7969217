"""SIGTERM and SIGINT stop a real ``python -m bot`` gracefully (P-38): the bot, connected to a
local stand-in for Discord (REST and gateway, tests/support/fake_discord.py), is sending the
first of two messages already due when the signal comes; it finishes that one, sends the
other, closes the database (no write-ahead log left) and exits with status 0."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
from pathlib import Path

import pytest

from storage.outbox import NewMessage
from tests.support.fake_discord import CHANNEL, FakeDiscord, seed, start_bot

# each runs the real bot or a bench script in a process of its own (seconds)
pytestmark = pytest.mark.slow


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_p38_a_signal_stops_the_bot_after_the_due_messages(
    tmp_path: Path, sig: signal.Signals
) -> None:
    db_path = tmp_path / "admiralty.db"
    texts = ["first news", "second news"]
    asyncio.run(seed(db_path, [NewMessage(None, "channel", t, channel_id=CHANNEL)
                               for t in texts]))
    fake = FakeDiscord(slow_first_post=1.5)  # the signal arrives while the first is under way
    proc = start_bot(tmp_path, db_path, fake)
    try:
        assert fake.first_post.wait(60), "the bot never posted"
        proc.send_signal(sig)
        _, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        fake.close()
    assert proc.returncode == 0, stderr
    assert f"{sig.name}: stopping once the work under way is done" in stderr
    assert "Traceback" not in stderr
    # the one under way finished, the other due one went out
    assert fake.contents(CHANNEL) == texts
    # closed: the write-ahead log went into the file (SQLite removes it at the last close)
    assert not Path(f"{db_path}-wal").exists()
    conn = sqlite3.connect(db_path)
    try:
        statuses = [r[0] for r in conn.execute("SELECT status FROM outbox ORDER BY id")]
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        conn.close()
    assert statuses == ["sent", "sent"]
