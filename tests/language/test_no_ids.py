"""No ruling ids and no internal step numbers in what players read (issue 10, item 5).

Three guards: what the three demos put in Discord (channel and DM transcripts, embeds
included); every text the rules produce in those real games (event texts and embeds of every
audience, request prompts and labels, and the refusals the rules give to bad input at each
request); and every string literal of the source outside docstrings. Rulings stay one command
away (``/help rule``); the ids live in code comments, tests, ``ruling=`` data and the GM's log.
"""

from __future__ import annotations

import ast
import copy
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.campaign import rulings
from bot.campaign.legal import validate_action
from bot.errors import UserError
from bot.rules import registry
from bot.rules.base import Embed, Event, Request
from bot.rules.dice import SeededDice
from tests.support.demos import Demos

ROOT = Path(__file__).resolve().parents[2]
RULE_ID = re.compile(r"\b[OEHP]-D?\d+(\.\d+)?\b")
STEP_NO = re.compile(r"\bstep \d+", re.IGNORECASE)
# The demo's own note of which panel a DM carries ("> panel for step 12: ..."): a line of the
# transcript, not of Discord (the panel itself is the text after it).
PANEL_NOTE = re.compile(r"^> panel for step \d+(: | \(already closed\))")
GAMES = [("orbits", 3), ("ftcamp", 2), ("hrft", 2)]


def player_lines(folder: Path) -> list[str]:
    """Every line of the channel and DM transcripts a player reads (the GM's page excluded:
    the GM log is where ids are shown)."""
    lines: list[str] = []
    for page in sorted(folder.glob("*.md")):
        if page.name in ("gm.md", "summary.md"):
            continue
        for line in page.read_text(encoding="utf-8").splitlines():
            if line.startswith("# Demo of"):
                continue
            lines.append(f"{page.name}: {PANEL_NOTE.sub('', line)}")
    return lines


def _bad_lines(lines: list[str]) -> dict[str, list[str]]:
    found = {"rule id": [x for x in lines if RULE_ID.search(x)],
             "step number": [x for x in lines if STEP_NO.search(x)]}
    # The wording bugs of issue 10 are gone too.
    for bad in (r"\(s\)", r"(?<![\d.])1 battles", r"(?<![\d.])1 system boxes", "=False",
                "=True", "s's ", r"\w \.(\s|$)"):
        found[bad] = [x for x in lines if re.search(bad, x)]
    return {k: v for k, v in found.items() if v}


@dataclass
class Texts:
    """Every text the rules produced in one real game, by where it came from."""

    lines: list[str] = field(default_factory=list)
    events: int = 0
    requests: int = 0
    refusals: int = 0

    def add(self, where: str, text: str) -> None:
        self.lines += [f"{where}: {line}" for line in text.splitlines() if line.strip()]

    def event(self, ev: Event) -> None:
        self.events += 1
        self.add(f"{ev.kind} ({ev.audience.kind})", ev.text)
        if ev.embed is not None:
            self.embed(ev.kind, ev.embed)

    def embed(self, kind: str, embed: Embed) -> None:
        for text in (embed.title, embed.description, embed.footer):
            self.add(f"{kind} embed", text)
        for f in embed.fields:
            self.add(f"{kind} embed", f"{f.name}: {f.value}")

    def request(self, req: Request) -> None:
        self.requests += 1
        self.add(f"prompt {req.step}", req.prompt)
        for spec in req.actions:
            self.add(f"action {req.step}", f"{spec.label} {spec.confirm}")
            for fld in spec.fields:
                self.add(f"field {req.step}", fld.label)
                for o in fld.options:
                    self.add(f"option {req.step}", f"{o.label} {o.description}")

    def refusal(self, req: Request, error: UserError) -> None:
        self.refusals += 1
        self.add(f"refusal {req.step}", error.message)


def _bad_actions(req: Request) -> list[dict[str, Any]]:
    """Actions of the right shape that the rules must judge: each offered action with its
    first choices, and with free-text fields filled with nonsense or out-of-range numbers."""
    out: list[dict[str, Any]] = []
    for spec in req.actions:
        base: dict[str, Any] = {"type": spec.type}
        free = []
        for fld in spec.fields:
            if fld.options:
                values = [o.value for o in fld.options[: max(fld.min_values, 1)]]
                base[fld.name] = values[0] if fld.max_values == 1 else values
            else:
                free.append(fld)
        out.append(base)
        for junk in ("zzz", "-1", "999"):
            if free:
                out.append({**base, **{f.name: junk for f in free}})
    return out


def _judge(ruleset: Any, state: Any, req: Request, seat: int, action: dict[str, Any]) -> None:
    if req.kind == "sealed":
        check = getattr(ruleset, "check", None)
        if check is not None:
            check(copy.deepcopy(state), seat, action)
    else:
        ruleset.act(copy.deepcopy(state), seat, action, SeededDice(1, "probe"))


