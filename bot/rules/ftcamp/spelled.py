"""The engage orders' short names (RT, SF, EE) spelled out where they first appear in a post
(E-D44): "SF (StandOff) in 1 part", then "SF" in the rest of that post. A post is one event:
its text, and apart from it its embed, which the channel shows instead of the text."""

from __future__ import annotations

import re

from bot.rules.base import Embed, Event, Outcome

WORDS = {"RT": "Retreat", "SF": "StandOff", "EE": "Engage"}
# an order with its flags ("EE+drop"), not already followed by its words
_SHORT = re.compile(r"\b(RT|SF|EE)((?:\+[a-z]+)*)\b(?! \()")


def spell_out(text: str, seen: set[str]) -> str:
    """``text`` with each short name not in ``seen`` spelled out once; ``seen`` grows."""
    def one(m: re.Match[str]) -> str:
        short = m.group(1)
        if short in seen:
            return m.group(0)
        seen.add(short)
        return f"{m.group(0)} ({WORDS[short]})"

    return _SHORT.sub(one, text)


def _embed(embed: Embed) -> None:
    seen: set[str] = set()
    embed.title = spell_out(embed.title, seen)
    embed.description = spell_out(embed.description, seen)
    for f in embed.fields:
        f.name = spell_out(f.name, seen)
        f.value = spell_out(f.value, seen)
    embed.footer = spell_out(embed.footer, seen)


def outcome(out: Outcome) -> Outcome:
    """Every event of the outcome with its short names spelled out at their first use."""
    for ev in out.events:
        _event(ev)
    return out


def _event(ev: Event) -> None:
    ev.text = spell_out(ev.text, set())
    if ev.embed is not None:
        _embed(ev.embed)
