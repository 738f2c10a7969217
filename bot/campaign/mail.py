"""What an intent says, gathered per destination before it is sent: public posts and tracker
lines, each seat's private news, pictures and panel, and the defaults taken for a seat.
The step engine fills it from the rules' events and flushes it once (``StepEngine.flush``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.campaign.core import Ctx
from bot.campaign.summaries import describe_action
from bot.rules.base import Embed, Request, step_name
from storage.outbox import Picture


@dataclass(frozen=True)
class Taken:
    """What the service took for a seat at a deadline: the action in the panel's words, and
    whether it was the seat's own saved draft rather than the rules' default."""

    seat: int
    action: str
    drafted: bool = False


@dataclass
class PublicItem:
    """One public text: a post of its own (with its pictures) or a line of the tracker."""

    text: str
    post: bool
    pictures: list[Picture] = field(default_factory=list)
    # a result shown as an embed instead of its text (the log keeps the text); its picture,
    # the first of ``pictures`` when ``embed.image``, goes inside it
    embed: Embed | None = None
    # P-15: news from elsewhere (a battle's result proposed from its thread) is a post of its
    # own, never an edit of the step's message that nobody is notified of
    alone: bool = False


@dataclass
class Mail:
    """Texts and files gathered per destination, sent as few messages as possible.

    ``public``: the service's own words given at construction; each is a post of its own."""

    public: list[str] = field(default_factory=list)
    items: list[PublicItem] = field(default_factory=list)
    acted: set[int] = field(default_factory=set)  # seats that acted themselves
    seats: dict[int, list[str]] = field(default_factory=dict)  # GM_SEAT = the GM
    # picture requests; they are drawn after commit, off the event loop, by the outbox
    files: dict[int, list[Picture]] = field(default_factory=dict)
    # The text that goes with a seat's panel. It is a message of its own: clicking the panel
    # rewrites that message, which would wipe a private report (a scan) sent with it.
    panels: dict[int, str] = field(default_factory=dict)
    # P-27: per seat, the defaults taken for it here, said in its next panel (not a DM)
    defaults: dict[int, list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.items = [PublicItem(t, True) for t in self.public] + self.items

    def post(self, text: str, pictures: list[Picture] | None = None,
             embed: Embed | None = None, alone: bool = False) -> None:
        self.items.append(PublicItem(text, True, pictures or [], embed, alone))

    def line(self, text: str) -> None:
        self.items.append(PublicItem(text, False))

    def to_seat(self, seat: int, text: str) -> None:
        self.seats.setdefault(seat, []).append(text)

    def panel(self, seat: int, text: str) -> None:
        """The seat's panel, with its text; the first panel of a seat wins."""
        self.panels.setdefault(seat, text)

    def defaulted(self, ctx: Ctx, req: Request, action: dict[str, Any], drafted: bool) -> None:
        """P-27: the seat's next panel says what was taken for it (its own words)."""
        name = step_name(ctx.ruleset, ctx.state, ctx.pending).name
        what = "the choices saved in your panel were" if drafted else "the default was"
        self.defaults.setdefault(req.seat, []).append(
            f"{name}: you did not answer in time, so {what} taken for you: "
            f"{describe_action(req, action)}.")
