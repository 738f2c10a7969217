"""Values that cross the service boundary (docs/dev/service-contract.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from bot.rules.base import ActionSpec, Request
from storage.campaigns import CampaignHead
from storage.outbox import Picture
from storage.status import Status

CUSTOM_ID_PREFIX = "adm"


@dataclass(frozen=True)
class Actor:
    """Who is acting. ``is_admin``: Manage Server in guild ``guild_id``, which makes them a
    GM of every campaign of THAT guild only (an admin elsewhere is nobody here)."""

    user_id: int
    name: str
    is_admin: bool = False
    guild_id: int | None = None


@dataclass(frozen=True)
class SeatInfo:
    campaign_id: int
    seat: int
    user_id: int
    name: str
    active: bool = True
    dm_ok: bool = True


@dataclass(kw_only=True)
class CampaignInfo(CampaignHead):
    """A campaign as a cog sees it: its head (never its state, options or settings) and its
    seats. A fresh copy each time, so nothing a cog does to it reaches the service."""

    seats: list[SeatInfo] = field(default_factory=list)


@dataclass(frozen=True)
class PanelRef:
    """What a DM's panel is about; ``custom_id`` builds ``adm:<campaign>:<step>:<seat>:<verb>``."""

    campaign_id: int
    step_no: int
    seat: int

    def custom_id(self, verb: str, arg: str | None = None) -> str:
        parts = [CUSTOM_ID_PREFIX, str(self.campaign_id), str(self.step_no), str(self.seat), verb]
        if arg is not None:
            parts.append(arg)
        custom = ":".join(parts)
        if len(custom) > 100:
            raise ValueError(f"custom id longer than 100 characters: {custom[:40]}...")
        return custom


@dataclass(frozen=True)
class Panel:
    """One open request of one seat, with the choices saved so far.

    ``draft`` is ``{action_type: {field_name: [values]}}`` as saved by ``save_draft``."""

    campaign_id: int
    step_no: int
    seat: int
    request: Request
    draft: dict[str, Any]
    submitted: dict[str, Any] | None
    deadline: datetime | None

    @property
    def ref(self) -> PanelRef:
        return PanelRef(self.campaign_id, self.step_no, self.seat)


@dataclass(frozen=True)
class SubmitResult:
    """What became of a submission; ``message`` is the ephemeral reply for the actor."""

    campaign_id: int
    step_no: int
    seat: int
    kind: str  # sealed | turn | open
    replaced: bool  # sealed: an earlier submission of this step was changed
    resolved: bool  # the rules ran (sealed: everyone was in; turn/open: always)
    waiting_for: list[str]  # sealed: names still owing, never content
    message: str


@dataclass(frozen=True)
class CampaignStatus:
    id: int
    name: str
    ruleset: str
    status: Status
    paused: bool
    step_no: int
    text: str  # ruleset.status(state, viewer seat or None)
    pending: list[str]  # names only
    deadline: datetime | None
    seats: list[SeatInfo]
    end_reason: str | None = None  # ended: who won or why it ended, in plain words
    away: list[str] = field(default_factory=list)  # names of the away seats (P-26)


@dataclass(frozen=True)
class LogEntry:
    created_at: datetime
    audience: str  # public | gm
    kind: str
    text: str
    step_no: int


@dataclass(frozen=True)
class OutboxMessage:
    id: int
    campaign_id: int | None
    kind: Literal["channel", "dm"]
    channel_id: int | None
    user_id: int | None
    content: str
    # picture requests, drawn after commit: ``service.outbox_files(message)`` has the PNGs
    pictures: tuple[Picture, ...]
    panel: PanelRef | None
    attempts: int = 0
    # an EDIT of the message outbox row ``edit_of`` sent (a step tracker): the dispatcher
    # edits Discord message ``target_message_id``, or posts anew when that is None or gone
    edit_of: int | None = None
    target_message_id: int | None = None
    # {title, description, fields: [{name, value, inline}], footer, image}, within Discord's
    # limits; ``image`` names one of the pictures, shown inside the embed
    embeds: tuple[dict[str, Any], ...] = ()
    # sent with each post (piece i of an overlong message as "<nonce>.<i>"): Discord answers
    # a repeated send with the message it already made (P-33)
    nonce: str | None = None
    pieces_sent: int = 0  # pieces already on Discord: a retry goes on with the next one
    mentions: tuple[int, ...] = ()  # the only users it may ping (P-34)
    started: bool = False  # a panel DM whose post was begun before: it may be there already


@dataclass(frozen=True)
class SeatView:
    """What a cog may show one user of one campaign (``CampaignService.seat_view``).

    ``view`` is the rule set's view for that user: the GM's view for the GM (or an admin)
    where the rule set defines one (``gm_view``), else ``view(state, seat)``; the public view
    ``view(state, None)`` for a member without a seat. ``{}`` before the start. Hidden state
    never leaves the service any other way."""

    info: CampaignInfo
    seat: int | None
    is_gm: bool  # the campaign's GM or a server admin (Ctx.is_gm, one rule for every cog)
    view: dict[str, Any]
    requests: list[Request]  # the user's open requests (their seat's, and the GM's if GM)
    gm_actions: list[ActionSpec] = field(default_factory=list)  # what the GM may do now

    @property
    def started(self) -> bool:
        return self.info.status != Status.SETUP

    def spec(self, action_type: str) -> ActionSpec | None:
        """The user's offered action of that type, if a request offers it now."""
        for request in self.requests:
            for spec in request.actions:
                if spec.type == action_type:
                    return spec
        return None

    def gm_spec(self, action_type: str) -> ActionSpec | None:
        return next((s for s in self.gm_actions if s.type == action_type), None)


@dataclass(frozen=True)
class ViewPicture:
    """A picture checked and ready to draw (``CampaignService.picture``): the view is one
    the user may see; ``CampaignService.render`` draws it off the event loop."""

    ruleset: str
    name: str
    view: dict[str, Any]
    title: str = ""
