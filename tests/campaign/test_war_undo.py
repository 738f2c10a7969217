"""P-13: /gm undo in an FTCamp campaign never loses the result a battle fought in its HRFT
thread sent it. The result arrives outside a resolution of the parent (E-D36), so an undo that
goes back past its arrival proposes it again, in the same transaction, and says so."""

from __future__ import annotations

from typing import Any

import pytest

from bot.campaign import CampaignService
from bot.campaign.war_undo import LOGGED
from bot.errors import InvalidState, NotFound
from bot.rules.base import GM_SEAT
from storage import Database, battle_links
from storage import campaigns as campaign_rows
from storage import events as event_log
from storage.battle_links import ResultState
from tests.campaign.conftest import ALICE, BOB, GM, GUILD, channel_texts, dms_to, outbox
from tests.campaign.test_war_loop import (
    PARENT_CHANNEL,
    THREAD,
    parent_at_battles,
    parent_state,
    play,
)

PROPOSED = "Proposed change to the campaign"
# the GM's log lines of each change (the GM's record; undo reads the battle_links rows)
ARRIVED, OWED, DROPPED = (LOGGED[s] for s in ResultState)


async def result_of(db: Database, parent_id: int) -> ResultState | None:
    """The state of the result of the campaign's one battle thread."""
    [row] = await battle_links.of_parent(db, parent_id)
    return row.result


async def row_of(db: Database, campaign_id: int) -> Any:
    row = await campaign_rows.get(db, campaign_id)
    assert row is not None
    return row


async def fight(service: CampaignService, parent_id: int, ref: str, thread: int = THREAD) -> int:
    """The battle opened in its thread and fought to its end by the scripted players."""
    info = await service.open_battle(GM, GUILD, thread, f"Battle {thread}", parent_id, ref)
    await play(service, info.id, [ALICE, BOB], lambda r: r.status == "ended", steps=2000)
    return info.id


async def test_p13_undo_past_the_arrival_proposes_the_result_again(
    service: CampaignService, db: Database
) -> None:
    parent_id = await parent_at_battles(service)
    ref = parent_state(await row_of(db, parent_id)).war[0].ref
    # A resolution of the parent while the battle is fought: a GM edit of a craft that
    # is not in it. The result arrives after it.
    await service.gm_edit(GM, PARENT_CHANNEL, "craft_damage",
                          {"group": "Vanguard", "craft": "Scout", "points": 2})
    edited = await row_of(db, parent_id)
    assert parent_state(edited).war[0].status == "waiting"
    await fight(service, parent_id, ref)
    proposal = await row_of(db, parent_id)
    assert parent_state(proposal).war[0].status == "proposed"

    await service.submit(GM, parent_id, proposal.step_no, {"type": "confirm", "battle": ref},
                         seat=GM_SEAT)
    confirmed = parent_state(await row_of(db, parent_id))
    assert confirmed.round == 2 and confirmed.war[0].status == "applied"

    # Undo the confirmation: exactly the proposal (the state as before the confirmation).
    first = await service.gm_undo(GM, PARENT_CHANNEL)
    assert (await row_of(db, parent_id)).state == proposal.state
    assert "proposed again" not in first  # nothing was lost: nothing is said

    # Undo again, to before the GM's edit, which is before the result arrived: the edit is
    # gone and the proposal is still there, proposed again, and the announcement says so.
    # by id, not by count: a new edit of a message prunes its sent edits
    sent = max(r.id for r in await outbox(db))
    text = await service.gm_undo(GM, PARENT_CHANNEL)
    assert ("The result of **Battle 701** (" + ref + "), fought in its thread, came "
            "in after that point: it is proposed again.") in text
    again = await row_of(db, parent_id)
    state = parent_state(again)
    scout_then = next(c for c in parent_state(edited).groups["Vanguard"].craft
                      if c.name == "Scout")
    assert state.war == parent_state(proposal).war  # the same proposal, as it came in
    scout = next(c for c in state.groups["Vanguard"].craft if c.name == "Scout")
    assert scout.damage == scout_then.damage - 2  # the edit is undone
    # the GM's fresh panel shows it; the proposal DM is not sent twice, the channel has
    # the undo's announcement only
    pending = (await service.snapshot(parent_id)).pending
    assert [r.seat for r in pending] == [GM_SEAT]
    assert {a.type for a in pending[0].actions} == {"confirm", "edit", "close"}
    assert f"{ref}, result proposed:" in pending[0].prompt
    rows = await outbox(db)
    assert sum(PROPOSED in r.content for r in dms_to(rows, GM)) == 1
    new = [r for r in rows if r.id > sent and r.kind == "channel" and not r.edit_of]
    assert [r.content for r in new if "proposed again" in r.content] == [text]
    # P-15: the parent heard of the thread's result as a proposal, never its closing words
    assert sum("result proposed" in t and "Battle 701" in t for t in channel_texts(rows)) == 1
    assert not any("is over" in t and "Battle 701" in t for t in channel_texts(rows))
    # the log says it for the GM
    marks = await event_log.of_kinds(db, parent_id, (ARRIVED, OWED, DROPPED))
    assert [m.kind for m in marks] == [ARRIVED, ARRIVED]
    assert await result_of(db, parent_id) is ResultState.ARRIVED

    # Confirmed again, the round opens, with the battle's losses and without the edit.
    await service.submit(GM, parent_id, again.step_no, {"type": "confirm", "battle": ref},
                         seat=GM_SEAT)
    done = parent_state(await row_of(db, parent_id))
    assert done.round == 2 and done.step == "orders" and done.war[0].status == "applied"
    assert done.groups.keys() == confirmed.groups.keys()
    assert done.groups["Vanguard"].craft != confirmed.groups["Vanguard"].craft  # Scout's 2
    assert [c.model_copy(update={"damage": 0}) for c in done.groups["Vanguard"].craft] == [
        c.model_copy(update={"damage": 0}) for c in confirmed.groups["Vanguard"].craft]


