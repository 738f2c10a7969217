"""Sealed submissions, turn actions, panels and drafts; refusals; atomic writes; concurrency."""

from __future__ import annotations

import asyncio

import pytest

from bot.campaign import CampaignService
from bot.errors import InvalidInput, InvalidState, NotFound, PermissionDenied, RulesError
from storage import Database
from tests.campaign.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    GM,
    channel_texts,
    dms_to,
    guess,
    outbox,
    started,
)
from tests.support.guess import RULESET


async def test_sealed_orders_are_stored_changed_and_revealed_together(
    service: CampaignService, db: Database
) -> None:
    info = await started(service, ALICE, BOB, CAROL)
    before = len(await outbox(db))
    first = await service.submit(ALICE, info.id, 1, guess(6))
    assert (first.resolved, first.replaced, first.waiting_for) == (False, False, ["Bob", "Carol"])
    changed = await service.submit(ALICE, info.id, 1, guess(2))
    assert changed.replaced and not changed.resolved
    await service.submit(BOB, info.id, 1, guess(5))
    rows = (await outbox(db))[before:]
    # no new post: the step's tracker is edited (names only); a change edits nothing, and
    # the unsent edits of one tracker are coalesced into the latest
    assert [r.edit_of is not None for r in rows if r.kind == "channel"] == [True]
    tracker = channel_texts(await outbox(db))[-1]
    assert "Acted: Alice, Bob." in tracker and f"Waiting for <@{CAROL.user_id}>" in tracker
    assert "6" not in tracker.replace("<@", "").split("\n", 2)[-1]
    panel = await service.panel(info.id, 1, 1)
    assert panel.submitted == guess(2)
    last = await service.submit(CAROL, info.id, 1, guess(4))
    assert last.resolved
    new = [r for r in (await outbox(db))[before:] if r.kind == "channel" and not r.edit_of]
    assert len(new) == 2  # the reveal, then the next step's tracker that mentions Alice
    assert "Guesses: Alice 2, Bob 5, Carol 4" in new[0].content
    assert f"Waiting for <@{ALICE.user_id}>" in new[1].content
    # The private news is a DM of its own, before the panel DM: clicking the panel rewrites
    # the panel's message, and must not wipe the news (issue 4's scan reports).
    news, panel_dm = dms_to(await outbox(db), ALICE)[-2:]
    assert news.content == "Your guess was locked as 2." and news.panel is None
    # the panel's heading names the step in plain words, never its internal number
    assert panel_dm.panel == (info.id, 2, 1) and panel_dm.content.startswith("**Dice Cup**, Bank. ")
    assert "step" not in panel_dm.content
    assert "locked" not in panel_dm.content


async def test_pending_list_and_progress_never_show_content(
    service: CampaignService, db: Database
) -> None:
    info = await started(service, ALICE, BOB, CAROL)
    await service.submit(ALICE, info.id, 1, {"type": "guess", "number": "5"})
    status = await service.status(CHANNEL, CAROL.user_id)
    assert status.pending == ["Bob", "Carol"]
    texts = channel_texts(await outbox(db)) + [status.text]
    assert not any("5" in t.replace("(1 of 3)", "") and "orders are in" in t for t in texts)
    events = await db.fetchall("SELECT kind, text FROM events")
    assert [e["kind"] for e in events] == ["start"]  # a submission logs nothing before the reveal


async def test_refusals(service: CampaignService) -> None:
    info = await started(service, ALICE, BOB)
    other = await started(service, CAROL, DAVE, channel=CHANNEL + 1)
    with pytest.raises(PermissionDenied, match="no seat"):
        await service.submit(ALICE, other.id, 1, guess(3))  # acting in another campaign
    with pytest.raises(RulesError, match="not one of the choices"):
        await service.submit(ALICE, info.id, 1, guess(7))
    with pytest.raises(RulesError, match="Allowed here: guess"):
        await service.submit(ALICE, info.id, 1, {"type": "bank"})
    with pytest.raises(InvalidState, match="That step is over"):
        await service.submit(ALICE, info.id, 0, guess(3))
    with pytest.raises(NotFound):
        await service.submit(ALICE, 9999, 1, guess(3))
    await service.submit(ALICE, info.id, 1, guess(3))
    await service.submit(BOB, info.id, 1, guess(4))
    with pytest.raises(InvalidState, match="That step is over"):  # the step locked
        await service.submit(ALICE, info.id, 1, guess(1))
    with pytest.raises(PermissionDenied, match="It is Alice's turn, not yours"):
        await service.submit(BOB, info.id, 2, {"type": "pass"})
    with pytest.raises(InvalidState, match="is over"):
        await service.panel(info.id, 1, 1)
    with pytest.raises(PermissionDenied):
        await service.panel(info.id, 2, 1, user_id=BOB.user_id)


