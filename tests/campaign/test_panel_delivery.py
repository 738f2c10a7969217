"""Panel delivery in the service (issue 10 item 2; P-1, P-9, P-12): which outbox rows a
seat's panel becomes. The Discord side is tests/cogs/test_panel_edits.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.campaign import CampaignService
from bot.campaign.panel_delivery import moved_text
from storage import Database
from storage import outbox as outbox_repo
from storage.outbox import NewMessage, OutboxRow
from tests.campaign.conftest import ALICE, BOB, CHANNEL, GM, GUILD, SEED, FakeClock, dms_to
from tests.support import relay
from tests.support.demos import Demos


@pytest.fixture(autouse=True)
def relay_rules() -> Iterator[None]:
    relay.register()
    yield


async def relay_game(service: CampaignService) -> int:
    info = await service.create(GM, GUILD, CHANNEL, "relay", "Relay Race")
    for p in (ALICE, BOB):
        await service.join(p, CHANNEL)
    await service.start(GM, CHANNEL)
    return info.id


async def take_turn(service: CampaignService, cid: int, who: object, kind: str = "go") -> None:
    row = (await service.snapshot(cid)).row
    await service.submit(who, cid, row.step_no, {"type": kind})  # type: ignore[arg-type]


async def send_all(service: CampaignService) -> None:
    """What the dispatcher does: every due row marked sent with a Discord id."""
    while rows := await service.outbox_pending(100):
        for r in rows:
            await service.outbox_sent(r.id, r.target_message_id or 9_000_000 + r.id)


def panels(rows: list[OutboxRow]) -> list[OutboxRow]:
    return [r for r in rows if r.panel is not None]


async def test_an_active_player_gets_edits_and_an_idle_one_new_dms(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    cid = await relay_game(service)
    await send_all(service)
    await take_turn(service, cid, ALICE)
    await take_turn(service, cid, BOB)
    await send_all(service)
    rows = dms_to(await outbox_repo.all_rows(db), ALICE)
    first, edit = panels(rows)
    assert first.edit_of is None and edit.edit_of == first.id  # her leg 3 edits leg 1
    assert edit.panel is not None and first.panel is not None
    assert edit.panel[1] > first.panel[1] and "Leg 3" in edit.content
    await take_turn(service, cid, ALICE)
    clock.advance(0.5)  # half an hour: alice is idle by the default 10 minutes
    await take_turn(service, cid, BOB)
    newest = panels(dms_to(await outbox_repo.all_rows(db), ALICE))[-1]
    assert newest.edit_of is None and "Leg 5" in newest.content


async def test_zero_idle_minutes_sends_every_panel_as_a_new_dm(
    db: Database, clock: FakeClock
) -> None:
    service = CampaignService(db, clock=clock, seed_source=lambda: SEED, panel_idle_minutes=0)
    cid = await relay_game(service)
    for who in (ALICE, BOB, ALICE, BOB):
        await take_turn(service, cid, who)
    rows = await outbox_repo.all_rows(db)
    assert [r.edit_of for r in panels(dms_to(rows, ALICE))] == [None, None, None]


@pytest.mark.parametrize("minutes", [-1, 1441, float("nan")])
def test_panel_idle_minutes_is_bounded(db: Database, minutes: float) -> None:
    with pytest.raises(ValueError, match="panel_idle_minutes"):
        CampaignService(db, panel_idle_minutes=minutes)


async def test_news_after_another_dm_moves_the_panel_below(
    service: CampaignService, db: Database
) -> None:
    """P-9: when something else reached bob's DMs after his panel message, his news is a
    new DM and his panel a new DM below it; the old message says that it moved."""
    cid = await relay_game(service)
    await take_turn(service, cid, ALICE)
    await take_turn(service, cid, BOB)
    await send_all(service)
    old = panels(dms_to(await outbox_repo.all_rows(db), BOB))[-1]
    async with db.transaction() as tx:  # e.g. a DM of another campaign
        await outbox_repo.enqueue(tx, [NewMessage(None, "dm", "elsewhere", user_id=BOB.user_id)],
                                  0.0)
    await take_turn(service, cid, ALICE, "tip")
    rows = dms_to(await outbox_repo.all_rows(db), BOB)
    new = [r for r in rows if r.id > old.id and r.content != "elsewhere"]
    # the old message says it moved first, so no two panels ever show at once (P-28)
    assert (new[0].content, new[0].edit_of, new[0].panel) == (moved_text("Relay Race"),
                                                               old.id, None)
    assert [(r.content, r.edit_of, r.panel is not None) for r in new][1:2] == [
        (relay.TIP, None, False)]
    assert new[2].edit_of is None and new[2].panel is not None and "Leg 4" in new[2].content


async def test_a_panel_not_yet_sent_is_edited_even_for_an_idle_player(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    """The holder has not even seen it: one notification is enough."""
    cid = await relay_game(service)
    await take_turn(service, cid, ALICE)
    await take_turn(service, cid, BOB)
    clock.advance(2)
    await take_turn(service, cid, ALICE)
    await take_turn(service, cid, BOB)  # nothing was sent meanwhile
    rows = panels(dms_to(await outbox_repo.all_rows(db), ALICE))
    assert [r.edit_of is None for r in rows] == [True, False]


@pytest.mark.slow
async def test_orbits_demo_meets_the_dm_target_and_loses_no_panel(demos: Demos) -> None:
    """Issue 10: at most 1.5 DMs per player per game turn on orbits, 3 players, seed 7; every
    panel a player was asked is in the transcript (the final form of a message, or listed
    under it as what it showed earlier)."""
    played = await demos.play("orbits", seed=7, players=3)
    result, out = played.result, played.folder
    assert result.finished and result.turns > 0
    per_player_turn = sum(result.dms.values()) / len(result.players) / result.turns
    assert per_player_turn <= 1.5, result.summary()
    assert result.dm_edits > 0
    shown = sum((out / f"dm-{n.lower()}.md").read_text().count("panel for step")
                for n in result.players)
    assert shown == result.panels_asked > 0
    summary = (out / "summary.md").read_text()
    assert f"DMs (and {result.dm_edits} edits of them)" in summary
    assert "DMs per player." in summary


async def test_a_kicked_players_panel_says_the_seat_was_freed(
    service: CampaignService, db: Database
) -> None:
    """P-6: /gm kick leaves no live-looking panel with the kicked player: their panel DM is
    edited to a line with no buttons and nothing of the seat in it."""
    await relay_game(service)
    await send_all(service)
    sent = panels(dms_to(await outbox_repo.all_rows(db), ALICE))[0]
    await service.gm_kick(GM, CHANNEL, ALICE.user_id)
    rows = dms_to(await outbox_repo.all_rows(db), ALICE)
    freed = [r for r in rows if r.edit_of == sent.id and r.panel is None]
    assert [r.content for r in freed] == ["Your seat in **Relay Race** was freed by the GM; "
                                          "this panel no longer works."]


def test_a_panel_that_went_below_says_it_is_closed_p30() -> None:
    # true whatever the newer message becomes later (news, or a step that is over)
    text = moved_text("Relay Race")
    assert "is closed" in text and "/orders" in text and "newer message" not in text