async def test_p13_undo_to_before_the_battle_was_listed_keeps_the_result_for_it(
    service: CampaignService, db: Database
) -> None:
    """Result in, confirmed; undo, undo: back before the battle list that holds the battle,
    where nothing waits for a result. The result is kept, and when the hex is resolved again
    (the same orders list the same battle, P-5) it is proposed at once: confirmed, the round
    opens. Nothing is fought twice, nothing is posted twice."""
    parent_id = await parent_at_battles(service)
    ref = parent_state(await row_of(db, parent_id)).war[0].ref
    await fight(service, parent_id, ref)
    proposal = await row_of(db, parent_id)
    await service.submit(GM, parent_id, proposal.step_no, {"type": "confirm", "battle": ref},
                         seat=GM_SEAT)
    confirmed = parent_state(await row_of(db, parent_id))
    await service.gm_undo(GM, PARENT_CHANNEL)
    assert (await row_of(db, parent_id)).state == proposal.state
    text = await service.gm_undo(GM, PARENT_CHANNEL)  # the hex's last resolution
    assert (f"The result of **Battle 701** ({ref}), fought in its thread, came in after "
            "that point: it is kept, and proposed again as soon as that battle waits for its "
            "result.") in text
    state = parent_state(await row_of(db, parent_id))
    assert state.step != "battles" and not state.war
    # A further undo does not say it again: it is still kept.
    assert "Battle 701" not in await service.gm_undo(GM, PARENT_CHANNEL)
    await play(service, parent_id, [ALICE, BOB], lambda r: r.state.get("step") == "battles")
    again = await row_of(db, parent_id)
    state = parent_state(again)
    assert state.war == parent_state(proposal).war  # proposed at once, as it came in
    assert again.state == proposal.state
    rows = await outbox(db)
    texts = channel_texts(rows)
    assert sum("is proposed again" in t for t in texts) == 1
    assert sum("result proposed" in t and "Battle 701" in t for t in texts) == 2
    assert not any("is over" in t and "Battle 701" in t for t in texts)
    # the GM hears of the proposal again (it is news in the game as it now stands)
    assert sum(PROPOSED in r.content for r in dms_to(rows, GM)) == 2
    marks = await event_log.of_kinds(db, parent_id, (ARRIVED, OWED, DROPPED))
    assert [m.kind for m in marks] == [ARRIVED, OWED, ARRIVED]
    assert await result_of(db, parent_id) is ResultState.ARRIVED
    await service.submit(GM, parent_id, again.step_no, {"type": "confirm", "battle": ref},
                         seat=GM_SEAT)
    assert parent_state(await row_of(db, parent_id)) == confirmed  # the round opens as before


