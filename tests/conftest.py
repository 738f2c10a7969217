"""Shared fixtures: the tests-only rule set, registered for the test that asks for it; the
shared demos; a database migrated once per run."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import settings

from bot.rules.base import Ruleset
from tests.support.demos import Demos
from tests.support.template_db import make_template

# Hypothesis profiles (issue 17 item 8): "ci" runs the full example counts, and is chosen
# when CI=true (as CI services set it); "dev", the default, runs a fifth of them for a quick
# inner loop. A test's own count is written as ``examples(n)`` (tests/support/examples.py).
settings.register_profile("ci", print_blob=True)
settings.register_profile("dev", max_examples=20)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE")
                      or ("ci" if os.environ.get("CI", "").lower() == "true" else "dev"))


@pytest.fixture
def guess_rules() -> Ruleset:
    """The tiny "guess" rule set (tests/support/guess.py), registered with its renderer."""
    from tests.support import guess

    guess.register()
    return guess.RULESET


@pytest.fixture(scope="session")
def demos(tmp_path_factory: pytest.TempPathFactory) -> Demos:
    """The run's demos, each played once and shared by the tests that read it
    (tests/support/demos.py): under xdist, in the folder all the workers share."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's own folder; each worker's is popen-gwN inside it
    root = base / "demos"
    root.mkdir(exist_ok=True)
    return Demos(root)


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty database at the newest schema, migrated once per run (once per xdist worker);
    the ``db`` and ``db_path`` fixtures hand each test a copy (tests/support/template_db.py)."""
    return make_template(tmp_path_factory.mktemp("template"))


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
