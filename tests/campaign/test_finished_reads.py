"""Issue 10 item 7 at the service: a finished campaign stays readable in its channel (status,
views, pictures, the GM log, lists) until a new one starts there; intents still refuse."""

from __future__ import annotations

import pytest

from bot.campaign import CampaignService
from bot.campaign.messages import end_summary, plain_line
from bot.errors import InvalidState, NotFound
from tests.campaign.conftest import ALICE, BOB, CHANNEL, GM, GUILD, guess, started


async def won(service: CampaignService) -> int:
    """A guess campaign that alice wins at once: both guess 3, both score, target 1."""
    info = await started(service, ALICE, BOB, target="1")
    await service.submit(ALICE, info.id, 1, guess(3))
    await service.submit(BOB, info.id, 1, guess(3))
    return info.id


async def test_a_won_campaign_reads_as_finished_with_its_winner(
    service: CampaignService
) -> None:
    campaign_id = await won(service)
    status = await service.status(CHANNEL, BOB.user_id)
    assert (status.id, status.status, status.pending) == (campaign_id, "ended", [])
    assert status.end_reason == "Alice wins with 1!"
    assert "Scores: Alice 1, Bob 1" in status.text
    view = await service.seat_view(ALICE, CHANNEL)
    assert view.info.status == "ended" and view.seat == 1 and view.requests == []
    assert view.info.end_reason == "Alice wins with 1!"
    picture = await service.picture(BOB, CHANNEL, "board")
    assert picture.view["scores"] == {1: 1, 2: 1}
    log = await service.gm_log(GM, CHANNEL, 5)
    assert log[-1].text == "Alice wins with 1!"
    [done] = await service.list_campaigns(GUILD, finished=True)
    assert (done.id, done.end_reason) == (campaign_id, "Alice wins with 1!")
    assert await service.list_campaigns(GUILD) == []


async def test_intents_refuse_a_finished_campaign_and_a_new_one_takes_the_channel(
    service: CampaignService
) -> None:
    await won(service)
    for intent in (service.gm_advance, service.gm_undo, service.gm_pause):
        with pytest.raises(NotFound, match=r"no running campaign in this channel: "
                                           r"\*\*Dice Cup\*\* is over"):
            await intent(GM, CHANNEL)
    with pytest.raises(NotFound):
        await service.join(ALICE, CHANNEL)
    fresh = await service.create(GM, GUILD, CHANNEL, "guess", "Rematch")
    status = await service.status(CHANNEL, ALICE.user_id)
    assert (status.id, status.status, status.end_reason) == (fresh.id, "setup", None)
    with pytest.raises(InvalidState, match="not started yet"):
        await service.picture(ALICE, CHANNEL, "board")  # the new one has nothing to show
    assert (await service.gm_log(GM, CHANNEL)) == []


def test_end_summary_is_plain_words() -> None:
    assert end_summary("x", "**alice wins**: reached 10 RP (O-8).\nalice: 10 RP") == (
        "alice wins: reached 10 RP.")
    assert end_summary("x", "**The battle is over** after turn 2: only bob fights (H-D24, "
                            "H-12)") == "The battle is over after turn 2: only bob fights"
    assert end_summary("The campaign is over.") == "The campaign is over."
    # /gm undo quotes the undone result's first line the same way
    assert plain_line("**Fleet orders revealed, round 1** (E-3)\n- Vanguard: hold") == (
        "Fleet orders revealed, round 1")
