"""The bench scripts still run: each in its tiny ``--quick`` mode prints its ratio lines.

Nothing here looks at a time (the machine's load decides those); only that every script
finishes and reports each figure next to its reference (issue 9, item 5)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

# each runs the real bot or a bench script in a process of its own (seconds)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]

EXPECTED = {
    "submit.py": [
        *(f"{name} resolving submit: min" for name in
          ("orbits6-early", "ftcamp-20", "hrft")),
        "orbits6-early burst resolving, service: p50",
        "ftcamp-20 paced 100/s resolving, service: p50",
        "hrft target p99 <= 50 ms at 100/s offered:",
    ],
    "render.py": [
        "orbits map (public", "orbits map (seat", "ftcamp hexmap (public", "ftcamp sector",
        "hrft sheet", "loop lag during resolution: p50", "loop lag idle (reference): p50",
        "target stall p99 <= 20 ms:",
    ],
    "footprint.py": [
        "orbits 3 players (cut short", "ftcamp 3 players (cut short", "by table (",
        "RSS growth per cached campaign: min", "tracemalloc growth per cached campaign: min",
    ],
    "orbits_selfplay.py": ["games/s", "by own time (tottime):"],
    # counts, not times: both modes kill the same 3 times (issue 16.2, P-33)
    "crash_duplicates.py": ["nonces honoured: 3 kills, 0 messages on Discord twice",
                            "nonces ignored: 3 kills,"],
    # counts, not times: a campaign with no battles runs no campaign war module (issue 17.1)
    "trace_submit.py": ["orbits resolving submit: ", "ftcamp resolving submit: ",
                        "campaign war modules run: none"],
    "click.py": [
        "first answer to the panel click: p50", "first answer to /roll (reference): p50",
        "panel click vs /roll: min", "target first answer <= 100 ms:",
    ],
}
RATIO = {"submit.py": "ratio min", "render.py": "ratio min", "footprint.py": "ratio",
         "click.py": "ratio min"}


@pytest.mark.parametrize("script", sorted(EXPECTED))
def test_bench_script_runs_quick_and_prints_its_ratios(script: str) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), "--quick"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    for expected in EXPECTED[script]:
        lines = [line for line in out.splitlines() if expected in line]
        assert lines, f"{script} printed no line with {expected!r}:\n{out}"
        if script in RATIO and expected.endswith(": min"):
            assert all(RATIO[script] in line for line in lines), lines
    assert not re.search(r"\bnan\b", out), out  # a figure without samples
