"""The generic panel: turns any ``Request`` into message content and a View.

Layout (Discord allows 5 rows, 25 options a Select, 100 characters a custom id):

- overview: one button per ActionSpec (a spec without fields and without a confirm text
  submits at once; any other spec opens its own page);
- spec page: the spec's InputFields as Selects (a field with more than 25 options is split
  into several Selects of 25; at most 4 Selects a page, with Prev/Next when there are more)
  and a row of buttons: Submit, Back (when there are several specs), Prev, Next.

Every item is a ``DynamicItem`` whose custom id ``adm:<campaign>:<step>:<seat>:<verb>[:<arg>]``
carries all it needs, so a panel keeps working after a restart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, TypeVar

import discord

from bot.campaign.models import Panel
from bot.errors import InvalidInput
from bot.rules.base import ActionSpec, InputField, Request
from cogs.common import clip, timestamp
from cogs.panel_guard import (
    BUTTON_VERBS,
    SELECT_VERBS,
    Admitted,
    PanelKey,
    parse_custom_id,
)

T = TypeVar("T")
SELECT_OPTIONS = 25
SELECTS_PER_PAGE = 4  # the fifth row holds the buttons
BUTTONS_PER_ROW = 5
MAX_BUTTONS = 25
# Every custom id of ours, however mangled, reaches the items, so a forged or garbled id gets
# a refusal instead of no answer at all. discord.py runs every matching template's factory on
# the clicked component, so each factory also receives the other kind: it stays silent then
# (``Admitted.foreign``) and the factory of the right kind answers.
BUTTON_TEMPLATE = r"adm:(?P<button>.*)"
SELECT_TEMPLATE = r"adm:(?P<select>.*)"


@dataclass(frozen=True)
class Mode:
    """What the panel message shows: the overview (spec None) or one spec's page."""

    spec: int | None = None
    page: int = 0


class PanelButton(
    Admitted, discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE
):
    """A panel button; ``interaction_check`` (``Admitted``) admits only the seat's holder,
    and its callback is handled by the Panels cog."""

    def __init__(
        self, item: discord.ui.Button[Any], key: PanelKey | None, verb: str, arg: str
    ) -> None:
        super().__init__(item)
        self.key, self.verb, self.arg = key, verb, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PanelButton:
        if not isinstance(item, discord.ui.Button):
            return _foreign(cls(item, None, "", ""))  # type: ignore[arg-type]  # a Select
        parsed = parse_custom_id(match[0], BUTTON_VERBS)
        return cls(item, parsed.key, parsed.verb, parsed.arg)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handler(interaction).on_button(self, interaction)


class PanelSelect(
    Admitted, discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE
):
    """A panel Select (one chunk of one field); admitted like ``PanelButton``, its callback
    is handled by the Panels cog."""

    def __init__(self, item: discord.ui.Select[Any], key: PanelKey | None, arg: str) -> None:
        super().__init__(item)
        self.key, self.arg = key, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PanelSelect:
        if not isinstance(item, discord.ui.Select):
            return _foreign(cls(item, None, ""))  # type: ignore[arg-type]  # a Button
        parsed = parse_custom_id(match[0], SELECT_VERBS)
        return cls(item, parsed.key, parsed.arg)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handler(interaction).on_select(self, interaction)


def _foreign(item: T) -> T:
    """Marks an item made for a component of the other kind: it stays silent and the item of
    the right kind answers."""
    item.foreign = True  # type: ignore[attr-defined]
    return item


def _handler(interaction: discord.Interaction) -> Any:
    # The cog is looked up on the bot rather than imported, which keeps this module free of
    # the cog (the cog imports us).
    cog = interaction.client.get_cog("Panels")  # type: ignore[attr-defined]
    if cog is None:
        raise RuntimeError("the Panels cog is not loaded")
    return cog


# ---------------------------------------------------------------- reading drafts and actions


