"""The ruling texts behind results and refusals, for ``/help rule``.

Pure data, read once: the rulings (``O-15``, ``E-7``, ``H-12``) from
``docs/rules/rulings-index.md`` (a copy of the project's RULINGS.md) and the bot's own
decisions (``O-D2``, ``E-D29``, ``H-D12``, ``P-3``) from the rule pages beside it. They are
package data: ``bot/campaign/ruledocs`` is a link to ``docs/rules``, so the pages have one
home in the repository, and a wheel (a non-editable install) carries copies of them; they
are read through importlib.resources, never from a path next to the code. Each entry is a
Markdown bullet ``- **<id> <title>.** text`` that runs to the next bullet, heading or blank line.
Player-facing text never carries these ids (docs/dev/service-contract.md, "Rulings"): a refusal
carries its ruling as ``UserError.ruling`` and the reader asks for it here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from importlib.abc import Traversable

PACKAGE, FOLDER = "bot.campaign", "ruledocs"  # pyproject.toml [tool.setuptools.package-data]
INDEX = "rulings-index.md"
PAGES = ("orbits.md", "ftcamp.md", "hrft.md", "platform.md")
RULE_SETS = {"O": "Orbits", "E": "FTCamp", "H": "HRFT", "P": "every rule set"}
TEXT_LIMIT = 1800  # room under Discord's 2000 for the heading

_ID = r"[OEHP]-D?\d+"
_BULLET = re.compile(r"^- \*\*(" + _ID + r")\b\s*([^*]*?)\*\*\s*(.*)$")
_LOOSE_ID = re.compile(r"^\s*([OEHPoehp])\s*-?\s*(D?)\s*(\d+)(?:\.\d+)?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Ruling:
    id: str
    title: str
    text: str  # the ruling itself (RULINGS), or the decision
    applied: str = ""  # how the bot applies a ruling (its rule page), when there is one

    @property
    def rule_set(self) -> str:
        return RULE_SETS.get(self.id[0], "")

    def show(self) -> str:
        """The Markdown a reader gets: heading, text, and the bot's reading where it fits."""
        head = f"**{self.id} {self.title}** ({self.rule_set})"
        body = self.text
        if self.applied and len(body) + len(self.applied) < TEXT_LIMIT - 40:
            body += f"\n*How the bot applies it:* {self.applied}"
        if len(body) > TEXT_LIMIT:
            body = body[: TEXT_LIMIT - 2].rstrip() + " …"
        return f"{head}\n{body}"


def _title_of(raw_title: str, text: str) -> str:
    title = raw_title.strip().rstrip(".,:").strip()
    if title:
        return title
    # Decisions without a title: their first words, cut at a word boundary.
    first = re.split(r"(?<=[.;:])\s", text, maxsplit=1)[0].rstrip(".;:")
    first = first.replace("`", "")
    return first if len(first) <= 60 else first[:57].rsplit(" ", 1)[0] + " …"


def parse(text: str) -> list[Ruling]:
    """Every ruling bullet of a Markdown page, in order."""
    found: list[Ruling] = []
    current: list[str] | None = None
    ident = title = ""

    def close() -> None:
        if current is not None:
            body = "".join(("\n" if part.startswith("\n") else " ") + part.strip()
                           for part in current).strip()
            found.append(Ruling(ident, _title_of(title, body), body))

    for line in text.splitlines():
        match = _BULLET.match(line)
        if match:
            close()
            ident, title = match.group(1), match.group(2)
            current = [match.group(3)]
        elif current is not None and line.startswith("  ") and line.strip():
            current.append(("\n" if re.match(r"\s*\d+\.", line) else "") + line)
        else:
            close()
            current = None
    close()
    return found


def build(index_text: str, pages: list[str]) -> dict[str, Ruling]:
    """Rulings from the index, each joined with its page entry; decisions from the pages."""
    table = {r.id: r for r in parse(index_text)}
    for page in pages:
        for r in parse(page):
            if r.id in table:
                old = table[r.id]
                table[r.id] = Ruling(old.id, old.title, old.text, applied=r.text)
            else:
                table[r.id] = r
    return table


def rules_dir() -> Traversable:
    """Where the rule pages are, as the installed package has them."""
    return resources.files(PACKAGE).joinpath(FOLDER)


@lru_cache(maxsize=1)
def all_rulings() -> dict[str, Ruling]:
    """The bot's rulings by id, read from the package's rule pages once."""
    folder = rules_dir()
    index = folder.joinpath(INDEX).read_text(encoding="utf-8")
    pages = [folder.joinpath(name).read_text(encoding="utf-8") for name in PAGES]
    return build(index, pages)


def normal_id(raw: str) -> str | None:
    """"o15", "O-15", "e-12.1", "E D4" -> "O-15", "O-15", "E-12", "E-D4"; None if no id."""
    match = _LOOSE_ID.match(raw)
    if not match:
        return None
    letter, d, number = match.groups()
    return f"{letter.upper()}-{'D' if d else ''}{int(number)}"


def find(raw: str, table: dict[str, Ruling] | None = None) -> Ruling | None:
    """The ruling named by an id (loosely written) or by its exact title."""
    table = all_rulings() if table is None else table
    ident = normal_id(raw)
    if ident is not None:
        return table.get(ident)
    wanted = raw.strip().lower()
    for r in table.values():
        if r.title.lower() == wanted:
            return r
    return None


def search(query: str, limit: int = 25, table: dict[str, Ruling] | None = None) -> list[Ruling]:
    """Rulings whose id or title matches the words typed (id prefix first), at most ``limit``."""
    table = all_rulings() if table is None else table
    q = query.strip().lower()
    if not q:
        return list(table.values())[:limit]
    ident = normal_id(query)
    by_id = [r for r in table.values()
             if r.id.lower().startswith(q) or (ident is not None and r.id == ident)]
    words = q.split()
    by_title = [r for r in table.values() if r not in by_id
                and all(w in f"{r.title} {r.rule_set}".lower() for w in words)]
    return (by_id + by_title)[:limit]
