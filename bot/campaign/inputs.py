"""Shape and range checks for what intents receive, run before anything is loaded or written.

The rules check what an action means; these checks make sure it is something they can read:
a flat dict of short strings, numbers and flags, and ids SQLite can store (signed 64-bit).
"""

from __future__ import annotations

from typing import Any

from bot.errors import InvalidInput

MAX_ID = 2**63 - 1  # SQLite INTEGER is signed 64-bit
MAX_ENTRIES = 128  # HRFT orders: 12 ships x 6 fields, plus type and note
MAX_KEY = 100  # a field name (custom ids are 100 characters at most)
MAX_TYPE = 64
MAX_TEXT = 1000  # the longest free text an action carries is a 300-character note
# An uploaded file's text (HRFT add_file/add_design "content"; a Fleet Manager fleet is several
# kB): as long as an upload may be (safe_load.MAX_BYTES), read by safe_load in the rules.
FILE_FIELD = "content"
MAX_FILE_TEXT = 200_000
MAX_LIST = 100
MAX_DRAFT_VALUE = 100  # a Select option value is at most 100 characters
MAX_INT = 10**9

Scalar = str | int | bool


def check_id(what: str, value: object) -> int:
    """An id or step number: a whole number from 0 to 2^63-1."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ID:
        raise InvalidInput(f"The {what} must be a whole number from 0 to {MAX_ID}.")
    return value


def check_text(what: str, value: object, limit: int) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"The {what} must be text, not {_kind(value)}.")
    if not value or len(value) > limit:
        raise InvalidInput(f"The {what} must be 1 to {limit} characters long.")
    return value


def check_action(action: object) -> dict[str, Any]:
    """An action: a dict with a text ``type`` and at most MAX_ENTRIES fields, each a text,
    a whole number, a yes/no, nothing, or a flat list of those."""
    if not isinstance(action, dict):
        raise InvalidInput(f"An action must be a set of named fields, not {_kind(action)}.")
    if len(action) > MAX_ENTRIES:
        raise InvalidInput(f"An action has at most {MAX_ENTRIES} fields (got {len(action)}).")
    check_text("action type", action.get("type"), MAX_TYPE)
    for key, value in action.items():
        check_text("field name", key, MAX_KEY)
        if isinstance(value, list):
            if len(value) > MAX_LIST:
                raise InvalidInput(f"The field '{key}' holds at most {MAX_LIST} values.")
            for item in value:
                _check_scalar(key, item)
        else:
            _check_scalar(key, value)
    return action


def check_draft(action_type: object, field: object, values: object, limit: int) -> list[str]:
    """A Select choice: the action type, the field name, and at most ``limit`` short texts."""
    check_text("action type", action_type, MAX_TYPE)
    check_text("field name", field, MAX_KEY)
    if not isinstance(values, list):
        raise InvalidInput(f"The chosen values must be a list, not {_kind(values)}.")
    if len(values) > limit:
        raise InvalidInput(f"At most {limit} values can be chosen.")
    for value in values:
        if not isinstance(value, str) or len(value) > MAX_DRAFT_VALUE:
            raise InvalidInput(f"Each chosen value is a text of at most {MAX_DRAFT_VALUE} "
                               "characters.")
    return values


def _check_scalar(key: str, value: object) -> None:
    if value is None or isinstance(value, bool):  # None: the field is left out
        return
    if isinstance(value, int):
        if not -MAX_INT <= value <= MAX_INT:
            raise InvalidInput(f"The field '{key}': numbers go from {-MAX_INT} to {MAX_INT}.")
        return
    if isinstance(value, str):
        limit = MAX_FILE_TEXT if key == FILE_FIELD else MAX_TEXT
        if len(value) > limit:
            raise InvalidInput(f"The field '{key}' holds at most {limit} characters.")
        return
    raise InvalidInput(
        f"The field '{key}' must be a text, a whole number, yes/no, or a list of those; "
        f"got {_kind(value)}."
    )


def _kind(value: object) -> str:
    names = {dict: "a set of fields", list: "a list", str: "a text", float: "a decimal number",
             int: "a number", bool: "yes/no", type(None): "nothing"}
    return names.get(type(value), f"a {type(value).__name__}")
