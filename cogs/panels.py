"""Handles clicks and choices on panels (see ``cogs.panel_view`` for the layout).

Every callback here runs only after ``cogs.panel_guard.admit`` has checked that the clicker
holds the panel's seat, and reads the panel from the admitted item; the service calls act for
that seat (``seat=``), never for whichever seat the clicker happens to hold."""

from __future__ import annotations

import discord
from discord.ext import commands

from bot.campaign.models import Panel
from bot.errors import InvalidState
from cogs import panel_modal
from cogs.answers import guarded
from cogs.common import actor_of, service_of
from cogs.panel_guard import STALE, PanelKey, load_panel
from cogs.panel_view import (
    Mode,
    PanelButton,
    PanelSelect,
    build_action,
    chunks_of,
    describe_action,
    draft_values,
    initial_mode,
    merge_chunk,
    render,
)


def _ints(arg: str) -> list[int]:
    # the argument's syntax was checked when the custom id was parsed (cogs.panel_guard)
    return [int(part) for part in arg.split(".") if part]


class Panels(commands.Cog):
    """Callbacks of every panel component."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PanelButton, PanelSelect)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(PanelButton, PanelSelect)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every submission of a panel's number Modal (see ``cogs.panel_modal``)."""
        if interaction.type != discord.InteractionType.modal_submit:
            return
        custom_id = (interaction.data or {}).get("custom_id")
        if isinstance(custom_id, str) and custom_id.startswith("adm:"):
            await panel_modal.on_modal(interaction, self._show_typed)

    async def _show_typed(
        self, interaction: discord.Interaction, panel: Panel, s: int, page: int
    ) -> None:
        if interaction.message is None:  # a modal not opened from a panel message
            await interaction.response.send_message("Saved.", ephemeral=True)
            return
        await self._show(interaction, panel, Mode(spec=s, page=page))

    async def on_button(self, item: PanelButton, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self._button(item, interaction))

    async def on_select(self, item: PanelSelect, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self._select(item, interaction))

    async def _button(self, item: PanelButton, interaction: discord.Interaction) -> None:
        panel = item.panel
        args = _ints(item.arg)
        if item.verb == "back":
            await self._show(interaction, panel, Mode())
        elif item.verb == "open":
            await self._show(interaction, panel, Mode(spec=_spec_index(panel, args)))
        elif item.verb == "num":
            s, spec = panel_modal.spec_of(panel.request.actions, item.arg)
            _f, field, _page = panel_modal.target(spec.fields, item.arg)
            modal = panel_modal.number_modal(
                PanelKey.of(panel), item.arg, field, draft_values(panel, spec, field)
            )
            await interaction.response.send_modal(modal)
        elif item.verb == "page":
            spec = _spec_index(panel, args)
            await self._show(interaction, panel, Mode(spec=spec, page=args[1] if args[1:] else 0))
        else:
            await self._submit(interaction, PanelKey.of(panel), panel, _spec_index(panel, args))

    async def _select(self, item: PanelSelect, interaction: discord.Interaction) -> None:
        panel = item.panel
        args = _ints(item.arg)
        if len(args) != 4:
            raise InvalidState(STALE)
        s, f, c, page = args
        spec = panel.request.actions[_spec_index(panel, [s])]
        if not 0 <= f < len(spec.fields) or (f, c) not in chunks_of(spec):
            raise InvalidState(STALE)
        field = spec.fields[f]
        values = merge_chunk(field, c, draft_values(panel, spec, field), list(item.item.values))
        key = PanelKey.of(panel)
        await service_of(interaction).save_draft(
            actor_of(interaction), key.campaign_id, key.step_no, spec.type, field.name, values,
            seat=key.seat,
        )
        await self._show(interaction, await load_panel(interaction, key), Mode(spec=s, page=page))

    async def _show(self, interaction: discord.Interaction, panel: Panel, mode: Mode) -> None:
        content, view = render(panel, mode)
        await interaction.response.edit_message(content=content, view=view)

    async def _submit(
        self, interaction: discord.Interaction, key: PanelKey, panel: Panel, s: int
    ) -> None:
        spec = panel.request.actions[s]
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


def _spec_index(panel: Panel, args: list[int]) -> int:
    if not args or not 0 <= args[0] < len(panel.request.actions):
        raise InvalidState(STALE)
    return args[0]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Panels(bot))
