"""Text of what the bot posts: step lines, progress lines, splitting to Discord's limit."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from bot.rules.embed_limits import chunks  # the one line-boundary splitter

MESSAGE_LIMIT = 2000


def when(moment: datetime | None) -> str:
    """A Discord timestamp: every reader sees it in their own time zone."""
    return f"<t:{int(moment.timestamp())}:R>" if moment else ""


def when_full(seconds: float | None) -> str:
    """An absolute and a relative Discord timestamp, e.g. "Thu 3 Jan 18:00 (in 2 days)"."""
    if seconds is None:
        return ""
    n = int(seconds)
    return f"<t:{n}:f> (<t:{n}:R>)"


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def names(items: list[str]) -> str:
    return ", ".join(items) if items else "nobody"


def deadline_note(deadline: datetime | None) -> str:
    return f" (deadline {when(deadline)})" if deadline else ""


_FILLER = {"phase", "the", "in", "of", "at", "for"}


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[\w']+", text.lower()) if w not in _FILLER}


def unrepeated(prompt: str, name: str) -> str:
    """The prompt without the leading clauses that only say again what the step's name says
    ("Transit phase, turn 1: send ..." under "Turn 1: transit" -> "Send ...")."""
    named = _words(name)
    rest = prompt.strip()
    while True:
        m = re.match(r"(.+?)(?::|\.)\s+(?=\S)", rest)
        if m is None or not _words(m.group(1)) or not _words(m.group(1)) <= named:
            break
        rest = rest[m.end():]
    return rest[:1].upper() + rest[1:] if rest != prompt.strip() else rest


def panel_line(campaign: str, name: str, prompt: str, deadline: datetime | None) -> str:
    """The one line above a DM panel: campaign, step, what is asked, by when."""
    due = f" Deadline {when(deadline)}." if deadline else ""
    return f"**{campaign}**, {name}. {unrepeated(prompt, name)}{due}"


def step_line(kind: str, who: list[str], deadline: datetime | None) -> str:
    """The one channel line that opens a step."""
    note = deadline_note(deadline)
    if kind == "sealed":
        return f"Waiting for orders from: {names(who)}{note}."
    if kind == "turn":
        return f"It is {names(who)}'s turn{note}."
    return f"{names(who)}: take your actions, then say you are ready{note}."


def default_line(name: str, request: Any, drafted: bool = False, away: bool = False) -> str:
    """A default taken at the deadline, said as such (never the content of sealed orders);
    ``drafted``: what the seat had saved in its panel was taken instead of the default;
    ``away``: the seat is away (P-26), so it was taken at once, not at a deadline."""
    who = f"{name} is away" if away else f"{name} missed the deadline"
    if request.kind == "sealed":
        if drafted:
            return f"{who}: the choices saved in their panel were used."
        return f"{who}: default orders were used."
    action = (request.default or {}).get("type")
    label = next((a.label for a in request.actions if a.type == action), "the default")
    label = label[:1].lower() + label[1:]  # "Pass" -> "pass"; "Orbit C" keeps its C
    if drafted:
        return f"{who}: {label}, as saved in their panel."
    return f"{who}: {label} by default."


def default_event_line(name: str, event_text: str, drafted: bool = False,
                       away: bool = False) -> str:
    """A default of a turn or open step in ONE line (P-30): the rule set's own event for it,
    said as taken at the deadline (``away``: at once, the seat being away, P-26). "Bob
    passes." -> "Bob missed the deadline and by default passes." """
    how = "as saved in their panel" if drafted else "by default"
    why = "is away" if away else "missed the deadline"
    if event_text.startswith(f"{name} "):
        middle = f", {how}," if drafted else f" {how}"
        return f"{name} {why} and{middle} {event_text[len(name) + 1:]}"
    return f"{name} {why}; {how}: {event_text}"


def progress_line(name: str, done: int, total: int, waiting: list[str]) -> str:
    """A sealed submission arrived: names only, never content."""
    return f"{name}'s orders are in ({done} of {total}); still waiting for {names(waiting)}."


def split(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Splits on line boundaries so each part fits; a single overlong line is cut hard.
    Blank parts are dropped (Discord refuses empty messages)."""
    return [part for part in chunks(text, limit) if part.strip()]


MAX_END_REASON = 200
# "(O-8)", "(E-13)", "(H-D24, H-12)": ruling ids are for tests and the GM log, not a summary
_RULING_IDS = re.compile(r"\s*\((?:[A-Z]{1,2}-D?\d+(?:\.\d+)*(?:,\s*)?)+\)")


def plain_line(text: str) -> str:
    """The first line of a posted text, without bold marks or ruling ids, for a summary."""
    first = text.strip().split("\n", 1)[0]
    return _RULING_IDS.sub("", first.replace("**", "")).strip()


def end_summary(line: str, report: str = "") -> str:
    """How a campaign ended, in one plain line for its status and lists: the first line of
    the rule set's closing word ("alice wins: reached 10 RP."), else the closing line."""
    return plain_line(report or line)[:MAX_END_REASON] or "The campaign is over."
