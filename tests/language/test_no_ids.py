"""No ruling ids and no internal step numbers in what players read (issue 10, item 5).

Two guards: the three demos' channel and DM transcripts, and every string literal of the
source outside docstrings (refusals, prompts, labels, status and event texts). Rulings stay
one command away (``/help rule``); the ids live in code comments, tests, ``ruling=`` data and
the GM's log."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bot.campaign import rulings
from bot.campaign.demo import run_demo

ROOT = Path(__file__).resolve().parents[2]
RULE_ID = re.compile(r"\b[OEHP]-D?\d+(\.\d+)?\b")
STEP_NO = re.compile(r"\bstep \d+", re.IGNORECASE)

# Texts owned by other branches of issue 10 that rewrite them (the lead merges them): the
# step announcements (branch "tracker", bot/campaign/steps.py and messages.py) and the result
# events that become embeds (branch "embeds": reveals, engage rolls and allocations, battle
# lists, Orbits battle cards, HRFT fire reports, final standings). Remove an entry once its
# branch has landed; the test then guards that text too.
ANNOUNCEMENT = re.compile(r"^\*\*[^*]+\*\*, step \d+: ")  # tracker
EMBED_TEXTS = [  # embeds: exact pieces of those result texts
    re.compile(r"^Every hull box is gone \(H-8\)"),
    re.compile(r"cascade past stripped block, armour bypassed \(H-7\)"),
    re.compile(r"^(Threshold in block|Cascade threshold from|Stripped block \+ adjacent)"),
    re.compile(r"\(range \d+ MU, through .*\(H-1[14]\)"),
    re.compile(r"^\*\*Turn \d+, step 2: orders revealed\*\*"),
    re.compile(r"computer damaged: follows last turn's written orders, H-11"),
    re.compile(r"engines redlined \(H-D32\)"),
    re.compile(r"^\*\*(Engage orders revealed|Battle list|Fleet orders revealed)[^*]*\*\* \(E-"),
    re.compile(r"\(lower picks first, E-11\)|\(support, E-11\)"),
    re.compile(r"\(E-12\.\d\)|E-12\.\d$|\(E-13\)"),
    re.compile(r"^\*\*Battle at [^*]+\*\* \(O-13, O-14\)"),
    re.compile(r" RP \(O-8\)"),
]
PANEL_NOTE = re.compile(r"^> panel for step \d+(: | \(already closed\))")  # demo notation


def player_lines(folder: Path) -> list[str]:
    """Every line of the channel and DM transcripts a player reads (the GM's page excluded),
    without the parts owned by other branches."""
    lines: list[str] = []
    for page in sorted(folder.glob("*.md")):
        if page.name in ("gm.md", "summary.md"):
            continue
        for line in page.read_text(encoding="utf-8").splitlines():
            if line.startswith("# Demo of"):
                continue
            line = PANEL_NOTE.sub("", ANNOUNCEMENT.sub("", line))
            if any(rx.search(line) for rx in EMBED_TEXTS):
                continue
            lines.append(f"{page.name}: {line}")
    return lines


@pytest.mark.parametrize(("ruleset", "players"), [("orbits", 3), ("ftcamp", 2), ("hrft", 2)])
async def test_demo_transcripts_carry_no_rule_ids_or_step_numbers(
    tmp_path: Path, ruleset: str, players: int
) -> None:
    result = await run_demo(ruleset, tmp_path, seed=7, players=players)
    assert result.finished
    lines = player_lines(tmp_path)
    assert len(lines) > 100  # the scan reads a real game
    assert [x for x in lines if RULE_ID.search(x)] == []
    assert [x for x in lines if STEP_NO.search(x)] == []
    # The wording bugs of issue 10 are gone too.
    for bad in ("(s)", "1 battles", "1 system boxes", "=False", "=True", "s's "):
        assert [x for x in lines if bad in x] == [], bad


# Source literals that belong to the other branches (see EMBED_TEXTS), by (file, function).
OWNED_ELSEWHERE = {
    ("bot/rules/ftcamp/allocation.py", "tie_order"), ("bot/rules/ftcamp/allocation.py", "_place"),
    ("bot/rules/ftcamp/allocation.py", "finish_unplaced"),
    ("bot/rules/ftcamp/conflicts.py", "*"),
    ("bot/rules/ftcamp/machine.py", "_finish_orders"),
    ("bot/rules/ftcamp/machine.py", "_finish_engage"),
    ("bot/rules/hrft/combat.py", "fire"), ("bot/rules/hrft/damage.py", "_destroy"),
    ("bot/rules/hrft/damage.py", "_placement_line"), ("bot/rules/hrft/thresholds.py", "_describe"),
    ("bot/rules/hrft/orders.py", "reveal"), ("bot/rules/orbits/battles.py", "_battle_card"),
    ("bot/rules/orbits/flow.py", "check_victory"),
    ("bot/campaign/steps.py", "_open_step"), ("bot/campaign/messages.py", "*"),
    ("bot/campaign/demo.py", "*"),  # the demo's own notes about its steps, not Discord text
}
# /help rule is where ids belong: it is asked for a ruling by its id.
RULE_HELP = {("cogs/help.py", "help_command"), ("cogs/help.py", "ruling_text")}


def _literals(path: Path) -> list[tuple[str, int, str]]:
    """(function, line, text) of every string literal that is not a docstring."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs: set[int] = set()  # docstrings, and ``ruling=`` values (ids as data)
    owner: dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "ruling":
            docs.add(id(node.value))
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                owner.setdefault(id(inner), node.name)  # outermost function wins
    return [(owner.get(id(n), ""), n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


def _source_files() -> list[Path]:
    return sorted([*ROOT.glob("bot/**/*.py"), *ROOT.glob("cogs/**/*.py")])


def test_no_string_literal_carries_a_rule_id_or_step_number() -> None:
    found = []
    for path in _source_files():
        rel = path.relative_to(ROOT).as_posix()
        if (rel, "*") in OWNED_ELSEWHERE:
            continue
        for func, line, text in _literals(path):
            if (rel, func) in OWNED_ELSEWHERE | RULE_HELP or rel == "bot/campaign/rulings.py":
                continue
            if RULE_ID.search(text) or STEP_NO.search(text):
                found.append(f"{rel}:{line} ({func}): {text[:80]!r}")
    assert found == []


def _ruling_arguments() -> list[tuple[str, str]]:
    out = []
    for path in _source_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                for kw in node.keywords:
                    if kw.arg == "ruling" and isinstance(kw.value, ast.Constant):
                        out.append((f"{path.relative_to(ROOT)}:{node.lineno}", kw.value.value))
    return out


def test_every_ruling_a_refusal_names_can_be_shown() -> None:
    cited = _ruling_arguments()
    assert len(cited) > 50  # the rules' refusals carry their rulings
    table = rulings.all_rulings()
    assert [(where, r) for where, r in cited if r not in table] == []
