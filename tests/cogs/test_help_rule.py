"""/help rule: the ruling behind a result or refusal is one command away, and a refusal
names it only as data (issue 10, item 5; docs/dev/service-contract.md, "Rulings")."""

from __future__ import annotations

import re

from bot.campaign import rulings
from bot.campaign.cache import LruCache
from bot.errors import RulesError
from cogs.refusals import LAST_RULINGS_KEPT, WHY_HINT, refusal_for
from tests.cogs.simworld import World
from tests.cogs.test_battle_thread import (  # noqa: F401 (simcord_bot: the seeded HRFT bot)
    ORDERS_A,
    ORDERS_B,
    add_ships,
    open_battle,
    said,
    simcord_bot,
    write_orders,
)

RULE_ID = re.compile(r"\b[OEHP]-D?\d+(\.\d+)?\b")


async def test_help_rule_shows_the_ruling_by_id_or_title(world: World) -> None:
    w = world
    result = await w.alice.slash(w.chan, "help", rule="O-15")
    assert result.ephemeral
    text = said(result)
    assert text.startswith("**O-15 Battle results** (Orbits)")
    assert "losses" in text and "fewest cards" in text  # the ruling's own words
    # Loosely written ids and exact titles find it too; sub-items go to their ruling.
    assert said(await w.alice.slash(w.chan, "help", rule="o15")).startswith("**O-15 ")
    assert said(await w.alice.slash(w.chan, "help", rule="battle results")).startswith("**O-15")
    assert said(await w.alice.slash(w.chan, "help", rule="E-12.1")).startswith("**E-12 ")
    # Decisions of the bot's own (docs/rules pages) are there as well.
    assert said(await w.alice.slash(w.chan, "help", rule="H-D12")).startswith("**H-D12 ")
    assert "Automatic passes" in said(await w.alice.slash(w.chan, "help", rule="O-D2"))


async def test_an_unknown_ruling_is_refused_with_what_is_allowed(world: World) -> None:
    w = world
    result = await w.alice.slash(w.chan, "help", rule="Z-99")
    assert result.ephemeral
    assert "No ruling 'Z-99'" in said(result) and "ids like O-15" in said(result)
    near = await w.alice.slash(w.chan, "help", rule="O-99")
    assert "No ruling 'O-99'" in said(near)
    # With no refusal behind it, "last" says so instead of guessing.
    last = await w.alice.slash(w.chan, "help", rule="last")
    assert "No refusal of yours names a rule yet" in said(last)


async def test_autocomplete_offers_ids_and_titles(world: World) -> None:
    w = world
    by_id = await w.alice.autocomplete(w.chan, "help", "rule", "O-1")
    values = [c["value"] for c in by_id]
    assert values[:2] == ["O-1", "O-10"] and "O-15" in values and len(values) <= 25
    by_title = await w.alice.autocomplete(w.chan, "help", "rule", "battle results")
    assert [c["value"] for c in by_title] == ["O-15"]
    assert by_title[0]["name"] == "O-15 Battle results (Orbits)"
    everything = await w.alice.autocomplete(w.chan, "help", "rule", "")
    assert len(everything) == 25 and all(len(c["name"]) <= 100 for c in everything)


async def test_a_refusal_hints_at_its_rule_and_help_offers_it_first(world: World) -> None:
    w = world
    thread = await open_battle(w)
    await add_ships(w, thread)
    await write_orders(w.alice, "1a", ORDERS_A)
    await write_orders(w.bob, "2a", ORDERS_B)
    # Beam-3 (F/FS/FP) does not cover the aft arc: the engine refuses (H-1).
    again = await w.alice.slash(thread, "battle fire", ship="1a", weapons="s1", target="2a",
                                range=6, arc="F", bearing="A")
    assert again.ephemeral
    text = said(again)
    assert "does not cover A" in text
    assert text.endswith(WHY_HINT)
    assert not RULE_ID.search(text)  # the id stays data
    first = (await w.alice.autocomplete(thread, "help", "rule", ""))[0]
    assert first["value"] == "H-1" and first["name"] == "Your last refusal: Arcs"
    assert not RULE_ID.search(first["name"])
    shown = await w.alice.slash(thread, "help", rule="last")
    assert said(shown).startswith("**H-1 Arcs** (HRFT)")
    assert "Six 60° arcs" in said(shown)
    # Bob was not refused: nothing is offered to him as "his" refusal.
    bob_first = (await w.bob.autocomplete(thread, "help", "rule", ""))[0]
    assert not bob_first["name"].startswith("Your last refusal")


def test_refusal_text_keeps_the_id_out_and_ignores_unknown_ids() -> None:
    store: LruCache[str] = LruCache(LAST_RULINGS_KEPT)
    assert refusal_for(store, 1, RulesError("No.", ruling="O-15")) == f"No.\n{WHY_HINT}"
    assert refusal_for(store, 2, RulesError("No.", ruling="X-1")) == "No."
    assert refusal_for(store, 3, RulesError("No.")) == "No."
    # only a ruling that can be shown is remembered
    assert store.keys() == [1] and store.get(1) == "O-15"


def test_the_last_refusals_kept_are_the_latest_users() -> None:
    store: LruCache[str] = LruCache(2)
    for user in (1, 2, 1, 3):  # user 1 was refused again after 2: 2 is the one forgotten
        refusal_for(store, user, RulesError("No.", ruling="O-15"))
    assert store.keys() == [1, 3]


def test_the_index_holds_every_ruling_and_decision() -> None:
    table = rulings.all_rulings()
    for prefix, last in (("O-", 18), ("E-", 13), ("H-", 17)):
        assert all(f"{prefix}{n}" in table for n in range(1, last + 1)), prefix
    assert {"O-D16", "E-D31", "H-D32", "P-11"} <= set(table)
    assert all(len(r.show()) <= 2000 and r.title for r in table.values())
    # The ruling's text and how the bot applies it (its rule page) are joined.
    assert table["O-6"].applied and "Alice draws 1 card" in table["O-6"].applied


def test_parse_reads_bullets_with_and_without_titles() -> None:
    page = ("# X\n\n- **O-D1 What it is.** One line\n  and a second.\n- **E-D9** A supporter "
            "moves with its group. More.\n\nNot a bullet.\n")
    found = rulings.parse(page)
    assert [(r.id, r.title, r.text) for r in found] == [
        ("O-D1", "What it is", "One line and a second."),
        ("E-D9", "A supporter moves with its group", "A supporter moves with its group. More."),
    ]
