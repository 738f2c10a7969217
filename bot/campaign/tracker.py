"""The step tracker: ONE channel message per step (or per game turn) edited as it goes.

It says the campaign, the step's plain name, who is owed (mentioned) and by when, who has
acted, and a line per routine public action. Its first post goes through the outbox like any
message; later versions are outbox EDITS of that post (``NewMessage.edit_of``).

The channel reads top to bottom: once a post (a reveal, a battle, a picture) went out below
a tracker, the tracker takes no more lines; it ends with "continued below" and the lines go
on in a fresh tracker message under that post (``Layout``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.campaign import messages

# the log lines' share of Discord's 2000 (the rest is for the name, who is owed and acted,
# the deadline): a full tracker keeps what it has and a new message goes on
TRACKER_LIMIT = 1500
CONTINUED = "*continued below*"


@dataclass
class Tracker:
    key: str
    title: str
    campaign: str
    outbox_id: int | None = None  # None: its first post is not enqueued yet
    lines: list[str] = field(default_factory=list)
    acted: list[str] = field(default_factory=list)
    acted_step: int | None = None  # the step its acted names belong to (P-30: per step)
    owed: list[str] = field(default_factory=list)  # mentions (or names of vacant seats)
    owed_seats: list[int] = field(default_factory=list)
    owed_users: list[int] = field(default_factory=list)  # the only users its post pings (P-34)
    deadline: float | None = None
    shown: str = ""  # the content last enqueued
    passed: bool = False  # a post went out below it: its log lines go on in a new message

    @classmethod
    def from_data(cls, key: str, outbox_id: int, data: dict[str, Any]) -> Tracker:
        return cls(key=key, outbox_id=outbox_id, **data)

    def data(self) -> dict[str, Any]:
        return {"title": self.title, "campaign": self.campaign, "lines": self.lines,
                "acted": self.acted, "acted_step": self.acted_step, "owed": self.owed,
                "owed_seats": self.owed_seats,
                "owed_users": self.owed_users, "deadline": self.deadline, "shown": self.shown,
                "passed": self.passed}

    def continuation(self) -> Tracker:
        """The next message of a full tracker: same step, no lines yet."""
        return Tracker(self.key, self.title, self.campaign, acted=list(self.acted),
                       acted_step=self.acted_step,
                       owed=list(self.owed), owed_seats=list(self.owed_seats),
                       owed_users=list(self.owed_users), deadline=self.deadline)

    def close(self) -> None:
        """The step is over: nobody is owed any more."""
        self.owed, self.owed_seats, self.owed_users, self.deadline = [], [], [], None

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


def _has(items: list[Any], item: Any) -> bool:
    return any(x is item for x in items)


@dataclass
class Layout:
    """One intent's public output in channel order: posts, and trackers where their first
    post goes (a tracker posted earlier is listed for its final edit).

    ``sink`` takes the routine lines: the old step's tracker (``closing``) until the first
    post, then the new step's (``new``); ``live`` is the open step's tracker, kept for the
    next intents. Every reference follows a tracker when it goes on in a new message."""

    sink: Tracker | None
    live: Tracker | None
    closing: Tracker | None = None
    new: Tracker | None = None
    out: list[Any] = field(default_factory=list)
    placed: list[Tracker] = field(default_factory=list)  # messages above this point

    def __post_init__(self) -> None:
        for t in (self.sink, self.closing):
            if t is not None and t.outbox_id is not None and not _has(self.placed, t):
                self.placed.append(t)

    def line(self, text: str) -> bool:
        """A routine line into the tracker; False when there is none (post it instead)."""
        t = self.sink
        if t is None:
            return False
        if t.passed and t is self.closing and self.new is not None:
            # the old step is over and a post is below it: its last lines lead into the
            # new step's tracker, which opens here
            self.closing.close()
            self._place(self.closing)
            t = self.sink = self.new
        if t.passed:
            t = self._go_on(t, below=True)
        elif not t.fits(text):  # full: it keeps what it has, a new one goes on
            t = self._go_on(t, below=False)
        self._place(t)
        t.lines.append(text)
        return True

    def post(self, messages: list[Any]) -> None:
        """Posts go out here; every tracker above them is passed."""
        if self.sink is not None and self.sink is self.closing and self.new is not None:
            self.closing.close()
            self._place(self.closing)  # the old step's tracker is done before the post
            self.sink = self.new
        self.out += messages
        if messages:
            for t in self.placed:
                t.passed = True

    def finish(self, title: str | None) -> None:
        """After the last item: the old step's final version, and the open step's tracker
        (at the end when new: its first post mentions who is owed). A passed tracker whose
        step moved on (``title``) goes on below: a head above a post never names a later
        step, and what is owed now reads last (its first post mentions who)."""
        if self.closing is not None:
            self.closing.close()
            self._place(self.closing)
        if self.sink is not None and self.sink is not self.live:
            self._place(self.sink)
        if self.live is not None:
            if self.live.passed and title is not None and title != self.live.title:
                self._go_on(self.live, below=True)
            self._place(self.live)  # type: ignore[arg-type]

    def _place(self, t: Tracker) -> None:
        if not _has(self.out, t):
            self.out.append(t)
        if not _has(self.placed, t):
            self.placed.append(t)

    def _go_on(self, t: Tracker, *, below: bool) -> Tracker:
        """``t`` is finished where it stands; a new message of the same step goes on."""
        nxt = t.continuation()
        if below and t.lines:  # (a tracker of status alone needs no pointer: its step is over)
            t.lines.append(CONTINUED)
        t.close()  # who is owed, and by when, is said in the new message (full or passed)
        self._place(t)
        for name in ("sink", "live", "closing", "new"):
            if getattr(self, name) is t:
                setattr(self, name, nxt)
        return nxt
