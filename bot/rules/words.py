"""Small English helpers for player-facing text: counts, plurals and possessives.

One place for them, so no text says "1 part(s)", "1 battles won" or "Pickets's". Pure
functions of strings and numbers; every rule set and the service may use them."""

from __future__ import annotations

from collections.abc import Iterable

# Words whose plural is not made by the rules below.
_IRREGULAR = {"craft": "craft", "ship": "ships", "die": "dice", "hex": "hexes",
              "series": "series", "class": "classes", "was": "were", "is": "are"}
_SIBILANT = ("s", "x", "z", "ch", "sh")


def plural_of(word: str) -> str:
    """The plural of a (last) word: part -> parts, box -> boxes, DCP -> DCPs, die -> dice.
    In a phrase only the last word changes ("face-down card" -> "face-down cards")."""
    head, sep, last = word.rpartition(" ")
    lower = last.lower()
    if lower in _IRREGULAR:
        new = _IRREGULAR[lower]
        new = new.upper() if last.isupper() else new
    elif last.isupper():  # abbreviations: DCP -> DCPs, RP stays RP
        new = last if last in ("RP", "MU") else last + "s"
    elif lower.endswith(_SIBILANT):
        new = last + "es"
    elif lower.endswith("y") and len(lower) > 1 and lower[-2] not in "aeiou":
        new = last[:-1] + "ies"
    else:
        new = last + "s"
    return f"{head}{sep}{new}"


def singular_of(word: str) -> str:
    """The singular of a plural (last) word, for labels given in the plural by a setting:
    "system boxes" -> "system box", "points" -> "point"."""
    head, sep, last = word.rpartition(" ")
    lower = last.lower()
    back = {v: k for k, v in _IRREGULAR.items()}
    if lower in back:
        new = back[lower]
    elif lower.endswith("ies") and len(lower) > 3:
        new = last[:-3] + "y"
    elif lower.endswith("es") and lower[:-2].endswith(_SIBILANT):
        new = last[:-2]
    elif lower.endswith("s") and not lower.endswith("ss"):
        new = last[:-1]
    else:
        new = last
    return f"{head}{sep}{new}"


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and the word in the right number: "1 part", "2 parts", "0 parts".
    ``many`` gives the plural where the rules above would get it wrong."""
    return f"{n} {word if n == 1 else (many or plural_of(word))}"


def count_of(n: int, plural_word: str) -> str:
    """Like ``plural`` for a word given in the plural (a setting such as "system boxes")."""
    return f"{n} {singular_of(plural_word) if n == 1 else plural_word}"


def possessive(name: str) -> str:
    """Alice -> Alice's, Pickets -> Pickets' (a name ending in s takes the apostrophe only)."""
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


def listing(items: Iterable[str], empty: str = "none") -> str:
    """"a", "a and b", "a, b and c"; ``empty`` when there is nothing to list."""
    words = [str(i) for i in items]
    if not words:
        return empty
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " and " + words[-1]
