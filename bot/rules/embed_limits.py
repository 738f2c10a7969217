"""Discord's embed limits, kept in code (DESIGN.md, "Discord conventions").

``fit`` turns one embed into as many embeds as its content needs, each within the limits;
``pack`` groups embeds into messages (10 embeds and 6000 characters a message). What is cut
says so: a clipped text ends with ``CLIP``, a continued embed or field is named with ``MORE``.
Pure: the cogs turn the result into ``discord.Embed`` objects without counting again.
"""

from __future__ import annotations

import re

from bot.rules.base import Embed, EmbedField

TITLE = 256
DESCRIPTION = 4096
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
TOTAL = 6000  # every title, description, field and footer of ONE message together
PER_MESSAGE = 10

CLIP = "…"
MORE = " (continued)"


# "(O-8)", "(E-13)", "(H-D12)", "(O-13, O-14)": ruling ids belong in the log, not here
_RULING = re.compile(r" ?\((?:[OEHP]-D?\d+(?:\.\d+)?(?:, )?)+\)")


def plain(text: str) -> str:
    """``text`` without ruling ids in parentheses."""
    return _RULING.sub("", text)


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, the cut marked."""
    return text if len(text) <= limit else text[: limit - len(CLIP)] + CLIP


def chunks(text: str, limit: int) -> list[str]:
    """Splits on line boundaries so each chunk fits; an overlong line is cut hard."""
    out: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                out.append(current)
                current = ""
            out.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            out.append(current)
            current = line
        else:
            current = candidate
    if current or not out:
        out.append(current)
    return out


def size(embed: Embed) -> int:
    """The characters Discord counts against the 6000 of a message."""
    return (len(embed.title) + len(embed.description) + len(embed.footer)
            + sum(len(f.name) + len(f.value) for f in embed.fields))


def _fields(embed: Embed) -> list[EmbedField]:
    """Every field within its own limits; a long value goes on in further fields."""
    out: list[EmbedField] = []
    for f in embed.fields:
        name = clip(plain(f.name).strip() or "-", FIELD_NAME)
        for i, part in enumerate(chunks(plain(f.value).strip() or "-", FIELD_VALUE)):
            label = name if i == 0 else clip(name + MORE, FIELD_NAME)
            out.append(EmbedField(name=label, value=part or "-", inline=f.inline))
    return out


def fit(embed: Embed) -> list[Embed]:
    """One embed as embeds within Discord's limits, in reading order. The continuations
    repeat the title with ``MORE``; the picture goes in the first, the footer in the last."""
    title = clip(plain(embed.title), TITLE)
    more_title = clip(plain(embed.title) + MORE, TITLE)
    footer = clip(plain(embed.footer), FOOTER)
    budget = TOTAL - len(more_title) - len(footer)  # what one embed may hold besides those
    out: list[Embed] = []
    description = plain(embed.description)
    descriptions = chunks(description, min(DESCRIPTION, budget)) if description else [""]
    for i, text in enumerate(descriptions):
        out.append(Embed(title=title if i == 0 else more_title, description=text,
                         image=embed.image and i == 0))
    for f in _fields(embed):
        last = out[-1]
        if len(last.fields) >= FIELDS or size(last) + len(f.name) + len(f.value) > budget:
            last = Embed(title=more_title, image=False)
            out.append(last)
        last.fields.append(f)
    out[-1].footer = footer
    out[-1].buttons = list(embed.buttons)  # under the whole result
    return out


def pack(embeds: list[Embed]) -> list[list[Embed]]:
    """Embeds (each already ``fit``) grouped into messages: at most ``PER_MESSAGE`` a message
    and ``TOTAL`` characters together, in order."""
    messages: list[list[Embed]] = []
    used = 0
    for e in embeds:
        n = size(e)
        if not messages or len(messages[-1]) >= PER_MESSAGE or used + n > TOTAL:
            messages.append([])
            used = 0
        messages[-1].append(e)
        used += n
    return messages


def as_text(embed: Embed) -> str:
    """A readable plain form (demo transcripts, logs)."""
    lines = [f"**{embed.title}**"] if embed.title else []
    if embed.description:
        lines.append(embed.description)
    for f in embed.fields:
        lines.append(f"__{f.name}__")
        lines.append(f.value)
    if embed.footer:
        lines.append(f"_{embed.footer}_")
    return "\n".join(lines)
