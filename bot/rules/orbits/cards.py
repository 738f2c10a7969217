"""Playing cards of the Orbits campaign (O-4, O-5): codes, values, suits, display.

A card code is rank then suit (``AS``, ``10D``, ``QH``); the two Jokers are ``JK1``/``JK2``.
Each player owns a full deck, so a card instance on the table is (owner seat, code).
"""

from __future__ import annotations

from bot.errors import InvalidInput

SUITS = ("S", "H", "D", "C")
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAME = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
FACE_RANKS = ("J", "Q", "K")
JOKERS = ("JK1", "JK2")
_SYMBOL_TO_SUIT = {v: k for k, v in SUIT_SYMBOL.items()}


def full_deck() -> list[str]:
    """The 54 codes of one deck (O-4): 52 cards and two Jokers."""
    return [f"{rank}{suit}" for suit in SUITS for rank in RANKS] + list(JOKERS)


def is_joker(code: str) -> bool:
    return code in JOKERS


def rank(code: str) -> str:
    return "JK" if is_joker(code) else code[:-1]


def suit(code: str) -> str:
    """The suit letter; each Joker is a suit of its own (O-14), named after its code."""
    return code if is_joker(code) else code[-1]


def is_face(code: str) -> bool:
    """Face cards (J, Q, K) are soft power (O-5)."""
    return not is_joker(code) and rank(code) in FACE_RANKS


def is_fleet(code: str) -> bool:
    """Fleet cards are Ace to 10 and Jokers (O-5)."""
    return not is_face(code)


def value(code: str) -> int:
    """Fleet value (O-5): Ace 1, 2-10 face value, Joker 0. Face cards have no fleet value."""
    if is_joker(code) or is_face(code):
        return 0
    r = rank(code)
    return 1 if r == "A" else int(r)


def show(code: str) -> str:
    """How users see a card: ``7♥``, ``10♣``, ``A♠``, ``Joker``."""
    if is_joker(code):
        return "Joker"
    return f"{rank(code)}{SUIT_SYMBOL[suit(code)]}"


def show_all(codes: list[str]) -> str:
    return ", ".join(show(c) for c in codes) if codes else "none"


def parse(text: str) -> str:
    """Reads user input (``7h``, ``10♣``, ``QS``, ``JK1``, ``Joker2``) into a code."""
    raw = text.strip().upper().replace(" ", "")
    if raw in ("JOKER", "JOKER1"):
        raw = "JK1"
    elif raw == "JOKER2":
        raw = "JK2"
    if raw in JOKERS:
        return raw
    if raw and raw[-1] in _SYMBOL_TO_SUIT:
        raw = raw[:-1] + _SYMBOL_TO_SUIT[raw[-1]]
    if len(raw) >= 2 and raw[-1] in SUITS and raw[:-1] in RANKS:
        return raw
    raise InvalidInput(
        f"'{text}' is not a card. Write rank then suit (AS, 10D, QH, 7♥) or JK1/JK2 for Jokers."
    )


def sort_key(code: str) -> tuple[int, int]:
    """Display order: by suit, then rank; Jokers last."""
    if is_joker(code):
        return (len(SUITS), JOKERS.index(code))
    return (SUITS.index(suit(code)), RANKS.index(rank(code)))
