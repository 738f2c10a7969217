"""Text of what the bot posts: step lines, progress lines, splitting to Discord's limit."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.rules.embeds import chunks  # the one line-boundary splitter

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


def step_line(kind: str, who: list[str], deadline: datetime | None) -> str:
    """The one channel line that opens a step."""
    note = deadline_note(deadline)
    if kind == "sealed":
        return f"Waiting for orders from: {names(who)}{note}."
    if kind == "turn":
        return f"It is {names(who)}'s turn{note}."
    return f"{names(who)}: take your actions, then say you are ready{note}."


def default_line(name: str, request: Any) -> str:
    """A default taken at the deadline, said as such (never the content of sealed orders)."""
    if request.kind == "sealed":
        return f"{name} missed the deadline: default orders were used."
    action = (request.default or {}).get("type")
    label = next((a.label for a in request.actions if a.type == action), "the default")
    return f"{name} missed the deadline: {label.lower()} by default."


def progress_line(name: str, done: int, total: int, waiting: list[str]) -> str:
    """A sealed submission arrived: names only, never content."""
    return f"{name}'s orders are in ({done} of {total}); still waiting for {names(waiting)}."


def split(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Splits on line boundaries so each part fits; a single overlong line is cut hard.
    Blank parts are dropped (Discord refuses empty messages)."""
    return [part for part in chunks(text, limit) if part.strip()]
