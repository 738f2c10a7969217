"""Every refusal the rules raise names its ruling as data (service-contract.md, "Rulings";
issue 15 item 6, P-32).

Two ways in: every ``RulesError(...)`` written in ``bot/`` passes a ``ruling=`` that
``/help rule`` can show, and every refusal actually raised while the three demos play and
while the Orbits fuzz game and the cases of O-11 and E-11 run carries one.
"""

from __future__ import annotations

import ast
import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE / "orbits"), str(HERE / "ftcamp")]  # the rule sets' test kits

import test_orbits_properties as orbits_fuzz  # noqa: E402
from ftcamp_testkit import craft, engage, group, orders_in, world  # noqa: E402
from orbits_testkit import at, clear_hands, put, seats, start  # noqa: E402

from bot.campaign import rulings  # noqa: E402
from bot.errors import RulesError, UserError, refusals_kept  # noqa: E402
from bot.rules.dice import ScriptedDice, SeededDice  # noqa: E402
from bot.rules.ftcamp import RULESET as FTCAMP  # noqa: E402
from bot.rules.orbits import RULESET as ORBITS  # noqa: E402
from bot.rules.orbits.options import OrbitsOptions  # noqa: E402
from tests.support.demos import Demos  # noqa: E402

ROOT = HERE.parents[1]


def _ruling_values(node: ast.expr) -> list[ast.expr]:
    """The literal ids a ``ruling=`` may take (a conditional names one on each branch)."""
    if isinstance(node, ast.IfExp):
        return _ruling_values(node.body) + _ruling_values(node.orelse)
    return [node]


def _rules_error_calls() -> list[tuple[str, int, ast.Call]]:
    found = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RulesError":
                found.append((str(path.relative_to(ROOT)), node.lineno, node))
    return found


def test_every_rules_error_written_names_a_ruling_that_can_be_shown() -> None:
    calls = _rules_error_calls()
    assert len(calls) > 140  # the rules' refusals, all of them
    table = rulings.all_rulings()
    missing, unknown = [], []
    for where, line, call in calls:
        given = [k.value for k in call.keywords if k.arg == "ruling"]
        if not given:
            missing.append(f"{where}:{line}")
            continue
        for value in _ruling_values(given[0]):
            if not isinstance(value, ast.Constant) or rulings.find(value.value, table) is None:
                unknown.append(f"{where}:{line} {ast.unparse(value)}")
    assert not missing, f"refusals without a ruling: {missing}"
    assert not unknown, f"rulings /help rule cannot show: {unknown}"


@pytest.fixture
def raised() -> Iterator[list[UserError]]:
    """Every RulesError made while the test runs, caught or not, and every other refusal
    made by the rule sets' own code (bot/rules: a turn out of order, a step that is over)."""
    made: list[UserError] = []
    with refusals_kept(made):
        yield made


def _all_named(made: list[UserError]) -> None:
    table = rulings.all_rulings()
    bare = [e.message for e in made if not e.ruling or rulings.find(e.ruling, table) is None]
    assert not bare, f"refusals without a ruling /help rule can show: {bare[:5]}"


def _random_offered(pick: random.Random, request) -> dict:
    """Any offered action with any offered values, legal or not."""
    spec = pick.choice(request.actions)
    action: dict = {"type": spec.type}
    for f in spec.fields:
        if f.kind == "number":
            action[f.name] = pick.randint(f.minimum - 1, f.maximum + 1)
        elif f.options:
            action[f.name] = pick.choice(f.options).value
    return action


def test_orbits_refusals_of_the_fuzz_game_and_random_actions_name_their_ruling(
        raised: list[UserError]) -> None:
    orbits_fuzz.test_random_legal_games_keep_invariants()  # the fuzz game, as it runs
    pick = random.Random(3)
    dice = SeededDice(3, "engine")
    out = ORBITS.start(OrbitsOptions(), seats(3), dice)
    for _ in range(300):  # random actions, and every card anywhere, on the turn requests
        if out.finished:
            break
        requests = ORBITS.pending(out.state)
        r = requests[0]
        if r.kind != "turn":
            out = ORBITS.resolve(out.state, orbits_fuzz._safe(requests), dice)
            continue
        for code in ("KS", "QH", "JD", "5C", "AH"):
            for kind in ("deploy", "depart", "retreat"):
                try:
                    ORBITS.act(out.state, r.seat, {"type": kind, "card": code, "cards": [code],
                                                   "stance": "attack"}, dice)
                except RulesError:
                    pass
                except Exception:  # noqa: BLE001 - other refusals are not the rules'
                    pass
        try:
            out = ORBITS.act(out.state, r.seat, _random_offered(pick, r), dice)
        except RulesError:
            out = ORBITS.act(out.state, r.seat, dict(r.default or {"type": "pass"}), dice)
    assert len(raised) > 50
    _all_named(raised)


def test_o11_face_card_refusals_name_o11() -> None:
    state = start().state
    clear_hands(state)
    put(state, 2, "JS", "orbit:2", face_up=True)
    put(state, 1, "QH", "orbit:2")
    put(state, 2, "2C", "orbit:1", face_up=True, stance="blockade")
    put(state, 1, "KD", "orbit:1")
    state = at(state, "deployment", 1)
    for card in ("QH", "KD"):  # the suit does not match; an opponent shows fleet there
        with pytest.raises(RulesError) as err:
            ORBITS.act(state, 1, {"type": "deploy", "card": card}, ScriptedDice())
        assert err.value.ruling == "O-11"
        assert "O-11" not in err.value.message


def test_e11_a_crippled_group_picking_another_sector_is_refused_under_e11() -> None:
    s = orders_in(world(group("A", 1, thrust=2, sector="D-7",
                              crafts=[craft("w", ftl="crippled", thrust=2)]),
                        group("B", 2, thrust=3))).state
    s = engage(s, {1: {"order:A": "SF"}, 2: {"order:B": "EE"}}, [1, 1, 1, 1]).state
    with pytest.raises(RulesError) as err:
        FTCAMP.act(s, 1, {"type": "place", "sector": "A-1"}, ScriptedDice())
    assert err.value.ruling == "E-11" and "E-11" not in err.value.message


@pytest.mark.slow
@pytest.mark.parametrize("name", ["orbits", "ftcamp", "hrft"])
async def test_refusals_the_demos_meet_name_their_ruling(name: str, demos: Demos) -> None:
    # every refusal made while the demo played (tests/support/demos.py records them as the
    # fixture ``raised`` does here)
    played = await demos.play(name, seed=7)
    assert played.result.actions > 0
    _all_named(played.refusals)
