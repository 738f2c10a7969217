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
        if _under(name, "cogs") and not _cog_may_import(target):
            bad.append(f"cogs see the game only through bot.campaign: {target}")
    return bad


# What a cog may import besides discord, the standard library, cogs.*, bot.campaign* and
# bot.errors (DESIGN.md: hidden state never reaches a cog). Each entry reads no campaign state.
COG_ALLOWLIST = {
    "bot": "'from bot import x' is checked through x",
    "bot.client": "the Bot class, to type interaction.client (TYPE_CHECKING only)",
    "bot.rules.base": "value types the service hands out (Request, ActionSpec) and GM_SEAT",
    "bot.rules.dice_roll": "/roll's pure dice-expression parser, with the bot's own dice",
    "bot.rules.orbits.cards": "a pure formatter of card codes (7h -> 7♥) for /orbits hand",
}


def _cog_may_import(target: str) -> bool:
    return (
        _top(target) in STDLIB
        or _under(target, "discord", "cogs", "bot.campaign", "bot.errors")
        or target in COG_ALLOWLIST
        # "from bot.rules.orbits import cards" also yields bot.rules.orbits: judged by its names
        or any(entry.startswith(target + ".") for entry in COG_ALLOWLIST)
        or any(target.startswith(entry + ".") for entry in COG_ALLOWLIST if entry != "bot")
    )


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
        ("cogs.ftcamp", "bot.rules.ftcamp"),
        ("cogs.ftcamp", "bot.rules.ftcamp.gm"),
        ("cogs.battle_read", "bot.rules.hrft.link"),
        ("cogs.orbits", "bot.render.registry"),
        ("cogs.battle", "storage.db"),
        ("cogs.common", "pydantic"),
    ],
)
def test_the_checker_catches_wrong_arrows(name: str, target: str) -> None:
    assert _violations(name, {target})


def test_relative_imports_are_resolved(tmp_path: Path) -> None:
    path = tmp_path / "mod.py"
    path.write_text("from .. import errors\nfrom .base import Seat\n", encoding="utf-8")
    assert {"bot.errors", "bot.rules.base"} <= _imports("bot.rules.mod", path)


# ---------------------------------------------------------------- import cycles
#
# Every import counts, also those inside functions and under TYPE_CHECKING: a cycle hidden
# in a function body (or kept for type hints) is still two modules that cannot be read,
# tested or changed one without the other, and it only moves the failure from import time
# to the first call. The fix is a shared module or a function passed in, never a local import.


def _edges(name: str, path: Path) -> set[str]:
    """The project modules ``name`` imports: ``from pkg import sub`` is an edge to pkg.sub
    (a module), not to pkg's __init__."""
    out: set[str] = set()
    for target in _imports(name, path):
        if target in MODULES and target != name:
            out.add(target)
    # drop "pkg" when the import named a submodule of it: from pkg import sub
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            module = ".".join(base) + (f".{node.module}" if node.module else "")
        else:
            module = node.module or ""
        if all(f"{module}.{a.name}" in MODULES for a in node.names):
            out.discard(module)
    return out


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycles() -> None:
    graph = {name: _edges(name, path) for name, path in MODULES.items()}
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle_in_a_function_body(tmp_path: Path) -> None:
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("from bot.rules.b import g\n", encoding="utf-8")
    b.write_text("def g():\n    from bot.rules.a import f\n", encoding="utf-8")
    graph = {"bot.rules.a": {"bot.rules.b"} & set(_imports("bot.rules.a", a)),
             "bot.rules.b": {"bot.rules.a"} & set(_imports("bot.rules.b", b))}
    assert _cycles(graph) == [["bot.rules.a", "bot.rules.b"]]
    assert _cycles({"x": {"y"}, "y": set()}) == []


FULL_STATE_READS = {"snapshot", "_load", "_cache", "_mutate", "_in_channel"}


