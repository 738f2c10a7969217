"""Arrows point one way (DESIGN.md): parse every module's imports and fail on a wrong one.

The checker reads a tree of modules from any root, so each broken arrow of issue 17 ("The
architecture test misses broken arrows") is built in a copy of the tree and must be reported
(``test_each_broken_arrow_is_caught``): the checker is tested, not only today's tree. Rules
per layer cover third-party packages and the standard library; imports inside functions and
``importlib.import_module``/``__import__`` with literal names count; a fresh interpreter says
which modules ``import bot.rules`` loads; cycles are looked for between modules and between
packages."""

from __future__ import annotations

import ast
import functools
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs", "storage")
STDLIB = set(sys.stdlib_module_names)
DISCORD_ALLOWED = {"bot.client", "bot.__main__"}
# The third-party packages the rules may use (pydantic and what it brings).
RULES_THIRD_PARTY = {"pydantic", "pydantic_core", "typing_extensions", "annotated_types",
                     "typing_inspection"}
# The standard library the rules may not touch: no event loop, threads, processes, sockets,
# clock, environment or unseeded randomness (DESIGN.md: pure rules; the dice are the one
# source of chance, bot/rules/dice.py). ``datetime`` stays (types), its clock reads do not.
RULES_NO_STDLIB = {"asyncio", "threading", "multiprocessing", "concurrent", "subprocess",
                   "socket", "selectors", "signal", "time", "secrets", "uuid", "os", "sqlite3",
                   "random"}
RANDOM_ALLOWED = {"bot.rules.dice"}
# Calls that read the clock, as written: time.time(), datetime.now(), date.today(), ...
CLOCK_CALLS = {"now", "utcnow", "today", "time", "time_ns", "monotonic", "monotonic_ns",
               "perf_counter", "perf_counter_ns", "process_time", "localtime", "gmtime",
               "ctime", "asctime"}
CLOCK_OWNERS = {"time", "datetime", "date"}


def _module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules(root: Path = ROOT) -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            found[_module_name(path, root)] = path
    return found


def _tree(path: Path) -> ast.Module:
    return _parse(path.read_text(encoding="utf-8"))


@functools.cache
def _parse(text: str) -> ast.Module:
    """Parsed once per text: the copies of the tree share their unchanged modules."""
    return ast.parse(text)


def _from_module(node: ast.ImportFrom, package: str) -> str:
    if node.level:
        base = package.split(".")[: len(package.split(".")) - node.level + 1]
        prefix = ".".join(base)
        return f"{prefix}.{node.module}" if node.module else prefix
    return node.module or ""


def _literal_import(node: ast.Call) -> str | None:
    """``importlib.import_module("x")``, ``import_module("x")``, ``__import__("x")``."""
    func = node.func
    called = (func.attr if isinstance(func, ast.Attribute)
              else func.id if isinstance(func, ast.Name) else "")
    if called not in {"import_module", "__import__"} or not node.args:
        return None
    first = node.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value
    return None


def _imports(name: str, path: Path) -> set[str]:
    """Every module a file imports, absolute, including imports inside functions and
    importlib calls with a literal name."""
    return set(_imports_in(name, path.name == "__init__.py", path.read_text(encoding="utf-8")))


