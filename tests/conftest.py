"""Shared fixtures: the tests-only rule set, registered for the test that asks for it."""

from __future__ import annotations

import pytest

from bot.rules.base import Ruleset


@pytest.fixture
def guess_rules() -> Ruleset:
    """The tiny "guess" rule set (tests/support/guess.py), registered with its renderer."""
    from tests.support import guess

    guess.register()
    return guess.RULESET
