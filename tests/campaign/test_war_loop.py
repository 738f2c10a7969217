"""One war on a real SQLite file (issue 11, E-D36, H-D28): an FTCamp round with a battle,
the HRFT battle opened by ONE intent with its craft, fought to its end by scripted players,
its result proposed to the parent's GM, confirmed, applied, the next round opened with the
changed forces, and /gm undo in the parent restoring the exact earlier state."""

from __future__ import annotations

import logging
from typing import Any

import pytest

import bot.rules.hrft.gm as hrft_gm
from bot.campaign import Actor, CampaignService
from bot.errors import InvalidState, PermissionDenied, RulesError
from bot.rules import registry
from bot.rules.base import GM_SEAT
from bot.rules.dice import SeededDice
from bot.rules.ftcamp import build, export_scenario
from storage import Database
from storage import campaigns as campaign_rows
from tests.campaign.conftest import ALICE, BOB, GM, GUILD, dms_to, outbox

PARENT_CHANNEL = 700
THREAD = 701
SCENARIO = export_scenario(build.scenario("Border War", (4, 4), ["Terran Union", "Kravak Horde"], [
    build.group("Vanguard", 1, "0202", build.craft("Resolute", 40, thrust=4, design="vanguard"),
                build.craft("Valiant", 20, thrust=6, design="kestrel", armed=True),
                build.craft("Scout", 10, thrust=6, design="surveyor")),
    build.group("Raiders", 2, "0202", build.craft("Fang", 50, thrust=4, design="wolfhound",
                                                  armed=True),
                build.craft("Claw", 20, thrust=6, design="lynx")),
]))


async def play(service: CampaignService, campaign_id: int, actors: list[Actor],
               done: Any, steps: int = 400) -> None:
    """Scripted players answer their panels (as the demo does) until ``done(row)``."""
    ruleset = None
    dice = SeededDice(5, "players")
    for _ in range(steps):
        row = await campaign_rows.get(service.db, campaign_id)
        assert row is not None
        if done(row):
            return
        ruleset = ruleset or registry.get(row.ruleset)
        state = ruleset.state_model.model_validate(row.state)
        moved = False
        for actor in actors:
            for panel in await service.panels_for(campaign_id, actor.user_id):
                if panel.submitted is not None or panel.seat == GM_SEAT:
                    continue
                player = ruleset.scripted_player(panel.seat)
                action = player.choose(ruleset.view(state, panel.seat), panel.request, dice)
                await service.submit(actor, campaign_id, panel.step_no, action, seat=panel.seat)
                moved = True
                break
            if moved:
                break
        assert moved, f"nobody could act and the goal is not reached: {row.status}"
    raise AssertionError("the game did not get there")


async def parent_at_battles(service: CampaignService) -> int:
    info = await service.create(GM, GUILD, PARENT_CHANNEL, "ftcamp", "Border War")
    for p in (ALICE, BOB):
        await service.join(p, PARENT_CHANNEL)
    await service.settings(GM, PARENT_CHANNEL, {"scenario": SCENARIO})
    await service.start(GM, PARENT_CHANNEL)
    await play(service, info.id, [ALICE, BOB],
               lambda row: row.state.get("step") == "battles")
    return info.id


def parent_state(row: Any) -> Any:
    return registry.get("ftcamp").state_model.model_validate(row.state)