async def test_p13_undo_in_the_thread_after_the_result_went_to_the_campaign_is_refused(
    service: CampaignService, db: Database
) -> None:
    parent_id = await parent_at_battles(service)
    ref = parent_state(await row_of(db, parent_id)).war[0].ref
    battle_id = await fight(service, parent_id, ref)
    before = (await row_of(db, parent_id)).state
    battle = await row_of(db, battle_id)
    with pytest.raises(InvalidState, match=r"\*\*Battle 701\*\* is over and its result went "
                                           r"to \*\*Border War\*\*") as refused:
        await service.gm_undo(GM, THREAD)
    assert "changes a craft's fate" in str(refused.value)
    assert (await row_of(db, parent_id)).state == before  # nothing changed anywhere
    assert (await row_of(db, battle_id)).state == battle.state
    # a battle with no campaign behind it says what it said before: it is over
    await service.create(GM, GUILD, THREAD + 5, "hrft", "Alone")
    await service.end(GM, THREAD + 5, "no battle after all")
    with pytest.raises(NotFound, match="is over"):
        await service.gm_undo(GM, THREAD + 5)


async def test_p13_a_kept_result_whose_round_ends_without_its_battle_is_dropped(
    service: CampaignService, db: Database
) -> None:
    """Back before the battle list, then the game goes another way (the GM removes one side):
    round 1 ends without that battle. The kept result belongs to round 1's battle, so it is
    never proposed to a later battle of the same hex: it is dropped and the GM told."""
    parent_id = await parent_at_battles(service)
    ref = parent_state(await row_of(db, parent_id)).war[0].ref
    await fight(service, parent_id, ref)
    assert "it is kept" in await service.gm_undo(GM, PARENT_CHANNEL)
    while parent_state(await row_of(db, parent_id)).step != "orders":  # back to the orders
        assert "Battle 701" not in await service.gm_undo(GM, PARENT_CHANNEL)
    await service.gm_edit(GM, PARENT_CHANNEL, "group_remove", {"name": "Raiders"})
    await play(service, parent_id, [ALICE, BOB], lambda r: r.state.get("round") == 2)
    state = parent_state(await row_of(db, parent_id))
    assert not [w for w in state.war if w.status in ("waiting", "proposed")]
    marks = await event_log.of_kinds(db, parent_id, (ARRIVED, OWED, DROPPED))
    assert [m.kind for m in marks] == [ARRIVED, OWED, DROPPED]
    assert await result_of(db, parent_id) is ResultState.DROPPED
    note = [r.content for r in dms_to(await outbox(db), GM)
            if "was kept after an undo" in r.content]
    assert len(note) == 1 and "round 1" in note[0] and "it is not proposed" in note[0]


async def test_p23_an_undone_confirmation_leaves_the_gms_own_choice_open(
    service: CampaignService, db: Database
) -> None:
    """P-23 locks the players' revealed orders after an undo, never the GM's: the GM who
    undid a confirmation may confirm again or edit the result."""
    parent_id = await parent_at_battles(service)
    ref = parent_state(await row_of(db, parent_id)).war[0].ref
    await fight(service, parent_id, ref)
    proposal = await row_of(db, parent_id)
    await service.submit(GM, parent_id, proposal.step_no, {"type": "confirm", "battle": ref},
                         seat=GM_SEAT)
    text = await service.gm_undo(GM, PARENT_CHANNEL)
    assert "locked" not in text
    again = await row_of(db, parent_id)
    await service.submit(GM, parent_id, again.step_no, {"type": "confirm", "battle": ref},
                         seat=GM_SEAT)
    assert parent_state(await row_of(db, parent_id)).round == 2
