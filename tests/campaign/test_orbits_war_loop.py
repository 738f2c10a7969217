"""An Orbits battle fought in HRFT on a real SQLite file (O-D17 to O-D20): the battle opened
by ONE intent (seats, start with the sides' forces, the parent's battle marked linked), the
parent's report step asking the GM, the result proposed, confirmed, the discards following,
/gm undo restoring the exact earlier state; and the properties that a result never creates
cards and that undo restores the state dump exactly."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.campaign import CampaignService
from bot.errors import InvalidInput, InvalidState, PermissionDenied
from bot.rules import registry
from bot.rules.base import GM_SEAT
from bot.rules.orbits.battles import open_battles
from bot.rules.orbits.state import OrbitsState, TableCard, stance_key
from storage import Database, open_database, timers
from storage import campaigns as campaign_rows
from tests.campaign.conftest import ALICE, BOB, GM, GUILD, SEED, FakeClock, dms_to, outbox
from tests.support.examples import examples

PARENT_CHANNEL = 710
THREAD = 711
ALICE_FLEET = ("2C", "3C", "7H", "9D", "10D")  # 31, three suits
BOB_FLEET = ("5S", "8H", "JK1")  # 13, three suits
ORBITS = registry.get("orbits")


def at_battle(state: OrbitsState) -> OrbitsState:
    """Alice (attack) and Bob (blockade) face up at Orbit 1; the battles of the turn open
    there (O-13), as at the end of a Deployment."""
    st = state.clone()
    for seat, fleet, stance in ((1, ALICE_FLEET, "attack"), (2, BOB_FLEET, "blockade")):
        st.table = [c for c in st.table if not (c.owner == seat and c.code in fleet)]
        st.decks[seat] = [c for c in st.decks[seat] if c not in fleet]
        st.table += [TableCard(owner=seat, code=c, area="orbit:1", face_up=True, known=True)
                     for c in fleet]
        st.stances[stance_key(seat, "orbit:1")] = stance  # type: ignore[assignment]
    open_battles(st, [])
    return st


async def parent(service: CampaignService, ppv: int = 10) -> int:
    info = await service.create(GM, GUILD, PARENT_CHANNEL, "orbits", "Sol")
    for p in (ALICE, BOB):
        await service.join(p, PARENT_CHANNEL)
    await service.settings(GM, PARENT_CHANNEL, {"points_per_value": str(ppv)})
    await service.start(GM, PARENT_CHANNEL)
    await service.gm_edit_state(GM, PARENT_CHANNEL, at_battle, "a battle at Orbit 1")
    return info.id


async def parent_state(db: Database, campaign_id: int) -> OrbitsState:
    row = await campaign_rows.get(db, campaign_id)
    assert row is not None
    return OrbitsState.model_validate(row.state)


def result(alice_lost: int, bob_lost: int, defeated: list[str]) -> dict[str, Any]:
    """An HRFT battle_result as hrft-muster's rules write it: one ship a side."""
    def ship(side: str, mass: int, lost: int) -> dict[str, Any]:
        return {"group": "", "craft": f"ship {side}", "seat": int(side), "side": side,
                "fate": "destroyed" if lost >= mass else "intact", "mass": mass,
                "hull_total": mass, "hull_lost": min(lost, mass), "ftl_lost": False,
                "thrust": 4, "thrust_left": 4}
    return {"name": "Battle at Orbit 1", "defeated": defeated,
            "craft": [ship("1", 310, alice_lost), ship("2", 130, bob_lost)]}


def proposed(res: dict[str, Any]) -> Any:
    def edit(state: OrbitsState) -> OrbitsState:
        linked = ORBITS.link_battle(state, "Orbit 1", "Battle at Orbit 1").state
        out = ORBITS.propose_battle(linked, "Orbit 1", res)
        assert out is not None
        return out.state
    return edit


async def test_od17_only_the_gm_opens_and_a_small_budget_is_refused(
    service: CampaignService, db: Database
) -> None:
    parent_id = await parent(service, ppv=1)
    refs = await service.battle_refs(GM, GUILD, parent_id)
    assert refs and refs[0].startswith("Orbit 1, turn")
    assert await service.battle_refs(ALICE, GUILD, parent_id) == []
    with pytest.raises(PermissionDenied):
        await service.battle_link(ALICE, GUILD, parent_id, "Orbit 1")
    with pytest.raises(InvalidState, match="Bob's budget is 13 MASS"):
        await service.open_battle(GM, GUILD, THREAD, "Battle", parent_id, "orbit 1")
    with pytest.raises(InvalidInput, match="Battles waiting: Orbit 1, turn"):
        await service.open_battle(GM, GUILD, THREAD, "Battle", parent_id, "Orbit 3")
    assert await campaign_rows.id_in_channel(db, THREAD) is None
    state = await parent_state(db, parent_id)
    assert state.battles[0].linked is None  # nothing changed


async def test_od19_confirmed_proposal_gives_the_discards_and_undo_restores_it(
    service: CampaignService, db: Database
) -> None:
    parent_id = await parent(service)
    await service.gm_edit_state(GM, PARENT_CHANNEL, proposed(result(68, 130, ["2"])),
                                "the HRFT battle's result")
    pending = (await service.snapshot(parent_id)).pending
    assert [(r.seat, r.step) for r in pending] == [(GM_SEAT, "battle1_confirm")]
    row = await campaign_rows.get(db, parent_id)
    assert row is not None
    before = row.state
    await service.submit(GM, parent_id, row.step_no, {"type": "confirm"}, seat=GM_SEAT)
    state = await parent_state(db, parent_id)
    assert state.battles[0].result.losses == {1: 7, 2: 13}
    assert state.battles[0].result.defeated == [2]
    assert state.phase == "battle_discard"
    assert set(state.discards[2]) == set(BOB_FLEET)  # losses reach the total: all at once
    pending = (await service.snapshot(parent_id)).pending
    assert [r.seat for r in pending] == [1]  # Alice discards, the proposal as default
    await service.gm_undo(GM, PARENT_CHANNEL)
    row = await campaign_rows.get(db, parent_id)
    assert row is not None and row.state == before


