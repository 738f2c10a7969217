"""Maps rule-set names to implementations; the only place that lists them."""

from __future__ import annotations

from importlib import import_module

from bot.errors import NotFound
from bot.rules.ruleset_base import AnyRuleset, RulesetBase

# name -> "module:attribute" of the Ruleset object; imported lazily so one rule set's import
# cost or breakage never touches the others.
_BUILTIN: dict[str, str] = {
    "orbits": "bot.rules.orbits:RULESET",
    "ftcamp": "bot.rules.ftcamp:RULESET",
    "hrft": "bot.rules.hrft:RULESET",
}
_EXTRA: dict[str, AnyRuleset] = {}  # the service holds any rule set: no state type


def register(ruleset: AnyRuleset) -> None:
    """Add a rule set at run time (tests use this for their own small rule set)."""
    if not isinstance(ruleset, RulesetBase):  # the service calls every hook directly
        raise TypeError(f"{type(ruleset).__name__} must subclass RulesetBase")
    _EXTRA[ruleset.name] = ruleset


def names() -> list[str]:
    return sorted({*_BUILTIN, *_EXTRA})


def get(name: str) -> AnyRuleset:
    if name in _EXTRA:
        return _EXTRA[name]
    if name not in _BUILTIN:
        raise NotFound(f"Unknown rule set '{name}'. Available: {', '.join(names()) or 'none'}.")
    module, attr = _BUILTIN[name].split(":")
    return getattr(import_module(module), attr)