async def test_turn_actions_apply_at_once_in_seat_order(
    service: CampaignService, db: Database
) -> None:
    info = await started(service, ALICE, BOB)
    await service.submit(ALICE, info.id, 1, guess(3))
    await service.submit(BOB, info.id, 1, guess(4))
    result = await service.submit(ALICE, info.id, 2, {"type": "pass"})
    assert result.kind == "turn" and result.resolved
    # the pass is a line of the step's tracker; the next step's tracker mentions Bob
    old_tracker, new_tracker = channel_texts(await outbox(db))[-2:]
    assert "Alice passes." in old_tracker and "Waiting" not in old_tracker
    assert f"Waiting for <@{BOB.user_id}>" in new_tracker
    await service.submit(BOB, info.id, 3, {"type": "bank"})
    assert [p.request.step for p in await service.panels_for(info.id, ALICE.user_id)] == ["guess"]


async def test_panels_and_drafts_survive_a_new_service(
    service: CampaignService, db: Database, clock: object
) -> None:
    info = await started(service, ALICE, BOB)
    [panel] = await service.panels_for(info.id, ALICE.user_id)
    assert (panel.step_no, panel.seat, panel.request.step, panel.draft) == (1, 1, "guess", {})
    assert panel.deadline is not None
    assert panel.ref.custom_id("submit", "0") == f"adm:{info.id}:1:1:submit:0"
    await service.save_draft(ALICE, info.id, 1, "guess", "number", ["4"])
    with pytest.raises(InvalidInput):
        await service.save_draft(ALICE, info.id, 1, "fly", "number", ["4"])
    fresh = CampaignService(db, clock=clock)  # type: ignore[arg-type]
    assert (await fresh.panel(info.id, 1, 1)).draft == {"guess": {"number": ["4"]}}
    assert await fresh.panels_for(info.id, GM.user_id) == []


async def test_two_players_submitting_at_once_both_land(
    service: CampaignService, db: Database
) -> None:
    info = await started(service, ALICE, BOB, CAROL)
    await asyncio.gather(
        service.submit(ALICE, info.id, 1, guess(1)), service.submit(BOB, info.id, 1, guess(2))
    )
    status = await service.status(CHANNEL, ALICE.user_id)
    assert status.pending == ["Carol"]
    await service.submit(CAROL, info.id, 1, guess(3))
    for _ in range(2):  # two bank/pass turns, then a new guessing step with everybody at once
        status = await service.status(CHANNEL, ALICE.user_id)
        seat = next(s for s in status.seats if s.name == status.pending[0])
        await service.submit(next(a for a in (ALICE, BOB, CAROL) if a.user_id == seat.user_id),
                             info.id, status.step_no, {"type": "pass"})
    await service.submit(CAROL, info.id, 4, {"type": "pass"})
    results = await asyncio.gather(*(service.submit(p, info.id, 5, guess(n))
                                      for n, p in enumerate((ALICE, BOB, CAROL), start=1)))
    assert sorted(r.resolved for r in results) == [False, False, True]
    rows = await db.fetchall("SELECT seat FROM submissions WHERE step_no = 5")
    assert len(rows) == 3


async def test_nothing_is_half_written_when_the_rules_fail(
    service: CampaignService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = await started(service, ALICE, BOB)
    await service.submit(ALICE, info.id, 1, guess(3))

    def broken(*args: object) -> object:
        raise RuntimeError("rule bug after the submission was written")

    counts = "SELECT (SELECT COUNT(*) FROM outbox), (SELECT COUNT(*) FROM submissions)," \
             " (SELECT COUNT(*) FROM snapshots), (SELECT version FROM campaigns)"
    before = tuple(await db.fetchone(counts))  # type: ignore[arg-type]
    monkeypatch.setattr(RULESET, "resolve", broken)
    with pytest.raises(RuntimeError):
        await service.submit(BOB, info.id, 1, guess(4))
    assert tuple(await db.fetchone(counts)) == before  # type: ignore[arg-type]
    monkeypatch.undo()
    assert (await service.submit(BOB, info.id, 1, guess(4))).resolved
