"""What a player chose, in the words of the panel: for "Your orders are in: ..." lines.

The one text for it: the panel (cogs.panel_view, "Your orders are in", "Done") and the
service (defaults taken, P-27; what a deadline takes) both say a choice with this function.
Pure: a request and an action in, one line out. Field labels and option labels stand for
the raw keys and values; a field left empty is not listed ("parts: none"), and a lone
action's button label ("Submit") is not repeated."""

from __future__ import annotations

from typing import Any

from bot.rules.base import Request


def describe_action(request: Request, action: dict[str, Any]) -> str:
    """"Raiders: SF; Raiders, parts: Fang | Claw" or "Deploy a fleet card (Card: 7♥)"."""
    spec = next((s for s in request.actions if s.type == action.get("type")), None)
    if spec is None:
        return str(action.get("type") or "nothing chosen")
    parts = []
    for field in spec.fields:
        raw = action.get(field.name)
        values = [raw] if isinstance(raw, (str, int)) else list(raw or [])
        values = [v for v in values if v is not None and v != ""]
        if not values:  # left empty: not listed, whatever form "empty" takes
            continue
        labels = {o.value: o.label for o in field.options}
        parts.append(f"{field.label}: {', '.join(labels.get(str(v), str(v)) for v in values)}")
    if not parts:
        return spec.label
    if len(request.actions) == 1:
        return "; ".join(parts)
    return f"{spec.label} ({'; '.join(parts)})"
