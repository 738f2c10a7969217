"""Panels through Discord (issue 10, item 9): per-field defaults, the deadline takes a legal
draft, numbers typed in a Modal (seat-checked, range-checked), page k/n with a summary of every
page, and a destructive action that is red, alone on its row and confirmed first.

Played on the tests-only "drill" rule set (tests/support/drill.py): six groups (hold by
default) and typed losses 0..61 over two pages, or Concede."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.rules.base import Ruleset
from cogs.panel_ids import PanelKey
from cogs.panel_modal import number_modal
from tests.cogs.panel_forgery import NOT_YOURS, panel_parts
from tests.cogs.simworld import World, custom_ids, dm_texts, fresh, last_panel, texts
from tests.support import drill
from tests.support.dbprint import fingerprint

HOUR = 3600


@pytest.fixture(autouse=True)
def drill_rules(guess_rules: Ruleset) -> Ruleset:
    drill.register()
    return drill.RULESET


async def start_drill(w: World) -> None:
    await w.gm.slash(w.chan, "campaign create", ruleset="drill", name="Drill")
    for member in (w.alice, w.bob):
        await member.slash(w.chan, "campaign join")
    started = await w.gm.slash(w.chan, "campaign start")
    assert started.ephemeral


def rows(message: Any) -> list[list[dict[str, Any]]]:
    return [[c.to_dict() for c in row.children] for row in message.components]


def component(message: Any, **match: Any) -> dict[str, Any]:
    for row in rows(message):
        for c in row:
            if all(c.get(k) == v for k, v in match.items()):
                return c
    raise AssertionError(f"no component {match} on {message.content!r}")


def select_for(message: Any, label: str) -> str:
    return str(component(message, placeholder=label)["custom_id"])


def chosen(message: Any, label: str) -> list[str]:
    select = component(message, placeholder=label)
    return [o["value"] for o in select["options"] if o.get("default")]


def number_button(message: Any) -> dict[str, Any]:
    found = [c for row in rows(message) for c in row if ":num:" in str(c.get("custom_id"))]
    assert len(found) == 1, rows(message)
    return found[0]


async def open_orders(member: simcord.MemberActor) -> discord.Message:
    panel = last_panel(member)
    await member.user.click(panel, label="Orders")
    return fresh(member, panel)


async def next_page(member: simcord.MemberActor, panel: discord.Message) -> discord.Message:
    await member.user.click(panel, label="Next ▶")
    return fresh(member, panel)


async def pick(member: simcord.MemberActor, panel: discord.Message, label: str,
               value: str) -> discord.Message:
    await member.user.select(panel, [value], custom_id=select_for(panel, label))
    return fresh(member, panel)


async def type_number(member: simcord.MemberActor, panel: discord.Message,
                      text: str) -> simcord.InteractionResult:
    shown = await member.user.click(panel, custom_id=number_button(panel)["custom_id"])
    assert shown.modal is not None, "the number button opens a Modal"
    return await member.user.submit_modal(shown, {"number": text})


def reveal(w: World) -> str:
    found = [t for t in texts(w.chan) if "Orders revealed" in t]
    assert len(found) == 1, texts(w.chan)
    return found[0]


async def test_changing_one_field_keeps_the_defaults_of_the_others(world: World) -> None:
    """Before: changing Group 2 dropped every other default, and Submit said "Choose Group 1
    first"."""
    await start_drill(world)
    panel = await open_orders(world.alice)
    assert chosen(panel, "Group 1") == ["hold"]
    panel = await pick(world.alice, panel, "Group 2", "move")
    # the panel shows the effective choice of every field: Group 1 still holds
    assert chosen(panel, "Group 1") == ["hold"] and chosen(panel, "Group 2") == ["move"]
    assert "- Group 1: hold" in panel.content and "- Group 2: move" in panel.content
    result = await world.alice.user.click(panel, label="Submit")
    assert not result.followups, result.followups  # no "Choose ... first" refusal
    assert "Your orders are in" in fresh(world.alice, panel).content
    await world.bob.user.click(await open_orders(world.bob), label="Submit")
    assert ("alice: g1 hold, g2 move, g3 hold, g4 hold, g5 hold, g6 hold; losses 0"
            in reveal(world))


