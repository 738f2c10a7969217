"""``CampaignService.seat_view`` and the reads beside it (issue 8, "What must exist" 2): each
user gets what they may see, one GM rule (the GM or an admin), the public view for anyone
else; the rule-set cogs get nothing more."""

from __future__ import annotations

import pytest

from bot.campaign import CampaignService
from bot.errors import NotFound, PermissionDenied
from bot.rules.ftcamp import RULESET as FTCAMP
from tests.campaign.conftest import ADMIN, ALICE, BOB, CAROL, CHANNEL, GM, GUILD
from tests.cogs.ftcamp_support import TWO_PLAYERS

PNG = b"\x89PNG\r\n\x1a\n"


async def ftcamp_started(service: CampaignService) -> int:
    """Skirmish at 0202: Vanguard (Alice) meets Raiders (Bob); Far Patrol (Bob) in 0404."""
    info = await service.create(GM, GUILD, CHANNEL, "ftcamp", "Border War")
    await service.settings(GM, CHANNEL, {"scenario": TWO_PLAYERS})
    for p in (ALICE, BOB):
        await service.join(p, CHANNEL)
    await service.start(GM, CHANNEL)
    return info.id


def group_names(view: dict) -> set[str]:
    return {g["name"] for g in view["groups"]}


async def test_a_player_sees_their_seat_view_and_only_their_requests(
    service: CampaignService,
) -> None:
    campaign_id = await ftcamp_started(service)
    alice = await service.seat_view(ALICE, CHANNEL)
    state = (await service.snapshot(campaign_id)).state
    assert alice.seat == 1 and not alice.is_gm and alice.info.id == campaign_id
    assert alice.view == FTCAMP.view(state, 1)
    assert group_names(alice.view) == {"Vanguard"}  # Bob's groups are hidden (E-D16)
    assert alice.requests and {r.seat for r in alice.requests} == {1}
    assert alice.gm_actions == []


async def test_the_gm_and_an_admin_get_the_gm_view_by_one_rule(service: CampaignService) -> None:
    await ftcamp_started(service)
    gm = await service.seat_view(GM, CHANNEL)
    admin = await service.seat_view(ADMIN, CHANNEL)
    for seen in (gm, admin):
        assert seen.is_gm and seen.seat is None
        assert group_names(seen.view) == {"Vanguard", "Raiders", "Far Patrol"}
        raiders = next(g for g in seen.view["groups"] if g["name"] == "Raiders")
        assert raiders["craft"] == ["Fang", "Claw"] and raiders["hex"] == "0202"
        assert seen.requests == []  # FTCamp asks the GM nothing
    assert gm.view == admin.view


async def test_a_non_member_gets_the_public_view_only(service: CampaignService) -> None:
    campaign_id = await ftcamp_started(service)
    carol = await service.seat_view(CAROL, CHANNEL)
    state = (await service.snapshot(campaign_id)).state
    assert carol.seat is None and not carol.is_gm
    assert carol.view == FTCAMP.view(state, None)
    assert group_names(carol.view) == set()  # no group has been named in public yet
    assert carol.requests == [] and carol.gm_actions == []
    by_id = await service.seat_view_of(CAROL, campaign_id)
    assert by_id == carol


async def test_before_the_start_the_view_is_empty(service: CampaignService) -> None:
    await service.create(GM, GUILD, CHANNEL, "ftcamp", "Border War")
    seen = await service.seat_view(ALICE, CHANNEL)
    assert seen.view == {} and not seen.started and seen.requests == []
    with pytest.raises(NotFound):
        await service.seat_view(ALICE, CHANNEL + 1)


async def test_pictures_are_public_and_drawn_off_the_loop(service: CampaignService) -> None:
    campaign_id = await ftcamp_started(service)
    state = (await service.snapshot(campaign_id)).state
    picture = await service.picture(ALICE, CHANNEL, "hexmap")
    assert picture.view == FTCAMP.view(state, None)  # the channel's picture: public view
    assert (await service.render(picture)).startswith(PNG)
    with pytest.raises(NotFound, match="no orbit-sector picture"):
        await service.picture(ALICE, CHANNEL, "sector", focus="0404")


async def test_gm_edits_and_exports_are_the_gm_s(service: CampaignService) -> None:
    await ftcamp_started(service)
    with pytest.raises(PermissionDenied):
        await service.gm_edit(ALICE, CHANNEL, "group_remove", {"name": "Far Patrol"})
    with pytest.raises(PermissionDenied):
        await service.export_file(BOB, CHANNEL)
    summary = await service.gm_edit(ADMIN, CHANNEL, "group_move",
                                    {"name": "Far Patrol", "hex": "0303", "sector": None})
    assert summary == "group Far Patrol moved to hex 0303."
    seen = await service.seat_view(GM, CHANNEL)
    assert next(g["hex"] for g in seen.view["groups"] if g["name"] == "Far Patrol") == "0303"
    name, data, _note = await service.export_file(GM, CHANNEL)
    assert name == "ftcamp.toml" and b"Far Patrol" in data


async def test_render_draws_in_a_worker_thread(service: CampaignService,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A picture never holds the event loop: the renderer runs in another thread."""
    import threading

    from bot.render import registry

    await ftcamp_started(service)
    drawn_in: list[int] = []
    real = registry.render

    def spy(ruleset: str, name: str, view: dict) -> bytes:
        drawn_in.append(threading.get_ident())
        return real(ruleset, name, view)

    monkeypatch.setattr(registry, "render", spy)
    picture = await service.picture(BOB, CHANNEL, "hexmap")
    assert (await service.render(picture)).startswith(PNG)
    assert drawn_in and drawn_in[0] != threading.get_ident()