@functools.cache
def _imports_in(name: str, is_package: bool, text: str) -> frozenset[str]:
    tree = _parse(text)
    package = name if is_package else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = _from_module(node, package)
            out.add(module)
            # "from bot import campaign" imports bot.campaign
            out.update(f"{module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Call) and (literal := _literal_import(node)):
            out.add(literal)
    return frozenset(out)


def _clock_reads(tree: ast.AST) -> list[str]:
    """Calls that read the clock: ``time.time()``, ``datetime.now(UTC)``,
    ``datetime.datetime.now()``, ``date.today()``, and ``now()`` etc. imported bare from
    time or datetime."""
    bare = {alias.asname or alias.name for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module == "time"
            for alias in node.names if alias.name in CLOCK_CALLS}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in CLOCK_CALLS:
            owner = func.value
            owner_name = (owner.id if isinstance(owner, ast.Name)
                          else owner.attr if isinstance(owner, ast.Attribute) else "")
            if owner_name in CLOCK_OWNERS:
                found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif isinstance(func, ast.Name) and func.id in bare:
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


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
                or (top in STDLIB and top not in RULES_NO_STDLIB)
                or (top == "random" and name in RANDOM_ALLOWED)
                or top in RULES_THIRD_PARTY
            )
            if not ok:
                bad.append("bot.rules imports only itself, bot.errors, pydantic and the pure "
                           f"standard library (random: the dice only): {target}")
        if name in {"bot", "bot.errors"} and top not in STDLIB and target != "bot":
            bad.append(f"{name} imports only the standard library (every rule set imports "
                       f"it): {target}")
        if _under(name, "bot.render") and _under(
            target, "discord", "aiosqlite", "aiohttp", "storage", "cogs", "bot.campaign",
            "bot.rules", "bot.settings", "bot.client"
        ):
            bad.append(f"bot.render draws views only: {target}")
        if _under(name, "bot.campaign") and _under(target, "discord", "cogs", "PIL", "aiohttp",
                                                   "bot.client"):
            bad.append(f"bot.campaign must not know Discord nor draw: {target}")
        if _under(name, "storage") and _under(target, "discord", "cogs", "bot.campaign",
                                              "bot.rules", "bot.render", "bot.client",
                                              "aiohttp", "PIL"):
            bad.append(f"storage sits below the service and the rules: {target}")
        discord_ok = _under(name, "cogs") or name in DISCORD_ALLOWED
        if top == "discord" and not discord_ok:
            bad.append(f"only cogs/, bot.client and bot.__main__ may import discord: {target}")
        if _under(name, "cogs") and not _cog_may_import(target):
            bad.append(f"cogs see the game only through bot.campaign: {target}")
    return bad


def _module_problems(name: str, path: Path) -> list[str]:
    """What is wrong with one module: its imports, and for the rules, clock reads."""
    bad = [f"{name}: {why}" for why in _violations(name, _imports(name, path))]
    if _under(name, "bot.rules"):
        bad += [f"{name}: the rules read no clock (the service passes the time): {call}"
                for call in _clock_reads(_tree(path))]
    return bad


def check_tree(root: Path) -> list[str]:
    """Every layer rule broken in the tree at ``root``, and every cycle (module or package)."""
    modules = _modules(root)
    bad = [p for name, path in modules.items() for p in _module_problems(name, path)]
    graph = _graph(modules)
    bad += [f"module cycle: {' <-> '.join(c)}" for c in _cycles(graph)]
    bad += [f"package cycle: {' <-> '.join(c)}" for c in _cycles(_package_graph(graph, modules))]
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
    assert "bot.rules.war_models" in MODULES
    assert any(_under(m, "cogs") for m in MODULES)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_point_one_way(name: str) -> None:
    assert _module_problems(name, MODULES[name]) == []


@pytest.mark.parametrize(
    ("name", "target"),
    [
        ("bot.rules.orbits.cards", "discord"),
        ("bot.rules.base", "bot.campaign"),
        ("bot.rules.base", "random_thing_pkg"),
        ("bot.rules.orbits.flow", "random"),
        ("bot.rules.hrft.combat", "asyncio"),
        ("bot.rules.ftcamp.war", "time"),
        ("bot.rules.base", "os"),
        ("bot.errors", "aiosqlite"),
        ("bot.errors", "pydantic"),
        ("bot", "bot.client"),
        ("bot.render.orbits_map", "storage.db"),
        ("bot.render.orbits_map", "bot.rules.orbits"),
        ("bot.render.orbits_map", "bot.settings"),
        ("bot.campaign.service", "discord.ui"),
        ("bot.campaign.pictures", "PIL.Image"),
        ("storage.db", "bot.campaign.models"),
        ("storage.db", "bot.rules.base"),
        ("storage.db", "aiohttp"),
        ("bot.settings", "discord"),
        ("cogs.ftcamp", "bot.rules.ftcamp"),
        ("cogs.ftcamp", "bot.rules.ftcamp.gm"),
        ("cogs.battle_read", "bot.rules.ftcamp.link"),
        ("cogs.orbits", "bot.render.registry"),
        ("cogs.battle", "storage.db"),
        ("cogs.common", "pydantic"),
    ],
)
def test_the_checker_catches_wrong_arrows(name: str, target: str) -> None:
    assert _violations(name, {target})


def test_the_dice_alone_may_use_random() -> None:
    assert _violations("bot.rules.dice", {"random"}) == []
    assert _violations("bot.rules.dice_roll", {"random"})


