"""Battle threads a group can follow (issue 15 item 5; H-D46, H-D47, O-D28, O-D29): the
demos' battle turns are counted in new posts (edits do not count), and each post still says
what happened, in order, with every roll."""

from __future__ import annotations

import pytest

from bot.campaign import demo_record
from bot.campaign.models import OutboxMessage
from tests.support.demos import Demos

MOST = 4  # new posts in one battle turn


def final_forms(sent: list[OutboxMessage], channel: int) -> list[OutboxMessage]:
    """Each channel post as it reads in the end (its last edit), in channel order."""
    last: dict[int, OutboxMessage] = {}
    for m in sent:
        if m.kind == "channel" and m.channel_id == channel:
            last[m.edit_of or m.id] = m
    return list(last.values())


def status_only(m: OutboxMessage) -> bool:
    """A tracker that says nothing but who is owed or has acted."""
    lines = [x for x in m.content.split("\n") if x.strip()]
    return not m.embeds and not m.pictures and all(
        x.startswith(("**", "Waiting for", "Acted:")) and (x.startswith("**") is (i == 0))
        for i, x in enumerate(lines))


@pytest.mark.slow
async def test_h_d46_an_hrft_battle_turn_is_at_most_four_posts_with_every_roll(
        demos: Demos) -> None:
    played = await demos.play("hrft", seed=7)
    result, sent = played.result, played.sent  # sent: every message, in order
    assert result.finished and result.battle_turns
    battle = {k: n for k, n in result.turn_posts.items() if k in result.battle_turns}
    assert len(battle) == result.turns
    assert max(battle.values()) <= MOST, battle
    most = result.most_battle_posts(thread=False)
    assert most is not None and most[0] == max(battle.values())
    summary = (played.folder / "summary.md").read_text()
    assert f"Most posts in one battle turn: {most[0]} in the campaign channel" in summary
    posts = final_forms(sent, demo_record.CHANNEL_ID)
    # every shot and every damage-control roll of the game reads in the final posts
    fired = [m for m in sent if m.kind == "channel" for e in m.embeds
             if " fires at " in e["title"]]
    assert fired
    shown = "\n".join(str(e) for m in posts for e in m.embeds)
    for title in {e["title"] for m in fired for e in m.embeds if " fires at " in e["title"]}:
        assert title in shown, title
    # damage control of a turn is ONE embed, a line per roll
    repairs = [e for m in posts for e in m.embeds if e["title"] == "Damage control"]
    assert repairs and any(e["fields"][0]["value"].count("\n") >= 2 for e in repairs)
    # several sheets in one message, one per ship, each named for its ship
    pictured = [m for m in posts if len(m.pictures) > 1]
    assert pictured
    for m in posts:
        names = [p.name for p in m.pictures]
        assert len(names) == len(set(names)) and all(n.startswith("sheet-") for n in names)
        assert len(m.embeds) <= 10 and len(m.pictures) <= 10
    assert not [m for m in posts if status_only(m)]


@pytest.mark.slow
async def test_o_d28_an_orbits_battle_turn_is_at_most_four_posts_and_none_of_status_alone(
        demos: Demos) -> None:
    played = await demos.play("orbits", options={"points_per_value": "10"})
    result, sent = played.result, played.sent
    assert result.finished
    most = result.most_battle_posts(thread=False)
    assert most is not None and most[0] <= MOST, result.turn_posts
    thread = result.most_battle_posts(thread=True)  # the battle fought in its thread
    assert thread is not None and thread[0] <= MOST
    battle_turns = {t for (channel, t) in result.battle_turns if channel == demo_record.CHANNEL_ID}
    assert battle_turns
    posts = final_forms(sent, demo_record.CHANNEL_ID)
    assert not [m.content for m in posts if status_only(m)]
    # the battle card carries the step's status on top: who reports the losses
    # (a result proposed from the battle's thread is news of its own, P-15)
    cards = [m for m in posts if any(e["title"].startswith("Battle at ")
                                     and not e["title"].endswith("result proposed")
                                     for e in m.embeds)]
    assert cards and all(m.content.startswith("**Demo Orbits") for m in cards)
    summary = (played.folder / "summary.md").read_text()
    assert "Most posts in one battle turn: " in summary and "in a battle thread" in summary
