"""A property test's example count under the hypothesis profile in use (tests/conftest.py):
the full count on CI, a fifth of it (at least 5) in the quick "dev" profile."""

from __future__ import annotations

from hypothesis import settings


def examples(full: int) -> int:
    if settings.get_current_profile_name() == "ci":
        return full
    return max(5, full // 5)