def test_relative_imports_are_resolved(tmp_path: Path) -> None:
    path = tmp_path / "mod.py"
    path.write_text("from .. import errors\nfrom .base import Seat\n", encoding="utf-8")
    assert {"bot.errors", "bot.rules.base"} <= _imports("bot.rules.mod", path)


@pytest.mark.parametrize("code", [
    "import importlib\ndef f():\n    return importlib.import_module('discord')\n",
    "from importlib import import_module\nx = import_module('discord.ui')\n",
    "def f():\n    return __import__('discord')\n",
])
def test_importlib_calls_with_a_literal_name_are_imports(tmp_path: Path, code: str) -> None:
    path = tmp_path / "mod.py"
    path.write_text(code, encoding="utf-8")
    assert _module_problems("bot.rules.mod", path)


@pytest.mark.parametrize("code", [
    "import time\ndef f():\n    return time.time()\n",
    "from datetime import UTC, datetime\ndef f():\n    return datetime.now(UTC)\n",
    "import datetime\nx = datetime.datetime.utcnow()\n",
    "from datetime import date\nx = date.today()\n",
    "from time import monotonic as m\nx = m()\n",
])
def test_clock_reads_in_the_rules_are_caught(tmp_path: Path, code: str) -> None:
    path = tmp_path / "mod.py"
    path.write_text(code, encoding="utf-8")
    assert any("clock" in p for p in _module_problems("bot.rules.mod", path))


def test_a_datetime_passed_in_is_no_clock_read(tmp_path: Path) -> None:
    path = tmp_path / "mod.py"
    path.write_text("from datetime import datetime\ndef f(now: datetime) -> str:\n"
                    "    return now.isoformat()\n", encoding="utf-8")
    assert _module_problems("bot.rules.mod", path) == []


# ---------------------------------------------------------------- import cycles
#
# Every import counts, also those inside functions and under TYPE_CHECKING: a cycle hidden
# in a function body (or kept for type hints) is still two modules that cannot be read,
# tested or changed one without the other, and it only moves the failure from import time
# to the first call. The fix is a shared module or a function passed in, never a local import.
# Cycles are looked for between modules and between packages: two rule sets importing each
# other (ftcamp <-> hrft before issue 17) are a cycle even when no two modules are.


def _edges(name: str, path: Path, modules: dict[str, Path] = MODULES) -> set[str]:
    """The project modules ``name`` imports: ``from pkg import sub`` is an edge to pkg.sub
    (a module), not to pkg's __init__."""
    out: set[str] = set()
    for target in _imports(name, path):
        if target in modules and target != name:
            out.add(target)
    # drop "pkg" when the import named a submodule of it: from pkg import sub
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(_tree(path)):
        if not isinstance(node, ast.ImportFrom):
            continue
        module = _from_module(node, package)
        if all(f"{module}.{a.name}" in modules for a in node.names):
            out.discard(module)
    return out


def _graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    return {name: _edges(name, path, modules) for name, path in modules.items()}


# The Discord adapter is one unit: the client that builds the cogs and the cogs that type it
# (the cog extensions import AdmiraltyBot under TYPE_CHECKING for their setup(); bot/client.py
# imports cogs.answers, the one error ladder, and cogs.background_loops, whose Loops it builds,
# issue 17 item 5). Module cycles inside it are still refused by test_no_import_cycles.
DISCORD_ADAPTER = "discord adapter (cogs, bot.client, bot.__main__)"


def _package_of(name: str, modules: dict[str, Path]) -> str:
    """The package a module belongs to; a module directly in ``bot`` (errors, settings) is
    its own unit, as ``bot`` holds layers, not one package of code."""
    if _under(name, "cogs") or name in DISCORD_ALLOWED:
        return DISCORD_ADAPTER
    if modules[name].name == "__init__.py":
        return name
    parent = name.rpartition(".")[0]
    return name if parent in {"", "bot"} else parent


