"""The status columns' values (migration 001's CHECK constraints), one enum per table.

A ``StrEnum`` member is its string: it is stored, bound, compared and formatted as the value,
so the database keeps the same text and no migration is needed."""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    """Where a campaign is in its life (``campaigns.status``)."""

    SETUP = "setup"  # seats are taken, nothing has happened yet
    RUNNING = "running"
    PAUSED = "paused"  # by the GM: no deadline runs, nothing resolves
    ENDED = "ended"  # for good: won, stopped, or its battle decided


LIVE = frozenset({Status.RUNNING, Status.PAUSED})  # started and not over (paused or not)


class DeadlineStatus(StrEnum):
    """A step's deadline (``deadlines.status``)."""

    OPEN = "open"  # the step waits for it (or for its players, with no time set)
    FIRED = "fired"  # it passed and the step went on
    CLOSED = "closed"  # the step ended another way first


class OutboxStatus(StrEnum):
    """A message waiting for Discord (``outbox.status``)."""

    PENDING = "pending"
    SENT = "sent"
    FAILED = "failed"  # given up after its attempts, or the DM is closed
