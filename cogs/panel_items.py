"""The panel's components, one DynamicItem class per verb, and the layout that places them.

Each class has the template of its custom id (``cogs.panel_ids``, named groups), the check
that lets only the holder of the seat the id names through (``SeatCheck``, discord.py's
``interaction_check``) and its own callback, which reads the panel only from the admitted
item, acts for that seat (``seat=``), never for whichever seat the clicker holds, and
answers through the one error ladder (``cogs.answers``). discord.py rebuilds an item from
its custom id at every click, so a panel keeps working after a restart, in DMs sent long ago
too; ``UnreadableId`` answers every other id that starts like ours with a refusal.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.campaign import drafts
from bot.campaign.models import Panel
from bot.errors import InvalidState
from bot.rules.base import InputField, Request
from cogs import panel_ids
from cogs.answers import guarded
from cogs.common import actor_of, clip, service_of
from cogs.panel_guard import STALE, SeatCheck, admit, load_panel
from cogs.panel_ids import PanelKey
from cogs.panel_modal import number_field, number_modal, spec_at
from cogs.panel_view import (
    BUTTONS_PER_ROW,
    MAX_BUTTONS,
    SELECTS_PER_PAGE,
    Mode,
    build_action,
    choice_menu,
    chunks_of,
    chunks_of_field,
    describe_action,
    draft_values,
    initial_mode,
    merge_chunk,
    page_count,
    panel_content,
)

Button = discord.ui.Button[Any]
Select = discord.ui.Select[Any]
Style = discord.ButtonStyle


def _button(custom_id: str, label: str, style: Style, row: int) -> Button:
    return discord.ui.Button(label=label, style=style, custom_id=custom_id, row=row)


# ---------------------------------------------------------------- the verbs


class OpenButton(SeatCheck, discord.ui.DynamicItem[Button], template=panel_ids.OPEN):
    """On the overview: opens one action's page (an action with fields, a confirm text, or
    one that is destructive)."""

    component = discord.ui.Button

    def __init__(self, item: Button, key: PanelKey | None, spec: int) -> None:
        super().__init__(item)
        self.key, self.spec = key, spec

    @classmethod
    def make(cls, key: PanelKey, spec: int, label: str, style: Style, row: int) -> OpenButton:
        return cls(_button(key.custom_id("open", spec), label, style, row), key, spec)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> OpenButton:
        return cls(item, PanelKey.of_match(match), int(match["spec"]))  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            spec_at(self.panel.request.actions, self.spec)
            await show(interaction, self.panel, Mode(spec=self.spec))

        await guarded(interaction, work)


class BackButton(SeatCheck, discord.ui.DynamicItem[Button], template=panel_ids.BACK):
    """On an action's page (when there are several actions): back to the overview."""

    component = discord.ui.Button

    def __init__(self, item: Button, key: PanelKey | None) -> None:
        super().__init__(item)
        self.key = key

    @classmethod
    def make(cls, key: PanelKey, label: str, style: Style, row: int) -> BackButton:
        return cls(_button(key.custom_id("back"), label, style, row), key)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> BackButton:
        return cls(item, PanelKey.of_match(match))  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: show(interaction, self.panel, Mode()))


class PageButton(SeatCheck, discord.ui.DynamicItem[Button], template=panel_ids.PAGE):
    """Prev / Next: another page of an action's fields."""

    component = discord.ui.Button

    def __init__(self, item: Button, key: PanelKey | None, spec: int, page: int) -> None:
        super().__init__(item)
        self.key, self.spec, self.page = key, spec, page

    @classmethod
    def make(cls, key: PanelKey, spec: int, page: int, label: str) -> PageButton:
        item = _button(key.custom_id("page", spec, page), label, Style.secondary,
                       SELECTS_PER_PAGE)
        return cls(item, key, spec, page)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PageButton:
        return cls(item, PanelKey.of_match(match), int(match["spec"]),  # type: ignore[arg-type]
                   int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            spec_at(self.panel.request.actions, self.spec)
            await show(interaction, self.panel, Mode(spec=self.spec, page=self.page))

        await guarded(interaction, work)


class SubmitButton(SeatCheck, discord.ui.DynamicItem[Button], template=panel_ids.SUBMIT):
    """Sends one action with the choices drafted (or at once, from the overview, for an
    action without fields)."""

    component = discord.ui.Button

    def __init__(self, item: Button, key: PanelKey | None, spec: int) -> None:
        super().__init__(item)
        self.key, self.spec = key, spec

    @classmethod
    def make(cls, key: PanelKey, spec: int, label: str, style: Style, row: int) -> SubmitButton:
        return cls(_button(key.custom_id("sub", spec), label, style, row), key, spec)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SubmitButton:
        return cls(item, PanelKey.of_match(match), int(match["spec"]))  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: submit(interaction, self.panel, self.spec))


