"""Channel messages that carry embeds: each result's embed within Discord's limits, its
picture attached to the same message and shown inside it (``attachment://<name>``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.rules import embed_limits as limits
from bot.rules.base import Embed
from storage.outbox import Picture


def stored(embed: Embed, image: str | None) -> dict[str, Any]:
    """The outbox form of one embed (``image`` = the file name of its picture)."""
    out = embed.model_dump(exclude={"image"})
    out["image"] = image
    if embed.buttons:  # P-17: the outbox draws them as buttons under the message
        out["buttons"] = list(embed.buttons)
    return out


def _unique(picture: Picture, taken: set[str]) -> Picture:
    """Two pictures of one message need two file names (``attachment://`` names one)."""
    stem, dot, ext = picture.name.rpartition(".")
    stem, ext = (stem, dot + ext) if dot else (picture.name, "")
    name, n = picture.name, 1
    while name in taken:
        n += 1
        name = f"{stem}-{n}{ext}"
    taken.add(name)
    return picture if name == picture.name else replace(picture, name=name)


def messages(items: list[tuple[Embed, Picture | None]]) -> list[tuple[list[dict[str, Any]],
                                                                      list[Picture]]]:
    """``(embed, its picture)`` pairs as messages: ``(stored embeds, pictures)`` each, at most
    10 embeds and 6000 characters a message (so at most 10 files: one per embed), in order."""
    pieces: list[tuple[Embed, Picture | None]] = []
    for embed, picture in items:
        for i, part in enumerate(limits.fit(embed)):
            pieces.append((part, picture if i == 0 and embed.image else None))
    out: list[tuple[list[dict[str, Any]], list[Picture]]] = []
    for group in limits.pack([p for p, _ in pieces]):
        chunk, pieces = pieces[: len(group)], pieces[len(group):]
        embeds: list[dict[str, Any]] = []
        files: list[Picture] = []
        taken: set[str] = set()
        for part, picture in chunk:
            pic = _unique(picture, taken) if picture is not None else None
            if pic is not None:
                files.append(pic)
            embeds.append(stored(part, pic.name if pic else None))
        out.append((embeds, files))
    return out
