"""Maps (rule set, picture name) to a renderer ``render(view: dict) -> bytes`` (PNG)."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from bot.errors import NotFound

Renderer = Callable[[dict[str, Any]], bytes]

_BUILTIN: dict[tuple[str, str], str] = {
    ("orbits", "map"): "bot.render.orbits_map:render",
    ("ftcamp", "hexmap"): "bot.render.ftcamp_hexmap:render",
    ("ftcamp", "sector"): "bot.render.ftcamp_sector:render",
    ("hrft", "sheet"): "bot.render.hrft_sheet:render",
}
_EXTRA: dict[tuple[str, str], Renderer] = {}


def register(ruleset: str, name: str, renderer: Renderer) -> None:
    """Add a renderer at run time (tests use this for their own rule set)."""
    _EXTRA[(ruleset, name)] = renderer


def get(ruleset: str, name: str) -> Renderer:
    key = (ruleset, name)
    if key in _EXTRA:
        return _EXTRA[key]
    if key not in _BUILTIN:
        raise NotFound(f"No picture '{name}' for rule set '{ruleset}'.")
    module, attr = _BUILTIN[key].split(":")
    return getattr(import_module(module), attr)


def render(ruleset: str, name: str, view: dict[str, Any]) -> bytes:
    return get(ruleset, name)(view)