async def test_e_d34_whole_loop_battle_in_hrft_and_back(
    service: CampaignService, db: Database, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.ERROR)
    parent_id = await parent_at_battles(service)
    row = await campaign_rows.get(db, parent_id)
    assert row is not None
    state = parent_state(row)
    # E-D36: the round waits; only the GM is asked, with nothing to confirm yet
    assert state.round == 1 and [w.status for w in state.war] == ["waiting"]
    ref = state.war[0].ref
    pending = (await service.snapshot(parent_id)).pending
    assert [(r.seat, [a.type for a in r.actions]) for r in pending] == [(GM_SEAT, ["close"])]

    # Only the parent's GM opens it; a failing bring-in leaves no battle at all (one tx).
    with pytest.raises(PermissionDenied):
        await service.open_battle(ALICE, GUILD, THREAD, "Battle", parent_id, ref)

    def broken(*_: Any) -> Any:
        raise RuntimeError("bring-in failed")

    monkeypatch.setattr(hrft_gm, "bring_in", broken)
    with pytest.raises(RuntimeError):
        await service.open_battle(GM, GUILD, THREAD, "Battle", parent_id, ref)
    assert await campaign_rows.id_in_channel(db, THREAD) is None
    monkeypatch.undo()

    info = await service.open_battle(GM, GUILD, THREAD, "Battle of 0202", parent_id, ref)
    assert info.status == "running" and info.parent_id == parent_id
    assert [(s.seat, s.user_id) for s in info.seats] == [(1, ALICE.user_id), (2, BOB.user_id)]
    battle = (await service.snapshot(info.id)).state
    assert sorted((s.name, s.seat) for s in battle.ships.values()) == [
        ("Claw", 2), ("Fang", 2), ("Resolute", 1), ("Valiant", 1)]
    assert sorted(battle.origin.values()) == [["Raiders", "Claw"], ["Raiders", "Fang"],
                                              ["Vanguard", "Resolute"], ["Vanguard", "Valiant"]]
    # names a design that is no sample and not uploaded yet: waits for /battle design
    assert [r.craft for r in battle.roster] == ["Scout"]

    await play(service, info.id, [ALICE, BOB], lambda r: r.status == "ended", steps=2000)
    final = (await service.snapshot(info.id)).state
    fates = {final.origin[u][1]: s for u, s in final.ships.items() if u in final.origin}

    # The parent's GM gets the proposal (a DM and the panel); players are asked nothing.
    row = await campaign_rows.get(db, parent_id)
    assert row is not None
    state = parent_state(row)
    assert state.war[0].status == "proposed" and state.step == "battles"
    assert any("Proposed change to the campaign" in m.content
               for m in dms_to(await outbox(db), GM))
    pending = (await service.snapshot(parent_id)).pending
    assert [r.seat for r in pending] == [GM_SEAT]
    assert {a.type for a in pending[0].actions} == {"confirm", "edit", "close"}

    # The GM edits one craft's fate: Valiant came back, but its FTL is destroyed.
    options = {o.label: o.value for o in pending[0].actions[1].fields[0].options}
    step = row.step_no
    await service.submit(GM, parent_id, step, {"type": "edit", "craft": options[f"{ref} Valiant"],
                                               "fate": "ftl"}, seat=GM_SEAT)
    row = await campaign_rows.get(db, parent_id)
    assert row is not None and row.step_no == step + 1  # a fresh panel with the edit
    before = row.state
    await service.submit(GM, parent_id, row.step_no, {"type": "confirm", "battle": ref},
                         seat=GM_SEAT)
    row = await campaign_rows.get(db, parent_id)
    assert row is not None
    after = parent_state(row)
    assert after.round == 2 and after.step == "orders"  # the next round opens
    assert [w.status for w in after.war] == ["applied"]
    left = {c.name: c for g in after.groups.values() for c in g.craft}
    # as fought (seeded): both Raiders craft destroyed, Resolute hit, Valiant edited
    assert {n: s.destroyed for n, s in fates.items()} == {
        "Resolute": False, "Valiant": False, "Fang": True, "Claw": True}
    assert "Raiders" not in after.groups and sorted(left) == ["Resolute", "Scout", "Valiant"]
    resolute = next(s for s in fates.values() if s.name == "Resolute")
    hull = sum(b.hull for b in resolute.blocks.values())
    assert left["Resolute"].damage == hull - resolute.hull_left > 0
    # hull damage only in the battle (FTL and drive working): not crippled, thrust kept; the
    # FTL and drive mappings are the cases of tests/rules/ftcamp/test_ftcamp_war.py
    assert not any(s.destroyed for s in resolute.systems_of("ftl"))
    assert resolute.current_thrust == resolute.thrust == 4
    assert not left["Resolute"].crippled and left["Resolute"].drive
    assert left["Resolute"].thrust == 4
    assert left["Valiant"].crippled  # the GM's edit
    scout = next(c for c in registry.get("ftcamp").state_model.model_validate(before).groups[
        "Vanguard"].craft if c.name == "Scout")
    assert left["Scout"] == scout  # not among the battle's ships: unchanged
    # The next round asks for orders of the groups that are left: Bob has none.
    pending = (await service.snapshot(parent_id)).pending
    assert {r.seat for r in pending} == {1}
    assert "Vanguard" in pending[0].prompt or any(
        "Vanguard" in f.name for a in pending[0].actions for f in a.fields)

    # /gm undo in the parent restores the exact earlier state, proposal and all.
    await service.gm_undo(GM, PARENT_CHANNEL)
    row = await campaign_rows.get(db, parent_id)
    assert row is not None and row.state == before
    # while the round waited, the GM was asked: no step asked nobody
    assert not [r for r in caplog.records if "ask nobody" in r.getMessage()]


