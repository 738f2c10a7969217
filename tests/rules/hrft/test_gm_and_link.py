"""The GM's any-time actions (H-D29), an FTCamp battle's craft brought in (H-D28) and the
manual damage amounts (H-D30, H-D23)."""

from __future__ import annotations

import pytest

from bot.errors import InvalidInput, InvalidState, PermissionDenied, RulesError
from bot.rules.base import GM_SEAT, ActionSpec, Request, Seat
from bot.rules.dice import ScriptedDice, SeededDice
from bot.rules.ftcamp import State, build
from bot.rules.ftcamp.link import (
    battle_ids,
    find_battle,
    linked_craft,
    looks_like_battle,
    normalise_ref,
)
from bot.rules.ftcamp.model import Battle, BattleGroup, HexResult
from bot.rules.hrft import RULESET, HrftOptions
from bot.rules.hrft.actions import Damage
from bot.rules.hrft.combat import MAX_HITS, damage_amounts
from tests.rules.hrft.battle_helpers import battle, to_fire_step

SEATS3 = [Seat(number=1, name="Alice"), Seat(number=2, name="Bob"),
          Seat(number=3, name="Carol")]

DREAD = """
name = "Dreadnought X"
type_code = "DN"
mass = 40
hull = 12
armour = 2
thrust = 4
ftl = true
"""


def empty_battle():
    return RULESET.start(HrftOptions(), SEATS3, ScriptedDice([])).state


def entry(craft: str, seat: int, design: str | None, player: str = "Alice") -> dict:
    return {"craft": craft, "group": "G", "seat": seat, "player": player, "design": design}


def bring(state, roster: list[dict]):
    """The real path: the service takes the roster in with the start (``take_in``)."""
    return RULESET.take_in(state, {"roster": roster})


# ---------------------------------------------------------------- H-D29


def test_hd29_gm_actions_depend_on_the_step_and_the_gm_is_never_pending():
    state = battle()
    assert [s.type for s in RULESET.gm_actions(state)] == ["add_design"]
    assert all(r.seat != GM_SEAT for r in RULESET.pending(state))
    fire, _ = to_fire_step(battle())
    assert [s.type for s in RULESET.gm_actions(fire)] == ["damage"]
    assert all(r.seat != GM_SEAT for r in RULESET.pending(fire))


def test_hd29_gm_has_no_action_at_the_sealed_orders_step():
    state = battle()
    for seat in (1, 2):
        state = RULESET.act(state, seat, {"type": "ready"}, ScriptedDice([])).state
    assert state.step == "orders"
    assert RULESET.gm_actions(state) == []
    with pytest.raises((PermissionDenied, RulesError), match="Allowed now: nothing"):
        RULESET.act(state, GM_SEAT, {"type": "damage", "target": "1a", "kind": "direct",
                                     "arc": "F", "points": "1"}, ScriptedDice([]))


def test_hd29_gm_cannot_take_a_seat_action():
    state = battle()
    with pytest.raises(PermissionDenied, match="cannot 'add_sample'"):
        RULESET.act(state, GM_SEAT, {"type": "add_sample", "sample": "kestrel"},
                    ScriptedDice([]))


# ---------------------------------------------------------------- H-D28


def test_hd28_craft_naming_a_sample_come_in_under_their_owners_seat():
    roster = [entry("Resolute", 1, "Vanguard"), entry("Fang", 2, "wolfhound", "Bob"),
              entry("Valiant", 1, None), entry("Titan", 1, "Dreadnought X"),
              entry("Ghost", 0, "kestrel", "Dave")]
    out = bring(empty_battle(), roster)
    ships = {s.uid: (s.name, s.seat, s.class_name) for s in out.state.ships.values()}
    assert ships == {"1a": ("Resolute", 1, "Vanguard"), "2a": ("Fang", 2, "Wolfhound")}
    text = out.events[0].text
    assert "Resolute (Vanguard) for Alice as 1a" in text
    assert "Not brought in: Valiant (it names no design)" in text
    assert "Not brought in: Titan (design 'Dreadnought X' not found" in text
    assert "Not brought in: Ghost (Dave holds no seat in this battle)" in text
    assert out.events[0].audience.kind == "public"
    assert [e.craft for e in out.state.roster] == ["Valiant", "Titan", "Ghost"]
    assert "Not brought in: Valiant" in RULESET.status(out.state, None)
    with pytest.raises(RulesError, match="already brought in"):
        bring(out.state, roster)


