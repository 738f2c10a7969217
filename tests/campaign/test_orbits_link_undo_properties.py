"""P-13, P-14, O-D21 as a property: whatever the GM does in the Orbits campaign (undo, the same
position again, an edit, a confirmation) while its battle at Orbit 1 is fought in a thread
(which ends at some point), the players are never asked to report that battle, a battle that
waits for it is linked to the thread by name, and once the thread has ended its result waits
there: nothing waits for a result that can never come."""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.campaign import CampaignService
from bot.errors import InvalidState
from bot.rules.base import GM_SEAT
from bot.rules.orbits.war import waiting
from storage import campaigns as campaign_rows
from storage import open_database
from tests.campaign.conftest import GM, GUILD, SEED, FakeClock, outbox
from tests.campaign.test_orbits_link_undo import NAME, asked_to_report, last_id, replay
from tests.campaign.test_orbits_war_loop import PARENT_CHANNEL, THREAD, parent, parent_state
from tests.support.examples import examples

STEPS = ("undo", "undo", "replay", "edit", "end", "confirm")


async def scenario(tmp: Path, steps: list[str]) -> None:
    db = await open_database(tmp / "war.db")
    try:
        service = CampaignService(db, clock=FakeClock(), seed_source=lambda: SEED)
        pid = await parent(service)
        battle = (await service.open_battle(GM, GUILD, THREAD, NAME, pid, "Orbit 1")).id
        opened = await last_id(db)
        for step in steps:
            state = await parent_state(db, pid)
            row = await campaign_rows.get(db, pid)
            thread = await campaign_rows.get(db, battle)
            assert row is not None and thread is not None
            if step == "undo":
                with contextlib.suppress(InvalidState):  # nothing (more) to undo
                    await service.gm_undo(GM, PARENT_CHANNEL)
            elif step == "replay" and state.turn == 1 and not state.battles:
                await replay(service)
            elif step == "edit" and state.turn == 1:
                await service.gm_edit_state(GM, PARENT_CHANNEL, lambda s: s.clone(), "none")
            elif step == "end" and thread.status == "running":
                await service.end(GM, THREAD, "the sides part")
            elif step == "confirm" and any(r.step == "battle1_confirm" for r in
                                           (await service.snapshot(pid)).pending):
                await service.submit(GM, pid, row.step_no, {"type": "confirm"}, seat=GM_SEAT)
            state = await parent_state(db, pid)
            thread = await campaign_rows.get(db, battle)
            assert thread is not None
            assert asked_to_report(await outbox(db), opened) == 0, steps
            if state.turn == 1 and state.battles and waiting(state, 0):
                b = state.battles[0]
                assert b.linked == NAME, steps
                if thread.status == "ended":
                    assert b.proposal is not None, steps  # its result waits there
    finally:
        await db.close()


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(st.sampled_from(STEPS), min_size=1, max_size=8))
def test_p14_a_battle_fought_in_its_thread_stays_its_threads_through_any_undo(
    steps: list[str],
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(scenario(Path(tmp), steps))