async def test_paged_panel_says_page_k_of_n_and_summarises_every_page(world: World) -> None:
    """Before: no "page 1/2", and Submit on page 1 sent page 2's defaults unseen."""
    await start_drill(world)
    panel = await open_orders(world.alice)
    assert "**Orders** (page 1/2)" in panel.content
    # page 1 shows Groups 1-4 as menus, and lists page 2's choices (Groups 5-6, losses) too
    placeholders = [c.get("placeholder") for row in rows(panel) for c in row]
    assert "Group 5" not in placeholders
    assert "Submit sends these choices (every page):" in panel.content
    for line in ("- Group 5: hold", "- Group 6: hold", "- Losses taken: 0"):
        assert line in panel.content, panel.content
    panel = await next_page(world.alice, panel)
    assert "**Orders** (page 2/2)" in panel.content
    panel = await pick(world.alice, panel, "Group 6", "move")
    await world.alice.user.click(panel, label="◀ Prev")
    panel = fresh(world.alice, panel)
    assert "(page 1/2)" in panel.content and "- Group 6: move" in panel.content


async def test_a_number_is_typed_in_a_modal_and_checked(world: World, db_path: Path) -> None:
    """Before: losses 0..61 came from split menus labelled "(26-50)" that started at 25."""
    await start_drill(world)
    panel = await next_page(world.alice, await open_orders(world.alice))
    button = number_button(panel)
    assert button["label"] == "Losses taken: 0"
    shown = await world.alice.user.click(panel, custom_id=button["custom_id"])
    modal = shown.modal
    assert modal is not None and modal["title"] == "Losses taken"
    assert modal["custom_id"].startswith("adm:") and ":set:" in modal["custom_id"]
    before = fingerprint(db_path)
    for typed, why in (("62", "62 is out of range"), ("-3", "-3 is out of range"),
                       ("many", "'many' is not a whole number"),
                       ("2.5", "'2.5' is not a whole number")):
        result = await type_number(world.alice, fresh(world.alice, panel), typed)
        answer = result.response
        assert result.ephemeral and why in answer.content, answer.content
        assert "enter a whole number from 0 to 61" in answer.content
        assert fingerprint(db_path) == before  # nothing saved
    result = await type_number(world.alice, fresh(world.alice, panel), " 27 ")
    assert not result.ephemeral
    panel = fresh(world.alice, panel)
    assert number_button(panel)["label"] == "Losses taken: 27"
    assert "- Losses taken: 27" in panel.content
    await world.alice.user.click(panel, label="Submit")
    await world.bob.user.click(await open_orders(world.bob), label="Submit")
    assert "alice: g1 hold, g2 hold, g3 hold, g4 hold, g5 hold, g6 hold; losses 27" in reveal(
        world)


async def test_a_number_modal_for_another_seat_is_refused(world: World, db_path: Path) -> None:
    """A Modal submission names its seat in its custom id like any component: bob submitting
    a Modal that carries alice's panel id is refused, and nothing changes."""
    await start_drill(world)
    alice_panel = last_panel(world.alice)
    cid, step, seat = panel_parts(alice_panel)
    field = drill.orders_spec().fields[-1]

    class Opener(discord.ui.View):
        @discord.ui.button(label="open", custom_id="test:forged-modal")
        async def open(self, interaction: discord.Interaction, _b: discord.ui.Button) -> None:
            await interaction.response.send_modal(
                number_modal(PanelKey(cid, step, seat), 0, 6, 1, field, []))

    user = await world.env.bot.fetch_user(world.bob.id)
    forged = await user.send("forged", view=Opener(timeout=None))
    await world.env.settle()
    before = fingerprint(db_path)
    shown = await world.bob.user.click(forged, label="open")
    result = await world.bob.user.submit_modal(shown, {"number": "5"})
    assert result.ephemeral and NOT_YOURS in result.response.content
    assert "Losses" not in result.response.content
    assert fingerprint(db_path) == before
    # the same Modal is alice's to use
    user = await world.env.bot.fetch_user(world.alice.id)
    hers = await user.send("copy", view=Opener(timeout=None))
    await world.env.settle()
    shown = await world.alice.user.click(hers, label="open")
    result = await world.alice.user.submit_modal(shown, {"number": "5"})
    assert not result.ephemeral
    await world.alice.user.click(alice_panel, label="Orders")
    panel = await next_page(world.alice, fresh(world.alice, alice_panel))
    assert number_button(panel)["label"] == "Losses taken: 5"


