"""The step tracker: ONE channel message per step (or per game turn) edited as it goes.

It says the campaign, the step's plain name, who is owed (mentioned) and by when, who has
acted, and a line per routine public action. Its first post goes through the outbox like any
message; later versions are outbox EDITS of that post (``NewMessage.edit_of``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.campaign import messages

# the log lines' share of Discord's 2000 (the rest is for the name, who is owed and acted,
# the deadline): a full tracker keeps what it has and a new message goes on
TRACKER_LIMIT = 1500


@dataclass
class Tracker:
    key: str
    title: str
    campaign: str
    outbox_id: int | None = None  # None: its first post is not enqueued yet
    lines: list[str] = field(default_factory=list)
    acted: list[str] = field(default_factory=list)
    owed: list[str] = field(default_factory=list)  # mentions (or names of vacant seats)
    owed_seats: list[int] = field(default_factory=list)
    deadline: float | None = None
    shown: str = ""  # the content last enqueued

    @classmethod
    def from_data(cls, key: str, outbox_id: int, data: dict[str, Any]) -> Tracker:
        return cls(key=key, outbox_id=outbox_id, **data)

    def data(self) -> dict[str, Any]:
        return {"title": self.title, "campaign": self.campaign, "lines": self.lines,
                "acted": self.acted, "owed": self.owed, "owed_seats": self.owed_seats,
                "deadline": self.deadline, "shown": self.shown}

    def continuation(self) -> Tracker:
        """The next message of a full tracker: same step, no lines yet."""
        return Tracker(self.key, self.title, self.campaign, acted=list(self.acted),
                       owed=list(self.owed), owed_seats=list(self.owed_seats),
                       deadline=self.deadline)

    def close(self) -> None:
        """The step is over: nobody is owed any more."""
        self.owed, self.owed_seats, self.deadline = [], [], None

    def add_acted(self, name: str) -> None:
        if name not in self.acted:
            self.acted.append(name)

    def fits(self, line: str) -> bool:
        used = sum(len(x) + 1 for x in self.lines)
        return used + len(line) <= TRACKER_LIMIT or not self.lines

    def render(self) -> str:
        out = [f"**{self.campaign}**: {self.title}"]
        if self.owed:
            due = f"; deadline {messages.when_full(self.deadline)}" if self.deadline else ""
            out.append(f"Waiting for {messages.names(self.owed)}{due}.")
        if self.acted:
            out.append(f"Acted: {messages.names(self.acted)}.")
        if self.lines:
            out.append("")
            out += self.lines
        return "\n".join(out)[:messages.MESSAGE_LIMIT]
