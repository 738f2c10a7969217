"""The demos' channels read in order and stay quiet (issue 10, items 1 and 4): every public
event is in the channel transcript, in the order it happened, reading top to bottom; the
3-player Orbits demo keeps to at most 3 channel messages per game turn on average."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.support.demos import Demos


def plain(text: str) -> str:
    text = re.sub(r"^> ?", "", text, flags=re.MULTILINE)
    return re.sub(r"\*\*|__|(?<!\w)_|_(?!\w)", "", text).strip().rstrip(".")


def channel_messages(folder: Path) -> list[str]:
    """The channel transcript's messages, each in its final form (edits applied)."""
    body = (folder / "channel.md").read_text(encoding="utf-8")
    parts = re.split(r"\n---\n", body)
    return [plain(re.sub(r"^## .*$|^# .*$", "", p, flags=re.MULTILINE)) for p in parts]


async def play(demos: Demos, ruleset: str, players: int) -> tuple[Any, list[str]]:
    """The demo's result, and the first line of each public event of the campaign's own
    channel (not a battle thread's) as the demo recorded it, in order."""
    played = await demos.play(ruleset, seed=7, players=players)
    assert played.result.finished
    keys = []
    for routed in played.events:
        ev = routed.event
        if not routed.battle and ev.audience.kind == "public":
            head = ev.embed.title if ev.embed is not None else ev.text
            keys.append(plain(head.strip().split("\n", 1)[0]))
    return played, keys


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "players"), [("orbits", 3), ("ftcamp", 2), ("hrft", 2)])
async def test_every_public_line_is_in_the_channel_in_the_order_it_happened(
    demos: Demos, ruleset: str, players: int
) -> None:
    played, keys = await play(demos, ruleset, players)
    channel = channel_messages(played.folder)
    assert len(keys) > 20
    at = 0
    for key in keys:
        found = next((i for i in range(at, len(channel)) if key in channel[i]), None)
        assert found is not None, (key, "above" if any(key in c for c in channel) else
                                   "lost", channel[max(at - 1, 0):at + 2])
        at = found


@pytest.mark.slow
async def test_the_orbits_demo_posts_at_most_three_messages_a_turn(demos: Demos) -> None:
    played, _ = await play(demos, "orbits", 3)
    result = played.result
    turns = int(re.search(r"Turn (\d+)", result.final_status).group(1))  # type: ignore[union-attr]
    assert turns > 10
    assert result.channel_posts <= 3 * turns