def test_hd28_an_uploaded_design_brings_in_the_craft_that_name_it():
    out = bring(empty_battle(), [entry("Titan", 1, "dreadnought x"), entry("Valiant", 2, None)])
    with pytest.raises(RulesError, match="No craft waits for Kestrel.*dreadnought x"):
        RULESET.act(out.state, GM_SEAT, {"type": "add_design", "filename": "k.toml",
                                         "content": DREAD.replace("Dreadnought X", "Kestrel")},
                    ScriptedDice([]))
    with pytest.raises(InvalidInput):
        RULESET.act(out.state, GM_SEAT, {"type": "add_design", "filename": "d.toml",
                                         "content": "hull = "}, ScriptedDice([]))
    up = RULESET.act(out.state, GM_SEAT, {"type": "add_design", "filename": "d.toml",
                                          "content": DREAD}, ScriptedDice([]))
    titan = up.state.ships["1a"]
    assert (titan.name, titan.seat, titan.class_name) == ("Titan", 1, "Dreadnought X")
    assert [e.craft for e in up.state.roster] == ["Valiant"]
    assert "The GM uploads d.toml**: brought in Titan (Dreadnought X)" in up.events[0].text


def test_hd28_a_bad_roster_is_refused():
    with pytest.raises(RulesError, match="not a list of craft"):
        RULESET.take_in(empty_battle(), {"roster": [{"seat": 1}]})
    with pytest.raises(RulesError, match="a list of at most 72 craft"):
        RULESET.take_in(empty_battle(), {"roster": "[]"})


def test_hd28_bring_in_is_no_gm_action_any_more():
    """The roster comes in with the start (take_in), never as JSON typed by the GM."""
    state = empty_battle()
    with pytest.raises(PermissionDenied, match="cannot 'bring_in' now. Allowed now: "
                                               "add_design"):
        RULESET.act(state, GM_SEAT, {"type": "bring_in", "roster": []}, ScriptedDice([]))


def test_hd28_take_in_happens_once_and_only_in_setup():
    out = bring(empty_battle(), [entry("Resolute", 1, "vanguard")])
    with pytest.raises(RulesError, match="already brought in"):
        RULESET.take_in(out.state, {})
    fire, _ = to_fire_step(battle())
    with pytest.raises(InvalidState, match="during setup"):
        RULESET.take_in(fire, {"roster": [entry("Resolute", 1, "vanguard")]})


def scenario() -> State:
    """Vanguard (a vanguard-design cruiser and a decoy) meets Raiders (no design) in 0202."""
    return build.scenario("Linked", (4, 4), ["Terran Union", "Kravak Horde"], [
        build.group("Vanguard", 1, "0202", build.craft("Resolute", 60, design="vanguard"),
                    build.craft("Lure", 0, decoy_class=2)),
        build.group("Raiders", 2, "0202", build.craft("Fang", 50)),
    ])


def campaign_with_battles():
    state = scenario()
    groups = [BattleGroup(group="Vanguard", owner=1, role="attacker"),
              BattleGroup(group="Raiders", owner=2, role="defender")]
    state.results = [
        HexResult(round=1, hex="0202", battles=[Battle(hex="0202", sector="A-3", rule="x",
                                                       groups=groups[:1])]),
        HexResult(round=2, hex="0202", battles=[Battle(hex="0202", sector="A-3", rule="y",
                                                       groups=groups)]),
    ]
    return state


