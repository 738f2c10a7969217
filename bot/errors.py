"""Every refusal a user can get is a UserError: shown ephemerally, nothing changed."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

# Where the refusals made in this context are kept, when someone keeps them (the demo's
# recording, read by tests: every refusal the rules gave while it played, caught or not).
_kept: ContextVar[list[UserError] | None] = ContextVar("refusals_kept", default=None)


class UserError(Exception):
    """A refusal: what was wrong and what is allowed. Safe to show to the user who acted."""

    def __init__(self, message: str, *, ruling: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        # The ruling behind the refusal (e.g. "O-15"), as data and never in the message:
        # the handlers (cogs/refusals.py) offer it through /help rule (service-contract.md).
        self.ruling = ruling
        kept = _kept.get()
        if kept is not None:
            kept.append(self)


@contextmanager
def refusals_kept(into: list[UserError]) -> Iterator[list[UserError]]:
    """Every refusal made in this context (and the tasks and threads it starts) goes into
    ``into`` as it is made, caught or not."""
    token = _kept.set(into)
    try:
        yield into
    finally:
        _kept.reset(token)


class RulesError(UserError):
    """An action the rules do not allow; pass ``ruling=`` (an id such as "O-15"), never put the
    id in the message."""


class NotFound(UserError):
    """The campaign, seat, step or object named does not exist."""


class PermissionDenied(UserError):
    """The user may not do this (not the GM, not their seat, not their turn)."""


class InvalidState(UserError):
    """The action is not possible now (campaign not started, step locked, paused...)."""


class InvalidInput(UserError):
    """The input could not be read (bad dice expression, bad setting value, bad file)."""
