"""Time FTCamp pending() and resolve()/act() on big scenarios (not a test; no assertions).

Run: .venv/bin/python tests/rules/ftcamp/timing_ftcamp.py
Prints the median of many runs for ~20 and ~200 groups."""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[3]))

from ftcamp_big import big_state, play_round, random_action  # noqa: E402

from bot.rules.dice import SeededDice  # noqa: E402
from bot.rules.ftcamp import RULESET  # noqa: E402


def median_ms(fn, runs: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main() -> None:
    import random
    for n in (20, 200):
        state = big_state(n)
        states: dict[str, object] = {}
        play_round(state, 3, hook=lambda s, _r, found=states: found.setdefault(s.step, s))
        runs = 200 if n < 100 else 40
        print(f"{n} groups ({len(state.groups)} with statics):")
        for step, s in states.items():
            pend = median_ms(lambda s=s: RULESET.pending(s), runs)
            reqs = RULESET.pending(s)
            line = f"  {step:9s} pending() {pend:7.2f} ms ({len(reqs)} requests)"
            if reqs and reqs[0].kind == "sealed":
                rng = random.Random(1)
                acts = {r.seat: random_action(r, rng) for r in reqs}
                res = median_ms(lambda s=s, a=acts: RULESET.resolve(s, a, SeededDice(1, "t")),
                                runs)
                line += f"; resolve() {res:7.2f} ms"
            elif reqs:
                r = reqs[0]
                sector = r.actions[0].fields[0].options[0].value
                act = {"type": f"place-{sector[0]}", "sector": sector}
                res = median_ms(lambda s=s, r=r, a=act: RULESET.act(s, r.seat, a,
                                                                     SeededDice(1, "t")), runs)
                line += f"; act() {res:7.2f} ms"
            print(line)


if __name__ == "__main__":
    main()
