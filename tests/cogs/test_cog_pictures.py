"""Pictures are drawn after commit, off the event loop, once each (issue 9.1): the
transaction records a request, the outbox draws it in a worker thread when it sends."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.render import registry
from tests.cogs.conftest import new_bot
from tests.cogs.simworld import World
from tests.cogs.test_cog_lifecycle import guess, start


@dataclass
class Draw:
    thread: int
    writing: bool


@pytest.fixture
def draws(world: World, monkeypatch: pytest.MonkeyPatch) -> list[Draw]:
    """Wraps the renderer registry: records the thread of every drawing and whether the
    bot's write transaction was open at that moment."""
    seen: list[Draw] = []
    real = registry.render

    def spy(ruleset: str, name: str, view: dict[str, Any]) -> bytes:
        db = world.env.bot.service.db
        seen.append(Draw(threading.get_ident(), db.writing))
        return real(ruleset, name, view)

    monkeypatch.setattr(registry, "render", spy)
    return seen


def reveals(world: World) -> list[Any]:
    return [m for m in world.chan.history() if "Guesses" in m.content]


async def test_no_picture_is_drawn_on_the_loop_or_inside_the_transaction(
    world: World, draws: list[Draw]
) -> None:
    loop_thread = threading.get_ident()  # the test body runs on the bot's event loop
    await start(world)
    await guess(world, "alice", "3")
    await guess(world, "bob", "5")
    await world.env.settle()
    [reveal] = reveals(world)
    assert [a.filename for a in reveal.attachments] == ["board.png"]
    assert (await reveal.attachments[0].read()).startswith(b"\x89PNG")
    assert draws, "the reveal's picture was never drawn"
    assert all(d.thread != loop_thread for d in draws)
    assert not any(d.writing for d in draws)


async def test_a_retried_message_is_not_drawn_again(world: World, draws: list[Draw]) -> None:
    await start(world)
    await guess(world, "alice", "3")
    world.env.inject_error("POST", f"/channels/{world.chan.id}/messages", status=503, times=2)
    await guess(world, "bob", "5")
    await world.env.advance_time(600)
    [reveal] = reveals(world)
    assert [a.filename for a in reveal.attachments] == ["board.png"]
    assert len(draws) == 1  # three tries, one drawing


async def test_a_restart_between_commit_and_send_sends_the_picture_once(
    world: World, db_path: Path, draws: list[Draw]
) -> None:
    await start(world)
    await guess(world, "alice", "3")
    world.env.inject_error("POST", f"/channels/{world.chan.id}/messages", status=503, times=1)
    await guess(world, "bob", "5")  # committed; its post failed and waits for a retry
    assert reveals(world) == []
    await world.env.restart_bot(new_bot(db_path))
    await world.env.advance_time(600)
    await world.env.restart_bot(new_bot(db_path))
    await world.env.advance_time(600)
    [reveal] = reveals(world)
    assert [a.filename for a in reveal.attachments] == ["board.png"]
    db = world.env.bot.service.db
    left = await db.fetchone("SELECT COUNT(*) FROM outbox_files")
    assert left is not None and left[0] == 0  # sent: no file kept
