"""A finished campaign keeps no undo snapshots (issue 17 item 9), measured on the real SQLite
file: ``/gm undo`` acts on a running campaign only (P-5) and a battle's result, once sent, is
its parent's to mend (P-13), so an ended campaign's snapshots would only fill the file."""

from __future__ import annotations

import json

import pytest

from bot.campaign import CampaignService
from bot.errors import NotFound
from storage import Database
from tests.campaign.conftest import ALICE, BOB, CAROL, CHANNEL, GM, GUILD, guess, started
from tests.campaign.test_storage_full import next_move
from tests.campaign.test_war_loop import PARENT_CHANNEL, THREAD, parent_at_battles, parent_state
from tests.campaign.test_war_loop import play as play_scripted


async def snapshots(db: Database, campaign_id: int) -> tuple[int, int]:
    """(rows, bytes of state JSON) of the campaign's snapshots in the file."""
    row = await db.fetchone("SELECT COUNT(*), IFNULL(SUM(LENGTH(state)), 0) FROM snapshots"
                            " WHERE campaign_id = ?", (campaign_id,))
    assert row is not None
    return int(row[0]), int(row[1])


async def test_a_won_game_leaves_no_snapshot_in_the_file(
    service: CampaignService, db: Database
) -> None:
    info = await started(service, ALICE, BOB, CAROL, target="4")
    most = 0
    for _ in range(200):  # guesses and bank turns until somebody wins
        if (await service.status(CHANNEL, GM.user_id)).status == "ended":
            break
        most = max(most, (await snapshots(db, info.id))[0])
        player, step, action = await next_move(service, info.id)
        await service.submit(player, info.id, step, action)
    assert (await service.status(CHANNEL, GM.user_id)).status == "ended"
    assert most >= 2  # while it ran, the game could go back
    assert await snapshots(db, info.id) == (0, 0)
    with pytest.raises(NotFound, match="is over"):  # and no undo is ever asked of it
        await service.gm_undo(GM, CHANNEL)


async def test_a_campaign_the_gm_ends_drops_its_snapshots_and_others_keep_theirs(
    service: CampaignService, db: Database
) -> None:
    info = await started(service, ALICE, BOB, target="9")
    other = await started(service, ALICE, BOB, channel=CHANNEL + 1, target="9")
    for cid in (info.id, other.id):
        await service.submit(ALICE, cid, 1, guess(3))
        await service.submit(BOB, cid, 1, guess(4))
    assert (await snapshots(db, info.id))[0] == 1 == (await snapshots(db, other.id))[0]
    await service.end(GM, CHANNEL, "the table broke up")
    assert await snapshots(db, info.id) == (0, 0)
    assert (await snapshots(db, other.id))[0] == 1  # a running campaign keeps its own
    await service.gm_undo(GM, CHANNEL + 1)  # and can still use it


async def test_a_finished_battle_drops_its_snapshots_and_its_parent_keeps_undoing(
    service: CampaignService, db: Database
) -> None:
    parent_id = await parent_at_battles(service)
    parent_rows, _ = await snapshots(db, parent_id)
    assert parent_rows > 0
    row = await service.snapshot(parent_id)
    ref = parent_state(row.row).war[0].ref
    battle = await service.open_battle(GM, GUILD, THREAD, "Battle of 0202", parent_id, ref)
    await play_scripted(service, battle.id, [ALICE, BOB],
                        lambda r: (r.state or {}).get("turn", 0) >= 2, steps=2000)
    assert (await snapshots(db, battle.id))[0] > 0  # while it is fought, undo points
    await play_scripted(service, battle.id, [ALICE, BOB], lambda r: r.status == "ended",
                        steps=2000)
    assert await snapshots(db, battle.id) == (0, 0)
    # the parent took the result as a proposal and still goes back as before (P-13)
    assert parent_state((await service.snapshot(parent_id)).row).war[0].status == "proposed"
    assert (await snapshots(db, parent_id))[0] == parent_rows
    await service.gm_undo(GM, PARENT_CHANNEL)


async def test_each_snapshot_holds_the_state_before_its_resolution(
    service: CampaignService, db: Database
) -> None:
    """The state the row held is copied into the snapshot (not encoded again): the same."""
    info = await started(service, ALICE, BOB, CAROL, target="9")
    checked = 0
    for n in range(30):
        row = await db.fetchone("SELECT state, resolution_no FROM campaigns WHERE id = ?",
                                (info.id,))
        assert row is not None
        player, step, action = await next_move(service, info.id)
        await service.submit(player, info.id, step, action)
        if n == 12:  # an undo: the same resolution number comes round again
            await service.gm_undo(GM, CHANNEL)
            continue
        got = await db.fetchone("SELECT state FROM snapshots WHERE campaign_id = ? AND"
                                " resolution_no = ?", (info.id, row[1] + 1))
        if got is not None:  # this submit resolved: its snapshot is the state before it
            assert json.loads(got[0]) == json.loads(row[0])
            checked += 1
    assert checked >= 10
