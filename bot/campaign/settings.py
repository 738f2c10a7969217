"""Campaign settings: timing settings (any time) and rule-set options (before the start)."""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, ValidationError

from bot.errors import InvalidInput, InvalidState
from bot.rules.base import Ruleset

TIMING_DEFAULTS: dict[str, Any] = {"step_hours": 48.0, "reminders": [12.0, 1.0],
                                   "on_deadline": "default", "missed_warning": 3,
                                   "away_after": 3}
MAX_MISSED_WARNING = 50
MAX_AWAY_AFTER = 50  # P-26: deadlines missed in a row before a seat is away
# P-12: bounds of the timing settings. A deadline further away than 30 days is no deadline
# a group waits for, and an unbounded one overflowed the date (year 116109 for 1e9 hours).
MAX_STEP_HOURS = 720.0
MIN_STEP_HOURS = 0.1  # six minutes; 0 still means no deadline
MAX_REMINDERS = 5
MAX_VALUE_CHARS = 100  # a timing value is a short text; longer is refused unread
MAX_OPTION_CHARS = 200_000  # a rule-set option's text (an FTCamp scenario file is one)
LONG_VALUE = 80  # longer (or multi-line) values are listed by size, not inline
TIMING_HELP = {
    "step_hours": f"hours per step, 0 (no deadline) or a number from {MIN_STEP_HOURS:g} to "
                  f"{MAX_STEP_HOURS:g} (30 days)",
    "reminders": f"hours before the deadline, up to {MAX_REMINDERS} comma-separated numbers "
                 f"above 0 and at most {MAX_STEP_HOURS:g} (e.g. 12,1), or none",
    "on_deadline": "default (missing input takes its default) or wait (tell the GM and wait)",
    "missed_warning": f"a whole number 0..{MAX_MISSED_WARNING}: warn the GM when a seat missed "
                      "that many deadlines in a row (0 = never)",
    "away_after": f"a whole number 0..{MAX_AWAY_AFTER}: a seat that missed that many deadlines "
                  "in a row is away and takes its defaults at once until its player acts "
                  "(0 = never)",
}
WHOLE_NUMBERS = {"missed_warning": MAX_MISSED_WARNING, "away_after": MAX_AWAY_AFTER}


def _hours(value: str, low: float) -> float:
    number = float(value)
    if not math.isfinite(number) or not low <= number <= MAX_STEP_HOURS:
        raise ValueError
    return number


def _step_hours(text: str) -> float:
    number = float(text)
    return 0.0 if number == 0 else _hours(text, MIN_STEP_HOURS)


def parse_timing(key: str, value: Any) -> Any:
    """One timing setting from its text; InvalidInput says what is allowed."""
    if not isinstance(value, str) or len(value) > MAX_VALUE_CHARS:
        # never repr() the value: a 5,000-digit int cannot even be turned into text
        shown = f"{len(value)} characters" if isinstance(value, str) else type(value).__name__
        raise InvalidInput(f"Bad value ({shown}) for {key}: {TIMING_HELP[key]}.")
    text = value.strip().lower()
    try:
        if key == "step_hours":
            return _step_hours(text)
        if key == "reminders":
            if text in ("", "none", "off"):
                return []
            parts = text.split(",")
            if len(parts) > MAX_REMINDERS:
                raise ValueError
            offsets = sorted({_hours(part, 0.0) for part in parts}, reverse=True)
            if any(o <= 0 for o in offsets):
                raise ValueError
            return offsets
        if key == "on_deadline" and text in ("default", "wait"):
            return text
        if key in WHOLE_NUMBERS:
            number = int(text)
            if not 0 <= number <= WHOLE_NUMBERS[key]:
                raise ValueError
            return number
    except ValueError:
        pass
    raise InvalidInput(f"Bad value '{value}' for {key}: {TIMING_HELP[key]}.")


def _stored_hours(value: Any, default: float, low: float) -> float:
    """A stored number of hours within the bounds: a value saved before the bounds existed
    (or a bad config default) is read at the nearest bound, so it cannot break a deadline."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return default
    if not math.isfinite(number) or number <= 0:
        return 0.0 if number == 0 else default
    return min(max(number, low), MAX_STEP_HOURS)


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
    if not isinstance(changes, dict) or not all(isinstance(k, str) for k in changes):
        raise InvalidInput(f"Settings are given as name and value. Allowed: {', '.join(allowed)}.")
    unknown = sorted(k[:40] for k in changes if k not in allowed)
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
            new_options[key] = _option_value(key, value)
    if new_options != options:
        new_options = validate_options(ruleset, new_options)
    return new_settings, new_options


def _option_value(key: str, value: Any) -> Any:
    """A rule-set option as given: a single value, text at most MAX_OPTION_CHARS long (the
    rule set's model then checks its type and range)."""
    if isinstance(value, str) and len(value) > MAX_OPTION_CHARS:
        raise InvalidInput(f"The value for {key} is {len(value)} characters long; at most "
                           f"{MAX_OPTION_CHARS} are allowed.")
    if not isinstance(value, str | int | float | bool):
        raise InvalidInput(f"The value for {key} must be a single text or number.")
    return value


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
    """The timing settings with defaults, every number within the bounds (P-12)."""
    out = {**TIMING_DEFAULTS, **settings}
    out["step_hours"] = _stored_hours(out["step_hours"], TIMING_DEFAULTS["step_hours"],
                                      MIN_STEP_HOURS)
    raw = out["reminders"] if isinstance(out["reminders"], list) else []
    offsets = {_stored_hours(o, 0.0, 0.0) for o in raw[:MAX_REMINDERS]}
    out["reminders"] = sorted((o for o in offsets if o > 0), reverse=True)
    for key, top in WHOLE_NUMBERS.items():  # a stored value outside the bounds: the nearest
        try:
            out[key] = min(max(int(out[key]), 0), top)
        except (TypeError, ValueError):
            out[key] = TIMING_DEFAULTS[key]
    return out


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