async def test_e_d34_the_gm_closes_a_battle_fought_at_the_table(
    service: CampaignService, db: Database
) -> None:
    parent_id = await parent_at_battles(service)
    row = await campaign_rows.get(db, parent_id)
    assert row is not None
    ref = parent_state(row).war[0].ref
    with pytest.raises(RulesError, match="not one of the choices"):
        await service.submit(GM, parent_id, row.step_no, {"type": "close", "battle": "0101/A-1"},
                             seat=GM_SEAT)
    await service.submit(GM, parent_id, row.step_no, {"type": "close", "battle": ref},
                         seat=GM_SEAT)
    row = await campaign_rows.get(db, parent_id)
    assert row is not None
    state = parent_state(row)
    assert state.round == 2 and [w.status for w in state.war] == ["closed"]
    # the manual report stays: a GM edit removes a craft by hand
    assert "Scout" in {c.name for c in state.groups["Vanguard"].craft}
    with pytest.raises(InvalidState, match="no longer waits"):  # it has its result
        await service.open_battle(GM, GUILD, THREAD, "Late", parent_id, ref)


async def test_p20_begin_battle_brings_nothing_of_a_campaign_in(
    service: CampaignService, db: Database
) -> None:
    """P-20 (was H-D28's battle created first): a battle created first has no parent, so
    /battle begin brings no campaign's craft in; one an older version made for a parent in
    setup (its parent set by hand here) cannot begin at all."""
    parent_id = await parent_at_battles(service)
    row = await campaign_rows.get(db, parent_id)
    assert row is not None
    ref = parent_state(row).war[0].ref
    info = await service.create(GM, GUILD, THREAD, "hrft", "B")
    for p in (BOB, ALICE):
        await service.join(p, THREAD)
    async with db.transaction() as tx:
        # (a write bumps the version: the service's copies by version see it)
        await tx.execute("UPDATE campaigns SET parent_id = ?, parent_ref = ?,"
                         " version = version + 1 WHERE id = ?", (parent_id, ref, info.id))
    with pytest.raises(PermissionDenied):
        await service.begin_battle(ALICE, THREAD)
    with pytest.raises(InvalidState, match="cannot begin"):
        await service.begin_battle(GM, THREAD)
    async with db.transaction() as tx:
        await tx.execute("UPDATE campaigns SET parent_id = NULL, parent_ref = NULL,"
                         " version = version + 1 WHERE id = ?", (info.id,))
    begun = await service.begin_battle(GM, THREAD)
    assert begun.status == "running"
    assert (await service.snapshot(info.id)).state.ships == {}
    with pytest.raises(InvalidState, match="already begun"):
        await service.begin_battle(GM, THREAD)
