"""Small helpers for building events with the right audience (O-17)."""

from __future__ import annotations

from typing import Any

from bot.rules import words
from bot.rules.base import Audience, Embed, Event, ImageRef


def public(kind: str, text: str, image: ImageRef | None = None, embed: Embed | None = None,
           **data: Any) -> Event:
    # O-D29: a one-line public event is a line of the step's message even when a sealed
    # step (losses, discards, raids) reveals it: it reads under the result it follows, and
    # the next step's post says what is owed, so no post carries status alone
    routine = image is None and embed is None and "\n" not in text.strip()
    return Event(audience=Audience.public(), kind=kind, text=text, data=data, image=image,
                 embed=embed, post=False if routine else None)


def to_seat(seat: int, kind: str, text: str, image: ImageRef | None = None, **data: Any) -> Event:
    return Event(audience=Audience.to_seat(seat), kind=kind, text=text, data=data, image=image)


def to_gm(kind: str, text: str, **data: Any) -> Event:
    return Event(audience=Audience.gm(), kind=kind, text=text, data=data)


plural = words.plural  # one helper for every rule set (bot/rules/words.py)
amount = words.count_of  # n of a label given in the plural: "1 system box"
