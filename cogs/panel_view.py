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

This module says what the panel shows (its text, its Selects' options, which parts a field
is split into); ``cogs.panel_items`` lays the components out, one DynamicItem class per verb,
whose custom ids (``cogs.panel_ids``) carry all they need, so a panel keeps working after a
restart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.campaign import drafts
from bot.campaign.models import Panel
from bot.campaign.summaries import describe_action  # the one shared with the service
from bot.rules.base import ActionSpec, InputField, Request
from cogs.common import clip, timestamp

SELECT_OPTIONS = 25
SELECTS_PER_PAGE = 4  # the fifth row holds the buttons
BUTTONS_PER_ROW = 5
MAX_BUTTONS = 25


@dataclass(frozen=True)
class Mode:
    """What the panel message shows: the overview (spec None) or one spec's page."""

    spec: int | None = None
    page: int = 0


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


def panel_content(panel: Panel, spec: ActionSpec | None, note: str, page: int = 0) -> str:
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


def chunks_of_field(spec: ActionSpec, f: int) -> list[int]:
    return [c for ff, c in chunks_of(spec) if ff == f]


def chunk_options(field: InputField, c: int) -> list[Any]:
    return field.options[c * SELECT_OPTIONS : (c + 1) * SELECT_OPTIONS]


def choice_menu(
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
