"""How the Discord adapter is wired (issue 17 item 5): cogs are given what they need when
they are built, never find each other by name; the bot's attributes are declared on its
class; one error ladder answers for commands and components alike."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ADAPTER = sorted((ROOT / "cogs").glob("*.py")) + [ROOT / "bot" / "client.py"]


def _calls(path: Path, name: str) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"{path.name}:{n.lineno}" for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr == name]


def test_no_cog_is_found_by_name() -> None:
    assert [c for p in ADAPTER for c in _calls(p, "get_cog")] == []


def test_nothing_is_attached_to_the_client_at_run_time() -> None:
    """``client.last_rulings = ...`` (before issue 17): state the bot's class did not declare."""
    found = []
    for path in ADAPTER:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = node.targets if isinstance(node, ast.Assign) else []
            found += [f"{path.name}:{node.lineno}" for t in targets
                      if isinstance(t, ast.Attribute) and "client" in ast.unparse(t.value)]
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "setattr":
                found.append(f"{path.name}:{node.lineno}")
    assert found == []


def test_the_bot_declares_what_the_cogs_and_items_read(tmp_path: Path) -> None:
    from bot.client import AdmiraltyBot

    bot = AdmiraltyBot(tmp_path / "x.db")
    assert bot.loops is None and len(bot.last_rulings) == 0 and bot.roll_dice is not None


def test_one_answer_branch_and_one_apology() -> None:
    """The "already answered -> follow-up" branch and the apology exist once
    (cogs/answers.py); before, four copies and two ladders."""
    branches = [c for p in ADAPTER for c in _calls(p, "is_done")]
    assert len(branches) == 1 and branches[0].startswith("answers.py:"), branches
    apology = "Sorry, something went wrong"
    assert [p.name for p in ADAPTER if apology in p.read_text(encoding="utf-8")] == [
        "answers.py"]
