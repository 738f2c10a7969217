"""An HRFT battle started with forces through the service (H-D35, H-D36, H-D37): one
transaction starts it and opens the sealed muster step; submissions are checked at once,
stay sealed, and the last one musters the ships and opens turn 1."""

from __future__ import annotations

from typing import Any

import pytest

from bot.campaign import CampaignService
from bot.errors import RulesError
from bot.rules.hrft import muster
from storage import Database
from storage import campaigns as campaign_rows
from tests.campaign.conftest import ALICE, BOB, GM, GUILD, channel_texts, dms_to, outbox

THREAD = 801
FORCES = [{"seat": 1, "side": "1", "label": "Alice's fleet at Orbit 2", "budget": 120,
           "max_class": 3},
          {"seat": 2, "side": "2", "label": "Bob's fleet at Orbit 2", "budget": 60,
           "max_class": 2}]


async def start_with_forces(service: CampaignService, forces: list[dict[str, Any]]) -> int:
    """As ``begin_battle`` does for a roster: start and take the forces in, one intent."""
    info = await service.create(GM, GUILD, THREAD, "hrft", "Orbit 2")
    for p in (ALICE, BOB):
        await service.join(p, THREAD)

    async def run(tx: Any, ctx: Any, fx: Any) -> None:
        await service.battles._start_with_roster(tx, ctx, fx, [], forces)

    await service.engine.core.mutate(info.id, run)
    return info.id


async def test_hd36_muster_through_the_service(service: CampaignService, db: Database) -> None:
    campaign_id = await start_with_forces(service, FORCES)
    row = await campaign_rows.get(db, campaign_id)
    assert row is not None and row.status == "running" and row.state["step"] == "muster"
    sent = await outbox(db)
    # each seat got its muster panel, never a setup panel that is already stale
    assert not any("Add your ships" in m.content for m in sent)
    assert any("you may field up to 120 MASS" in m.content for m in sent)
    (alice,) = await service.panels_for(campaign_id, ALICE.user_id)
    (bob,) = await service.panels_for(campaign_id, BOB.user_id)
    assert (alice.request.step, alice.request.kind) == ("muster", "sealed")

    # refused at once, with the reason; nothing stored
    with pytest.raises(RulesError, match="Your picks total 136 MASS; your budget is 120"):
        await service.submit(ALICE, campaign_id, alice.step_no,
                             {"type": "muster", "vanguard": "1", "wolfhound": "1"})
    with pytest.raises(RulesError, match="Vanguard is size class 3"):  # not on Bob's panel
        await service.submit(BOB, campaign_id, bob.step_no,
                             {"type": "muster", "vanguard": "1"})
    first = await service.submit(ALICE, campaign_id, alice.step_no,
                                 {"type": "muster", "vanguard": "1", "jackal": "1"})
    assert not first.resolved
    # sealed: nothing public names a design before every side chose
    names = [d.name for d in muster.designs(
        service_state(await campaign_rows.get(db, campaign_id))).values()]
    public = channel_texts(await outbox(db))
    assert not any(n in text for n in names for text in public)
    # nor does Bob hear of Alice's choice (his own panel offers no Vanguard: class 2 cap)
    assert not any("Vanguard" in m.content for m in dms_to(await outbox(db), BOB))
    assert "Vanguard" not in (await service.status(THREAD, BOB.user_id)).text

    done = await service.submit(BOB, campaign_id, bob.step_no,
                                {"type": "muster", "jackal": "1", "lynx": "1"})
    assert done.resolved
    row = await campaign_rows.get(db, campaign_id)
    assert row is not None
    state = service_state(row)
    assert (state.turn, state.step) == (1, "orders")
    assert sorted((s.name, s.seat) for s in state.ships.values()) == [
        ("Jackal 1", 1), ("Jackal 2", 2), ("Lynx 1", 2), ("Vanguard 1", 1)]
    public = "\n".join(channel_texts(await outbox(db)))
    assert "Vanguard 1" in public and "54 of 60 MASS" in public
    (orders,) = await service.panels_for(campaign_id, ALICE.user_id)
    assert orders.request.step == "orders"


def service_state(row: Any) -> Any:
    from bot.rules.hrft import BattleState

    return BattleState.model_validate(row.state)


DREAD = """
name = "Dread"
type_code = "DN"
mass = 180
hull = 40
armour = 4
thrust = 2
"""


async def test_hd36_a_gm_upload_reopens_the_muster(service: CampaignService,
                                                   db: Database) -> None:
    forces = [{**FORCES[0], "budget": 200, "max_class": 5}, FORCES[1]]
    campaign_id = await start_with_forces(service, forces)
    (alice,) = await service.panels_for(campaign_id, ALICE.user_id)
    await service.submit(ALICE, campaign_id, alice.step_no, {"type": "muster", "lynx": "1"})
    await service.gm_act(GM, THREAD, {"type": "add_design", "filename": "dread.toml",
                                      "content": DREAD})
    (again,) = await service.panels_for(campaign_id, ALICE.user_id)
    assert again.step_no > alice.step_no and again.submitted is None  # choose again
    assert "up:dread" in [f.name for f in again.request.actions[0].fields]
    (bob,) = await service.panels_for(campaign_id, BOB.user_id)
    await service.submit(ALICE, campaign_id, again.step_no, {"type": "muster", "up:dread": "1"})
    done = await service.submit(BOB, campaign_id, bob.step_no, {"type": "muster", "lynx": "3"})
    assert done.resolved
    row = await campaign_rows.get(db, campaign_id)
    assert row is not None
    state = service_state(row)
    assert sorted(s.name for s in state.ships.values()) == ["Dread 1", "Lynx 1", "Lynx 2",
                                                            "Lynx 3"]
    assert state.uploaded == {} and state.step == "orders"
