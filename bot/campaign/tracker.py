"""The step tracker: ONE channel message per step (or per game turn) edited as it goes.

It says the campaign, the step's plain name, who is owed (mentioned) and by when, who has
acted, and a line per routine public action. Its first post goes through the outbox like any
message; later versions are outbox EDITS of that post (``NewMessage.edit_of``).

The channel reads top to bottom: once a post (a reveal, a battle, a picture) went out below
a tracker, the tracker takes no more lines; it ends with "continued below" and the lines go
on in a fresh tracker message under that post (``Layout``).

A tracker message also carries the step's results (H-D46, O-D28): a result's embed and its
pictures ride on the tracker's message while that message is the channel's last post, so a
step reads as one post (its status on top, its results in order below, several pictures in
one message, one per file name: the latest sheet of a ship). Lines that come after a result
go into a text-only embed below it, so the message still reads in order. A tracker whose step
changes after it took results goes on in a new message: one post per step that shows any."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from bot.campaign import messages
from bot.rules import embed_limits as limits
from storage.outbox import Picture

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
    waits: str = ""  # P-18: the battle(s) in their threads the step waits for, linked
    embeds: list[dict[str, Any]] = field(default_factory=list)  # results riding on it
    pictures: list[dict[str, Any]] = field(default_factory=list)  # their picture requests
    media: int = 0  # bumped whenever embeds or pictures change (an edit must carry them)
    results: bool = False  # it took a result of its own step (not one it opened with)

    @classmethod
    def from_data(cls, key: str, outbox_id: int, data: dict[str, Any]) -> Tracker:
        return cls(key=key, outbox_id=outbox_id, **data)

    def data(self) -> dict[str, Any]:
        return {"title": self.title, "campaign": self.campaign, "lines": self.lines,
                "acted": self.acted, "acted_step": self.acted_step, "owed": self.owed,
                "owed_seats": self.owed_seats,
                "owed_users": self.owed_users, "deadline": self.deadline, "shown": self.shown,
                "passed": self.passed, "waits": self.waits, "embeds": self.embeds,
                "pictures": self.pictures, "media": self.media, "results": self.results}

    def continuation(self) -> Tracker:
        """The next message of a full tracker: same step, no lines yet."""
        return Tracker(self.key, self.title, self.campaign, acted=list(self.acted),
                       acted_step=self.acted_step,
                       owed=list(self.owed), owed_seats=list(self.owed_seats),
                       owed_users=list(self.owed_users), deadline=self.deadline,
                       waits=self.waits)

    def close(self) -> None:
        """The step is over: nobody is owed any more."""
        self.owed, self.owed_seats, self.owed_users, self.deadline = [], [], [], None
        self.waits = ""

    def add_acted(self, name: str) -> None:
        if name not in self.acted:
            self.acted.append(name)

    def fits(self, line: str) -> bool:
        if self.embeds:  # below its results: the text-only embed at its end takes it
            log = self._log()
            grown = [*self.embeds, _log_embed("")] if log is None else self.embeds
            room = limits.DESCRIPTION - len((log or {}).get("description", "")) - 1
            return len(grown) <= limits.PER_MESSAGE and len(line) <= room and (
                _size(grown) + len(line) + 1 <= limits.TOTAL)
        used = sum(len(x) + 1 for x in self.lines)
        return used + len(line) <= TRACKER_LIMIT or not self.lines

    def add_line(self, text: str) -> None:
        """A routine line, in reading order: under the results once it has any."""
        if not self.embeds:
            self.lines.append(text)
            return
        log = self._log()
        if log is None:
            self.embeds.append(_log_embed(text))
        else:
            log["description"] = f"{log['description']}\n{text}"
        self.media += 1

    def _log(self) -> dict[str, Any] | None:
        last = self.embeds[-1] if self.embeds else None
        return last if last is not None and _is_log(last) else None

    def attach(self, embeds: list[dict[str, Any]], pictures: list[Picture]) -> bool:
        """Takes a result (its stored embeds and pictures) when the message can hold it
        (Discord: 10 embeds and 6000 characters, 10 files); False changes nothing. A result
        titled as the last one folds into it (damage control: one embed, a line per roll);
        a picture replaces the one of the same file name, shown in the newest embed only."""
        embeds, pictures = self._renamed(embeds, pictures)
        merged = [dict(e, fields=[dict(f) for f in e.get("fields", [])]) for e in self.embeds]
        for e in embeds:
            last = merged[-1] if merged else None
            if last is not None and e.get("title") and last.get("title") == e.get("title"):
                _fold(last, e)
            else:  # (a copy: a refused result's own message stays as it was)
                merged.append(dict(e, fields=[dict(f) for f in e.get("fields", [])]))
        kept = [p for p in self.pictures if p["name"] not in {q.name for q in pictures}]
        shown = kept + [_picture_data(p) for p in pictures]
        if (len(merged) > limits.PER_MESSAGE or _size(merged) > limits.TOTAL
                or len(shown) > limits.PER_MESSAGE
                or any(len(f["value"]) > limits.FIELD_VALUE or len(e.get("fields", [])) >
                       limits.FIELDS for e in merged for f in e.get("fields", []))):
            return False
        for p in pictures:  # the newest embed shows the picture, the older ones drop it
            owners = [e for e in merged if e.get("image") == p.name]
            for e in owners[:-1]:
                e["image"] = None
        self.embeds, self.pictures = merged, shown
        self.media += 1
        return True

    def _renamed(self, embeds: list[dict[str, Any]], pictures: list[Picture]
                 ) -> tuple[list[dict[str, Any]], list[Picture]]:
        """A picture named for its renderer alone ("map.png") is a picture of its own: it
        gets a free name here. One named for what it shows ("sheet-1a.png") replaces the
        older version of the same thing."""
        taken = {p["name"] for p in self.pictures}
        names: dict[str, str] = {}
        out: list[Picture] = []
        for p in pictures:
            name = p.name
            if name == f"{p.renderer}.png":
                n = 1
                while name in taken:
                    n += 1
                    name = f"{p.renderer}-{n}.png"
            taken.add(name)
            names[p.name] = name
            out.append(p if name == p.name else replace(p, name=name))
        return ([dict(e, image=names.get(e.get("image") or "", e.get("image")))
                 for e in embeds], out)

    def absorb(self, embeds: list[dict[str, Any]], pictures: list[Picture]) -> bool:
        """A new step's tracker takes the result just above it as its own first message
        (the battle card under "waiting for the losses"): the lines it already has came
        after that result, so they go below it."""
        lines, self.lines = self.lines, []
        if not self.attach(embeds, pictures):
            self.lines = lines
            return False
        for line in lines:
            self.add_line(line)
        return True

    def picture_list(self) -> list[Picture]:
        return [Picture(p["name"], p["ruleset"], p["renderer"], p["view"])
                for p in self.pictures]

    def render(self) -> str:
        out = [f"**{self.campaign}**: {self.title}"]
        if self.waits:
            out.append(self.waits)
        elif self.owed:
            due = f"; deadline {messages.when_full(self.deadline)}" if self.deadline else ""
            out.append(f"Waiting for {messages.names(self.owed)}{due}.")
        if self.acted:
            out.append(f"Acted: {messages.names(self.acted)}.")
        if self.lines:
            out.append("")
            out += self.lines
        return "\n".join(out)[:messages.MESSAGE_LIMIT]


def _log_embed(text: str) -> dict[str, Any]:
    return {"title": "", "description": text, "fields": [], "footer": "", "image": None}


def _is_log(embed: dict[str, Any]) -> bool:
    return not embed.get("title") and not embed.get("fields") and not embed.get("image")


def _size(embeds: list[dict[str, Any]]) -> int:
    return sum(len(e.get("title", "")) + len(e.get("description", "")) + len(e.get("footer", ""))
               + sum(len(f["name"]) + len(f["value"]) for f in e.get("fields", []))
               for e in embeds)


def _fold(into: dict[str, Any], e: dict[str, Any]) -> None:
    """``e`` (same title) joins ``into``: a field named as the last one adds its lines."""
    fields = into["fields"]
    for f in e.get("fields", []):
        if fields and fields[-1]["name"] == f["name"]:
            fields[-1] = dict(fields[-1], value=f"{fields[-1]['value']}\n{f['value']}")
        else:
            fields.append(dict(f))
    if e.get("description"):
        into["description"] = "\n".join(x for x in (into.get("description"),
                                                     e["description"]) if x)
    if e.get("image"):
        into["image"] = e["image"]


def _picture_data(p: Picture) -> dict[str, Any]:
    return {"name": p.name, "ruleset": p.ruleset, "renderer": p.renderer, "view": p.view}


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
    title: str | None = None  # the open step's name once this intent is applied
    last_post: int | None = None  # the outbox id of the channel's last post so far
    candidate: Any = None  # a result posted for the next step's new message to take

    def __post_init__(self) -> None:
        for t in (self.sink, self.closing):
            if t is not None and t.outbox_id is not None and not _has(self.placed, t):
                self.placed.append(t)
        live = self.live
        # the open step goes on in a new message at the end (``finish``): a new step, or a
        # step change of a tracker that took results or has a post below it
        self.opens_new = self.new is not None or (
            live is not None and self.title is not None and self.title != live.title
            and (live.passed or bool(live.embeds)))

    def attach(self, message: Any) -> bool:
        """A result (a one-message embed post) rides on the tracker taking the lines when
        that is the channel's last post and has room (H-D46, O-D28); False: post it."""
        t = self.sink
        if t is None:
            return False
        if t.passed and t is self.closing and self.new is not None:
            self.closing.close()
            self._place(self.closing)
            t = self.sink = self.new
        last = t.outbox_id is None or t.outbox_id == self.last_post
        if t.passed or not last or not t.attach(message.embeds, message.pictures):
            # a post is below it, or it is full: the step goes on in a new message, status
            # on top, which takes this result and the next ones (not a post per result)
            t = self._go_on(t, below=True)
            if not t.attach(message.embeds, message.pictures):
                return False
        t.results = True
        self._place(t)
        return True

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
        t.add_line(text)
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
            if (title is not None and title != self.live.title
                    and (self.live.passed or self.live.results)):
                # H-D46: a step that showed results keeps its post; the next one goes on
                # (a result it opened with, O-D28, belongs to the step before)
                self._go_on(self.live, below=True)
            self._take_candidate(self.live)  # type: ignore[arg-type]
            self._place(self.live)  # type: ignore[arg-type]

    def _take_candidate(self, t: Tracker) -> None:
        """O-D28: a new step's first message is the result just above it (a battle card
        with "waiting for the losses" on top), not a post of status alone."""
        c = self.candidate
        if c is None or t.outbox_id is not None or not _has(self.out, c):
            return
        # below it only edits of messages above it (posted before) and ``t`` itself
        after = self.out[self.out.index(c) + 1:]
        if (any(x is not t and (not isinstance(x, Tracker) or x.outbox_id is None)
                for x in after) or not t.absorb(c.embeds, c.pictures)):
            return
        self.out = [x for x in self.out if x is not c]

    def _place(self, t: Tracker) -> None:
        if not _has(self.out, t):
            self.out.append(t)
        if not _has(self.placed, t):
            self.placed.append(t)

    def _go_on(self, t: Tracker, *, below: bool) -> Tracker:
        """``t`` is finished where it stands; a new message of the same step goes on."""
        nxt = t.continuation()
        if below and (t.lines or t.embeds) and t.fits(CONTINUED):
            t.add_line(CONTINUED)  # (a tracker of status alone needs no pointer: its step is over)
        t.close()  # who is owed, and by when, is said in the new message (full or passed)
        self._place(t)
        for name in ("sink", "live", "closing", "new"):
            if getattr(self, name) is t:
                setattr(self, name, nxt)
        return nxt
