"""Shared fixtures: the tests-only rule set, registered for the test that asks for it."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from bot.rules.base import Ruleset


@pytest.fixture
def guess_rules() -> Ruleset:
    """The tiny "guess" rule set (tests/support/guess.py), registered with its renderer."""
    from tests.support import guess

    guess.register()
    return guess.RULESET


def pytest_unconfigure(config: pytest.Config) -> None:
    """Fail loudly, instead of hanging at exit, when a test left a non-daemon thread running
    (an unclosed aiosqlite connection or database writer)."""
    leaked = [
        t.name for t in threading.enumerate()
        if t is not threading.main_thread() and not t.daemon and t.is_alive()
    ]
    if leaked:
        sys.stderr.write(f"\nthreads still running after the tests (unclosed databases?): "
                         f"{leaked}\n")
        sys.stderr.flush()
        os._exit(3)
