"""Whether an action is one its request offers: its type, and each field's count of values
and legal options (P-32). The one legal-option check: a Submit, a GM's action and a draft
taken at a deadline all go through it."""

from __future__ import annotations

from typing import Any

from bot.campaign.drafts import not_offered
from bot.campaign.inputs import check_action
from bot.errors import RulesError
from bot.rules.base import ActionSpec, Request


def validate_action(request: Request, action: dict[str, Any]) -> None:
    """Checks an action against what the request offers (type, fields, legal options).

    Fields declared with no options accept any value: rule sets with richer panels check
    those themselves. The shape (a flat dict of short values) is checked first, so every
    caller, GM actions included, gets a refusal rather than a TypeError."""
    kind = check_action(action).get("type")
    candidates = [spec for spec in request.actions if spec.type == kind]
    if not candidates:
        allowed = ", ".join(dict.fromkeys(spec.type for spec in request.actions))
        raise RulesError(f"Unknown action '{kind}'. Allowed here: {allowed}.", ruling="P-32")
    # A request may offer one spec per variant of a type (e.g. one 'depart' per origin area):
    # the action is legal when it fits any of them; the first refusal explains why otherwise.
    first_error: RulesError | None = None
    for spec in candidates:
        try:
            _check_fields(spec, action)
            return
        except RulesError as err:
            first_error = first_error or err
    assert first_error is not None
    raise first_error


def _check_fields(spec: ActionSpec, action: dict[str, Any]) -> None:
    for fld in spec.fields:
        value = action.get(fld.name)
        values = value if isinstance(value, list) else ([] if value is None else [value])
        if not fld.min_values <= len(values) <= fld.max_values:
            raise RulesError(
                f"{fld.label}: choose {fld.min_values} to {fld.max_values} values, "
                f"not {len(values)}.", ruling="P-32"
            )
        bad = not_offered([fld], values)
        if bad:
            raise RulesError(f"{fld.label}: '{bad[0]}' is not one of the choices offered.",
                             ruling="P-32")
