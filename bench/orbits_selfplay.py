"""Benchmark: complete two-player Orbits games per second with the scripted players.

Engine only (no rendering, no database). Prints games/s, decisions/s, turns per game and a
cProfile top-3 of the functions in bot/rules/orbits by own time (tottime: time in the
function itself, not in what it calls), the place to look for a hot loop.

    .venv/bin/python bench/orbits_selfplay.py [games] [--quick]
"""

from __future__ import annotations

import cProfile
import io
import pstats
import sys
import time

from bot.rules.dice import SeededDice
from bot.rules.orbits.selfplay import play_game


def run(games: int) -> tuple[float, int, int, int]:
    """Plays ``games`` games; returns (seconds, decisions, turns, finished games)."""
    decisions = turns = finished = 0
    t0 = time.perf_counter()
    for seed in range(games):
        rec = play_game(2, SeededDice(seed, "bench"))
        decisions += rec.decisions
        turns += rec.state.turn
        finished += rec.finished
    return time.perf_counter() - t0, decisions, turns, finished


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--quick"]
    games = 2 if "--quick" in sys.argv else int(args[0]) if args else 20
    secs, decisions, turns, finished = run(games)
    print(f"{games} two-player games ({finished} finished) in {secs:.2f} s: "
          f"{games / secs:.2f} games/s, {decisions / secs:.0f} decisions/s, "
          f"{turns / games:.1f} turns and {decisions / games:.0f} decisions per game")
    prof = cProfile.Profile()
    prof.enable()
    run(max(2, games // 5))
    prof.disable()
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    stats.sort_stats("tottime").print_stats(r"bot[/\\]rules[/\\]orbits", 3)
    print("cProfile top-3 in bot/rules/orbits by own time (tottime):")
    lines = out.getvalue().splitlines()
    header = next(i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls"))
    print("\n".join(line for line in lines[header:] if line.strip()))


if __name__ == "__main__":
    main()
