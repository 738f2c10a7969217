"""Plain words in every post of the demos (issue 15 item 6): no campaign ids, no internal
sector or order values, and RT, SF and EE spelled out where they first appear in a post
(E-D44)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.campaign import demo_record
from bot.campaign.models import OutboxMessage
from tests.support.demos import Demos

SHORT = re.compile(r"\b(RT|SF|EE)((?:\+[a-z]+)*)\b")
INTERNAL = re.compile(r"campaign \d+|`system`|maintain-orbit goes|moved to a newer message")


def _posts(sent: list[OutboxMessage]) -> list[str]:
    """Every post and DM of a demo as players read it: its text, and each embed apart."""
    seen: list[str] = []
    for message in sent:
        if message.user_id != demo_record.GM_USER_ID:
            seen.append(message.content)
            seen.extend("\n".join([str(e.get("title", "")), str(e.get("description", "")),
                                   *(f"{f['name']}\n{f['value']}" for f in e.get("fields", [])),
                                   str(e.get("footer", ""))]) for e in message.embeds)
    return seen


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "kwargs"), [
    ("ftcamp", {"seed": 7, "options": {"rounds": "3"}}),
    ("orbits", {"seed": 7, "players": 3, "absent": {2}}),
    ("hrft", {"seed": 7}),
])
async def test_posts_carry_no_internal_values_and_spell_out_the_short_orders(
        ruleset: str, kwargs: dict[str, Any], demos: Demos) -> None:
    posts = _posts((await demos.play(ruleset, **kwargs)).sent)
    assert posts
    leaks = [m.group(0) for p in posts for m in [INTERNAL.search(p)] if m]
    assert not leaks, leaks[:5]
    unexplained = []
    for p in posts:
        first = {}
        for m in SHORT.finditer(p):
            first.setdefault(m.group(1), m)
        for m in first.values():
            if not p[m.end():].startswith(" ("):
                unexplained.append(p[max(0, m.start() - 40): m.end() + 20])
    assert not unexplained, unexplained[:5]
    if ruleset == "ftcamp":
        assert any("SF (StandOff)" in p or "EE (Engage)" in p for p in posts)
