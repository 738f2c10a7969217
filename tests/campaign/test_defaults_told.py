"""Defaults in the open (issue 10, item 3), through the service on a real SQLite file:
the rule set is told which seats' actions the service took by default (a player cannot claim
it), and the GM gets ONE DM per deadline naming every seat that missed it, what was taken
for each, and the streak warnings."""

from __future__ import annotations

from typing import Any

import pytest

from bot.campaign import CampaignService
from bot.errors import UserError
from bot.rules import registry
from storage import Database
from tests.campaign.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GM,
    GUILD,
    FakeClock,
    channel_texts,
    dms_to,
    outbox,
    started,
)
from tests.support import mixed


def gm_dms(rows: list[Any]) -> list[str]:
    return [r.content for r in dms_to(rows, GM)]


async def test_the_rules_hear_which_seats_defaulted_and_no_player_can_claim_it(
    service: CampaignService, db: Database, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = registry.get("guess")
    told: list[frozenset[int]] = []

    def resolve_with_defaults(state: Any, actions: Any, dice: Any,
                              defaulted: frozenset[int]) -> Any:
        told.append(defaulted)
        return rules.resolve(state, actions, dice)

    monkeypatch.setattr(rules, "resolve_with_defaults", resolve_with_defaults, raising=False)
    info = await started(service, ALICE, BOB, CAROL, reminders="none")
    # alice answers with an action that claims to be a default: refused or read as hers
    forged = {"type": "guess", "number": "4", "default": "true", "by_default": "true"}
    try:
        await service.submit(ALICE, info.id, info.step_no, forged)
    except UserError:
        await service.submit(ALICE, info.id, info.step_no, {"type": "guess", "number": "4"})
    await service.save_draft(CAROL, info.id, info.step_no, "guess", "number", ["5"])
    clock.advance(48)
    assert await service.run_due() == 1
    # bob took the default; carol's saved draft is her own choice; alice answered
    assert told == [frozenset({2})]
    channel = "\n".join(channel_texts(await outbox(db)))
    assert "Bob missed the deadline: default orders were used." in channel
    assert "Carol missed the deadline: the choices saved in their panel were used." in channel
    assert "Alice missed" not in channel


async def test_one_gm_dm_per_deadline_names_each_seat_what_it_got_and_the_warnings(
    service: CampaignService, db: Database, clock: FakeClock
) -> None:
    """Hide and seek (a mixed step): alice and bob hide (sealed), carol calls (turn); all
    three miss the same deadline, alice and carol had saved drafts."""
    mixed.register()
    await service.create(GM, GUILD, CHANNEL, "mixed", "Hide")
    for p in (ALICE, BOB, CAROL):
        await service.join(p, CHANNEL)
    await service.settings(GM, CHANNEL, {"missed_warning": "1", "reminders": "none"})
    info = await service.start(GM, CHANNEL)
    await service.save_draft(ALICE, info.id, info.step_no, "hide", "box", ["3"])
    await service.save_draft(CAROL, info.id, info.step_no, "call", "box", ["2"])
    before = len(gm_dms(await outbox(db)))
    clock.advance(49)
    assert await service.run_due() == 1
    notes = [n for n in gm_dms(await outbox(db))[before:] if "deadline" in n
             and "Deadline" not in n]  # (the GM's panel for the next step aside)
    assert len(notes) == 1  # one DM for the deadline, not one per seat
    assert notes[0].splitlines() == [
        "**Hide**, Hide, call. The deadline passed.",
        "Alice missed the deadline; their saved draft was taken: Your box: 3.",
        "Bob missed the deadline; the default was taken: Your box: 1.",
        "Carol missed the deadline; their saved draft was taken: Box called: 2.",
        "Warning: Alice has missed 1 deadline in a row. /gm replace gives the seat to "
        "another member; /gm kick frees it.",
        "Warning: Bob has missed 1 deadline in a row. /gm replace gives the seat to "
        "another member; /gm kick frees it.",
        "Warning: Carol has missed 1 deadline in a row. /gm replace gives the seat to "
        "another member; /gm kick frees it.",
    ]


async def test_the_ruling_behind_a_result_is_in_the_gm_log_not_the_channel(
    service: CampaignService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 10, item 5: the id is event data; the GM's log shows it, players never do."""
    rules = registry.get("guess")
    resolve = rules.resolve

    def with_ruling(state: Any, actions: Any, dice: Any) -> Any:
        out = resolve(state, actions, dice)
        for ev in out.events:
            ev.data["ruling"] = "O-13"
        return out

    monkeypatch.setattr(rules, "resolve", with_ruling)
    info = await started(service, ALICE, BOB, reminders="none")
    for p in (ALICE, BOB):
        await service.submit(p, info.id, info.step_no, {"type": "guess", "number": "2"})
    log = [e.text for e in await service.gm_log(GM, CHANNEL) if "Guesses" in e.text]
    assert log and all(t.endswith(" [ruling O-13]") for t in log)
    assert not any("O-13" in t for t in channel_texts(await outbox(db)))
