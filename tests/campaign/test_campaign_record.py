"""One campaign record: the row, a list's entry and what a cog gets all share CampaignHead's
fields, declared once; what a cog gets is the head and the seats, never the hidden state."""

from __future__ import annotations

from dataclasses import fields

from bot.campaign.core import campaign_info
from bot.campaign.models import CampaignInfo
from storage.campaigns import CampaignHead, CampaignRow
from storage.listing import ListedCampaign
from storage.players import PlayerRow
from storage.status import Status

HEAD = [f.name for f in fields(CampaignHead)]


def _row() -> CampaignRow:
    return CampaignRow(
        id=1, guild_id=2, channel_id=3, ruleset="orbits", name="Sol", gm_user_id=4,
        status=Status.RUNNING, step_no=5, parent_id=6, parent_ref="b1", end_reason=None,
        options={"secret": 1}, settings={}, state={"hidden": "cards"}, seed=7,
        resolution_no=8, step_keys=[], version=9, created_at=0.0, updated_at=0.0,
    )


def test_each_record_starts_with_the_heads_fields() -> None:
    for record in (CampaignRow, ListedCampaign, CampaignInfo):
        assert issubclass(record, CampaignHead)
        assert [f.name for f in fields(record)][:len(HEAD)] == HEAD
    assert {f.name for f in fields(ListedCampaign)} - set(HEAD) == {"seats"}


def test_what_a_cog_gets_is_the_head_and_the_seats_only() -> None:
    assert {f.name for f in fields(CampaignInfo)} - set(HEAD) == {"seats"}
    seat = PlayerRow(campaign_id=1, seat=1, user_id=10, name="Ann", dm_ok=True, active=True)
    info = campaign_info(_row(), [seat])
    assert type(info) is CampaignInfo
    assert info.head_fields() == _row().head_fields()
    assert [(s.seat, s.name) for s in info.seats] == [(1, "Ann")]
    for hidden in ("state", "options", "settings", "seed", "version"):
        assert not hasattr(info, hidden)
