"""Handles clicks and choices on panels (see ``cogs.panel_view`` for the layout)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord
from discord.ext import commands

from bot.campaign.models import Panel
from bot.errors import InvalidState, UserError
from cogs.common import actor_of, service_of
from cogs.panel_view import (
    Mode,
    PanelButton,
    PanelKey,
    PanelSelect,
    build_action,
    chunks_of,
    describe_action,
    draft_values,
    initial_mode,
    merge_chunk,
    render,
)

log = logging.getLogger(__name__)

STALE = "This panel is for a step that is over; use /orders to get your current panel."
APOLOGY = "Sorry, something went wrong on my side. The GM can check the bot's log."


async def run_component(
    interaction: discord.Interaction, work: Callable[[], Awaitable[None]]
) -> None:
    """The component counterpart of the app-command error handler: a UserError becomes an
    ephemeral reply; anything else gets a short apology and goes on to discord.py, which
    logs it with its traceback."""
    handled = False
    try:
        await work()
        handled = True
    except UserError as error:
        handled = True
        await _ephemeral(interaction, error.message)
    finally:
        if not handled:
            log.error("panel interaction %s failed", interaction.data, exc_info=True)
            await _ephemeral(interaction, APOLOGY)


async def _ephemeral(interaction: discord.Interaction, text: str) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def load_panel(interaction: discord.Interaction, key: PanelKey) -> Panel:
    """The panel behind a component; a step that is over gets the stale-panel answer."""
    try:
        return await service_of(interaction).panel(key.campaign_id, key.step_no, key.seat)
    except InvalidState as error:
        raise InvalidState(STALE) from error


def _ints(arg: str) -> list[int]:
    try:
        return [int(part) for part in arg.split(".") if part]
    except ValueError as error:
        raise InvalidState(STALE) from error


class Panels(commands.Cog):
    """Callbacks of every panel component."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PanelButton, PanelSelect)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(PanelButton, PanelSelect)

    async def on_button(self, item: PanelButton, interaction: discord.Interaction) -> None:
        await run_component(interaction, lambda: self._button(item, interaction))

    async def on_select(self, item: PanelSelect, interaction: discord.Interaction) -> None:
        await run_component(interaction, lambda: self._select(item, interaction))

    async def _button(self, item: PanelButton, interaction: discord.Interaction) -> None:
        panel = await load_panel(interaction, item.key)
        args = _ints(item.arg)
        if item.verb == "back":
            await self._show(interaction, panel, Mode())
        elif item.verb == "open":
            await self._show(interaction, panel, Mode(spec=_spec_index(panel, args)))
        elif item.verb == "page":
            spec = _spec_index(panel, args)
            await self._show(interaction, panel, Mode(spec=spec, page=args[1] if args[1:] else 0))
        else:
            await self._submit(interaction, item.key, panel, _spec_index(panel, args))

    async def _select(self, item: PanelSelect, interaction: discord.Interaction) -> None:
        panel = await load_panel(interaction, item.key)
        args = _ints(item.arg)
        if len(args) != 4:
            raise InvalidState(STALE)
        s, f, c, page = args
        spec = panel.request.actions[_spec_index(panel, [s])]
        if not 0 <= f < len(spec.fields) or (f, c) not in chunks_of(spec):
            raise InvalidState(STALE)
        field = spec.fields[f]
        values = merge_chunk(field, c, draft_values(panel, spec, field), list(item.item.values))
        service = service_of(interaction)
        key = item.key
        await service.save_draft(
            actor_of(interaction), key.campaign_id, key.step_no, spec.type, field.name, values
        )
        panel = await service.panel(key.campaign_id, key.step_no, key.seat)
        await self._show(interaction, panel, Mode(spec=s, page=page))

    async def _show(self, interaction: discord.Interaction, panel: Panel, mode: Mode) -> None:
        content, view = render(panel, mode)
        await interaction.response.edit_message(content=content, view=view)

    async def _submit(
        self, interaction: discord.Interaction, key: PanelKey, panel: Panel, s: int
    ) -> None:
        spec = panel.request.actions[s]
        action = build_action(panel, spec)
        service = service_of(interaction)
        result = await service.submit(
            actor_of(interaction), key.campaign_id, key.step_no, action
        )
        summary = describe_action(panel.request, action)
        try:
            after = await service.panel(key.campaign_id, key.step_no, key.seat)
        except InvalidState:
            after = None
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
            await interaction.response.edit_message(content=content, view=view)
            return
        if panel.request.kind == "sealed":
            text = (
                f"{panel.request.prompt}\nYour orders are in: {summary}. "
                "Everyone has submitted; the results follow in the campaign channel."
            )
        else:
            text = f"{panel.request.prompt}\nDone: {summary}."
        await interaction.response.edit_message(content=text, view=None)


def _spec_index(panel: Panel, args: list[int]) -> int:
    if not args or not 0 <= args[0] < len(panel.request.actions):
        raise InvalidState(STALE)
    return args[0]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Panels(bot))
