"""The generic panel: turns any ``Request`` into message content and a View.

Layout (Discord allows 5 rows, 25 options a Select, 100 characters a custom id):

- overview: one button per ActionSpec (a spec without fields and without a confirm text
  submits at once; any other spec opens its own page); destructive specs (concede) are red,
  on a row of their own, and always open a page that names the consequence first;
- spec page: the spec's InputFields as Selects (a field with more than 25 options is split
  into several Selects of 25; a number field, or a wide range of numbers, is one button that
  opens a text box, ``cogs.panel_modal``; at most 4 such rows a page, with Prev/Next when
  there are more) and a row of buttons: Submit, Back (when there are several specs), Prev,
  Next. A paged spec, or one with numbers, lists the effective choice of every field of
  every page above Submit: what Submit sends is never unseen.

Each field holds its own default until the player changes that field (``bot.campaign.drafts``).

Every item is a ``DynamicItem`` whose custom id ``adm:<campaign>:<step>:<seat>:<verb>[:<arg>]``
carries all it needs, so a panel keeps working after a restart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, TypeVar

import discord

from bot.campaign import drafts
from bot.campaign.models import Panel
from bot.campaign.summaries import describe_action  # the one shared with the service
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
    """The effective values of a field: the player's choice, else the field's own default."""
    return drafts.field_values(panel.request, spec, field, panel.draft)


def build_action(panel: Panel, spec: ActionSpec) -> dict[str, Any]:
    """The action from the saved drafts and the defaults; refuses a missing required choice."""
    return drafts.build_action(panel.request, spec, panel.draft)


# ---------------------------------------------------------------- layout


def chunks_of(spec: ActionSpec) -> list[tuple[int, int]]:
    """(field index, chunk index) for every Select the spec needs."""
    out = []
    for f, field in enumerate(spec.fields):
        wide = drafts.number_range(field) is not None
        count = 1 if wide else max(1, -(-len(field.options) // SELECT_OPTIONS))
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
    return _content(panel, spec, note, page), view


def _content(panel: Panel, spec: ActionSpec | None, note: str, page: int = 0) -> str:
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
        pages = page_count(spec)
        lines.append(f"**{spec.label}**" + (f" (page {page + 1}/{pages})" if pages > 1 else ""))
        if pages > 1 or any(drafts.number_range(f) for f in spec.fields):
            where = " (every page)" if pages > 1 else ""
            lines.append(f"Submit sends these choices{where}:")
            lines.extend(f"- {line}" for line in
                         drafts.summary_lines(panel.request, spec, panel.draft))
        if spec.confirm:
            lines.append(f"⚠ {spec.confirm}")
    if note:
        lines.append(note)
    return clip("\n".join(lines))


def _overview(view: discord.ui.View, key: PanelKey, request: Request) -> None:
    """Ordinary actions fill the first rows; destructive ones (red) get the last row alone, so
    they never sit beside Ready or Pass."""
    indexed = list(enumerate(request.actions))
    harmful = [(i, s) for i, s in indexed if s.destructive][:BUTTONS_PER_ROW]
    plain = [(i, s) for i, s in indexed if not s.destructive]
    plain = plain[: MAX_BUTTONS - (BUTTONS_PER_ROW if harmful else 0)]
    rows = -(-len(plain) // BUTTONS_PER_ROW)
    placed = [(i, s, n // BUTTONS_PER_ROW) for n, (i, s) in enumerate(plain)]
    placed += [(i, s, rows) for i, s in harmful]
    for i, spec, row in placed:
        verb = "open" if spec.fields or spec.confirm or spec.destructive else "sub"
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=clip(spec.label, 80),
            style=discord.ButtonStyle.danger if spec.destructive else discord.ButtonStyle.primary,
            custom_id=key.custom_id(verb, str(i)),
            row=row,
        )
        view.add_item(PanelButton(button, key, verb, str(i)))


def _spec_page(view: discord.ui.View, key: PanelKey, panel: Panel, s: int, page: int) -> None:
    spec = panel.request.actions[s]
    chunks = chunks_of(spec)
    shown = chunks[page * SELECTS_PER_PAGE : (page + 1) * SELECTS_PER_PAGE]
    for row, (f, c) in enumerate(shown):
        field = spec.fields[f]
        if drafts.number_range(field) is not None:
            view.add_item(_number_button(key, f"{s}.{f}.{page}", field,
                                         draft_values(panel, spec, field), row))
            continue
        if not field.options:
            continue  # Discord refuses an empty Select; the rules will say what is missing
        arg = f"{s}.{f}.{c}.{page}"
        select = _select(field, c, len(chunks_of_field(spec, f)), draft_values(panel, spec, field))
        select.custom_id = key.custom_id("sel", arg)
        select.row = row
        view.add_item(PanelSelect(select, key, arg))
    if spec.destructive:
        buttons = [("sub", str(s), clip(f"Confirm: {spec.label}", 80),
                    discord.ButtonStyle.danger)]
    else:
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


def _number_button(
    key: PanelKey, arg: str, field: InputField, chosen: list[str], row: int
) -> PanelButton:
    """A number is typed in a text box (``cogs.panel_modal``); the button shows the value."""
    low, high = drafts.number_range(field) or (0, 0)
    shown = chosen[0] if chosen else f"enter a number ({low}-{high})"
    button: discord.ui.Button[Any] = discord.ui.Button(
        label=clip(f"{field.label}: {shown}", 80),
        style=discord.ButtonStyle.secondary if chosen else discord.ButtonStyle.primary,
        custom_id=key.custom_id("num", arg),
        row=row,
    )
    return PanelButton(button, key, "num", arg)


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
        # A split field: each part may stay empty; the whole is checked at Submit. The part
        # is named by the first and last option it holds.
        low, high = 0, max(1, min(field.max_values, len(options)))
        first, last = options[0], options[-1]
        numeric = first.value.isdigit() and last.value.isdigit()
        span = f"{first.value}-{last.value}" if numeric else f"{first.label} to {last.label}"
        placeholder = f"{field.label} ({span})"
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
