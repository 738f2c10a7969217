"""Acted is per step (P-30, issue 15 item 6): no version of any tracker in the demos shows a
seat both waiting and acted. The absent run of Orbits showed 127 such versions, the FTCamp
and HRFT demos dozens, when acted was counted across a turn's phases."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.support.demos import Demos

WAITING = re.compile(r"^Waiting for (.*?)(?:; deadline .*)?\.$", re.M)
ACTED = re.compile(r"^Acted: (.*)\.$", re.M)


def _names(listed: str) -> set[str]:
    return {n.strip().lstrip("@") for n in listed.split(",")}


async def versions(demos: Demos, ruleset: str, **kwargs: Any) -> list[str]:
    """Every channel post and edit of a demo, as its reader sees it (mentions as names)."""
    played = await demos.play(ruleset, **kwargs)
    return [played.readable(m.content) for m in played.sent if m.kind == "channel"]


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "kwargs"), [
    ("orbits", {"players": 3, "seed": 7, "absent": {2}}),
    ("orbits", {"seed": 3}),
    ("ftcamp", {"seed": 7}),
    ("hrft", {"seed": 7}),
])
async def test_no_tracker_version_shows_a_seat_both_waiting_and_acted(
        ruleset: str, kwargs: dict[str, Any], demos: Demos) -> None:
    trackers = [v for v in await versions(demos, ruleset, **kwargs) if WAITING.search(v)]
    assert trackers
    both = []
    for text in trackers:
        acted = ACTED.search(text)
        waiting = _names(WAITING.search(text).group(1))  # type: ignore[union-attr]
        if acted and waiting & _names(acted.group(1)):
            both.append(text.splitlines()[:3])
    assert not both, f"{len(both)} versions, the first: {both[0]}"


@pytest.mark.slow
async def test_a_sealed_step_still_says_who_has_acted(demos: Demos) -> None:
    # FTCamp's fleet orders are sealed: while one player is waited for, the others' orders
    # are in, and the tracker says so.
    assert any(WAITING.search(v) and ACTED.search(v)
               for v in await versions(demos, "ftcamp", seed=7))


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "absent", "one_line"), [
    ("orbits", {2}, "Bob missed the deadline and by default passes."),
    # (Bob's picks come once he is away, P-26: said in one line all the same)
    ("ftcamp", {2}, "Bob is away; by default: "),
])
async def test_a_default_is_one_line_built_from_the_rule_sets_own_event(
        ruleset: str, absent: set[int], one_line: str, demos: Demos) -> None:
    # P-30: not "Bob missed the deadline: pass by default." and then "Bob passes."
    text = "\n".join(await versions(demos, ruleset, seed=7,
                                    players=3 if ruleset == "orbits" else None, absent=absent))
    assert one_line in text
    assert not re.search(r"missed the deadline: .* by default\.", text)
