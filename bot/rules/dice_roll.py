"""Dice expressions for ``/roll``: parse, roll with injected dice, format for Discord.

Grammar (case-insensitive, spaces ignored)::

    expression := ["+" | "-"] term (("+" | "-") term)*
    term       := dice | constant
    dice       := [N] "d" S [("kh" | "kl") K]
    constant   := digits

``NdS`` rolls N dice with S sides (N defaults to 1). ``khK`` keeps the K highest dice,
``klK`` the K lowest; the others are rolled, shown struck through, and not counted.
Limits: 1 <= N <= 100 and at most 100 dice in the whole expression, 2 <= S <= 1000,
1 <= K <= N, constants up to 10000, at most 20 terms, at most 200 characters (checked
first, so no number read is longer). There is no nesting: brackets, exploding dice and other
forms are not supported; the error message lists what is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from bot.errors import InvalidInput
from bot.rules.base import Dice

MAX_DICE = 100
MIN_SIDES = 2
MAX_SIDES = 1000
MAX_CONSTANT = 10_000
MAX_TERMS = 20
MAX_EXPRESSION_CHARS = 200

ALLOWED_FORMS = (
    "Allowed: terms NdS (N dice with S sides; N may be left out), NdSkhK (keep the K highest), "
    "NdSklK (keep the K lowest) and whole numbers, joined by + and -. "
    f"Limits: at most {MAX_DICE} dice in all, {MIN_SIDES} to {MAX_SIDES} sides, "
    f"constants up to {MAX_CONSTANT}, {MAX_TERMS} terms. "
    "Examples: 2d6, d20, 2d6kh1+3, 3d6kl1-1, 4d6kh3, 1d20+2d4-1."
)

KeepMode = Literal["all", "high", "low"]

# ASCII digits only: \d would also take other scripts' digits, which int() reads.
_DICE_RE = re.compile(r"(\d*)d(\d+)(?:(kh|kl)(\d+))?", re.ASCII)
_CONST_RE = re.compile(r"\d+", re.ASCII)
_SPLIT_RE = re.compile(r"([+-])")


@dataclass(frozen=True)
class Term:
    """One term of an expression: dice (``sides`` > 0) or a constant (``sides`` == 0)."""

    sign: int
    count: int
    sides: int = 0
    keep: KeepMode = "all"
    keep_count: int = 0

    @property
    def is_dice(self) -> bool:
        return self.sides > 0

    @property
    def kept(self) -> int:
        """How many dice count towards the total."""
        return self.count if self.keep == "all" else self.keep_count

    def text(self) -> str:
        if not self.is_dice:
            return str(self.count)
        suffix = {"all": "", "high": f"kh{self.keep_count}", "low": f"kl{self.keep_count}"}
        return f"{self.count}d{self.sides}{suffix[self.keep]}"

    def bounds(self) -> tuple[int, int]:
        """Smallest and largest value of this term, sign included."""
        if self.is_dice:
            low, high = self.kept, self.kept * self.sides
        else:
            low = high = self.count
        return (low, high) if self.sign > 0 else (-high, -low)


@dataclass(frozen=True)
class DiceExpression:
    """A parsed, validated expression."""

    terms: tuple[Term, ...]

    def text(self) -> str:
        """The canonical form, e.g. ``1d20+2d4-1`` for ``d20 + 2D4 - 1``."""
        out = ""
        for i, term in enumerate(self.terms):
            if term.sign < 0:
                out += "-"
            elif i > 0:
                out += "+"
            out += term.text()
        return out

    def bounds(self) -> tuple[int, int]:
        """Smallest and largest possible total."""
        pairs = [t.bounds() for t in self.terms]
        return sum(p[0] for p in pairs), sum(p[1] for p in pairs)

    @property
    def dice_count(self) -> int:
        return sum(t.count for t in self.terms if t.is_dice)


@dataclass(frozen=True)
class TermResult:
    """A rolled term: every die in roll order and which of them were kept."""

    term: Term
    rolls: tuple[int, ...]
    kept: tuple[bool, ...]

    @property
    def value(self) -> int:
        """The term's contribution to the total, sign included."""
        if not self.term.is_dice:
            return self.term.sign * self.term.count
        return self.term.sign * sum(r for r, k in zip(self.rolls, self.kept, strict=True) if k)

    def format(self) -> str:
        if not self.term.is_dice:
            return str(self.term.count)
        shown = [str(r) if k else f"~~{r}~~" for r, k in zip(self.rolls, self.kept, strict=True)]
        return "[" + ", ".join(shown) + "]"


