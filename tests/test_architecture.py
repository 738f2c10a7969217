"""Arrows point one way (DESIGN.md): parse every module's imports and fail on a wrong one."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs", "storage")
STDLIB = set(sys.stdlib_module_names)
DISCORD_ALLOWED = {"bot.client", "bot.__main__"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[_module_name(path)] = path
    return found


def _imports(name: str, path: Path) -> set[str]:
    """Every module a file imports, absolute, including imports inside functions."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                prefix = ".".join(base)
                module = f"{prefix}.{node.module}" if node.module else prefix
            else:
                module = node.module or ""
            out.add(module)
            # "from bot import campaign" imports bot.campaign
            out.update(f"{module}.{alias.name}" for alias in node.names)
    return out


def _under(module: str, *prefixes: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def _top(module: str) -> str:
    return module.split(".")[0]


MODULES = _modules()


def _violations(name: str, imported: set[str]) -> list[str]:
    bad: list[str] = []
    for target in sorted(imported):
        top = _top(target)
        if _under(name, "bot.rules"):
            ok = (
                _under(target, "bot.rules", "bot.errors")
                or target == "bot"  # "from bot import ..." is checked through its names
                or top in STDLIB
                or top in {"pydantic", "pydantic_core", "typing_extensions"}
            )
            if not ok:
                bad.append(f"bot.rules imports only itself, bot.errors, stdlib, pydantic: {target}")
        if _under(name, "bot.render") and _under(
            target, "discord", "aiosqlite", "storage", "cogs", "bot.campaign"
        ):
            bad.append(f"bot.render must stay pure: {target}")
        if _under(name, "bot.campaign") and _under(target, "discord", "cogs"):
            bad.append(f"bot.campaign must not know Discord: {target}")
        if _under(name, "storage") and _under(target, "discord", "cogs", "bot.campaign"):
            bad.append(f"storage sits below the service: {target}")
        discord_ok = _under(name, "cogs") or name in DISCORD_ALLOWED
        if top == "discord" and not discord_ok:
            bad.append(f"only cogs/, bot.client and bot.__main__ may import discord: {target}")
    return bad


def test_the_tree_has_modules_to_check() -> None:
    assert "bot.rules.base" in MODULES
    assert "bot.client" in MODULES
    assert any(_under(m, "cogs") for m in MODULES)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_point_one_way(name: str) -> None:
    assert _violations(name, _imports(name, MODULES[name])) == []


@pytest.mark.parametrize(
    ("name", "target"),
    [
        ("bot.rules.orbits.cards", "discord"),
        ("bot.rules.base", "bot.campaign"),
        ("bot.rules.base", "random_thing_pkg"),
        ("bot.render.orbits_map", "storage.db"),
        ("bot.campaign.service", "discord.ui"),
        ("storage.db", "bot.campaign.models"),
        ("bot.settings", "discord"),
    ],
)
def test_the_checker_catches_wrong_arrows(name: str, target: str) -> None:
    assert _violations(name, {target})


def test_relative_imports_are_resolved(tmp_path: Path) -> None:
    path = tmp_path / "mod.py"
    path.write_text("from .. import errors\nfrom .base import Seat\n", encoding="utf-8")
    assert {"bot.errors", "bot.rules.base"} <= _imports("bot.rules.mod", path)
