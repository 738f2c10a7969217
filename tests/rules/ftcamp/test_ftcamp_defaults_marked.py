"""Reveals mark the orders the service took by default at a deadline (issue 10, item 3):
``resolve_with_defaults`` is told the seats by the service, never by an action."""

from __future__ import annotations

from ftcamp_testkit import _keep_orders, group, orders_in, world

from bot.rules.base import BY_DEFAULT
from bot.rules.dice import ScriptedDice
from bot.rules.ftcamp import RULESET


def two_sides():  # type: ignore[no-untyped-def]
    return world(group("Vanguard", 1), group("Raiders", 2))


def test_fleet_order_reveal_marks_the_defaulted_seats_groups() -> None:
    state = two_sides()
    out = RULESET.resolve_with_defaults(state, _keep_orders(state), ScriptedDice(),
                                        frozenset({2}))
    reveal = next(e for e in out.events if e.kind == "fleet_orders")
    lines = reveal.text.splitlines()
    assert any(x.startswith("- Raiders") and x.endswith(f"({BY_DEFAULT})") for x in lines)
    assert not any(x.startswith("- Vanguard") and BY_DEFAULT in x for x in lines)
    assert reveal.embed is not None
    fields = {f.name: f.value for f in reveal.embed.fields}
    assert fields["P2"].endswith(f"({BY_DEFAULT})") and BY_DEFAULT not in fields["P1"]
    assert out.state.by_default == []  # used by this reveal only


def test_a_players_own_action_cannot_claim_to_be_a_default() -> None:
    """The mark comes from the service's seat set alone: an action dict saying "default"
    is read like any other (or refused), and resolve() marks nobody who answered."""
    state = two_sides()
    actions = _keep_orders(state)
    actions[1] = {**actions[1], "default": "true", "by_default": "yes"}
    out = RULESET.resolve(state, actions, ScriptedDice())
    reveal = next(e for e in out.events if e.kind == "fleet_orders")
    assert BY_DEFAULT not in reveal.text
    assert reveal.embed is not None and not any(BY_DEFAULT in f.value
                                                for f in reveal.embed.fields)


def test_engage_reveal_marks_the_defaulted_groups() -> None:
    state = orders_in(two_sides()).state
    assert state.step == "engage"
    out = RULESET.resolve_with_defaults(state, {1: {"type": "engage_orders",
                                                    "order:Vanguard": "EE"}},
                                        ScriptedDice([3, 3, 2, 2]), frozenset({2}))
    reveal = next(e for e in out.events if e.kind == "engage_reveal")
    assert f"Engage orders {BY_DEFAULT}: Raiders" in reveal.text
    assert reveal.embed is not None
    fields = {f.name: f.value for f in reveal.embed.fields}
    assert fields["Raiders (P2)"].endswith(f"_{BY_DEFAULT}_")
    assert BY_DEFAULT not in fields["Vanguard (P1)"]