@pytest.mark.parametrize("ref", ["0202/A-3", "0202 a-3", " 0202, A-3 ", "0202:A-3"])
def test_hd28_a_reference_names_the_latest_battle_of_that_hex_and_sector(ref):
    found = find_battle(campaign_with_battles(), ref)
    assert found is not None
    assert found[0] == 2 and found[1].rule == "y"
    assert looks_like_battle(ref) and normalise_ref(ref) == "0202/A-3"


def test_hd28_free_text_references_are_not_battles():
    state = campaign_with_battles()
    assert find_battle(state, "Sector 4, turn 3") is None
    assert not looks_like_battle("Sector 4, turn 3")
    assert find_battle(state, "0303/A-3") is None and looks_like_battle("0303/A-3")
    assert battle_ids(state) == ["0202/A-3"]


def test_hd28_linked_craft_keep_owner_and_design_and_skip_decoys():
    state = campaign_with_battles()
    _, b = find_battle(state, "0202/A-3")
    craft = linked_craft(state, b)
    assert [(c.craft, c.owner, c.owner_name, c.design) for c in craft] == [
        ("Resolute", 1, "Terran Union", "vanguard"), ("Fang", 2, "Kravak Horde", None)]


# ---------------------------------------------------------------- H-D30 / H-D23


@pytest.mark.parametrize(("raw", "amounts"), [("30", [30]), ("3,2,4", [3, 2, 4]),
                                              ("3 2, 4", [3, 2, 4]), ("200", [200])])
def test_hd30_damage_is_a_number_or_a_per_hit_list(raw, amounts):
    assert damage_amounts(Damage(hits=raw)) == amounts
    assert damage_amounts(Damage(points=raw)) == amounts


@pytest.mark.parametrize(("action", "why"), [
    ({"hits": "0"}, "'0' is not a whole number from 1 to 200"),
    ({"hits": "201"}, "'201' is not"),
    ({"hits": "3,x"}, "'x' is not"),
    ({"hits": "2.5"}, "'2.5' is not"),
    ({"hits": "-3"}, "'-3' is not"),
    ({"hits": ",".join(["1"] * (MAX_HITS + 1))}, f"{MAX_HITS + 1} amounts is too many"),
    ({}, "Give the damage points"),
    ({"hits": "3", "points": "4"}, "not both"),
])
def test_hd30_bad_damage_is_refused_with_what_is_allowed(action, why):
    with pytest.raises(RulesError, match=why.replace("(", r"\(").replace(".", r"\.")):
        damage_amounts(Damage.model_validate(action))


def test_hd30_a_direct_list_is_one_attack_of_its_total():
    state, _ = to_fire_step(battle())
    out = RULESET.act(state, 1, {"type": "damage", "target": "2a", "kind": "direct",
                                 "arc": "A", "hits": "1,1,1"}, SeededDice(5))
    assert "Hits 1 + 1 + 1 = 3 (one attack)" in out.events[0].text
    assert out.events[0].data["amounts"] == [1, 1, 1]
    assert out.state.ships["2a"].blocks["A"].hull_lost == 3


def test_hd23_missiles_through_the_service_check_take_a_list_and_large_damage():
    """The open request's damage spec accepts a free-text list (hits) and a panel-less
    entry: the generic action check of the service passes, the rules place each missile."""
    from bot.campaign.legal import validate_action

    state, _ = to_fire_step(battle())
    request: Request = RULESET.pending(state)[0]
    spec: ActionSpec = next(a for a in request.actions if a.type == "damage")
    action = {"type": "damage", "target": "2a", "kind": "missile", "arc": "F",
              "hits": "2,30"}
    validate_action(request, action)
    assert spec.fields[-1].min_values == 0  # the panel's 1..25 Select may stay empty
    out = RULESET.act(state, 1, action, ScriptedDice([3, 1] + [6] * 20))
    assert out.events[0].data["direction_dice"] == [3, 1]
    assert "Missile 2: d6 1 -> through FS" in out.events[0].text
