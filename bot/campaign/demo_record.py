"""What a demo produced (bot/campaign/demo.py): its world's fixed ids and start, the counts its
summary reports (``DemoResult``), and for tests the recording of every message, panel,
refusal and event (``Recording``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.campaign.models import OutboxMessage
from bot.errors import UserError
from bot.rules.base import Event, Request
from bot.rules.words import plural

# the demo's world: one guild, one channel, the GM, the players' names, a fixed start
GUILD_ID = 1
CHANNEL_ID = 100
GM_USER_ID = 1000
START = datetime(2030, 1, 1, 18, 0, tzinfo=UTC)
NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy")


@dataclass
class Asked:
    """A panel a scripted player answered: its request and the state it was answered in."""

    ruleset: str
    request: Request
    state: dict[str, Any]


@dataclass
class Routed:
    """An event as the step engine filed it: of a campaign, or (``battle``) of a battle."""

    event: Event
    battle: bool


@dataclass
class Recording:
    """What a demo produced, for tests to read (``run_demo(record=True)``): every message
    sent, in order (edits included), every panel answered, battles' included, every refusal
    made while it played (``bot.errors.refusals_kept``: the rules' own, caught or not, the
    service's too) and every event the step engine filed (its witness), embeds included."""

    sent: list[OutboxMessage] = field(default_factory=list)
    asked: list[Asked] = field(default_factory=list)
    refusals: list[UserError] = field(default_factory=list)
    events: list[Routed] = field(default_factory=list)  # every event filed, in order

    def witness(self, is_battle: bool, events: list[Event]) -> None:
        """The step engine's witness (``StepEngine.witness``): keeps each event it files."""
        self.events.extend(Routed(ev, is_battle) for ev in events)


@dataclass
class DemoResult:
    """What happened, for the summary and for tests."""

    ruleset: str
    folder: Path
    seed: int
    players: list[str]
    actions: int = 0
    clock_jumps: int = 0
    answer_waits: int = 0  # --pace human: the clock moved on to a player's answer
    gm_advances: int = 0  # the scripted GM's /gm advance where nothing else could go on
    channel_posts: int = 0
    channel_edits: int = 0
    dms: dict[str, int] = field(default_factory=dict)
    dm_edits: int = 0  # of players' DMs (their panels mostly)
    panels_asked: int = 0  # panels shown to players, as new DMs or as edits
    gm_posts: int = 0
    gm_edits: int = 0
    turns: int = 0  # game turns (or rounds) played, when the rule set counts them
    pace: str = "instant"
    away: list[str] = field(default_factory=list)  # seats away (P-26) when the demo ended
    # per player, the most DM messages showing a panel at one time (P-28)
    most_panels: dict[str, int] = field(default_factory=dict)
    images: list[str] = field(default_factory=list)
    # new channel posts per (channel, turn) of the campaign posting, and the (channel, turn)
    # pairs in which a battle was fought (an HRFT turn, an Orbits turn with a battle phase)
    turn_posts: dict[tuple[int, int], int] = field(default_factory=dict)
    battle_turns: set[tuple[int, int]] = field(default_factory=set)
    started: datetime = START
    ended: datetime = START
    final_status: str = ""
    finished: bool = False
    recording: Recording | None = None

    def summary(self) -> str:
        days = (self.ended - self.started).total_seconds() / 86400
        lines = [
            f"Demo of '{self.ruleset}' with seed {self.seed}: "
            + ("the campaign ended." if self.finished else "the campaign did NOT end."),
            f"Players: {', '.join(self.players)}.",
            f"{self.actions} actions by scripted players; the clock jumped {self.clock_jumps} "
            f"times to a deadline or reminder"
            + (f" and {self.answer_waits} times to a player's answer" if self.answer_waits
               else "")
            + f"; {days:.1f} days of game time."
            + (f" The GM moved the game on {plural(self.gm_advances, 'time')} (/gm advance)."
               if self.gm_advances else ""),
            f"Messages: {self.channel_posts} channel posts (and {self.channel_edits} edits of "
            f"them), {sum(self.dms.values())} DMs (and {self.dm_edits} edits of them) "
            f"({', '.join(f'{k} {v}' for k, v in self.dms.items()) or 'none'}), "
            f"{self.gm_posts} to the GM"
            + (f" (and {plural(self.gm_edits, 'edit')})" if self.gm_edits else "")
            + f", {len(self.images)} pictures.",
        ]
        if self.turns and self.players:
            per_player = sum(self.dms.values()) / len(self.players) / self.turns
            lines.append(f"Per game turn ({self.turns}): "
                         f"{self.channel_posts / self.turns:.2f} channel posts, "
                         f"{per_player:.2f} DMs per player.")
            lines.append("New DMs per player per game turn: " + ", ".join(
                f"{name} {self.dms.get(name, 0) / self.turns:.2f}" for name in self.players)
                + ".")
        lines.append(f"DMs to the GM: {self.gm_posts}"
                     + (f" (and {plural(self.gm_edits, 'edit')})" if self.gm_edits else "")
                     + ".")
        lines.append(f"Away seats at the end: {', '.join(self.away) or 'none'}.")
        if self.pace != "instant":
            lines.append(f"Pace: {self.pace} (scripted players answer after seeded random "
                         "delays).")
        lines.append(self.battle_line())
        if self.final_status:
            lines += ["", "Final state (public view):", self.final_status]
        return "\n".join(lines)


    def most_battle_posts(self, thread: bool) -> tuple[int, int] | None:
        """(posts, turn) of the battle turn with the most new posts, in the campaign's own
        channel or (``thread``) in a battle thread; None when no battle was fought there."""
        counts = [(n, turn) for (channel, turn), n in self.turn_posts.items()
                  if (channel, turn) in self.battle_turns and (channel != CHANNEL_ID) == thread]
        return max(counts, key=lambda c: (c[0], -c[1])) if counts else None

    def battle_line(self) -> str:
        """H-D47, O-D28: the most new posts in one battle turn (edits do not count)."""
        parts = []
        for thread, where in ((False, "in the campaign channel"), (True, "in a battle thread")):
            most = self.most_battle_posts(thread)
            if most is not None:
                parts.append(f"{most[0]} {where} (turn {most[1]})")
        return ("Most posts in one battle turn: " + ("; ".join(parts) if parts
                                                      else "no battle was fought") + ".")
