"""Typed numbers on panels: a button opens a Modal with one text box; its answer is checked
(a whole number in range) and saved as the field's draft.

The Modal's custom id ``adm:<campaign>:<step>:<seat>:set:<spec>.<field>.<page>`` names the
seat like every panel component, and anyone can forge a modal submission with any id. So the
submission goes through the same seat-holder check (``cogs.panel_guard.admit``) before
anything is read or saved. Submissions are taken by the Panels cog's interaction listener,
never by a Modal object kept in memory (discord.py forgets those at a restart, and would
answer a forged id with silence): the Modal is sent already stopped, so the library keeps no
copy of it.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.campaign import drafts
from bot.errors import InvalidState
from bot.rules.base import ActionSpec, InputField
from cogs.answers import guarded
from cogs.common import actor_of, clip, service_of
from cogs.panel_guard import (
    MODAL_VERBS,
    STALE,
    Admitted,
    PanelKey,
    admit,
    load_panel,
    parse_custom_id,
)

TEXT_ID = "number"


class ModalEntry(Admitted):
    """A modal submission, admitted like a panel component before its panel is read."""

    def __init__(self, custom_id: str) -> None:
        parsed = parse_custom_id(custom_id, MODAL_VERBS)
        self.key, self.arg = parsed.key, parsed.arg


def number_modal(key: PanelKey, arg: str, field: InputField, current: list[str]) -> Any:
    """The Modal asking for one field's number (sent stopped: see the module's note)."""
    low, high = drafts.number_range(field) or (0, 0)
    modal = discord.ui.Modal(title=clip(field.label, 45), custom_id=key.custom_id("set", arg))
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


def target(spec_fields: list[InputField], arg: str) -> tuple[int, InputField, int]:
    """(field index, field, page) named by a ``num``/``set`` argument; stale otherwise."""
    parts = [int(p) for p in arg.split(".") if p]
    if len(parts) != 3 or not 0 <= parts[1] < len(spec_fields):
        raise InvalidState(STALE)
    field = spec_fields[parts[1]]
    if drafts.number_range(field) is None:
        raise InvalidState(STALE)
    return parts[1], field, parts[2]


def spec_of(actions: list[ActionSpec], arg: str) -> tuple[int, ActionSpec]:
    first = arg.split(".")[0]
    if not first or not 0 <= int(first) < len(actions):
        raise InvalidState(STALE)
    return int(first), actions[int(first)]


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


async def on_modal(interaction: discord.Interaction, show: Any) -> None:
    """A number typed in a panel's Modal: holder check, then range check, then the draft;
    ``show(interaction, panel, spec_index, page)`` redraws the panel."""
    custom_id = str((interaction.data or {}).get("custom_id", ""))
    entry = ModalEntry(custom_id)
    if not await admit(entry, interaction):
        return

    async def work() -> None:
        panel = entry.panel
        s, spec = spec_of(panel.request.actions, entry.arg)
        _f, field, page = target(spec.fields, entry.arg)
        value = drafts.check_number(field, typed_text(interaction.data))
        key = PanelKey.of(panel)
        await service_of(interaction).save_draft(
            actor_of(interaction), key.campaign_id, key.step_no, spec.type, field.name,
            [value], seat=key.seat,
        )
        await show(interaction, await load_panel(interaction, key), s, page)

    await guarded(interaction, work)
