"""What a panel's saved choices amount to: the effective value of every field, the action
they make, and number entries.

A draft is ``{action_type: {field_name: [values]}}`` (``save_draft``), its action types in
the order the player last touched them. A field the player has not touched holds its own
default, from the request's default action (or the only option of a required field), however
many other fields they changed: the panel shows it, Submit sends it, and a deadline takes it.
Pure functions over the request and the draft: the panel (cogs) and the deadline (service)
read drafts the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from bot.errors import InvalidInput, RulesError
from bot.rules.base import ActionSpec, InputField, Request

SELECT_OPTIONS = 25  # what one Discord Select holds
_WHOLE = re.compile(r"[+-]?[0-9]{1,9}")


def number_range(field: InputField) -> tuple[int, int] | None:
    """(lowest, highest) when the field is answered by typing a number: a ``number`` field, or
    a Select too wide for one menu whose options are the whole numbers of a range."""
    if field.kind == "number":
        return field.minimum, field.maximum
    if len(field.options) <= SELECT_OPTIONS or field.max_values != 1:
        return None
    values = [o.value for o in field.options]
    if not all(_WHOLE.fullmatch(v) and str(int(v)) == v for v in values):
        return None
    numbers = [int(v) for v in values]
    if numbers != list(range(numbers[0], numbers[0] + len(numbers))):
        return None
    return numbers[0], numbers[-1]


def check_number(field: InputField, text: str) -> str:
    """A typed answer for a number field, as the action holds it; a clear refusal otherwise."""
    bounds = number_range(field)
    assert bounds is not None, "only number fields take typed numbers"
    low, high = bounds
    allowed = f"enter a whole number from {low} to {high}"
    typed = text.strip()
    if not _WHOLE.fullmatch(typed):
        shown = typed[:20] or "nothing"
        raise InvalidInput(f"{field.label}: '{shown}' is not a whole number; {allowed}.")
    number = int(typed)
    if not low <= number <= high:
        raise InvalidInput(f"{field.label}: {number} is out of range; {allowed}.")
    return str(number)


def not_offered(fields: Iterable[InputField], values: Iterable[Any]) -> list[Any]:
    """Those of ``values`` that none of ``fields`` offers as an option (a list, as a None
    value can be one of them); empty when all are offered. Fields that offer no options at
    all take any value (rule sets with richer panels check those themselves). The one
    legal-option check: submit (``steps``), a saved Select choice (``submissions``) and a
    field's default here all ask it (P-32)."""
    legal = {o.value for f in fields for o in f.options}
    return [v for v in values if legal and v not in legal]


def _legal(field: InputField, values: list[Any]) -> bool:
    if field.kind == "number":
        try:
            return all(check_number(field, str(v)) == str(v) for v in values)
        except InvalidInput:
            return False
    return not not_offered([field], [str(v) for v in values])


def field_default(request: Request, spec: ActionSpec, field: InputField) -> Any:
    """What a field holds until the player touches it: its value in the request's default
    action (e.g. Orbits' proposed discards, O-15) when that is legal here; else the only
    option of a required field; else nothing."""
    default = request.default or {}
    if default.get("type") == spec.type and field.name in default:
        value = default[field.name]
        values = value if isinstance(value, list) else [value]
        if _legal(field, values):
            return value
    if len(field.options) == 1 and field.min_values >= 1:
        return field.options[0].value
    return None


def field_values(
    request: Request, spec: ActionSpec, field: InputField, draft: dict[str, Any]
) -> list[str]:
    """The effective values of a field: the player's own choice once they made one (an empty
    choice included), else the field's default."""
    by_type = draft.get(spec.type) if isinstance(draft, dict) else None
    raw = by_type.get(field.name) if isinstance(by_type, dict) else None
    if raw is None:
        raw = field_default(request, spec, field)
    if raw is None:
        return []
    return [raw] if isinstance(raw, str) else [str(v) for v in raw]


def build_action(request: Request, spec: ActionSpec, draft: dict[str, Any]) -> dict[str, Any]:
    """The action the draft and the defaults make; refuses when a required choice is missing."""
    action: dict[str, Any] = {"type": spec.type}
    for field in spec.fields:
        values = field_values(request, spec, field, draft)
        if len(values) < field.min_values:
            where = "with its button" if number_range(field) else "in the menu above Submit"
            raise InvalidInput(f"Choose {field.label} first ({where}).")
        if field.max_values == 1:
            if values:
                action[field.name] = values[0]
        else:
            action[field.name] = values
    return action


def check_numbers(request: Request, action: dict[str, Any]) -> None:
    """Number fields hold a whole number in their range (a Select's options are checked by
    ``validate_action``; a number field has none)."""
    for spec in request.actions:
        if spec.type != action.get("type"):
            continue
        for field in spec.fields:
            value = action.get(field.name)
            if field.kind != "number" or value is None:
                continue
            values = value if isinstance(value, list) else [value]
            if not _legal(field, values):
                raise RulesError(f"{field.label}: enter a whole number from {field.minimum} "
                                 f"to {field.maximum}.", ruling="P-32")


def drafted_actions(request: Request, draft: dict[str, Any]) -> list[dict[str, Any]]:
    """The actions the player's last-touched kind of action makes with its defaults (one per
    spec of that type that has every required choice), the spec that the drafted values fit
    best first (Orbits offers one 'depart' per origin); none when nothing was drafted. A
    destructive action (concede) is never taken from a draft: it needs its confirmation."""
    if not isinstance(draft, dict) or not draft:
        return []
    latest = list(draft)[-1]
    drafted = draft.get(latest)
    if not isinstance(drafted, dict):
        return []
    specs = [s for s in request.actions if s.type == latest and not s.destructive]

    def fit(spec: ActionSpec) -> int:
        return sum(1 for f in spec.fields
                   if f.name in drafted and _legal(f, list(drafted[f.name] or [])))

    out = []
    for spec in sorted(specs, key=fit, reverse=True):
        try:
            out.append(build_action(request, spec, draft))
        except InvalidInput:
            continue
    return out


def summary_lines(request: Request, spec: ActionSpec, draft: dict[str, Any]) -> list[str]:
    """One line per field with its effective choice, by option label."""
    lines = []
    for field in spec.fields:
        values = field_values(request, spec, field, draft)
        labels = {o.value: o.label for o in field.options}
        shown = ", ".join(labels.get(v, v) for v in values)
        if not shown:
            shown = "not chosen yet" if field.min_values else "none"
        lines.append(f"{field.label}: {shown}")
    return lines