@pytest.mark.parametrize("name", sorted(m for m in MODULES if _under(m, "cogs")))
def test_no_cog_reads_the_full_state(name: str) -> None:
    """``snapshot`` (and the service's private loaders) hand out hidden state: cogs use
    ``seat_view`` and the other viewer-scoped reads of bot/campaign/reads.py."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    used = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert used & FULL_STATE_READS == set()


# ---------------------------------------------------------------- rule-set hooks
#
# DESIGN.md, "Models to follow" (python-chess variants): every rule set subclasses
# RulesetBase, where each optional hook exists with a neutral default, so the service calls
# hooks directly. A ``getattr(ruleset, "hook", None)`` would let a misspelt or forgotten
# hook pass silently as "absent".

HOOK_SCANNED = ("bot.campaign", "cogs", "bot.rules.base")
RULESET_NAMES = {"ruleset", "rules"}  # local names the service gives a rule-set object
# getattr/hasattr calls in the scanned modules that are no hook lookup, each with its reason.
GETATTR_ALLOWLIST = {
    ("cogs.battle", "interaction.namespace"): "an app command's typed option, by name",
    ("cogs.battle", "cog"): "a cog's command object, by name",
    ("cogs.ftcamp", "interaction.namespace"): "an app command's typed option, by name",
    ("cogs.refusals", "client"): "the bot's optional store of recent rulings",
    ("cogs.outbox", "destination"): "a Discord channel type without partial messages",
    ("bot.campaign.demo", "state"): "the demo summary's turn count (Orbits and HRFT count "
                                    "turns, FTCamp rounds); not a hook",
}


def _is_ruleset(node: ast.expr) -> bool:
    """``ruleset``, ``rules`` or ``<anything>.ruleset`` (ctx.ruleset, parent.ruleset, ...)."""
    return ((isinstance(node, ast.Name) and node.id in RULESET_NAMES)
            or (isinstance(node, ast.Attribute) and node.attr == "ruleset"))


def _hook_lookups(name: str, tree: ast.AST) -> list[str]:
    """getattr/hasattr calls on a rule set, or naming a RulesetBase member, not allowed."""
    from bot.rules.ruleset_base import RulesetBase

    members = {m for m in dir(RulesetBase) if not m.startswith("_")}
    bad = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in {"getattr", "hasattr"} and node.args):
            continue
        target = node.args[0]
        named = node.args[1] if len(node.args) > 1 else None
        hook_name = (isinstance(named, ast.Constant) and isinstance(named.value, str)
                     and named.value in members)
        if _is_ruleset(target) or hook_name:
            bad.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
        elif (isinstance(target, ast.Name) and target.id == "self") or \
                (name, ast.unparse(target)) in GETATTR_ALLOWLIST:
            continue
        else:
            bad.append(f"{name}:{node.lineno}: {ast.unparse(node)} (not in GETATTR_ALLOWLIST)")
    return bad


def _scanned() -> list[str]:
    return sorted(m for m in MODULES if _under(m, *HOOK_SCANNED))


@pytest.mark.parametrize("name", _scanned())
def test_no_getattr_hook_lookup(name: str) -> None:
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    assert _hook_lookups(name, tree) == []


@pytest.mark.parametrize("code", [
    'hook = getattr(ctx.ruleset, "gm_edit", None)',
    'getattr(rules, "whatever", None)',
    'hasattr(ruleset, "check")',
    'getattr(thing, "scripted_player", None)',
    'getattr(unknown, "x", None)',
])
def test_the_hook_scan_catches_a_lookup(code: str) -> None:
    assert _hook_lookups("bot.campaign.x", ast.parse(code))


def test_the_allowlist_names_real_uses() -> None:
    """Every allowlisted getattr still exists (a stale entry would hide nothing but mislead)."""
    used = set()
    for name in _scanned():
        tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
        used |= {(name, ast.unparse(n.args[0])) for n in ast.walk(tree)
                 if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                 and n.func.id in {"getattr", "hasattr"} and n.args}
    assert set(GETATTR_ALLOWLIST) <= used


def _registered() -> list[object]:
    """The built-in rule sets, whatever else is registered now, and the tests' own (not
    registered here: other tests list the registry)."""
    from bot.rules import registry
    from tests.support import council, drill, guess, mixed

    found = {n: registry.get(n) for n in registry.names()}
    found.update({m.RULESET.name: m.RULESET for m in (council, drill, guess, mixed)})
    return list(found.values())


def test_every_registered_rule_set_is_a_ruleset_base() -> None:
    from bot.rules.ruleset_base import RulesetBase

    rulesets = _registered()
    assert {"orbits", "ftcamp", "hrft", "guess"} <= {r.name for r in rulesets}  # type: ignore[attr-defined]
    assert [type(r).__name__ for r in rulesets if not isinstance(r, RulesetBase)] == []


def test_the_registry_refuses_a_rule_set_without_the_base() -> None:
    from bot.rules import registry

    class Loose:
        name = "loose"

    with pytest.raises(TypeError, match="RulesetBase"):
        registry.register(Loose())  # type: ignore[arg-type]
    assert "loose" not in registry.names()


def _service_calls() -> set[str]:
    """Every member the service and cogs read off a rule-set object."""
    used: set[str] = set()
    for name in sorted(m for m in MODULES if _under(m, "bot.campaign", "cogs")):
        tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
        used |= {n.attr for n in ast.walk(tree)
                 if isinstance(n, ast.Attribute) and _is_ruleset(n.value)}
    return used


def test_ruleset_base_declares_every_hook_the_service_calls() -> None:
    from bot.rules.ruleset_base import RulesetBase

    used = _service_calls()
    # the scan sees the hooks (it is not vacuous)
    assert {"check", "gm_actions", "picture_view", "propose_battle", "scripted_player",
            "demo_options", "take_in"} <= used
    declared = set(dir(RulesetBase)) | set(RulesetBase.__annotations__)
    assert sorted(used - declared) == []


CAPABILITIES = {"offers_texts": "texts", "reads_setup_file": "load_file",
                "writes_side_files": "side_file", "takes_battle_results": "propose_battle"}


@pytest.mark.parametrize("flag", sorted(CAPABILITIES))
def test_each_capability_matches_its_hook(flag: str) -> None:
    """A rule set that has the hook says so, and one that says so has it: else the service
    would skip a real hook or call the refusing default."""
    from bot.rules.ruleset_base import RulesetBase

    hook = CAPABILITIES[flag]
    for ruleset in _registered():
        overridden = getattr(type(ruleset), hook) is not getattr(RulesetBase, hook)
        assert getattr(ruleset, flag) is overridden, (ruleset.name, flag)  # type: ignore[attr-defined]
