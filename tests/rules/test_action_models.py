"""Issue 17, item 4: each rule set's actions as pydantic models, read from their stored form.

The stored form (event log, sealed orders in the database) is the flat dict a panel builds;
actions stored before the models existed must read into the same models and mean the same
(yes/no answers, the older Orbits tens/units report, the older FTCamp "place" pick). Every
kind a rule set offers, and every default it takes, is one of its models."""

from __future__ import annotations

from typing import Any

import pytest

from bot.errors import RulesError
from bot.rules import registry
from bot.rules.actions import ActionKinds, ActionModel, OtherAction
from bot.rules.base import GM_SEAT, Seat, YesNo
from bot.rules.dice import SeededDice
from bot.rules.ftcamp import actions as ftcamp_actions
from bot.rules.hrft import actions as hrft_actions
from bot.rules.orbits import actions as orbits_actions

KINDS: dict[str, ActionKinds[Any]] = {
    "orbits": orbits_actions.KINDS, "ftcamp": ftcamp_actions.KINDS, "hrft": hrft_actions.KINDS}

# (rule set, an action as stored before issue 17, the model it reads into)
OLD_STORED = [
    ("hrft", {"type": "repair", "target": "1a|system:3", "parties": "2", "medic": "yes"},
     hrft_actions.Repair),
    ("hrft", {"type": "damage", "target": "2a", "kind": "fighter", "arc": "F", "hits": "4",
              "concentrate": "no", "source": "fighters"}, hrft_actions.Damage),
    ("hrft", {"type": "orders", "1a.speed": "4", "1a.thrust": "2", "1a.turn": "P1",
              "1a.redline": "yes", "note": "full ahead"}, hrft_actions.Orders),
    ("hrft", {"type": "muster", "kestrel": "2", "lynx": "0"}, hrft_actions.Muster),
    ("orbits", {"type": "report", "losses_1_tens": "1", "losses_1_units": "2",
                "losses_2": "0", "defeated": "1"}, orbits_actions.Report),
    ("orbits", {"type": "depart", "origin": "home-1", "cards": ["7h", "Ks"],
                "destination": "orbit-1"}, orbits_actions.Depart),
    ("orbits", {"type": "discard", "cards_h": ["7h"], "cards_s": ["Ks"]},
     orbits_actions.Discard),
    ("ftcamp", {"type": "place", "sector": "A-1"}, ftcamp_actions.Place),
    ("ftcamp", {"type": "place-B", "sector": "B-2"}, ftcamp_actions.Place),
    ("ftcamp", {"type": "fleet_orders", "group:Vanguard": "hold", "group:Survey": "move-0203"},
     ftcamp_actions.FleetOrders),
    ("ftcamp", {"type": "edit", "craft": "0:1", "fate": "destroyed"}, ftcamp_actions.EditFate),
]


@pytest.mark.parametrize(("ruleset", "stored", "model"), OLD_STORED)
def test_an_action_stored_before_the_models_reads_and_stores_back_the_same(
        ruleset: str, stored: dict[str, Any], model: type[ActionModel]) -> None:
    read = KINDS[ruleset].read(stored)
    assert type(read) is model
    assert read.stored() == stored


def test_yes_and_no_are_read_as_booleans_and_stored_as_before() -> None:
    old = hrft_actions.KINDS.read({"type": "repair", "target": "1a|x", "medic": "yes"})
    assert isinstance(old, hrft_actions.Repair) and old.medic is True
    assert hrft_actions.Repair(medic=False).stored() == {"type": "repair", "medic": "no"}
    # what /battle repair and /battle damage send now (cogs/battle.py)
    assert YesNo.of(True) == "yes" and YesNo.of(False) == "no"
    damage = hrft_actions.KINDS.read({"type": "damage", "concentrate": YesNo.of(True).value})
    assert isinstance(damage, hrft_actions.Damage) and damage.concentrate is True
    orders = hrft_actions.KINDS.read({"type": "orders", "1a.redline": "yes", "2a.redline": "no"})
    assert isinstance(orders, hrft_actions.Orders)
    assert (orders.redline("1a"), orders.redline("2a"), orders.redline("3a")) == (True, False,
                                                                                  False)


def test_an_unknown_type_reads_as_other_and_the_rule_set_refuses_it_in_its_words() -> None:
    read = orbits_actions.KINDS.read({"type": "teleport"})
    assert isinstance(read, OtherAction) and read.type == "teleport"
    rules = registry.get("orbits")
    out = rules.start(rules.options_model(), _seats(2), SeededDice(3))
    with pytest.raises(RulesError, match="In the transit phase you may: depart, pass"):
        rules.act(out.state, 1, {"type": "teleport"}, SeededDice(3))


def test_a_pick_is_read_by_its_prefix_as_the_rules_always_read_it() -> None:
    """A pick stored as ``place`` (before one action per orbit) is a Place, as it was; the
    rules' tests submit it so (tests/rules/ftcamp)."""
    assert ftcamp_actions.KINDS.model_for("place") is ftcamp_actions.Place
    assert ftcamp_actions.KINDS.model_for("placement") is ftcamp_actions.Place
    assert ftcamp_actions.KINDS.model_for("replace") is OtherAction


def _seats(n: int) -> list[Seat]:
    return [Seat(number=i, name=f"Player {i}") for i in range(1, n + 1)]


@pytest.mark.parametrize("name", ["orbits", "ftcamp", "hrft"])
def test_every_kind_offered_and_every_default_is_one_of_the_models(name: str) -> None:
    """Played by the scripted players for a while: each action type a request offers has its
    model, each default reads into it and stores back unchanged, each action chosen too."""
    rules = registry.get(name)
    kinds = KINDS[name]
    dice = SeededDice(11)
    state = rules.start(rules.options_model(), _seats(2), dice).state
    players = {seat: rules.scripted_player(seat) for seat in (1, 2)}
    seen: set[str] = set()
    for _ in range(200):
        pending = rules.pending(state)
        if not pending or any(r.seat == GM_SEAT for r in pending):
            break
        chosen = {}
        for request in pending:
            for spec in request.actions:
                assert kinds.model_for(spec.type) is not OtherAction, spec.type
                seen.add(spec.type)
            if request.default is not None:
                assert kinds.read(request.default).stored() == request.default
            view = rules.view(state, request.seat)
            chosen[request.seat] = players[request.seat].choose(view, request, dice)
            assert not isinstance(kinds.read(chosen[request.seat]), OtherAction)
        if pending[0].kind == "sealed":
            state = rules.resolve(state, chosen, dice).state
        else:
            state = rules.act(state, pending[0].seat, chosen[pending[0].seat], dice).state
    assert len(seen) >= 3, seen  # the walk went somewhere
