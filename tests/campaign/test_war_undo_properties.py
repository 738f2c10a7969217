"""Properties of a battle's result in an FTCamp campaign through the service (issue 11, E-D36,
P-5, P-13): whatever the result and the GM's edits of it, confirming it never gives a player a
craft they did not have nor raises a craft's thrust, and /gm undo in the campaign goes back
through the confirmation and every edit to exactly the earlier states (state dumps equal).

The campaign is played to its battles once; each example works on a copy of that database."""

from __future__ import annotations

import asyncio
import atexit
import shutil
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.campaign import CampaignService
from bot.rules.base import GM_SEAT
from bot.rules.ftcamp import RULESET
from bot.rules.ftcamp.warmodel import FATES, BattleResult, CraftFate
from storage import campaigns as campaign_rows
from storage import open_database
from tests.campaign.conftest import GM, SEED, FakeClock
from tests.campaign.test_war_loop import PARENT_CHANNEL, parent_at_battles, parent_state
from tests.support.examples import examples

CRAFT = [("Vanguard", "Resolute"), ("Vanguard", "Valiant"), ("Vanguard", "Scout"),
         ("Raiders", "Fang"), ("Raiders", "Claw"), ("Raiders", "Ghost")]  # Ghost: not there


def new_service(db: Any) -> CampaignService:
    return CampaignService(db, clock=FakeClock(), seed_source=lambda: SEED)


@lru_cache(maxsize=1)
def at_battles() -> tuple[Path, int]:
    """A database whose FTCamp campaign waits for its battle's result (played once)."""
    folder = tempfile.mkdtemp(prefix="war-undo-")
    atexit.register(shutil.rmtree, folder, True)
    path = Path(folder) / "base.db"

    async def build() -> int:
        db = await open_database(path)
        try:
            return await parent_at_battles(new_service(db))
        finally:
            await db.close()

    return path, asyncio.run(build())


fates = st.builds(
    CraftFate, craft=st.just(""), group=st.just(""), fate=st.sampled_from(list(FATES)),
    ftl_lost=st.booleans(), thrust=st.integers(0, 8), thrust_left=st.integers(0, 8),
    hull_lost=st.integers(0, 30), edited=st.booleans())
results = st.lists(st.tuples(st.sampled_from(CRAFT), fates), max_size=6, unique_by=lambda t: t[0])
edits = st.lists(st.tuples(st.integers(0, 10), st.sampled_from(list(FATES))), max_size=3)


def owned(state: Any) -> dict[int, dict[str, Any]]:
    """Each owner's craft, by (group, name)."""
    out: dict[int, dict[str, Any]] = {}
    for g in state.groups.values():
        for c in g.craft:
            out.setdefault(g.owner, {})[f"{g.name}/{c.name}"] = c
    return out


async def example(tmp: Path, result: BattleResult, gm_edits: list[tuple[int, str]],
                  base: Path, parent_id: int) -> None:
    path = tmp / "copy.db"
    shutil.copyfile(base, path)
    db = await open_database(path)
    try:
        service = new_service(db)

        async def dump() -> dict[str, Any]:
            row = await campaign_rows.get(db, parent_id)
            assert row is not None
            return row.state or {}

        ref = parent_state(await campaign_rows.get(db, parent_id)).war[0].ref
        dumps = [await dump()]  # waiting for its result
        # the result comes in (as a GM edit here, so that it too can be undone)
        await service.gm_edit_state(
            GM, PARENT_CHANNEL, lambda s: RULESET.propose_battle(s, ref, result.model_dump())
            .state, "result")
        dumps.append(await dump())
        for j, fate in gm_edits:
            pending = (await service.snapshot(parent_id)).pending
            spec = [a for a in pending[0].actions if a.type == "edit"]
            if not spec:  # a result that names no craft has nothing to edit
                break
            options = [o.value for o in spec[0].fields[0].options]
            row = await campaign_rows.get(db, parent_id)
            assert row is not None
            await service.submit(GM, parent_id, row.step_no, {
                "type": "edit", "craft": options[j % len(options)], "fate": fate}, seat=GM_SEAT)
            dumps.append(await dump())
        row = await campaign_rows.get(db, parent_id)
        assert row is not None
        await service.submit(GM, parent_id, row.step_no, {"type": "confirm", "battle": ref},
                             seat=GM_SEAT)
        after = parent_state(await campaign_rows.get(db, parent_id))
        before = RULESET.state_model.model_validate(dumps[-1])
        assert after.war[0].status == "applied"
        # never a craft more, for any owner; thrust never up, damage never down
        old, new = owned(before), owned(after)
        for owner, mine in new.items():
            assert set(mine) <= set(old.get(owner, {}))
            for key, c in mine.items():
                was = old[owner][key]
                assert c.thrust <= was.thrust and c.damage >= was.damage
                assert c.drive <= was.drive and (c.crippled or not was.crippled)
        # undo goes back through the confirmation and each edit, exactly
        for earlier in reversed(dumps):
            await service.gm_undo(GM, PARENT_CHANNEL)
            assert await dump() == earlier
    finally:
        await db.close()


@settings(max_examples=examples(25), deadline=None)
@given(results, edits)
def test_e_d36_p5_a_confirmed_result_never_creates_craft_and_undo_restores_each_state(
    picked: list[tuple[tuple[str, str], CraftFate]], gm_edits: list[tuple[int, str]],
) -> None:
    result = BattleResult(name="B", craft=[f.model_copy(update={"group": g, "craft": c})
                                           for (g, c), f in picked])
    base, parent_id = at_battles()
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(example(Path(tmp), result, gm_edits, base, parent_id))
