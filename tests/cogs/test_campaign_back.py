"""/campaign back in simcord (P-26): an away seat's player ends the away state; a member who
holds no seat is refused and nothing reaches the channel."""

from __future__ import annotations

from tests.cogs.simworld import World, dm_texts, last_panel, select_id, texts
from tests.cogs.test_cog_lifecycle import guess, open_campaign


async def test_campaign_back_after_going_away(world: World) -> None:
    w = world
    await open_campaign(w)
    changed = await w.gm.slash(w.chan, "campaign settings", key="away_after", value="1")
    assert "Changed `away_after` to 1" in changed.response.content
    await w.gm.slash(w.chan, "campaign start")
    await w.env.settle()
    await guess(w, "alice", "3")
    await w.env.advance_time(48 * 3600 + 5)  # bob misses the guess: away after one
    await w.env.settle()
    channel = "\n".join(texts(w.chan))
    assert channel.count("bob is away: they missed several deadlines") == 1
    gm = "\n".join(dm_texts(w.gm))
    assert "bob has missed 1 deadline in a row and is now away" in gm
    assert "/gm replace" in gm and "/gm kick" in gm
    status = await w.alice.slash(w.chan, "campaign status")
    assert "Away (their moves take the default at once): bob" in status.response.content
    # carol holds no seat: refused, privately, and the channel hears nothing
    before = len(texts(w.chan))
    refused = await w.carol.slash(w.chan, "campaign back")
    assert refused.ephemeral and "You hold no seat" in refused.response.content
    assert len(texts(w.chan)) == before
    # alice is not away: nothing changes
    same = await w.alice.slash(w.chan, "campaign back")
    assert same.ephemeral and "You are not away" in same.response.content
    back = await w.bob.slash(w.chan, "campaign back")
    assert back.ephemeral and "Welcome back to **Dice Cup**" in back.response.content
    await w.env.settle()
    assert any("bob is back" in t for t in texts(w.chan))


async def test_any_panel_action_brings_an_away_seat_back(world: World) -> None:
    w = world
    await open_campaign(w)
    await w.gm.slash(w.chan, "campaign settings", key="away_after", value="1")
    await w.gm.slash(w.chan, "campaign start")
    await w.env.settle()
    await guess(w, "alice", "3")
    await w.env.advance_time(48 * 3600 + 5)  # bob misses the guess: away after one
    await w.env.settle()
    # alice's bank turn, then bob's (his default at once), then a new guess for both
    alice_panel = last_panel(w.alice)
    await w.alice.user.click(alice_panel, label="Pass")
    await w.env.settle()
    assert not any("bob is back" in t for t in texts(w.chan))
    panel = last_panel(w.bob)
    assert "You are away from **Dice Cup**" in panel.content
    await w.bob.user.select(panel, ["4"], custom_id=select_id(panel))  # a choice, no submit
    await w.env.settle()
    assert sum("bob is back" in t for t in texts(w.chan)) == 1