class NumberButton(SeatCheck, discord.ui.DynamicItem[Button], template=panel_ids.NUMBER):
    """A number field: shows the value and opens a text box for it (``cogs.panel_modal``)."""

    component = discord.ui.Button

    def __init__(
        self, item: Button, key: PanelKey | None, spec: int, field: int, page: int
    ) -> None:
        super().__init__(item)
        self.key, self.spec, self.field, self.page = key, spec, field, page

    @classmethod
    def make(cls, key: PanelKey, spec: int, f: int, page: int, field: InputField,
             chosen: list[str], row: int) -> NumberButton:
        low, high = drafts.number_range(field) or (0, 0)
        shown = chosen[0] if chosen else f"enter a number ({low}-{high})"
        item = _button(key.custom_id("num", spec, f, page), clip(f"{field.label}: {shown}", 80),
                       Style.secondary if chosen else Style.primary, row)
        return cls(item, key, spec, f, page)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> NumberButton:
        return cls(item, PanelKey.of_match(match), int(match["spec"]),  # type: ignore[arg-type]
                   int(match["field"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            panel = self.panel
            spec = spec_at(panel.request.actions, self.spec)
            field = number_field(spec, self.field)
            await interaction.response.send_modal(number_modal(
                PanelKey.of(panel), self.spec, self.field, self.page, field,
                draft_values(panel, spec, field)))

        await guarded(interaction, work)


class ChoiceSelect(SeatCheck, discord.ui.DynamicItem[Select], template=panel_ids.CHOICE):
    """A Select: one chunk (25 options at most) of one field; a choice is saved as the
    field's draft and the page is drawn again."""

    component = discord.ui.Select

    def __init__(self, item: Select, key: PanelKey | None, spec: int, field: int, chunk: int,
                 page: int) -> None:
        super().__init__(item)
        self.key, self.spec, self.field, self.chunk, self.page = key, spec, field, chunk, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ChoiceSelect:
        return cls(item, PanelKey.of_match(match), int(match["spec"]),  # type: ignore[arg-type]
                   int(match["field"]), int(match["chunk"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self._choose(interaction))

    async def _choose(self, interaction: discord.Interaction) -> None:
        panel = self.panel
        spec = spec_at(panel.request.actions, self.spec)
        if (self.field, self.chunk) not in chunks_of(spec):
            raise InvalidState(STALE)
        field = spec.fields[self.field]
        values = merge_chunk(field, self.chunk, draft_values(panel, spec, field),
                             list(self.item.values))
        key = PanelKey.of(panel)
        await service_of(interaction).save_draft(
            actor_of(interaction), key.campaign_id, key.step_no, spec.type, field.name, values,
            seat=key.seat,
        )
        await show(interaction, await load_panel(interaction, key),
                   Mode(spec=self.spec, page=self.page))


class UnreadableId(discord.ui.DynamicItem[discord.ui.Item[Any]],
                   template=panel_ids.UNREADABLE):
    """Any other ``adm:`` id (garbled, forged, of no verb): refused, so the clicker gets an
    answer rather than Discord's "This interaction failed"."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> UnreadableId:
        return cls(item)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        await admit(interaction, None)  # no key: the refusal for an id we cannot read
        return False


PANEL_ITEMS = (OpenButton, BackButton, PageButton, SubmitButton, NumberButton, ChoiceSelect,
               UnreadableId)


# ---------------------------------------------------------------- what a click shows


async def show(interaction: discord.Interaction, panel: Panel, mode: Mode) -> None:
    content, view = render(panel, mode)
    await interaction.response.edit_message(content=content, view=view)


async def show_typed(
    interaction: discord.Interaction, panel: Panel, spec: int, page: int
) -> None:
    """After a number typed in the Modal: the page it was typed from."""
    if interaction.message is None:  # a modal not opened from a panel message
        await interaction.response.send_message("Saved.", ephemeral=True)
        return
    await show(interaction, panel, Mode(spec=spec, page=page))


async def submit(interaction: discord.Interaction, panel: Panel, s: int) -> None:
    key = PanelKey.of(panel)
    spec = spec_at(panel.request.actions, s)
    action = build_action(panel, spec)  # a missing choice is refused before anything
    # The last submission resolves the step (rules, pictures): acknowledge within
    # Discord's 3 seconds first, then edit the panel with the result.
    await interaction.response.defer()
    service = service_of(interaction)
    result = await service.submit(
        actor_of(interaction), key.campaign_id, key.step_no, action, seat=key.seat
    )
    summary = describe_action(panel.request, action)
    try:
        after = await load_panel(interaction, key)
    except InvalidState:
        after = None
    shown = interaction.message
    if shown is not None and await service.panel_rewritten(
            interaction.user.id, shown.id, key.step_no):
        # the bot is making this DM the next panel (or news) already: a "done" reply
        # would overwrite it (P-9)
        return
    if after is not None:
        # Still open (sealed orders can change until all are in; an open step goes on):
        # show what is in and keep the buttons.
        if after.request.kind == "sealed":
            waiting = ", ".join(result.waiting_for)
            note = f"Still waiting for: {waiting}." if waiting else ""
        else:
            note = f"Done: {summary}."
        mode = initial_mode(after.request) if after.request.kind == "sealed" else Mode()
        content, view = render(after, mode, note)
        await interaction.edit_original_response(content=content, view=view)
        return
    if panel.request.kind == "sealed":
        text = (
            f"{panel.request.prompt}\nYour orders are in: {summary}. "
            "Everyone has submitted; the results follow in the campaign channel."
        )
    else:
        text = f"{panel.request.prompt}\nDone: {summary}."
    await interaction.edit_original_response(content=text, view=None)


# ---------------------------------------------------------------- layout


def render(panel: Panel, mode: Mode | None = None, note: str = "") -> tuple[str, discord.ui.View]:
    """Content and View for a panel in the given mode."""
    mode = mode or initial_mode(panel.request)
    key = PanelKey.of(panel)
    view = discord.ui.View(timeout=None)
    if mode.spec is None or not 0 <= mode.spec < len(panel.request.actions):
        _overview(view, key, panel.request)
        return panel_content(panel, None, note), view
    spec = panel.request.actions[mode.spec]
    page = min(max(mode.page, 0), page_count(spec) - 1)
    _spec_page(view, key, panel, mode.spec, page)
    return panel_content(panel, spec, note, page), view


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
        label = clip(spec.label, 80)
        style = Style.danger if spec.destructive else Style.primary
        opens = spec.fields or spec.confirm or spec.destructive
        kind = OpenButton if opens else SubmitButton
        view.add_item(kind.make(key, i, label, style, row))


def _spec_page(view: discord.ui.View, key: PanelKey, panel: Panel, s: int, page: int) -> None:
    spec = panel.request.actions[s]
    chunks = chunks_of(spec)
    shown = chunks[page * SELECTS_PER_PAGE : (page + 1) * SELECTS_PER_PAGE]
    for row, (f, c) in enumerate(shown):
        field = spec.fields[f]
        chosen = draft_values(panel, spec, field)
        if drafts.number_range(field) is not None:
            view.add_item(NumberButton.make(key, s, f, page, field, chosen, row))
            continue
        if not field.options:
            continue  # Discord refuses an empty Select; the rules will say what is missing
        select = choice_menu(field, c, len(chunks_of_field(spec, f)), chosen)
        select.custom_id = key.custom_id("sel", s, f, c, page)
        select.row = row
        view.add_item(ChoiceSelect(select, key, s, f, c, page))
    row = SELECTS_PER_PAGE
    if spec.destructive:
        view.add_item(SubmitButton.make(key, s, clip(f"Confirm: {spec.label}", 80),
                                        Style.danger, row))
    else:
        view.add_item(SubmitButton.make(key, s, "Submit", Style.success, row))
    if len(panel.request.actions) > 1:
        view.add_item(BackButton.make(key, "Back", Style.secondary, row))
    if page > 0:
        view.add_item(PageButton.make(key, s, page - 1, "◀ Prev"))
    if page + 1 < page_count(spec):
        view.add_item(PageButton.make(key, s, page + 1, "Next ▶"))