async def test_concede_is_red_alone_and_confirmed_with_its_consequence(world: World) -> None:
    await start_drill(world)
    panel = last_panel(world.alice)
    layout = rows(panel)
    concede = component(panel, label="Concede")
    assert concede["style"] == discord.ButtonStyle.danger.value
    assert [c.get("label") for c in layout[-1]] == ["Concede"]  # a row of its own
    assert component(panel, label="Orders")["style"] != discord.ButtonStyle.danger.value
    await world.alice.user.click(panel, label="Concede")
    panel = fresh(world.alice, panel)
    assert drill.CONCEDE_TEXT in panel.content  # the consequence, before anything is sent
    confirm = component(panel, label="Confirm: Concede")
    assert confirm["style"] == discord.ButtonStyle.danger.value
    assert "Your orders are in" not in panel.content
    status = await world.alice.slash(world.chan, "campaign status")
    assert "alice" in status.response.content.split("Waiting for")[1]
    await world.alice.user.click(panel, label="Back")  # nothing happened: back to the choice
    panel = fresh(world.alice, panel)
    await world.alice.user.click(panel, label="Concede")
    await world.alice.user.click(fresh(world.alice, panel), label="Confirm: Concede")
    assert "Your orders are in: Concede" in fresh(world.alice, panel).content
    await world.bob.user.click(await open_orders(world.bob), label="Submit")
    assert "alice concedes" in reveal(world)


async def test_the_deadline_takes_a_legal_draft_and_drops_an_illegal_one(
    world: World, db_path: Path
) -> None:
    """Before: at the deadline saved choices were dropped for the default. Alice's draft is
    legal and is taken (every field: her own choices and the defaults of the others); bob's
    attacks with Group 6, which the rules refuse, so he gets the default."""
    await start_drill(world)
    panel = await open_orders(world.alice)
    panel = await pick(world.alice, panel, "Group 2", "attack")
    panel = await next_page(world.alice, panel)
    await type_number(world.alice, panel, "40")
    bob = await next_page(world.bob, await open_orders(world.bob))
    bob = await pick(world.bob, bob, "Group 5", "move")
    await pick(world.bob, bob, "Group 6", "attack")
    assert not [t for t in texts(world.chan) if "Orders revealed" in t]
    await world.env.advance_time(48 * HOUR + 60)
    text = reveal(world)
    assert "alice: g1 hold, g2 attack, g3 hold, g4 hold, g5 hold, g6 hold; losses 40" in text
    assert "bob: g1 hold, g2 hold, g3 hold, g4 hold, g5 hold, g6 hold; losses 0" in text
    assert not any("Orders revealed" in t for t in dm_texts(world.bob))


async def test_gm_advance_takes_the_legal_draft_too(world: World) -> None:
    await start_drill(world)
    panel = await open_orders(world.alice)
    await pick(world.alice, panel, "Group 3", "move")
    result = await world.gm.slash(world.chan, "gm advance")
    assert "alice: g1 hold, g2 hold, g3 move" in reveal(world), result.response.content
    assert custom_ids(last_panel(world.alice))  # her old panel message is still there


async def test_the_number_button_and_its_modal_work_after_a_restart(
    world: World, db_path: Path
) -> None:
    """The Modal is answered from its custom id alone (no Modal object is kept in memory)."""
    from tests.cogs.conftest import new_bot

    await start_drill(world)
    panel = await next_page(world.alice, await open_orders(world.alice))
    shown = await world.alice.user.click(panel, custom_id=number_button(panel)["custom_id"])
    await world.env.restart_bot(new_bot(db_path))
    result = await world.alice.user.submit_modal(shown, {"number": "33"})  # opened before
    assert not result.ephemeral
    assert number_button(fresh(world.alice, panel))["label"] == "Losses taken: 33"
    result = await type_number(world.alice, fresh(world.alice, panel), "34")  # opened after
    assert number_button(fresh(world.alice, panel))["label"] == "Losses taken: 34"