def draft_values(panel: Panel, spec: ActionSpec, field: InputField) -> list[str]:
    """The values saved for a field, as a list (drafts are keyed by action type)."""
    by_type = panel.draft.get(spec.type) if isinstance(panel.draft, dict) else None
    raw = by_type.get(field.name) if isinstance(by_type, dict) else None
    if raw is None:
        raw = _preselected(panel.request, spec, field, drafted=by_type is not None)
    if raw is None:
        return []
    return [raw] if isinstance(raw, str) else [str(v) for v in raw]


def _preselected(request: Request, spec: ActionSpec, field: InputField, *, drafted: bool) -> Any:
    """What a field holds before the player picks: until they choose anything for this kind
    of action, the request's default (e.g. Orbits' proposed discards, O-15); and always the
    only option of a required field."""
    default = request.default or {}
    if not drafted and default.get("type") == spec.type and field.name in default:
        legal = {o.value for o in field.options}
        value = default[field.name]
        values = value if isinstance(value, list) else [value]
        if not legal or all(str(v) in legal for v in values):
            return value
    if len(field.options) == 1 and field.min_values >= 1:
        return field.options[0].value
    return None


def build_action(panel: Panel, spec: ActionSpec) -> dict[str, Any]:
    """The action dict from the saved drafts; refuses when a required choice is missing."""
    action: dict[str, Any] = {"type": spec.type}
    for field in spec.fields:
        values = draft_values(panel, spec, field)
        if len(values) < field.min_values:
            raise InvalidInput(f"Choose {field.label} first (in the menu above Submit).")
        if field.max_values == 1:
            if values:
                action[field.name] = values[0]
        else:
            action[field.name] = values
    return action


def describe_action(request: Request, action: dict[str, Any]) -> str:
    """A short human text for an action, using the option labels."""
    spec = next((s for s in request.actions if s.type == action.get("type")), None)
    if spec is None:
        return str(action.get("type", "?"))
    parts = []
    for field in spec.fields:
        raw = action.get(field.name)
        values = [raw] if isinstance(raw, str) else list(raw or [])
        labels = {o.value: o.label for o in field.options}
        shown = ", ".join(labels.get(str(v), str(v)) for v in values) or "none"
        parts.append(f"{field.label}: {shown}")
    return spec.label + (f" ({'; '.join(parts)})" if parts else "")


# ---------------------------------------------------------------- layout