def _probe(texts: Texts, ruleset: Any, state: Any, req: Request, earlier: list[Request],
           seats: list[int]) -> None:
    """The refusals a player can meet at ``req``, tried on copies (nothing is applied): the
    service's check of each offered action with a choice that is not offered, the rules'
    judgement of nonsense in free fields, of the actions of earlier requests (a stale
    panel) and of another seat's action."""
    for spec in req.actions:
        for fld in spec.fields:
            if fld.options:
                try:
                    validate_action(req, {"type": spec.type, fld.name: "zzz"})
                except UserError as err:
                    texts.refusal(req, err)
    tries = [(req, req.seat, a) for a in _bad_actions(req)]
    tries += [(old, req.seat, a) for old in earlier for a in _bad_actions(old)]
    tries += [(req, s, a) for s in seats if s != req.seat for a in _bad_actions(req)[:1]]
    for asked, seat, action in tries:
        try:
            validate_action(asked, action)
            _judge(ruleset, state, req, seat, action)
        except UserError as err:
            texts.refusal(req, err)
        except Exception:  # noqa: BLE001 (a crash is not what this test reads)
            continue


async def _texts_of(demos: Demos, ruleset: str, players: int) -> Texts:
    """What the rules produced in the demo, from its recording: every event filed (every
    audience, battles' too), every request asked, and the refusals probed at each."""
    played = await demos.play(ruleset, seed=7, players=players)
    assert played.result.finished
    texts = Texts()
    for routed in played.events:
        texts.event(routed.event)
    earlier: list[Request] = []
    seats = [i + 1 for i in range(players)]
    for asked in played.recording.asked:
        texts.request(asked.request)
        rules = registry.get(asked.ruleset)
        _probe(texts, rules, rules.state_model.model_validate(asked.state), asked.request,
               earlier[-3:], seats)
        earlier.append(asked.request)
    return texts


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "players"), GAMES)
async def test_demo_transcripts_carry_no_rule_ids_or_step_numbers(
    demos: Demos, ruleset: str, players: int
) -> None:
    played = await demos.play(ruleset, seed=7, players=players)
    assert played.result.finished
    lines = player_lines(played.folder)
    assert len(lines) > 100  # the scan reads a real game
    assert _bad_lines(lines) == {}


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "players"), GAMES)
async def test_every_text_the_rules_produce_in_a_real_game_is_plain(
    demos: Demos, ruleset: str, players: int
) -> None:
    """Event texts (every audience: the GM reads its own in DMs) and embeds, prompts and
    labels of every request asked, and the rules' refusals of bad input at each of them."""
    texts = await _texts_of(demos, ruleset, players)
    assert texts.events > 50 and texts.requests > 10 and texts.refusals > 5  # a real game
    assert _bad_lines(texts.lines) == {}


# Literals that are not Discord text, by (file, function), each with its reason.
NOT_PLAYER_TEXT = {
    ("bot/campaign/demo.py", "*"): "the demo's notes about its steps, in its transcript only",
    ("bot/campaign/scheduler.py", "_failed"): "the bot admin's log line of a failed timer",
}
# /help rule is where ids belong: it is asked for a ruling by its id.
RULE_HELP = {("cogs/help.py", "help_command"), ("cogs/help.py", "ruling_text")}
# The GM's log shows each entry's step (and ruling): the GM reads it to pick what to undo.
GM_LOG = {("cogs/gm.py", "_file_line"), ("cogs/gm.py", "_log_line")}


def _data_values(tree: ast.AST) -> set[int]:
    """Literals that are ids as data: ``ruling=`` arguments, ``"ruling": ...`` entries, and a
    string that is nothing but an id (a rule passed along, never a sentence)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg in ("ruling", "rule"):
            out.add(id(node.value))
        if isinstance(node, ast.Dict):
            for k, v in zip(node.keys, node.values, strict=True):
                if isinstance(k, ast.Constant) and k.value == "ruling":
                    out.add(id(v))
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and RULE_ID.fullmatch(node.value)):
            out.add(id(node))
    return out


def _piece(value: ast.expr) -> str:
    """An f-string's piece as read: a value named like a step number reads as one."""
    if isinstance(value, ast.Constant):
        return str(value.value)
    assert isinstance(value, ast.FormattedValue)
    return "{1}" if ast.unparse(value.value).endswith("step_no") else "{x}"


def _literals(path: Path) -> list[tuple[str, int, str]]:
    """(function, line, text) of every string literal that is not a docstring or data; an
    f-string is read with ``{}`` for its values, so "step {n}" is seen too."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _data_values(tree)
    owner: dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skip.add(id(first.value))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                owner.setdefault(id(inner), node.name)  # outermost function wins
    out = []
    for n in ast.walk(tree):
        if isinstance(n, ast.JoinedStr):
            text = "".join(_piece(v) for v in n.values)
            out.append((owner.get(id(n), ""), n.lineno, text))
            skip |= {id(v) for v in n.values}
    out += [(owner.get(id(n), ""), n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in skip]
    return out


def _source_files() -> list[Path]:
    return sorted([*ROOT.glob("bot/**/*.py"), *ROOT.glob("cogs/**/*.py")])


def test_no_string_literal_carries_a_rule_id_or_step_number() -> None:
    found = []
    for path in _source_files():
        rel = path.relative_to(ROOT).as_posix()
        if (rel, "*") in NOT_PLAYER_TEXT or rel == "bot/campaign/rulings.py":
            continue
        for func, line, text in _literals(path):
            if (rel, func) in RULE_HELP | GM_LOG | set(NOT_PLAYER_TEXT):
                continue
            if RULE_ID.search(text) or STEP_NO.search(text.replace("{1}", "1")):
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
    found = [(where, r) for where, r in cited if r not in table]
    # an event's data may name two ("O-13, O-14"): each must be there
    assert [(w, r) for w, r in found if any(p.strip() not in table for p in r.split(","))] == []
