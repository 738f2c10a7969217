"""Exploration (replaced below)."""
from __future__ import annotations

from bot.campaign import CampaignService
from bot.rules.base import GM_SEAT
from storage import Database
from tests.campaign.conftest import GM, GUILD, outbox
from tests.campaign.test_orbits_war_loop import PARENT_CHANNEL, THREAD, at_battle, parent, parent_state


async def steps(service, pid):
    return [(r.seat, r.step) for r in (await service.snapshot(pid)).pending]


async def test_explore(service: CampaignService, db: Database) -> None:
    pid = await parent(service)
    info = await service.open_battle(GM, GUILD, THREAD, "Battle at Orbit 1", pid, "Orbit 1")
    print("after open", await steps(service, pid), (await parent_state(db, pid)).battles[0].linked)
    print("UNDO a:", await service.gm_undo(GM, PARENT_CHANNEL))
    st = await parent_state(db, pid)
    print("restored", st.phase, st.battles)
    await service.gm_edit_state(GM, PARENT_CHANNEL, at_battle, "replay")
    print("replayed", await steps(service, pid), (await parent_state(db, pid)).battles[0].linked)
    await service.end(GM, THREAD, "stop")
    print("ended", await steps(service, pid), (await parent_state(db, pid)).battles[0])
    for r in (await outbox(db))[-6:]:
        print("  OUT", r.kind, r.user_id if hasattr(r, 'user_id') else '', r.content[:200])
