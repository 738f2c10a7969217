"""Uploaded files (bytes or text) -> plain data, refusing what would crash or stall a parser.

Every uploaded file goes through here before a rule set reads it: HRFT designs and fleets
(JSON or TOML) and FTCamp scenarios (TOML). The checks run in this order, cheapest first, so a
hostile file costs a few milliseconds at most:

1. size, before anything is decoded;
2. encoding: UTF-8, a byte-order mark tolerated (UTF-16 is named, it is what Windows editors
   save);
3. TOML dotted keys and table names with more than ``MAX_DEPTH`` parts, found by one regular
   expression before parsing (``tomllib`` reads ``a.a.a...`` in quadratic time and memory:
   20,000 parts take over a second, 100,000 exhaust the machine);
4. parsing, in C for JSON; the parser's recursion limit and ``int()``'s 4300-digit limit
   become refusals, and so do JSON's NaN and Infinity;
5. the parsed tree, walked without recursion: nesting deeper than ``MAX_DEPTH``, integers
   outside +-``MAX_INT`` (``MAX_INT_DIGITS`` digits) and non-finite numbers (``1e999``) are
   refused. Each value is checked here once, not by a Python hook per number in the parser.

Everything refused is an ``InvalidInput`` that says what was wrong and what is allowed.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from typing import Any

from bot.errors import InvalidInput

MAX_BYTES = 200_000  # the whole FB1 catalog (65 designs) is 108 kB
MAX_DEPTH = 20  # a Fleet Manager fleet nests 6 levels, an FTCamp scenario 4
MAX_INT_DIGITS = 15
MAX_INT = 10**MAX_INT_DIGITS - 1

_SEGMENT = r"""(?:[A-Za-z0-9_-]++|"(?:[^"\\\n]|\\.)*+"|'[^'\n]*+')"""
# A key of more than MAX_DEPTH dotted parts where a key may stand (line start, a table header,
# after "{" or "," in an inline table); tomllib spends time quadratic in the number of parts
# on any such key, even one it then refuses. Possessive and atomic parts keep this scan linear.
_DEEP_KEY = re.compile(
    rf"(?:^|[{{,])[ \t]*+(?:\[\[?[ \t]*+)?{_SEGMENT}"
    rf"(?>(?:[ \t]*+\.[ \t]*+{_SEGMENT}){{{MAX_DEPTH}}})",
    re.MULTILINE)


class _Refused(Exception):
    """Raised inside a parser hook; turned into InvalidInput once the parser has unwound."""


def decode(data: bytes | str, what: str, limit: int = MAX_BYTES) -> str:
    """The file as text: at most ``limit`` bytes (characters for text), UTF-8, BOM dropped."""
    size = len(data)
    if size > limit:
        raise InvalidInput(f"{what} is {-(-size // 1000)} kB; at most {limit // 1000} kB is "
                           "allowed.")
    if isinstance(data, str):
        return data[1:] if data.startswith("\ufeff") else data
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InvalidInput(f"{what} is UTF-16 text; save it as UTF-8 (with or without a BOM).")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{what} is not UTF-8 text (byte {exc.start} cannot be read); "
                           "save it as UTF-8.") from None


def _too_deep(what: str) -> InvalidInput:
    return InvalidInput(f"{what} is nested too deeply; at most {MAX_DEPTH} levels of lists, "
                        "tables or dotted keys are allowed.")


def _too_many_digits(what: str) -> InvalidInput:
    # the parsers read integers with int(), which refuses more than 4300 digits
    return InvalidInput(f"{what} holds a number with too many digits; whole numbers may "
                        f"have at most {MAX_INT_DIGITS} digits.")


def _json_constant(what: str, text: str) -> Any:
    raise _Refused(InvalidInput(f"{what} holds {text}; only finite numbers are allowed."))


def load_json(data: bytes | str, what: str, limit: int = MAX_BYTES) -> Any:
    """A JSON file as data (see the module doc for the checks)."""
    text = decode(data, what, limit)
    try:
        obj = json.loads(text, parse_constant=lambda s: _json_constant(what, s))
    except _Refused as exc:
        raise exc.args[0] from None
    except RecursionError:
        raise _too_deep(what) from None
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"{what} is not valid JSON: {exc.msg} (line {exc.lineno}).") from None
    except ValueError:
        raise _too_many_digits(what) from None
    check_tree(obj, what)
    return obj


def load_toml(data: bytes | str, what: str, limit: int = MAX_BYTES) -> dict[str, Any]:
    """A TOML file as a table (see the module doc for the checks)."""
    text = decode(data, what, limit)
    if _DEEP_KEY.search(text):
        raise _too_deep(what)
    try:
        obj = tomllib.loads(text)
    except RecursionError:
        raise _too_deep(what) from None
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInput(f"{what} is not valid TOML: {exc}.") from None
    except ValueError:
        raise _too_many_digits(what) from None
    check_tree(obj, what)
    return obj


def check_tree(obj: Any, what: str) -> None:
    """Refuses nesting deeper than MAX_DEPTH, integers beyond MAX_INT and non-finite floats.

    Walks with an explicit stack, so a deep tree cannot exhaust Python's recursion limit;
    exact type tests (a bool is not checked as an int) keep it to a few ms for 200 kB."""
    stack: list[tuple[Any, int]] = [(obj, 0)]
    while stack:
        node, depth = stack.pop()
        kind = type(node)
        if kind is not dict and kind is not list:
            if kind is int and not -MAX_INT <= node <= MAX_INT:
                raise InvalidInput(f"{what} holds a number beyond {MAX_INT:,}; whole numbers "
                                   f"may have at most {MAX_INT_DIGITS} digits.")
            if kind is float and not math.isfinite(node):
                raise InvalidInput(f"{what} holds {node}; only finite numbers are allowed.")
            continue
        if depth >= MAX_DEPTH:
            raise _too_deep(what)
        for child in node.values() if kind is dict else node:
            ckind = type(child)
            if ckind is dict or ckind is list:
                stack.append((child, depth + 1))
            elif ckind is int:
                if not -MAX_INT <= child <= MAX_INT:
                    stack.append((child, depth + 1))  # refused when popped
            elif ckind is float and not math.isfinite(child):
                stack.append((child, depth + 1))
