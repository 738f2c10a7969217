"""H-D38: setup never leaves a battle stuck. At the deadline a side with ships is ready; a
side with none has no default (the step waits for the GM) but offers ``advance``, the way
on /gm advance takes: that side stays out of the battle, as if it had conceded. Also issue
10 item 3 for the muster: the sides' ships announcement marks picks taken by default."""

from __future__ import annotations

import pytest

from bot.errors import RulesError
from bot.rules.base import BY_DEFAULT, Seat
from bot.rules.dice import ScriptedDice, SeededDice
from bot.rules.hrft import RULESET, HrftOptions, add_ship, convert_design
from tests.rules.hrft.battle_helpers import battle, gunboat


def _requests(state):  # type: ignore[no-untyped-def]
    return {r.seat: r for r in RULESET.pending(state)}


def test_hd38_a_side_with_ships_is_ready_by_default_one_without_waits_for_the_gm() -> None:
    state = battle(ships={1: [gunboat()]})
    reqs = _requests(state)
    assert reqs[1].default == {"type": "ready"} and reqs[1].advance is None
    assert "stay_out" not in {a.type for a in reqs[1].actions}
    assert reqs[2].default is None and reqs[2].advance == {"type": "stay_out"}
    stay = next(a for a in reqs[2].actions if a.type == "stay_out")
    assert stay.destructive and "counts as having conceded" in stay.confirm


def test_hd38_the_side_that_stays_out_ends_a_two_sided_battle() -> None:
    state = battle(ships={1: [gunboat()]})
    state = RULESET.act(state, 1, {"type": "ready"}, SeededDice(0)).state
    out = RULESET.act(state, 2, {"type": "stay_out"}, SeededDice(0))
    assert out.finished and out.state.conceded == [2]
    texts = [e.text for e in out.events]
    assert "Bob stays out of this battle: their side has no ships." in texts
    assert "only Alice has ships fighting" in texts[-1]


def test_hd38_with_three_sides_the_battle_goes_on_without_the_one_that_stays_out() -> None:
    seats = [Seat(number=1, name="Alice"), Seat(number=2, name="Bob"),
             Seat(number=3, name="Carol")]
    state = RULESET.start(HrftOptions(), seats, ScriptedDice([])).state
    for seat in (1, 3):
        state = add_ship(state, seat, convert_design(gunboat()))
    out = RULESET.act(state, 2, {"type": "stay_out"}, SeededDice(0))
    assert out.state.step == "setup" and not out.finished  # the others are not ready yet
    for seat in (1, 3):
        out = RULESET.act(out.state, seat, {"type": "ready"}, SeededDice(0))
    assert not out.finished and out.state.step == "orders" and out.state.turn == 1
    assert {r.seat for r in RULESET.pending(out.state)} == {1, 3}


def test_hd38_a_side_with_ships_cannot_stay_out() -> None:
    state = battle()
    with pytest.raises(RulesError, match="Your side has ships"):
        RULESET.act(state, 1, {"type": "stay_out"}, SeededDice(0))


def test_the_muster_announcement_marks_the_side_whose_picks_were_defaults() -> None:
    start = RULESET.start(HrftOptions(), [Seat(number=1, name="Alice"),
                                          Seat(number=2, name="Bob")], ScriptedDice([])).state
    forces = [{"seat": s, "side": str(s), "label": "", "budget": 60, "max_class": 2}
              for s in (1, 2)]
    state = RULESET.take_in(start, {"forces": forces}).state
    actions = {r.seat: r.default for r in RULESET.pending(state)}
    out = RULESET.resolve_with_defaults(state, actions, ScriptedDice([1] * 4), frozenset({2}))
    shown = next(e for e in out.events if e.kind == "muster")
    alice, bob = [x for x in shown.text.splitlines() if x.startswith(("Alice", "Bob"))]
    assert bob.endswith(f"({BY_DEFAULT}).") and BY_DEFAULT not in alice
    assert shown.embed is not None
    fields = {f.name: f.value for f in shown.embed.fields}
    assert fields["Bob"].endswith(f"_{BY_DEFAULT}_") and BY_DEFAULT not in fields["Alice"]
    plain = RULESET.resolve(state, actions, ScriptedDice([1] * 4))
    assert BY_DEFAULT not in next(e.text for e in plain.events if e.kind == "muster")
