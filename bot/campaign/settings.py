"""Campaign settings: timing settings (any time) and rule-set options (before the start)."""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, ValidationError

from bot.errors import InvalidInput, InvalidState
from bot.rules.base import Ruleset

TIMING_DEFAULTS: dict[str, Any] = {"step_hours": 48.0, "reminders": [12.0, 1.0],
                                   "on_deadline": "default", "missed_warning": 3}
MAX_MISSED_WARNING = 50
LONG_VALUE = 80  # longer (or multi-line) values are listed by size, not inline
TIMING_HELP = {
    "step_hours": "hours per step, a number >= 0 (0 = no deadline)",
    "reminders": "hours before the deadline, comma-separated numbers > 0 (e.g. 12,1), or none",
    "on_deadline": "default (missing input takes its default) or wait (tell the GM and wait)",
    "missed_warning": f"a whole number 0..{MAX_MISSED_WARNING}: warn the GM when a seat missed "
                      "that many deadlines in a row (0 = never)",
}


def _hours(value: str) -> float:
    number = float(value)
    if not math.isfinite(number) or number < 0:
        raise ValueError
    return number


def parse_timing(key: str, value: str) -> Any:
    """One timing setting from its text; InvalidInput says what is allowed."""
    text = value.strip().lower()
    try:
        if key == "step_hours":
            return _hours(text)
        if key == "reminders":
            if text in ("", "none", "off"):
                return []
            offsets = sorted({_hours(part) for part in text.split(",")}, reverse=True)
            if any(o <= 0 for o in offsets):
                raise ValueError
            return offsets
        if key == "on_deadline" and text in ("default", "wait"):
            return text
        if key == "missed_warning":
            number = int(text)
            if not 0 <= number <= MAX_MISSED_WARNING:
                raise ValueError
            return number
    except ValueError:
        pass
    raise InvalidInput(f"Bad value '{value}' for {key}: {TIMING_HELP[key]}.")


def option_fields(ruleset: Ruleset) -> list[str]:
    return list(ruleset.options_model.model_fields)


def allowed_keys(ruleset: Ruleset) -> list[str]:
    return [*TIMING_DEFAULTS, *option_fields(ruleset)]


def apply_changes(
    ruleset: Ruleset, settings: dict[str, Any], options: dict[str, Any],
    changes: dict[str, str], *, started: bool,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """New (settings, options) with every change applied, or an error and nothing changed."""
    allowed = allowed_keys(ruleset)
    unknown = sorted(k for k in changes if k not in allowed)
    if unknown:
        raise InvalidInput(f"Unknown setting {', '.join(unknown)}. Allowed: {', '.join(allowed)}.")
    new_settings = {**settings}
    new_options = {**options}
    for key, value in changes.items():
        if key in TIMING_DEFAULTS:
            new_settings[key] = parse_timing(key, value)
        elif started:
            raise InvalidState(f"Rule-set option {key} can only be changed before the start.")
        else:
            new_options[key] = value
    if new_options != options:
        new_options = validate_options(ruleset, new_options)
    return new_settings, new_options


def validate_options(ruleset: Ruleset, options: dict[str, Any]) -> dict[str, Any]:
    try:
        model = ruleset.options_model.model_validate(options)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in exc.errors()
        )
        raise InvalidInput(f"Bad rule-set option: {problems}.") from exc
    return model.model_dump(mode="json")


def options_model(ruleset: Ruleset, options: dict[str, Any]) -> BaseModel:
    return ruleset.options_model.model_validate(options)


def timing(settings: dict[str, Any]) -> dict[str, Any]:
    return {**TIMING_DEFAULTS, **settings}


HIDDEN_VALUE = "(hidden: only the GM sees it)"


def secret_options(ruleset: Ruleset) -> set[str]:
    """Options the rule set marks secret with ``Field(json_schema_extra={"secret": True})``
    (an FTCamp scenario holds every player's forces): only the GM may read them."""
    return {name for name, f in ruleset.options_model.model_fields.items()
            if isinstance(f.json_schema_extra, dict) and f.json_schema_extra.get("secret")}


def shown(
    settings: dict[str, Any], options: dict[str, Any], hidden: set[str] | None = None
) -> dict[str, str]:
    """Every setting as text, for replies and /campaign settings; ``hidden`` options that
    are set show as HIDDEN_VALUE."""
    out: dict[str, str] = {}
    for key, value in timing(settings).items():
        if key == "reminders":
            out[key] = ",".join(f"{o:g}" for o in value) or "none"
        elif key == "step_hours":
            out[key] = f"{value:g}"
        else:
            out[key] = str(value)
    for key, value in options.items():
        out[key] = HIDDEN_VALUE if value and key in (hidden or set()) else str(value)
    return out


def is_short(value: str) -> bool:
    """A value that reads well inline: one line of at most LONG_VALUE characters."""
    return len(value) <= LONG_VALUE and "\n" not in value


def brief(key: str, value: str) -> str:
    """A value as the settings list shows it: short values as they are, long or multi-line
    ones (a scenario file is a setting) by their size and how to see them in full."""
    if is_short(value):
        return value
    return f"({len(value)} characters; `/campaign settings key:{key}` shows it)"
