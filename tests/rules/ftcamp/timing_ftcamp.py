"""Time FTCamp pending() and resolve()/act() on big scenarios (not a test; no assertions).

Run from the repository root: .venv/bin/python tests/rules/ftcamp/timing_ftcamp.py
Plays one round at ~20 and ~200 groups with seeded random choices, recording every call;
then times each recorded call again (best of 3 per call, so that other processes on the
machine weigh less) and prints the median and the maximum over the calls of the round, per
kind of call, in wall-clock milliseconds."""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path.cwd()))

from ftcamp_big import big_state, random_action  # noqa: E402

from bot.rules.dice import SeededDice  # noqa: E402
from bot.rules.ftcamp import RULESET  # noqa: E402


def best_ms(fn: Any, reps: int = 3) -> float:
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return min(times)


def record(n: int, seed: int = 3) -> list[tuple[Any, ...]]:
    """(state, kind, seat, action) for every call of one round."""
    import random
    rng = random.Random(seed)
    dice = SeededDice(seed, "timing")
    state = big_state(n)
    calls = []
    while state.round == 1 and not state.over:
        reqs = RULESET.pending(state)
        if reqs[0].kind == "turn":
            r = reqs[0]
            sector = rng.choice([o.value for a in r.actions for o in a.fields[0].options])
            action = {"type": f"place-{sector[0]}", "sector": sector}
            calls.append((state, "act", r.seat, action))
            state = RULESET.act(state, r.seat, action, dice).state
        else:
            acts = {r.seat: random_action(r, rng) for r in reqs}
            calls.append((state, "resolve", None, acts))
            state = RULESET.resolve(state, acts, dice).state
    return calls


def main() -> None:
    for n in (20, 200):
        calls = record(n)
        pend = [best_ms(lambda s=s: RULESET.pending(s)) for s, *_ in calls]
        orders = [best_ms(lambda s=s: RULESET.pending(s)) for s, *_ in calls
                  if s.step == "orders"]
        out: dict[str, list[float]] = {"resolve": [], "act": []}
        for s, kind, seat, action in calls:
            if kind == "act":
                out["act"].append(best_ms(lambda s=s, seat=seat, a=action: RULESET.act(
                    s, seat, a, SeededDice(1, "t"))))
            else:
                out["resolve"].append(best_ms(lambda s=s, a=action: RULESET.resolve(
                    s, a, SeededDice(1, "t"))))
        print(f"{n} groups, {len(calls)} calls in the round:")
        for name, times in (("pending()", pend), ("pending() at fleet orders", orders),
                            ("resolve()", out["resolve"]), ("act()", out["act"])):
            if times:
                print(f"  {name:27s} median {statistics.median(times):7.2f} ms, "
                      f"max {max(times):7.2f} ms ({len(times)} calls)")


if __name__ == "__main__":
    main()
