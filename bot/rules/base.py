"""The rules-core protocol shared by every rule set (DESIGN.md, "The rules core").

A rule set is a pure state machine over a pydantic state:

- ``start(options, seats, dice) -> Outcome`` builds the first state and runs it forward to the
  first decision;
- ``pending(state) -> list[Request]`` says who must act now;
- ``act(state, seat, action, dice) -> Outcome`` applies one turn/open action;
- ``resolve(state, actions, dice) -> Outcome`` applies a complete set of sealed actions;
- ``view(state, viewer)`` is what a viewer may see (``None`` = the public).

Seats are numbered from 1; seat ``GM_SEAT`` (0) is the game master. Actions are plain dicts
``{"type": <ActionSpec.type>, <field name>: <value or list of values>, ...}`` so that a generic
panel can build them from Selects and Buttons; each rule set validates them and raises
``RulesError`` saying what is wrong and what is allowed. That dict is the stored form
(``ActionData``); each rule set reads it into its own action models (bot/rules/actions.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any, Literal, NamedTuple, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

GM_SEAT = 0

RequestKind = Literal["sealed", "turn", "open"]
FieldKind = Literal["choice", "number"]
AudienceKind = Literal["public", "seat", "gm"]


class Audience(BaseModel):
    """Who may read an event: the channel, one seat (by DM), or the GM."""

    model_config = ConfigDict(frozen=True)

    kind: AudienceKind
    seat: int | None = None

    @classmethod
    def public(cls) -> Audience:
        return cls(kind="public")

    @classmethod
    def to_seat(cls, seat: int) -> Audience:
        return cls(kind="seat", seat=seat)

    @classmethod
    def gm(cls) -> Audience:
        return cls(kind="gm")


class ImageRef(BaseModel):
    """Asks the service to attach a rendered picture of the state as this viewer sees it."""

    name: str = Field(description="renderer name, registered in bot.render for the rule set")
    viewer: int | None = Field(default=None, description="seat whose view is drawn; None=public")
    # the file's name without ".png" (default: the renderer's): a message keeps one picture
    # per file name, the latest, so "sheet-1a" is ship 1a's sheet (H-D46)
    file: str | None = None
    # P-31: a picture shows the moment its caption names, not the end of the resolution
    view: dict[str, Any] | None = Field(
        default=None, description="the view to draw, taken when the event was made, so the "
        "picture shows what its caption names; None: the state after the resolution")
    # what the picture shows (HRFT: a ship): the rule set's ``picture_view`` draws it, a
    # view of that alone rather than of the whole state (a message keeps its pictures' views)
    focus: str | None = None


class EmbedField(BaseModel):
    """One titled block of an embed; ``inline`` fields sit side by side."""

    name: str
    value: str
    inline: bool = False


class Embed(BaseModel):
    """A structured form of an event's result for the channel (a Discord embed). The event's
    ``text`` stays the plain form (event log, GM log, transcripts). Discord's limits are kept
    by ``bot.rules.embed_limits`` when the message is built, so a rule set need not count."""

    title: str = ""
    description: str = ""
    fields: list[EmbedField] = Field(default_factory=list)
    footer: str = ""
    image: bool = Field(default=True, description="the event's picture, if any, goes inside")
    # P-17: battles the GM may open in a thread from this post (a button each, the clicker
    # checked); not part of the event's logged form
    buttons: list[str] = Field(default_factory=list, exclude=True)

    def field(self, name: str, value: str, inline: bool = False) -> Embed:
        """Adds a field (an empty value reads as a dash: Discord refuses empty values)."""
        self.fields.append(EmbedField(name=name or "-", value=value or "-", inline=inline))
        return self


class Event(BaseModel):
    """Something that happened, with exactly one audience. Hidden information is only ever
    carried by events whose audience is a seat or the GM."""

    audience: Audience
    kind: str
    text: str
    data: dict[str, Any] = Field(default_factory=dict)
    image: ImageRef | None = None
    # Where a public event goes: True = a post of its own (what people must see), False = a
    # line of the step tracker (routine), None = the service decides (a post when it has a
    # picture, reveals a sealed step or ends the game; else a tracker line).
    post: bool | None = None
    embed: Embed | None = Field(default=None, description="shown instead of text in the channel")


class Seat(BaseModel):
    """A player's place at the table. ``number`` starts at 1."""

    number: int
    name: str


class Option(BaseModel):
    """One choice in a Select: the value sent back, the label shown."""

    value: str
    label: str
    description: str = ""


# An action's stored form: the flat dict a panel builds, each field a short value or a flat
# list of them (bot/campaign/inputs.py checks the shape). Each rule set reads it into its
# own action models (bot/rules/actions.py).
Scalar = str | int | bool | None
ActionValue = Scalar | list[Scalar]
ActionData = Mapping[str, ActionValue]


class YesNo(StrEnum):
    """A yes/no choice as a Select offers it and an action stores it ("yes"/"no", so actions
    stored before keep their meaning); an action model reads it as a bool
    (``bot.rules.actions.Flag``)."""

    YES = "yes"
    NO = "no"

    @classmethod
    def of(cls, value: bool) -> YesNo:
        return cls.YES if value else cls.NO