@dataclass(frozen=True)
class RollResult:
    """The result of rolling an expression."""

    expression: DiceExpression
    terms: tuple[TermResult, ...]

    @property
    def total(self) -> int:
        return sum(t.value for t in self.terms)

    @property
    def rolls(self) -> list[int]:
        """Every die rolled, kept or not, in order."""
        return [r for t in self.terms for r in t.rolls]

    @property
    def kept_rolls(self) -> list[int]:
        """The dice that count, in roll order."""
        return [r for t in self.terms for r, k in zip(t.rolls, t.kept, strict=True) if k]

    def format(self) -> str:
        """One line for Discord, e.g. ``2d6kh1+3: [5, ~~2~~] + 3 = **8**``."""
        parts = ""
        for i, t in enumerate(self.terms):
            if t.term.sign < 0:
                parts += "- " if i == 0 else " - "
            elif i > 0:
                parts += " + "
            parts += t.format()
        return f"{self.expression.text()}: {parts} = **{self.total}**"


def _bad(expr: str, problem: str) -> InvalidInput:
    return InvalidInput(f"Cannot read dice expression '{expr}': {problem}. {ALLOWED_FORMS}")


def _parse_term(expr: str, sign: int, token: str) -> Term:
    if match := _DICE_RE.fullmatch(token):
        count = int(match.group(1)) if match.group(1) else 1
        sides = int(match.group(2))
        if not 1 <= count <= MAX_DICE:
            raise _bad(expr, f"'{token}' rolls {count} dice (1 to {MAX_DICE} allowed)")
        if not MIN_SIDES <= sides <= MAX_SIDES:
            raise _bad(expr, f"'{token}' has {sides} sides ({MIN_SIDES} to {MAX_SIDES} allowed)")
        if match.group(3) is None:
            return Term(sign=sign, count=count, sides=sides)
        keep_count = int(match.group(4))
        if not 1 <= keep_count <= count:
            raise _bad(expr, f"'{token}' keeps {keep_count} of {count} dice (1 to {count})")
        keep: KeepMode = "high" if match.group(3) == "kh" else "low"
        return Term(sign=sign, count=count, sides=sides, keep=keep, keep_count=keep_count)
    if _CONST_RE.fullmatch(token):
        value = int(token)
        if value > MAX_CONSTANT:
            raise _bad(expr, f"the number {token} is too large (at most {MAX_CONSTANT})")
        return Term(sign=sign, count=value)
    raise _bad(expr, f"'{token}' is not a dice term or a whole number")


def parse(expr: str) -> DiceExpression:
    """Parse and validate ``expr``; raises ``InvalidInput`` naming the problem and the forms."""
    if not isinstance(expr, str):
        raise _bad(f"({type(expr).__name__})", "it is not a text")
    shown = expr.strip()[:MAX_EXPRESSION_CHARS]
    if len(expr) > MAX_EXPRESSION_CHARS:
        raise _bad(shown + "...", f"it is longer than {MAX_EXPRESSION_CHARS} characters")
    text = "".join(expr.split()).lower()
    if not text:
        raise _bad(shown, "it is empty")
    pieces = _SPLIT_RE.split(text)
    # split() with a capturing group alternates term, sign, term, ...; a leading sign gives
    # an empty first piece.
    sign = 1
    if pieces[0] == "":
        sign = -1 if pieces[1] == "-" else 1
        pieces = pieces[2:]
    terms: list[Term] = []
    for i, token in enumerate(pieces):
        if i % 2 == 1:
            sign = -1 if token == "-" else 1
            continue
        if token == "":
            raise _bad(shown, "a + or - has no term after it")
        terms.append(_parse_term(shown, sign, token))
    if len(terms) > MAX_TERMS:
        raise _bad(shown, f"it has {len(terms)} terms (at most {MAX_TERMS})")
    parsed = DiceExpression(tuple(terms))
    if parsed.dice_count > MAX_DICE:
        raise _bad(shown, f"it rolls {parsed.dice_count} dice (at most {MAX_DICE} in all)")
    if parsed.dice_count == 0:
        raise _bad(shown, "it rolls no dice")
    return parsed


def _keep_flags(rolls: list[int], term: Term) -> tuple[bool, ...]:
    if term.keep == "all":
        return (True,) * len(rolls)
    # Stable sort: among equal values the earlier die is the one kept.
    order = sorted(range(len(rolls)), key=lambda i: -rolls[i] if term.keep == "high" else rolls[i])
    chosen = set(order[: term.keep_count])
    return tuple(i in chosen for i in range(len(rolls)))


def roll_parsed(expression: DiceExpression, dice: Dice) -> RollResult:
    """Roll an already parsed expression with the injected dice."""
    results: list[TermResult] = []
    for term in expression.terms:
        if not term.is_dice:
            results.append(TermResult(term=term, rolls=(), kept=()))
            continue
        rolls = [dice.d(term.sides) for _ in range(term.count)]
        results.append(TermResult(term=term, rolls=tuple(rolls), kept=_keep_flags(rolls, term)))
    return RollResult(expression=expression, terms=tuple(results))


def roll(expr: str, dice: Dice) -> RollResult:
    """Parse ``expr`` and roll it; raises ``InvalidInput`` for anything outside the grammar."""
    return roll_parsed(parse(expr), dice)
