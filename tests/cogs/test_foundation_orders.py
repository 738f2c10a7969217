"""/orders reaches the GM's own requests (a GM-only campaign), in DM and in the channel, and
/orbits hand still only counts campaigns where the user holds a seat."""

from __future__ import annotations

import pytest

from bot.rules.base import Ruleset
from tests.cogs.simworld import World, custom_ids, dm_texts, fresh, last_panel, select_id, texts
from tests.support import mixed


@pytest.fixture(autouse=True)
def mixed_rules(guess_rules: Ruleset) -> Ruleset:
    mixed.register()
    return mixed.RULESET


async def start_hide_and_seek(w: World) -> None:
    """GM runs it without playing; alice hides (sealed), bob seeks (turn)."""
    await w.gm.slash(w.chan, "campaign create", ruleset="mixed", name="Hide")
    for member in (w.alice, w.bob):
        await member.slash(w.chan, "campaign join")
    result = await w.gm.slash(w.chan, "campaign start")
    assert result.ephemeral


async def choose_box(member: object, box: str) -> None:
    user = member.user  # type: ignore[attr-defined]
    panel = last_panel(member)  # type: ignore[arg-type]
    await user.select(panel, [box], custom_id=select_id(panel))
    await user.click(fresh(member, panel), label="Submit")  # type: ignore[arg-type]


async def reach_gm_step(w: World) -> None:
    await start_hide_and_seek(w)
    await choose_box(w.alice, "2")
    await choose_box(w.bob, "2")
    assert any("Reveal: alice hid in box 2" in t for t in texts(w.chan))


async def test_gm_only_campaign_panel_comes_back_with_orders_in_dm(world: World) -> None:
    await reach_gm_step(world)
    result = await world.gm.user.slash("orders")
    assert not result.ephemeral
    content = result.response.content
    assert content.startswith("**Hide** (GM)")
    assert "GM: approve the round." in content
    assert any(":0:" in i for i in custom_ids(result.response))  # the GM seat's panel
    # The re-opened panel works: approving ends the one-round campaign.
    await world.gm.user.click(result.response, label="Approve")
    channel = "\n".join(texts(world.chan))
    assert "The GM approves round 1." in channel
    assert "The campaign is over." in channel


async def test_gm_orders_in_the_channel_go_to_dm(world: World) -> None:
    await reach_gm_step(world)
    before = len(dm_texts(world.gm))
    result = await world.gm.slash(world.chan, "orders")
    assert result.ephemeral and "DM" in result.response.content
    assert len(dm_texts(world.gm)) == before + 1
    assert "GM: approve the round." in dm_texts(world.gm)[-1]


async def test_gm_with_nothing_to_do_is_told_so_not_refused(world: World) -> None:
    await start_hide_and_seek(world)  # players owe input, the GM does not
    result = await world.gm.user.slash("orders")
    assert result.ephemeral
    assert "Nothing is waiting for you" in result.response.content


async def test_orders_autocomplete_marks_the_gm_campaign(world: World) -> None:
    await start_hide_and_seek(world)
    assert [c["name"] for c in await world.gm.user.autocomplete("orders", "campaign", "")] == [
        "Hide (GM)"
    ]
    assert [c["name"] for c in await world.alice.user.autocomplete("orders", "campaign", "")] == [
        "Hide"
    ]
    # Named, the GM campaign is found too.
    choice = (await world.gm.user.autocomplete("orders", "campaign", "hi"))[0]
    result = await world.gm.user.slash("orders", campaign=choice["value"])
    assert "Nothing is waiting for you" in result.response.content


async def test_a_player_sees_her_own_seat_in_the_panel_header(world: World) -> None:
    await start_hide_and_seek(world)
    result = await world.alice.user.slash("orders")
    assert result.response.content.startswith("**Hide** (seat 1)")
    assert "Hide in a box" in result.response.content


async def test_orbits_hand_in_dm_ignores_campaigns_the_user_only_runs(world: World) -> None:
    await world.gm.slash(world.chan, "campaign create", ruleset="orbits", name="Sol")
    for member in (world.alice, world.bob):
        await member.slash(world.chan, "campaign join")
    await world.gm.slash(world.chan, "campaign start")
    refused = await world.gm.user.slash("orbits hand")
    assert refused.ephemeral
    assert "You hold no seat in a running Orbits campaign" in refused.response.content
    hand = await world.alice.user.slash("orbits hand")
    assert hand.ephemeral and "your cards" in hand.response.content
