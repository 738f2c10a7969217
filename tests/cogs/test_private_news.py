"""Private news (a scan report, a locked guess) is a DM of its own, above the seat's panel:
clicking the panel rewrites the panel's message and must never wipe the news (issue 4)."""

from __future__ import annotations

from tests.cogs.simworld import World, custom_ids, fresh, last_panel
from tests.cogs.test_cog_lifecycle import guess, start


async def test_news_survives_clicks_on_the_panel_below_it(world: World) -> None:
    await start(world)
    await guess(world, "alice", "2")
    await guess(world, "bob", "5")
    dms = world.alice.user.dm_channel.history()
    news, panel = dms[-2], dms[-1]
    assert news.content == "Your guess was locked as 2." and not custom_ids(news)
    assert panel.id == last_panel(world.alice).id and "Bank" in panel.content

    await world.alice.user.click(panel, label="Bank")  # opens the Bank page: an edit
    assert fresh(world.alice, panel).content != panel.content  # the panel was rewritten
    assert fresh(world.alice, news).content == "Your guess was locked as 2."
