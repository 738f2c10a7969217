"""Typed numbers on panels: a button opens a Modal with one text box; its answer is checked
(a whole number in range) and saved as the field's draft.

The Modal's custom id ``adm:<campaign>:<step>:<seat>:set:<spec>.<field>.<page>``
(``cogs.panel_ids.TYPED``) names the seat like every panel component, and anyone can forge a
modal submission with any id. So the submission goes through the same seat-holder check
(``cogs.panel_guard.admit``) before anything is read or saved. Submissions are taken by the
Panels cog's interaction listener, never by a Modal object kept in memory (discord.py forgets
those at a restart, and would answer a forged id with silence): the Modal is sent already
stopped, so the library keeps no copy of it.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.campaign import drafts
from bot.campaign.models import Panel
from bot.errors import InvalidState
from bot.rules.base import ActionSpec, InputField
from cogs.answers import guarded
from cogs.common import actor_of, clip, service_of
from cogs.panel_guard import STALE, admit, load_panel
from cogs.panel_ids import TYPED, PanelKey

TEXT_ID = "number"
_TYPED = re.compile(TYPED)
# redraws the panel after a saved number: (interaction, panel, spec index, page)
Redraw = Callable[[discord.Interaction, Panel, int, int], Awaitable[None]]


def number_modal(
    key: PanelKey, spec: int, f: int, page: int, field: InputField, current: list[str]
) -> Any:
    """The Modal asking for one field's number (sent stopped: see the module's note)."""
    low, high = drafts.number_range(field) or (0, 0)
    modal = discord.ui.Modal(title=clip(field.label, 45),
                             custom_id=key.custom_id("set", spec, f, page))
    modal.add_item(discord.ui.TextInput(
        label=clip(f"A whole number from {low} to {high}", 45),
        custom_id=TEXT_ID,
        default=current[0] if current else None,
        placeholder=f"{low}-{high}",
        min_length=1,
        max_length=12,
    ))
    modal.stop()
    return modal


def number_field(spec: ActionSpec, f: int) -> InputField:
    """The field a ``num``/``set`` id names, if it takes a typed number; stale otherwise."""
    if not 0 <= f < len(spec.fields) or drafts.number_range(spec.fields[f]) is None:
        raise InvalidState(STALE)
    return spec.fields[f]


def spec_at(actions: list[ActionSpec], s: int) -> ActionSpec:
    if not 0 <= s < len(actions):
        raise InvalidState(STALE)
    return actions[s]


def typed_text(data: Any) -> str:
    """The text box's value in a modal submission's raw data (rows or labels around it)."""
    stack = list((data or {}).get("components") or [])
    while stack:
        node = stack.pop(0)
        if not isinstance(node, dict):
            continue
        if node.get("custom_id") == TEXT_ID and isinstance(node.get("value"), str):
            return str(node["value"])
        stack.extend(node.get("components") or [])
        if isinstance(node.get("component"), dict):
            stack.append(node["component"])
    return ""


async def on_modal(interaction: discord.Interaction, redraw: Redraw) -> None:
    """A number typed in a panel's Modal: holder check, then range check, then the draft."""
    match = _TYPED.fullmatch(str((interaction.data or {}).get("custom_id", "")))
    panel = await admit(interaction, PanelKey.of_match(match) if match else None)
    if match is None or panel is None:
        return
    s, f, page = int(match["spec"]), int(match["field"]), int(match["page"])

    async def work() -> None:
        spec = spec_at(panel.request.actions, s)
        field = number_field(spec, f)
        value = drafts.check_number(field, typed_text(interaction.data))
        key = PanelKey.of(panel)
        await service_of(interaction).save_draft(
            actor_of(interaction), key.campaign_id, key.step_no, spec.type, field.name,
            [value], seat=key.seat,
        )
        await redraw(interaction, await load_panel(interaction, key), s, page)

    await guarded(interaction, work)
