"""Battle arithmetic (O-14, O-15): force size and the discard after a battle."""

from __future__ import annotations

from collections import Counter

from bot.errors import RulesError
from bot.rules.orbits import cards as C


def battle_force(cards: list[str], cap: int = 5) -> tuple[int, int]:
    """(total value, maximum size class) of a force of fleet cards (O-14).

    Total: sum of values (Ace 1, Joker 0). Size class: distinct suits, each Joker a suit of its
    own, capped at ``cap``. Face cards are not fleet and are ignored."""
    fleet = [c for c in cards if C.is_fleet(c)]
    total = sum(C.value(c) for c in fleet)
    suits = {C.suit(c) for c in fleet}
    return total, min(len(suits), cap)


def propose_discard(cards: list[str], losses: int) -> list[str]:
    """The bot's discard proposal (O-15): fewest cards, then smallest total, reaching ``losses``.

    ``losses`` is in card-value units. Losses >= the total discard every fleet card (Jokers
    too); no losses discard nothing. Among equal cards of one value the proposal keeps as many
    distinct suits as it can, so the survivors keep their size class (O-D6)."""
    fleet = [c for c in cards if C.is_fleet(c)]
    total = sum(C.value(c) for c in fleet)
    if losses <= 0:
        return []
    if losses >= total:
        return list(fleet)
    counts = Counter(C.value(c) for c in fleet if C.value(c) > 0)
    take = _best_multiset(counts, losses)
    return _pick_cards(fleet, take)


def _best_multiset(counts: Counter[int], losses: int) -> dict[int, int]:
    """How many cards of each value: fewest cards, then smallest sum >= losses.

    A DP over the ten values keeps, for each (cards, sum) reached, one way to reach it."""
    # the fewest cards: take the highest values first
    ordered = sorted(counts.elements(), reverse=True)
    need, acc = 0, 0
    while acc < losses:
        acc += ordered[need]
        need += 1
    states: dict[tuple[int, int], dict[int, int]] = {(0, 0): {}}
    for v in sorted(counts, reverse=True):
        nxt: dict[tuple[int, int], dict[int, int]] = {}
        for (n, s), way in states.items():
            for k in range(0, min(counts[v], need - n) + 1):
                key = (n + k, s + k * v)
                if key not in nxt:
                    nxt[key] = {**way, v: k} if k else way
        states = nxt
    best = min(s for (n, s) in states if n == need and s >= losses)
    return states[(need, best)]


def _pick_cards(fleet: list[str], take: dict[int, int]) -> list[str]:
    """Concrete cards for a value multiset: from the most crowded suits first (O-D6)."""
    suit_count = Counter(C.suit(c) for c in fleet)
    chosen: list[str] = []
    for v, k in take.items():
        same = [c for c in fleet if C.value(c) == v]
        same.sort(key=lambda c: (-suit_count[C.suit(c)], C.sort_key(c)))
        for c in same[:k]:
            chosen.append(c)
            suit_count[C.suit(c)] -= 1
    return sorted(chosen, key=C.sort_key)


def check_discard(force: list[str], losses: int, chosen: list[str]) -> None:
    """Raises RulesError unless ``chosen`` is a legal discard for ``losses`` (O-15).

    Legal: cards of this force, total >= losses, and no card could be left out while still
    reaching the losses. Losses >= the force's total: every card, Jokers included."""
    fleet = [c for c in force if C.is_fleet(c)]
    total = sum(C.value(c) for c in fleet)
    unknown = [c for c in chosen if c not in fleet]
    if unknown:
        raise RulesError(
            f"{C.show_all(unknown)} did not fight in this battle; choose from "
            f"{C.show_all(sorted(fleet, key=C.sort_key))}.", ruling="O-15"
        )
    if len(set(chosen)) != len(chosen):
        raise RulesError("Each card can be discarded only once.", ruling="O-15")
    if losses >= total:
        if set(chosen) != set(fleet):
            raise RulesError(
                f"Losses {losses} reach the force's total {total}: every fleet card there is "
                "discarded, Jokers included.", ruling="O-15"
            )
        return
    got = sum(C.value(c) for c in chosen)
    if got < losses:
        raise RulesError(
            f"{C.show_all(chosen)} add up to {got}, short of the losses {losses}: choose cards "
            "worth at least the losses.", ruling="O-15"
        )
    spare = [c for c in chosen if got - C.value(c) >= losses]
    if spare:
        raise RulesError(
            f"{C.show(spare[0])} is not needed: without it the cards still reach {losses}. "
            "Discard a set from which no card can be left out.", ruling="O-15"
        )