def chunks_of(spec: ActionSpec) -> list[tuple[int, int]]:
    """(field index, chunk index) for every Select the spec needs."""
    out = []
    for f, field in enumerate(spec.fields):
        count = max(1, -(-len(field.options) // SELECT_OPTIONS))
        out.extend((f, c) for c in range(count))
    return out


def page_count(spec: ActionSpec) -> int:
    return max(1, -(-len(chunks_of(spec)) // SELECTS_PER_PAGE))


def initial_mode(request: Request) -> Mode:
    """A request with one spec that has fields opens straight on that spec."""
    if len(request.actions) == 1 and request.actions[0].fields:
        return Mode(spec=0)
    return Mode()


def render(panel: Panel, mode: Mode | None = None, note: str = "") -> tuple[str, discord.ui.View]:
    """Content and View for a panel in the given mode."""
    mode = mode or initial_mode(panel.request)
    key = PanelKey.of(panel)
    view = discord.ui.View(timeout=None)
    if mode.spec is None or not 0 <= mode.spec < len(panel.request.actions):
        _overview(view, key, panel.request)
        return _content(panel, None, note), view
    spec = panel.request.actions[mode.spec]
    page = min(max(mode.page, 0), page_count(spec) - 1)
    _spec_page(view, key, panel, mode.spec, page)
    return _content(panel, spec, note), view


def _content(panel: Panel, spec: ActionSpec | None, note: str) -> str:
    request = panel.request
    lines = [request.prompt]
    if panel.deadline is not None:
        lines.append(f"Deadline: {timestamp(panel.deadline)}")
    if panel.submitted:
        lines.append(
            f"Your orders are in: {describe_action(request, panel.submitted)}. "
            "You can change them until everyone has submitted."
        )
    if spec is not None:
        lines.append(f"**{spec.label}**")
        if spec.confirm:
            lines.append(f"⚠ {spec.confirm}")
    if note:
        lines.append(note)
    return clip("\n".join(lines))


def _overview(view: discord.ui.View, key: PanelKey, request: Request) -> None:
    for i, spec in enumerate(request.actions[:MAX_BUTTONS]):
        verb = "open" if spec.fields or spec.confirm else "sub"
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=clip(spec.label, 80),
            style=discord.ButtonStyle.primary,
            custom_id=key.custom_id(verb, str(i)),
            row=i // BUTTONS_PER_ROW,
        )
        view.add_item(PanelButton(button, key, verb, str(i)))


def _spec_page(view: discord.ui.View, key: PanelKey, panel: Panel, s: int, page: int) -> None:
    spec = panel.request.actions[s]
    chunks = chunks_of(spec)
    shown = chunks[page * SELECTS_PER_PAGE : (page + 1) * SELECTS_PER_PAGE]
    for row, (f, c) in enumerate(shown):
        field = spec.fields[f]
        if not field.options:
            continue  # Discord refuses an empty Select; the rules will say what is missing
        arg = f"{s}.{f}.{c}.{page}"
        select = _select(field, c, len(chunks_of_field(spec, f)), draft_values(panel, spec, field))
        select.custom_id = key.custom_id("sel", arg)
        select.row = row
        view.add_item(PanelSelect(select, key, arg))
    buttons = [("sub", str(s), "Submit", discord.ButtonStyle.success)]
    if len(panel.request.actions) > 1:
        buttons.append(("back", "", "Back", discord.ButtonStyle.secondary))
    if page > 0:
        buttons.append(("page", f"{s}.{page - 1}", "◀ Prev", discord.ButtonStyle.secondary))
    if page + 1 < page_count(spec):
        buttons.append(("page", f"{s}.{page + 1}", "Next ▶", discord.ButtonStyle.secondary))
    for verb, arg, label, style in buttons:
        custom_id = key.custom_id(verb, arg or None)
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label, style=style, custom_id=custom_id, row=SELECTS_PER_PAGE
        )
        view.add_item(PanelButton(button, key, verb, arg))


def chunks_of_field(spec: ActionSpec, f: int) -> list[int]:
    return [c for ff, c in chunks_of(spec) if ff == f]


def chunk_options(field: InputField, c: int) -> list[Any]:
    return field.options[c * SELECT_OPTIONS : (c + 1) * SELECT_OPTIONS]


def _select(
    field: InputField, c: int, n_chunks: int, chosen: list[str]
) -> discord.ui.Select[Any]:
    options = chunk_options(field, c)
    if n_chunks == 1:
        high = max(1, min(field.max_values, len(options)))
        low = min(field.min_values, high)
        placeholder = field.label
    else:
        # A split field: each part may stay empty; the whole is checked at Submit.
        low, high = 0, max(1, min(field.max_values, len(options)))
        first = c * SELECT_OPTIONS + 1
        placeholder = f"{field.label} ({first}-{first + len(options) - 1})"
    return discord.ui.Select(
        placeholder=clip(placeholder, 150),
        min_values=low,
        max_values=high,
        options=[
            discord.SelectOption(
                label=clip(o.label, 100),
                value=o.value[:100],
                description=clip(o.description, 100) or None,
                default=o.value in chosen,
            )
            for o in options
        ],
    )


def merge_chunk(field: InputField, c: int, before: list[str], picked: list[str]) -> list[str]:
    """New values of a field after a choice in one of its Selects (split fields keep the
    choices made in their other parts, unless the field takes one value)."""
    if field.max_values == 1:
        return picked[:1] if picked else [v for v in before if v not in _values(field, c)]
    here = set(_values(field, c))
    kept = [v for v in before if v not in here]
    return kept + [v for v in picked if v not in kept]


def _values(field: InputField, c: int) -> list[str]:
    return [o.value for o in chunk_options(field, c)]
