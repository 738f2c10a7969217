"""Seeded and scripted dice: the only place in bot.rules that touches ``random``."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any


class SeededDice:
    """Dice drawn from a seed and a stream name: the same pair always gives the same rolls.

    The service derives one stream per resolution from the campaign's stored seed, so every
    resolution can be replayed exactly (and ``/gm undo`` then the same input repeats it)."""

    def __init__(self, seed: int, stream: str = "") -> None:
        self._rng = random.Random(f"{seed}:{stream}")

    def d(self, sides: int) -> int:
        if sides < 1:
            raise ValueError("a die needs at least one side")
        return self._rng.randint(1, sides)

    def shuffle(self, items: list[Any]) -> list[Any]:
        out = list(items)
        self._rng.shuffle(out)
        return out


class ScriptedDice:
    """Dice for tests: hands out the given values in order, and fails loudly when they run out
    or a value does not fit the die. ``shuffle`` keeps the order unless an order is scripted."""

    def __init__(self, rolls: Iterable[int] = (), shuffles: Iterable[list[Any]] = ()) -> None:
        self._rolls = list(rolls)
        self._shuffles = list(shuffles)
        self.used: list[int] = []

    def d(self, sides: int) -> int:
        if not self._rolls:
            raise AssertionError(f"scripted dice ran out (a d{sides} was asked for)")
        value = self._rolls.pop(0)
        if not 1 <= value <= sides:
            raise AssertionError(f"scripted roll {value} does not fit a d{sides}")
        self.used.append(value)
        return value

    def shuffle(self, items: list[Any]) -> list[Any]:
        if self._shuffles:
            order = self._shuffles.pop(0)
            if sorted(map(repr, order)) != sorted(map(repr, items)):
                raise AssertionError("scripted shuffle is not a permutation of the items")
            return list(order)
        return list(items)

    @property
    def remaining(self) -> int:
        return len(self._rolls)
