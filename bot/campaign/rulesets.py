"""What the generic cogs (/help, /campaign create) show of a rule set: its name, title, seat
range and help text; never a rule-set object, so no cog can run the rules itself."""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules import registry


@dataclass(frozen=True)
class RulesetInfo:
    name: str
    title: str
    min_seats: int
    max_seats: int
    help_text: str


def ruleset_names() -> list[str]:
    return registry.names()


def ruleset_info(name: str) -> RulesetInfo:
    """The rule set of that name; NotFound lists the available ones."""
    rules = registry.get(name)
    return RulesetInfo(rules.name, rules.title, rules.min_seats, rules.max_seats,
                       rules.help_text)
