"""H-D45: the turn's steps are named in words, never by rulebook number, and the fighter
and ordnance steps are listed only when some ship carries fighters or missiles."""

from __future__ import annotations

import re

from bot.rules.dice import ScriptedDice
from bot.rules.hrft import RULESET
from bot.rules.hrft.sequence import HrftOptions, steps
from tests.rules.hrft.battle_helpers import battle, gunboat, ready_all, to_fire_step

NUMBERED = re.compile(r"(^|\n)\**\d+[a-z]?\. |steps? \d")


def _turn_text(events: list) -> str:
    return "\n".join(e.text for e in events if e.audience.kind == "public")


def _carrier() -> dict:
    ship = gunboat()
    ship["systems"] = [*ship["systems"], {"uid": "s6", "type": "hangar", "bays": 1}]
    return ship


def test_h_d45_step_titles_carry_no_rulebook_numbers() -> None:
    for options in (HrftOptions(), HrftOptions(emergency_maneuver=True),
                    HrftOptions(mid_turn_fire_only=True)):
        for step in steps(options):
            assert not NUMBERED.search(step.title), step.title
            assert not re.search(r"\b\d+-\d+\b|variation \d", step.title), step.title


def test_h_d45_a_turn_without_fighters_or_missiles_lists_no_such_step() -> None:
    state, events = to_fire_step(battle())
    text = _turn_text(events)
    assert "Roll for initiative: Alice 3, Bob 4 - Bob has the initiative." in text
    assert "Move ships to the halfway point of their movement" in text
    assert "**Ships fire (simultaneous)**: act, then Ready." in text
    assert not NUMBERED.search(text), text
    for word in ("fighter", "ordnance", "missile", "point defence"):
        assert word not in text.lower(), word
    assert state.step == "fire1"
    # the late half of the turn: the same, up to the second fire step
    for seat in (1, 2):
        out = RULESET.act(state, seat, {"type": "ready"}, ScriptedDice([2, 5]))
        state = out.state
    later = _turn_text(out.events)
    assert "Complete ship movement" in later and "Ships fire weapons not yet fired" in later
    assert "fighter" not in later.lower() and "ordnance" not in later.lower()
    assert not NUMBERED.search(later), later


def test_h_d45_a_carrier_in_the_battle_brings_the_fighter_steps_back() -> None:
    state, events = ready_all(battle(ships={1: [_carrier()], 2: [gunboat()]}))
    out = RULESET.resolve(state, {1: {"type": "orders"}, 2: {"type": "orders"}},
                          ScriptedDice([3, 4]))
    text = _turn_text(out.events)
    assert "Move fighter groups half their movement" in text
    assert "Launch ordnance and place it at its final target point" in text
    assert not NUMBERED.search(text), text
    # the point defence step is open (someone has fighters): the turn stops there
    assert out.state.step == "pds1"
    assert "**Point defence fire**: act, then Ready." in text