class InputField(BaseModel):
    """A Select of legal options; the chosen value(s) go into the action under ``name``.

    With ``max_values == 1`` the action holds a string, otherwise a list of strings.
    A ``number`` field has no options: the action holds one whole number from ``minimum`` to
    ``maximum``, as a string (the panel asks for it in a text box)."""

    name: str
    label: str
    options: list[Option]
    min_values: int = 1
    max_values: int = 1
    kind: FieldKind = "choice"
    minimum: int = 0
    maximum: int = 0


class ActionSpec(BaseModel):
    """One kind of action a request accepts, with the inputs it needs.

    A spec without fields is a single button (e.g. "Pass", "Ready")."""

    type: str
    label: str
    fields: list[InputField] = Field(default_factory=list)
    confirm: str = Field(default="", description="cost/consequence shown before submitting")
    destructive: bool = Field(
        default=False,
        description="gives something up for good (concede): shown apart, asks for confirmation",
    )


class Request(BaseModel):
    """Who must act now and what they may do.

    ``sealed`` requests of one step are revealed together by ``resolve``; ``turn`` and ``open``
    requests are applied one by one by ``act`` (an ``open`` seat acts any number of times and
    then sends its ready action, which the rule set defines)."""

    seat: int
    kind: RequestKind
    step: str = Field(description="stable name of the step, e.g. 'orders', 'transit'")
    prompt: str
    actions: list[ActionSpec]
    default: dict[str, Any] | None = Field(
        default=None, description="the action taken at the deadline; None = wait for the GM"
    )
    advance: dict[str, Any] | None = Field(
        default=None,
        description="turn/open requests without a default: the action (one of ``actions``) "
        "that /gm advance takes so the game goes on; the deadline still waits for the GM",
    )


class Outcome(BaseModel):
    """The result of start/act/resolve: the new state and the events on the way."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    state: Any
    events: list[Event] = Field(default_factory=list)
    finished: bool = False


@runtime_checkable
class Dice(Protocol):
    """Injected randomness: every draw in the rules comes from here."""

    def d(self, sides: int) -> int:
        """One die with ``sides`` faces, 1..sides."""
        ...

    def shuffle(self, items: list[Any]) -> list[Any]:
        """A new list with the items in random order."""
        ...


@runtime_checkable
class Ruleset(Protocol):
    """What the service needs from a rule set. Implementations live in bot.rules.<name>."""

    name: str
    title: str
    min_seats: int
    max_seats: int
    options_model: type[BaseModel]
    state_model: type[BaseModel]
    help_text: str

    def start(self, options: BaseModel, seats: list[Seat], dice: Dice) -> Outcome: ...

    def pending(self, state: BaseModel) -> list[Request]: ...

    def act(self, state: BaseModel, seat: int, action: ActionData, dice: Dice) -> Outcome: ...

    def resolve(self, state: BaseModel, actions: dict[int, ActionData],
                dice: Dice) -> Outcome: ...

    def view(self, state: BaseModel, viewer: int | None) -> dict[str, Any]: ...

    def status(self, state: BaseModel, viewer: int | None) -> str: ...

    # Optional hooks (``check``, ``gm_actions``, ``step_name``, ``gm_view``, ...): every rule
    # set subclasses ``bot.rules.ruleset_base.RulesetBase``, where each exists with a neutral
    # default, so the service calls them directly.


# How a reveal marks an action the service took by default at a deadline.
BY_DEFAULT = "by default: missed the deadline"


class StepName(NamedTuple):
    """What the step tracker shows for the open step. ``key``: steps with the same key share
    one tracker message (e.g. the phases of one game turn); None = this step alone.
    ``name``: the step in plain words, e.g. "Turn 3: deployment"."""

    key: str | None
    name: str


def step_name(ruleset: Any, state: Any, pending: list[Request]) -> StepName:
    """The rule set's ``step_name(state, pending)`` hook (``RulesetBase.step_name``)."""
    return ruleset.step_name(state, pending)  # type: ignore[no-any-return]


def default_step_name(pending: list[Request]) -> StepName:
    """A name made from the requests' step names, for a rule set that names no steps (each
    step then has its own tracker)."""
    steps = dict.fromkeys(r.step.replace("_", " ").replace("-", " ") for r in pending)
    return StepName(None, ", ".join(steps).capitalize() or "Waiting")


@runtime_checkable
class ScriptedPlayer(Protocol):
    """A demo/self-play player: picks a legal action for a request from what its seat may see.

    Rule sets offer one through ``RulesetBase.scripted_player(seat)``; ``python -m bot
    demo`` and the benchmarks use it. It sees ``view(state, seat)`` only, never hidden state."""

    def choose(self, view: dict[str, Any], request: Request, dice: Dice) -> dict[str, Any]:
        """An action in its stored form (``ActionData``), as a panel would send it."""
        ...
