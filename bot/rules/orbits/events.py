"""Small helpers for building events with the right audience (O-17)."""

from __future__ import annotations

from typing import Any

from bot.rules.base import Audience, Embed, Event, ImageRef


def public(kind: str, text: str, image: ImageRef | None = None, embed: Embed | None = None,
           **data: Any) -> Event:
    return Event(audience=Audience.public(), kind=kind, text=text, data=data, image=image,
                 embed=embed)


def to_seat(seat: int, kind: str, text: str, image: ImageRef | None = None, **data: Any) -> Event:
    return Event(audience=Audience.to_seat(seat), kind=kind, text=text, data=data, image=image)


def to_gm(kind: str, text: str, **data: Any) -> Event:
    return Event(audience=Audience.gm(), kind=kind, text=text, data=data)


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def amount(n: int, label: str) -> str:
    """``n`` of a plural label: "1 system box", "6 system boxes", "1 point"."""
    if n != 1:
        return f"{n} {label}"
    for tail, single in (("xes", "x"), ("ses", "s"), ("s", "")):
        if label.endswith(tail):
            return f"{n} {label[: -len(tail)] + single}"
    return f"{n} {label}"
