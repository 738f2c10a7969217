"""Acted is per step (P-30, issue 15 item 6): no version of any tracker in the demos shows a
seat both waiting and acted. The absent run of Orbits showed 127 such versions, the FTCamp
and HRFT demos dozens, when acted was counted across a turn's phases."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.campaign import demo

WAITING = re.compile(r"^Waiting for (.*?)(?:; deadline .*)?\.$", re.M)
ACTED = re.compile(r"^Acted: (.*)\.$", re.M)


def _names(listed: str) -> set[str]:
    return {n.strip().lstrip("@") for n in listed.split(",")}


@pytest.fixture
def versions(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every channel post and edit of a demo, as its reader sees it (mentions as names)."""
    seen: list[str] = []
    original = demo.Transcript.add

    def add(self: demo.Transcript, message: Any, *args: Any) -> None:
        if message.kind == "channel":
            seen.append(self._readable(message.content))
        original(self, message, *args)

    monkeypatch.setattr(demo.Transcript, "add", add)
    return seen


@pytest.mark.parametrize(("ruleset", "kwargs"), [
    ("orbits", {"players": 3, "seed": 7, "absent": {2}}),
    ("orbits", {"seed": 3}),
    ("ftcamp", {"seed": 7}),
    ("hrft", {"seed": 7}),
])
async def test_no_tracker_version_shows_a_seat_both_waiting_and_acted(
        ruleset: str, kwargs: dict[str, Any], tmp_path: Path, versions: list[str]) -> None:
    await demo.run_demo(ruleset, tmp_path / "out", **kwargs)
    trackers = [v for v in versions if WAITING.search(v)]
    assert trackers
    both = []
    for text in trackers:
        acted = ACTED.search(text)
        waiting = _names(WAITING.search(text).group(1))  # type: ignore[union-attr]
        if acted and waiting & _names(acted.group(1)):
            both.append(text.splitlines()[:3])
    assert not both, f"{len(both)} versions, the first: {both[0]}"


async def test_a_sealed_step_still_says_who_has_acted(tmp_path: Path,
                                                      versions: list[str]) -> None:
    # FTCamp's fleet orders are sealed: while one player is waited for, the others' orders
    # are in, and the tracker says so.
    await demo.run_demo("ftcamp", tmp_path / "out", seed=7)
    assert any(WAITING.search(v) and ACTED.search(v) for v in versions)


@pytest.mark.parametrize(("ruleset", "absent", "one_line"), [
    ("orbits", {2}, "Bob missed the deadline and by default passes."),
    # (Bob's picks come once he is away, P-26: said in one line all the same)
    ("ftcamp", {2}, "Bob is away; by default: "),
])
async def test_a_default_is_one_line_built_from_the_rule_sets_own_event(
        ruleset: str, absent: set[int], one_line: str, tmp_path: Path,
        versions: list[str]) -> None:
    # P-30: not "Bob missed the deadline: pass by default." and then "Bob passes."
    await demo.run_demo(ruleset, tmp_path / "out", seed=7, players=3 if ruleset == "orbits"
                        else None, absent=absent)
    text = "\n".join(versions)
    assert one_line in text
    assert not re.search(r"missed the deadline: .* by default\.", text)
