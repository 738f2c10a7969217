"""How many messages a crash posts twice, with the outbox's nonces honoured by Discord and
with them ignored (Discord beyond its window of a few minutes), issue 16.2 / P-33.

A real ``python -m bot`` against the local stand-in for Discord (tests/support/
fake_discord.py) is SIGKILLed again and again at a seeded random message create, between
Discord making the message and the bot's sent-mark (tests/support/crashes.py), and
restarted on the same database until everything is out. The same seed, messages and kill
points run once per mode; the figure is the extra copies on Discord. It counts events, not
time, though a ``timed`` kill (a few milliseconds after a create, nothing held) lands where
the machine's speed puts the bot by then; the kills in the window (``replied``, the answer
read and no sent-mark yet; ``unanswered``, the answer never delivered) do not depend on it.

    python bench/crash_duplicates.py [--kills 30] [--seed 1602] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as `python bench/x.py` from the repository root
    sys.path.insert(0, str(ROOT))

from tests.support.crashes import (  # noqa: E402
    KILL_MODES,
    Crasher,
    duplicates,
    random_kills,
    three_kinds,
)
from tests.support.fake_discord import FakeDiscord, seed  # noqa: E402


def one_mode(honour: bool, kills: int, seed_no: int) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        db_path = workdir / "admiralty.db"
        # more than the kills can get through: every kill falls on a send
        messages = [m for i in range(kills + 2) for m in three_kinds(f"#{i} ")]
        asyncio.run(seed(db_path, messages))
        fake = FakeDiscord(honour_nonces=honour)
        try:
            crasher = Crasher(fake, db_path, workdir)
            by_kind: dict[str, list[int]] = {kind: [0, 0] for kind in KILL_MODES}
            seen = [0]

            def count(kind: str) -> None:  # the copies the retry after that kill made
                now = duplicates(fake)
                by_kind[kind][0] += 1
                by_kind[kind][1] += now - seen[0]
                seen[0] = now

            started = time.monotonic()
            done = random_kills(crasher, random.Random(seed_no), kills, float("inf"), count)
            took = time.monotonic() - started
            dm_copies = duplicates(fake, dms_only=True)
            replays = sum(c.replayed for c in fake.creates)
            unsent = sum(s != "sent" for s in crasher.statuses())
            return (f"nonces {'honoured' if honour else 'ignored'}: {done} kills, "
                    f"{duplicates(fake)} messages on Discord twice ({dm_copies} of them DMs), "
                    f"{replays} retries answered by nonce, {unsent} rows not sent, "
                    f"{len(messages)} messages ({took:.0f} s); by kill: "
                    + ", ".join(f"{kind} {n} kills {d} copies"
                                for kind, (n, d) in by_kind.items()))
        finally:
            fake.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1602)
    parser.add_argument("--quick", action="store_true", help="3 kills per mode")
    args = parser.parse_args()
    kills = 3 if args.quick else args.kills
    logging.disable(logging.ERROR)  # the stand-in's own noise when a bot dies mid-answer
    for honour in (True, False):
        print(one_mode(honour, kills, args.seed), flush=True)


if __name__ == "__main__":
    main()
