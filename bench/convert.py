"""Timing: how long uploaded files hold the event loop, at the limits (issue 8, H-D33).

    .venv/bin/python bench/convert.py [--repeat 50]

Prints the median and worst time of:
- the largest legal HRFT design (every cap reached) read and converted from .FTDesign JSON;
- the largest legal fleet file (12 ships, each of its own largest design) read and converted;
- adding those 12 ships to a battle and the battle state's JSON size, which every later
  intent of the battle parses;
- hostile files at the size limits: 200 kB of JSON, a 32 kB TOML ship, a 64 kB scenario,
  and deep nesting / huge numbers (refused).
No asserts: the figures go in the report (tests never assert times).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.errors import InvalidInput  # noqa: E402
from bot.rules.base import Seat  # noqa: E402
from bot.rules.ftcamp import load_scenario  # noqa: E402
from bot.rules.hrft import model  # noqa: E402
from bot.rules.hrft.imports import ships_from_file  # noqa: E402
from bot.rules.hrft.sequence import HrftOptions  # noqa: E402
from bot.rules.hrft.state import BattleState, add_ship  # noqa: E402
from bot.rules.safe_load import load_json, load_toml  # noqa: E402


def largest_design(i: int = 0) -> dict[str, Any]:
    weapons = [{"uid": f"w{n}", "type": "beam", "class": 6, "arcs": ["FP", "F", "FS"]}
               for n in range(model.MAX_WEAPONS)]
    others = [{"uid": f"o{n}", "type": "fire_control"}
              for n in range(model.MAX_SYSTEMS - model.MAX_WEAPONS)]
    return {"schema_version": 1, "id": f"d{i}", "ruleset": "fb", "name": f"Max{i}".ljust(60, "x"),
            "type_code": "SDN", "hull_kind": "warship", "tmf": model.MAX_MASS,
            "hull_boxes": model.MAX_HULL, "armour": model.MAX_ARMOUR,
            "thrust": model.MAX_THRUST, "ftl": True, "systems": weapons + others}


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        with contextlib.suppress(InvalidInput):
            fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def line(label: str, figures: tuple[float, float], extra: str = "") -> None:
    print(f"{label:<58} median {figures[0]:7.2f} ms   worst {figures[1]:7.2f} ms  {extra}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=50)
    repeat = parser.parse_args().repeat

    design = json.dumps({"design": largest_design()}).encode()
    line(f"largest legal design (.FTDesign, {len(design)} B)",
         timed(lambda: ships_from_file("max.FTDesign", design), repeat))

    fleet_obj = {"ships": [{"uid": f"sh{i}", "design_id": f"d{i}", "name": f"Ship {i}"}
                           for i in range(model.MAX_FILE_SHIPS)],
                 "designs": [largest_design(i) for i in range(model.MAX_FILE_SHIPS)]}
    fleet = json.dumps(fleet_obj).encode()
    line(f"largest legal fleet (.FTFleet, 12 ships, {len(fleet)} B)",
         timed(lambda: ships_from_file("max.FTFleet", fleet), repeat))

    ships = ships_from_file("max.FTFleet", fleet)
    seats = [Seat(number=n, name=f"P{n}") for n in range(1, 7)]

    def full_battle() -> BattleState:
        state = BattleState(options=HrftOptions(), seats=seats)
        for seat in range(1, 7):
            for ship in ships:
                state = add_ship(state, seat, ship)
        return state

    state = full_battle()
    dumped = state.model_dump_json()
    def one_side(copy_each: bool) -> Callable[[], None]:
        def run() -> None:
            state = BattleState(options=HrftOptions(), seats=seats).model_copy(deep=True)
            for ship in ships:
                state = add_ship(state, 1, ship, copy=copy_each)
        return run

    # the rule set's act() copies the battle once, then adds the file's ships in place;
    # the first line is the old way (a copy per ship), for reference
    line("add 12 such ships, a state copy per ship (old)",
         timed(one_side(True), max(1, repeat // 5)))
    line("add 12 such ships, one state copy (act)", timed(one_side(False), max(1, repeat // 5)))
    line("parse a full battle state (6 sides x 12 largest ships)",
         timed(lambda: BattleState.model_validate_json(dumped), max(1, repeat // 5)),
         f"state {len(dumped) / 1e6:.2f} MB")

    hostile: list[tuple[str, Callable[[], Any]]] = [
        ("200 kB JSON array of ints", lambda: load_json("[" + "1," * 99_990 + "1]", "f")),
        ("JSON nested 100,000 deep", lambda: load_json("[" * 100_000, "f")),
        ("JSON 5,000-digit integer", lambda: load_json("9" * 5000, "f")),
        ("32 kB TOML ship of [[systems]] tables",
         lambda: ships_from_file("x.toml", "name='x'\nmass=10\nhull=4\n" +
                                 "[[systems]]\ntype='pds'\n" * 1230)),
        ("64 kB scenario of headers", lambda: load_scenario("[[groups]]\n" * 5800)),
        ("TOML dotted key 30,000 parts", lambda: load_toml("a" + ".a" * 30_000 + "=1", "f")),
        ("TOML nested 50,000 deep", lambda: load_toml("a=" + "[" * 50_000, "f")),
    ]
    for label, fn in hostile:
        line(label, timed(fn, max(1, repeat // 5)))


if __name__ == "__main__":
    main()
