"""Byte-identical behaviour on big scenarios (issue 9): pending(), resolve() and act() give
exactly what the reference run stored here gave, and never change the state they are given.

The digests were first recorded with the straightforward implementation (before indexing
and copy-on-write), and the fast code matched them. A change of behaviour changes them;
after an intended one, record them again and say why in the commit (200 groups: the GM's
battle-start lines after each battle list; both: the number-field and
destructive keys in every request dump, and E-D34's ally offer; then the rounds
that wait for their battles, E-D36). Recompute with
``.venv/bin/python tests/rules/ftcamp/test_ftcamp_reference.py``."""

from __future__ import annotations

import hashlib
import sys

import pytest
from ftcamp_big import big_state, play_round

from bot.rules.base import Request
from bot.rules.ftcamp.model import State

# Last recomputed after merging issue 10's table work (step names, plain wording, embeds,
# hexes in the fleet-order reveal) and issue 11's rounds that wait for their battles; each
# of those branches checked before its change that states and requests hashed the same.
# Recomputed for the new Request.advance field (H-D38; null in every FTCamp request):
# excluding it from the dumps gives the previous digests.
# Recomputed for the new WarBattle.linked field (E-D37; "" in every battle of the run):
# excluding it from the dumps gives the previous 200-group digest. Then again for the GM's
# battle-start DM, which names the battle list's button (E-D37): a text of a GM event.
# Recomputed for issue 15 item 6: the new ImageRef.view field (the public view taken at the
# fleet-order reveal and at each allocation, P-31),
# RT/SF/EE spelled out at their first use in a post and in the pick prompt (E-D44), and the
# maintain-orbit reason in plain words, and the seat on a pick's own line (P-30); with the
# views and that seat left out of the dumps and without the texts, the previous digests come
# back.
# Recomputed again when these met with issue 15 item 5 (ImageRef.file, H-D46) in one tree.
REFERENCE = {
    (30, 2): "5886af2fdc9b57a9a79bced664843f6278d0ddb80768f93641a90bea3a79213c",
    (200, 1): "eece26b5e33c75a4c9ed8ced060446b4db447ae35800a7d2c90302b491d28e7c",
}


def digest(n_groups: int, rounds: int) -> tuple[str, int]:
    """Play ``rounds`` rounds; hash every request list, outcome state and event."""
    h = hashlib.sha256()
    state = big_state(n_groups)
    calls = 0

    def record(s: State, reqs: list[Request]) -> None:
        nonlocal calls
        calls += 1
        h.update(s.model_dump_json().encode())
        for r in reqs:
            h.update(r.model_dump_json().encode())

    for r in range(rounds):
        before = state.model_dump_json()
        state, events = play_round(state, seed=r, hook=record, check_input=True)
        assert state.model_dump_json() != before
        for e in events:
            h.update(e.model_dump_json().encode())
    h.update(state.model_dump_json().encode())
    return h.hexdigest(), calls


@pytest.mark.parametrize(("n_groups", "rounds"), sorted(REFERENCE))
def test_pending_resolve_act_match_the_reference_run(n_groups: int, rounds: int) -> None:
    got, calls = digest(n_groups, rounds)
    assert calls > 50  # the run reached many steps
    assert got == REFERENCE[(n_groups, rounds)]


if __name__ == "__main__":
    sys.path.insert(0, ".")
    for key in sorted(REFERENCE):
        print(key, *digest(*key))
