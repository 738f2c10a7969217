"""The written-orders reveal marks the sides whose orders the service took by default at the
deadline (issue 10, item 3)."""

from __future__ import annotations

from bot.rules.base import BY_DEFAULT
from bot.rules.dice import ScriptedDice
from bot.rules.hrft import RULESET
from tests.rules.hrft.battle_helpers import battle, ready_all


def test_orders_reveal_marks_the_defaulted_side_only() -> None:
    state, _ = ready_all(battle())
    orders = {r.seat: r.default for r in RULESET.pending(state)}
    assert all(orders.values())  # both sides have default orders
    out = RULESET.resolve_with_defaults(state, orders, ScriptedDice([2, 5]), frozenset({2}))
    lines = out.events[0].text.splitlines()
    sides = [x for x in lines if x.endswith(":") or x.endswith(f"({BY_DEFAULT})")]
    assert len(sides) == 2
    assert sides[1].endswith(f": ({BY_DEFAULT})") and BY_DEFAULT not in sides[0]
    # the same orders given by the players themselves carry no mark
    plain = RULESET.resolve(state, orders, ScriptedDice([2, 5]))
    assert BY_DEFAULT not in plain.events[0].text