async def test_od18_open_battle_seats_the_sides_and_links_the_parent(
    service: CampaignService, db: Database
) -> None:
    parent_id = await parent(service)
    info = await service.open_battle(GM, GUILD, THREAD, "Battle at Orbit 1", parent_id,
                                     "ORBIT 1")
    assert info.status == "running" and info.parent_id == parent_id
    assert info.parent_ref is not None and info.parent_ref.startswith("Orbit 1, turn")
    assert [(s.seat, s.user_id) for s in info.seats] == [(1, ALICE.user_id), (2, BOB.user_id)]
    state = await parent_state(db, parent_id)
    assert state.battles[0].linked == "Battle at Orbit 1"
    pending = (await service.snapshot(parent_id)).pending
    assert [(r.seat, r.step) for r in pending] == [(GM_SEAT, "battle1_linked")]
    assert any("is being fought in its own thread" in m.content
               for m in dms_to(await outbox(db), GM))
    with pytest.raises(InvalidState, match="already being fought in its thread, <#"):
        await service.open_battle(GM, GUILD, THREAD + 1, "Again", parent_id, "Orbit 1")


async def test_p18_the_parent_waits_for_the_battle_not_on_a_clock(
    service: CampaignService, db: Database
) -> None:
    """P-17, P-18: once opened the battle is offered no more; while it is fought in its
    thread the parent's step has no deadline and no reminders, and its tracker says it waits
    for the battle with a link to the thread. When the result comes in, the GM's confirming
    step has a deadline again."""
    parent_id = await parent(service)
    assert await service.battle_refs(GM, GUILD, parent_id) != []
    await service.open_battle(GM, GUILD, THREAD, "Battle at Orbit 1", parent_id, "Orbit 1")
    assert await service.battle_refs(GM, GUILD, parent_id) == []  # P-17: offered once
    row = await campaign_rows.get(db, parent_id)
    assert row is not None
    assert await timers.get(db, parent_id, row.step_no) is None  # (reminders hang on it)
    rows = await outbox(db)
    trackers = [r for r in rows if r.kind == "channel" and r.channel_id == PARENT_CHANNEL
                and r.content.startswith("**Sol**:")]
    assert f"Waiting for the battle fought in <#{THREAD}>" in trackers[-1].content
    assert "deadline <t:" not in trackers[-1].content
    # the result comes in: the GM's confirmation has its deadline again
    await service.end(GM, THREAD, "the sides part")
    row = await campaign_rows.get(db, parent_id)
    assert row is not None
    pending = (await service.snapshot(parent_id)).pending
    assert [(r.seat, r.step) for r in pending] == [(GM_SEAT, "battle1_confirm")]
    deadline = await timers.get(db, parent_id, row.step_no)
    assert deadline is not None and deadline.status == "open"


# --- properties -------------------------------------------------------------------------


def owned(state: OrbitsState) -> dict[int, int]:
    """The cards each owner still has in play: deck and table."""
    return {s: len(state.decks[s]) + sum(1 for c in state.table if c.owner == s)
            for s in state.seat_numbers()}


losses = st.integers(min_value=0, max_value=400)
sides = st.sampled_from([[], ["1"], ["2"], ["1", "2"]])


@settings(max_examples=examples(40), deadline=None)
@given(a=losses, b=losses, defeated=sides)
def test_od19_a_result_never_creates_cards(a: int, b: int, defeated: list[str]) -> None:
    from tests.rules.orbits.orbits_testkit import start
    state = at_battle(start(2, points_per_value=10).state)
    before = owned(state)
    out = proposed(result(a, b, defeated))(state)
    done = ORBITS.resolve(out, {GM_SEAT: {"type": "confirm"}}, None)
    st_ = done.state
    while st_.phase == "battle_discard":  # each side takes the proposed discard
        st_ = ORBITS.resolve(st_, {}, None).state
    after = owned(st_)
    assert all(after[s] <= before[s] for s in before), (before, after)
    assert sum(len(v) for v in st_.discards.values()) == sum(before.values()) - sum(
        after.values())


@settings(max_examples=examples(6), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=losses, b=losses, defeated=sides)
def test_od19_undo_after_the_confirmation_restores_the_exact_state(
    a: int, b: int, defeated: list[str]
) -> None:
    async def scenario() -> None:
        with tempfile.TemporaryDirectory() as tmp:
            db = await open_database(Path(tmp) / "war.db")
            try:
                service = CampaignService(db, clock=FakeClock(), seed_source=lambda: SEED)
                parent_id = await parent(service)
                await service.gm_edit_state(GM, PARENT_CHANNEL,
                                            proposed(result(a, b, defeated)), "result")
                row = await campaign_rows.get(db, parent_id)
                assert row is not None
                before = row.state
                await service.submit(GM, parent_id, row.step_no, {"type": "confirm"},
                                     seat=GM_SEAT)
                changed = await campaign_rows.get(db, parent_id)
                assert changed is not None and changed.state != before
                await service.gm_undo(GM, PARENT_CHANNEL)
                row = await campaign_rows.get(db, parent_id)
                assert row is not None and row.state == before
            finally:
                await db.close()

    asyncio.run(scenario())
