"""The demos' channels read in order and stay quiet (issue 10, items 1 and 4): every public
event is in the channel transcript, in the order it happened, reading top to bottom; the
3-player Orbits demo keeps to at most 3 channel messages per game turn on average."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.campaign.demo import run_demo
from bot.campaign.steps import StepEngine
from bot.rules.base import Event


def plain(text: str) -> str:
    text = re.sub(r"^> ?", "", text, flags=re.MULTILINE)
    return re.sub(r"\*\*|__|(?<!\w)_|_(?!\w)", "", text).strip().rstrip(".")


def channel_messages(folder: Path) -> list[str]:
    """The channel transcript's messages, each in its final form (edits applied)."""
    body = (folder / "channel.md").read_text(encoding="utf-8")
    parts = re.split(r"\n---\n", body)
    return [plain(re.sub(r"^## .*$|^# .*$", "", p, flags=re.MULTILINE)) for p in parts]


async def play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str,
               players: int) -> tuple[Any, list[str]]:
    keys: list[str] = []
    route = StepEngine._route

    def recording(self: StepEngine, ctx: Any, fx: Any, events: list[Event], *a: Any,
                  **kw: Any) -> None:
        if ctx.row.parent_id is None:  # the campaign's own channel (not a battle thread)
            for ev in events:
                if ev.audience.kind == "public":
                    head = ev.embed.title if ev.embed is not None else ev.text
                    keys.append(plain(head.strip().split("\n", 1)[0]))
        route(self, ctx, fx, events, *a, **kw)

    monkeypatch.setattr(StepEngine, "_route", recording)
    result = await run_demo(ruleset, tmp_path, seed=7, players=players)
    assert result.finished
    return result, keys


@pytest.mark.parametrize(("ruleset", "players"), [("orbits", 3), ("ftcamp", 2), ("hrft", 2)])
async def test_every_public_line_is_in_the_channel_in_the_order_it_happened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str, players: int
) -> None:
    _, keys = await play(tmp_path, monkeypatch, ruleset, players)
    channel = channel_messages(tmp_path)
    assert len(keys) > 20
    at = 0
    for key in keys:
        found = next((i for i in range(at, len(channel)) if key in channel[i]), None)
        assert found is not None, (key, "above" if any(key in c for c in channel) else
                                   "lost", channel[max(at - 1, 0):at + 2])
        at = found


async def test_the_orbits_demo_posts_at_most_three_messages_a_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result, _ = await play(tmp_path, monkeypatch, "orbits", 3)
    turns = int(re.search(r"Turn (\d+)", result.final_status).group(1))  # type: ignore[union-attr]
    assert turns > 10
    assert result.channel_posts <= 3 * turns
