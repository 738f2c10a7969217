"""campaigns_of_user lists GM-only campaigns too (for /orders), and long settings are listed
by size (settings.brief)."""

from __future__ import annotations

from bot.campaign import CampaignService
from bot.campaign.settings import LONG_VALUE, brief
from bot.rules.base import GM_SEAT
from tests.campaign.conftest import ALICE, BOB, CAROL, CHANNEL, GM, GUILD, started
from tests.support import mixed

OTHER = CHANNEL + 1


async def ids_of(service: CampaignService, user_id: int) -> list[int]:
    return [c.id for c in await service.campaigns_of_user(user_id)]


async def test_gm_only_campaign_is_listed_once_it_runs(service: CampaignService) -> None:
    info = await service.create(GM, GUILD, CHANNEL, "guess", "Dice Cup")
    await service.join(ALICE, CHANNEL)
    await service.join(BOB, CHANNEL)
    assert await ids_of(service, GM.user_id) == []  # setup: nothing to answer yet
    await service.start(GM, CHANNEL)
    [listed] = await service.campaigns_of_user(GM.user_id)
    assert listed.id == info.id
    # The GM holds no seat there: callers tell the GM seat by gm_user_id.
    assert listed.gm_user_id == GM.user_id
    assert all(s.user_id != GM.user_id for s in listed.seats)
    await service.gm_pause(GM, CHANNEL)
    assert await ids_of(service, GM.user_id) == [info.id]
    await service.end(GM, CHANNEL, "done")
    assert await ids_of(service, GM.user_id) == []


async def test_a_gm_who_also_plays_is_listed_once(service: CampaignService) -> None:
    await service.create(GM, GUILD, CHANNEL, "guess", "Dice Cup")
    await service.join(GM, CHANNEL)
    await service.join(ALICE, CHANNEL)
    info = await service.start(GM, CHANNEL)
    assert await ids_of(service, GM.user_id) == [info.id]


async def test_player_and_gm_campaigns_together_in_id_order(service: CampaignService) -> None:
    # Alice plays in the GM's campaign and runs her own (Bob and Carol play there).
    first = await started(service, ALICE, BOB)
    await service.create(ALICE, GUILD, OTHER, "guess", "Alice's Cup")
    await service.join(BOB, OTHER)
    await service.join(CAROL, OTHER)
    second = await service.start(ALICE, OTHER)
    assert await ids_of(service, ALICE.user_id) == [first.id, second.id]
    assert await ids_of(service, BOB.user_id) == [first.id, second.id]
    assert await ids_of(service, CAROL.user_id) == [second.id]
    assert await ids_of(service, 12345) == []


async def test_a_kicked_player_is_not_listed_but_the_gm_still_is(service: CampaignService) -> None:
    info = await started(service, ALICE, BOB, CAROL)
    await service.gm_kick(GM, CHANNEL, BOB.user_id)
    assert await ids_of(service, BOB.user_id) == []
    assert await ids_of(service, GM.user_id) == [info.id]


async def test_a_gm_campaign_gives_the_gm_seat_panel(service: CampaignService) -> None:
    """What /orders does with the listed campaigns: the GM seat's open request comes back."""
    mixed.register()
    await service.create(GM, GUILD, CHANNEL, "mixed", "Hide")
    await service.join(ALICE, CHANNEL)
    await service.join(BOB, CHANNEL)
    await service.start(GM, CHANNEL)
    ctx = await service.snapshot((await service.campaigns_of_user(GM.user_id))[0].id)
    await service.submit(ALICE, ctx.row.id, ctx.row.step_no, {"type": "hide", "box": "1"})
    step = (await service.snapshot(ctx.row.id)).row.step_no
    await service.submit(BOB, ctx.row.id, step, {"type": "call", "box": "3"})
    [listed] = await service.campaigns_of_user(GM.user_id)
    [panel] = await service.panels_for(listed.id, GM.user_id)
    assert panel.seat == GM_SEAT and panel.request.step == "approve"


def test_brief_keeps_short_values_and_sizes_long_or_multiline_ones() -> None:
    assert brief("step_hours", "48") == "48"
    edge = "y" * LONG_VALUE
    assert brief("notes", edge) == edge
    assert brief("notes", edge + "y") == (
        f"({LONG_VALUE + 1} characters; `/campaign settings key:notes` shows it)"
    )
    assert brief("scenario", "[a]\nb = 1") == (
        "(9 characters; `/campaign settings key:scenario` shows it)"
    )