def _package_graph(graph: dict[str, set[str]],
                   modules: dict[str, Path]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for name, targets in graph.items():
        unit = _package_of(name, modules)
        out.setdefault(unit, set())
        out[unit] |= {_package_of(t, modules) for t in targets} - {unit}
    return out


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one node (Tarjan)."""
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


GRAPH = _graph(MODULES)


def test_no_import_cycles() -> None:
    assert _cycles(GRAPH) == []


def test_no_package_cycles() -> None:
    packages = _package_graph(GRAPH, MODULES)
    assert {"bot.rules", "bot.rules.ftcamp", "bot.rules.hrft", "bot.campaign"} <= set(packages)
    assert _cycles(packages) == []


@pytest.mark.parametrize("ruleset", ["bot.rules.ftcamp", "bot.rules.hrft", "bot.rules.orbits"])
def test_no_rule_set_imports_another(ruleset: str) -> None:
    """Issue 17 item 4: the war's shapes live in bot/rules/war_models.py."""
    others = {"bot.rules.ftcamp", "bot.rules.hrft", "bot.rules.orbits"} - {ruleset}
    wrong = sorted(f"{n} -> {t}" for n, ts in GRAPH.items() if _under(n, ruleset)
                   for t in ts if _under(t, *others))
    assert wrong == []


def test_the_cycle_finder_finds_a_cycle_in_a_function_body(tmp_path: Path) -> None:
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("from bot.rules.b import g\n", encoding="utf-8")
    b.write_text("def g():\n    from bot.rules.a import f\n", encoding="utf-8")
    graph = {"bot.rules.a": {"bot.rules.b"} & set(_imports("bot.rules.a", a)),
             "bot.rules.b": {"bot.rules.a"} & set(_imports("bot.rules.b", b))}
    assert _cycles(graph) == [["bot.rules.a", "bot.rules.b"]]
    assert _cycles({"x": {"y"}, "y": set()}) == []


# ---------------------------------------------------------------- a fresh interpreter
#
# What ``import bot.rules`` really loads, whatever the files say: a package __init__ or a
# module-level side effect the parse does not see would show here.

RULES_ENTRY = """
import json, sys
import bot, bot.rules, bot.rules.base, bot.rules.war_models
from bot.rules import registry
for name in registry.names():
    registry.get(name)
print(json.dumps({"bot": bot.__file__, "modules": sorted(sys.modules)}))
"""
# never loaded by the rules: Discord, the database, the web, pictures, the event loop
NOT_LOADED_BY_RULES = {"discord", "aiosqlite", "aiohttp", "PIL", "asyncio", "sqlite3"}


def loaded_by_rules(root: Path) -> tuple[str, list[str]]:
    """(bot's file, the modules loaded) when a fresh interpreter in ``root`` imports the
    rules and every registered rule set."""
    done = subprocess.run([sys.executable, "-c", RULES_ENTRY], cwd=root, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    return found["bot"], found["modules"]


def rules_load_problems(root: Path) -> list[str]:
    bot_file, loaded = loaded_by_rules(root)
    assert Path(bot_file).resolve().is_relative_to(root.resolve()), bot_file  # this tree's bot
    bad = [f"import bot.rules loads {m}" for m in loaded
           if _top(m) in NOT_LOADED_BY_RULES and "." not in m]
    bad += [f"import bot.rules loads the third-party {m}" for m in loaded
            if "." not in m and m not in STDLIB and not m.startswith("_")
            and m not in RULES_THIRD_PARTY and m not in PACKAGES]
    bad += [f"import bot.rules loads {m}" for m in loaded
            if _top(m) in PACKAGES and not _under(m, "bot.rules", "bot.errors") and m != "bot"]
    return bad


def test_a_fresh_interpreter_importing_the_rules_loads_no_outside_module() -> None:
    assert rules_load_problems(ROOT) == []


# ---------------------------------------------------------------- each broken arrow, built
#
# Issue 17 lists arrows each made in a copy of the tree while the old test stayed green. Each
# is made again here, in a copy, and the checker (or the fresh interpreter) must name it.


BROKEN_ARROWS: dict[str, tuple[str, str, str]] = {
    # name: (file, code appended to it, what the report must name)
    "rules import random": ("bot/rules/orbits/flow.py", "import random\n", "random"),
    "rules import asyncio": ("bot/rules/ftcamp/war.py",
                             "def _later():\n    import asyncio\n    return asyncio\n",
                             "asyncio"),
    "rules read time.time()": ("bot/rules/hrft/combat.py",
                               "def _stamp():\n    import time\n    return time.time()\n",
                               "time.time()"),
    "rules read datetime.now()": ("bot/rules/base.py",
                                  "def _stamp():\n    from datetime import datetime\n"
                                  "    return datetime.now()\n", "datetime.now()"),
    "rules call importlib.import_module('discord')": (
        "bot/rules/registry.py",
        "def _client():\n    import importlib\n    return importlib.import_module('discord')\n",
        "discord"),
    "bot/errors.py imports aiosqlite": ("bot/errors.py", "import aiosqlite  # noqa\n",
                                        "aiosqlite"),
    "bot/__init__.py imports bot.client": ("bot/__init__.py", "from bot import client\n",
                                           "bot.client"),
    "storage imports bot.rules": ("storage/db.py", "from bot.rules import base\n",
                                  "bot.rules"),
    "storage imports aiohttp": ("storage/db.py", "import aiohttp\n", "aiohttp"),
    "render imports bot.rules": ("bot/render/registry.py",
                                 "from bot.rules.orbits import state\n", "bot.rules.orbits"),
    "render imports bot.settings": ("bot/render/registry.py", "from bot import settings\n",
                                    "bot.settings"),
    "campaign imports PIL": ("bot/campaign/pictures.py",
                             "def _draw():\n    from PIL import Image\n    return Image\n",
                             "PIL"),
    "ftcamp <-> hrft package cycle": ("bot/rules/hrft/link_back.py",
                                      "from bot.rules.ftcamp.model import State\n",
                                      "package cycle: bot.rules.ftcamp <-> bot.rules.hrft"),
}


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project's modules, checked clean once."""
    root = tmp_path_factory.mktemp("tree")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, root / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return root


def _broken_copy(pristine: Path, tmp_path: Path, arrow: str) -> Path:
    root = tmp_path / "tree"
    shutil.copytree(pristine, root)
    file, code, _ = BROKEN_ARROWS[arrow]
    path = root / file
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    path.write_text(text + "\n" + code, encoding="utf-8")
    if arrow == "ftcamp <-> hrft package cycle":  # and the way back, as it was before
        back = root / "bot/rules/ftcamp/battle_link.py"
        back.write_text(back.read_text(encoding="utf-8")
                        + "\nfrom bot.rules.hrft.samples import SAMPLE_KEYS\n", encoding="utf-8")
    return root


def test_the_copy_is_clean(pristine: Path) -> None:
    assert check_tree(pristine) == []


@pytest.mark.parametrize("arrow", sorted(BROKEN_ARROWS))
def test_each_broken_arrow_is_caught(pristine: Path, tmp_path: Path, arrow: str) -> None:
    root = _broken_copy(pristine, tmp_path, arrow)
    reported = check_tree(root)
    named = BROKEN_ARROWS[arrow][2]
    assert any(named in line for line in reported), reported


def test_the_fresh_interpreter_sees_discord_behind_bot_init(pristine: Path,
                                                            tmp_path: Path) -> None:
    """``from bot import client`` in bot/__init__.py: ``import bot.rules.base`` then loads
    discord and aiosqlite, which the fresh interpreter reports (besides the parse)."""
    assert rules_load_problems(pristine) == []
    root = _broken_copy(pristine, tmp_path, "bot/__init__.py imports bot.client")
    reported = rules_load_problems(root)
    assert {"import bot.rules loads discord", "import bot.rules loads aiosqlite",
            "import bot.rules loads bot.client"} <= set(reported), reported


def test_the_fresh_interpreter_sees_a_hidden_import(pristine: Path, tmp_path: Path) -> None:
    """An import the parse cannot read (a computed name) still shows in the interpreter."""
    root = tmp_path / "tree"
    shutil.copytree(pristine, root)
    errors = root / "bot/errors.py"
    errors.write_text(errors.read_text(encoding="utf-8")
                      + "\nimport importlib\nimportlib.import_module('aio' + 'sqlite')\n",
                      encoding="utf-8")
    assert check_tree(root) == []  # the parse cannot see it
    assert "import bot.rules loads aiosqlite" in rules_load_problems(root)


# (the engine and its core load, cache and mutate whole campaigns: cogs never reach them)
FULL_STATE_READS = {"snapshot", "_load", "_cache", "_mutate", "_in_channel", "engine", "core"}


@pytest.mark.parametrize("name", sorted(m for m in MODULES if _under(m, "cogs")))
def test_no_cog_reads_the_full_state(name: str) -> None:
    """``snapshot`` (and the service's private loaders) hand out hidden state: cogs use
    ``seat_view`` and the other viewer-scoped reads of bot/campaign/ruleset_features.py."""
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
    ("cogs.ftcamp", "interaction.namespace"): "an app command's typed option, by name",
    ("cogs.background_loops", "destination"): "a Discord channel type without partial messages",
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
