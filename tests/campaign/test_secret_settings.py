"""P-11: a secret option (FTCamp's scenario holds every player's forces) is shown to the GM
and server admins only."""

from __future__ import annotations

from bot.campaign import CampaignService
from bot.campaign.settings import HIDDEN_VALUE
from tests.campaign.conftest import ADMIN, ALICE, CHANNEL, GM, GUILD

SCENARIO = 'name = "Secret"\n# Bob\'s decoys sit in 0304\n'


async def test_p11_players_do_not_see_the_scenario_but_the_gm_does(
    service: CampaignService,
) -> None:
    await service.create(GM, GUILD, CHANNEL, "ftcamp", "Border War")
    await service.join(ALICE, CHANNEL)
    await service.settings(GM, CHANNEL, {"scenario": SCENARIO})

    seen_by_alice = await service.settings(ALICE, CHANNEL, {})
    assert seen_by_alice["scenario"] == HIDDEN_VALUE
    assert "decoys" not in str(seen_by_alice)
    assert seen_by_alice["rounds"] == "0"  # other options stay visible
    assert (await service.settings(GM, CHANNEL, {}))["scenario"] == SCENARIO
    assert (await service.settings(ADMIN, CHANNEL, {}))["scenario"] == SCENARIO


async def test_p11_an_empty_secret_option_reads_as_empty(service: CampaignService) -> None:
    await service.create(GM, GUILD, CHANNEL, "ftcamp", "Border War")
    assert (await service.settings(ALICE, CHANNEL, {}))["scenario"] == ""
