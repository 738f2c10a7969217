"""A graceful stop (P-38): once the bot is asked to stop, no new intent starts (the player is
told to try again shortly) and the ones under way finish before the database closes."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
from collections.abc import AsyncIterator

from bot.errors import InvalidState

STOPPING = ("The bot is restarting, so nothing was changed; try again in a minute.")

# An intent that runs another inside it (a battle reporting to its campaign) is one intent:
# the inner one is never refused halfway through the outer.
_inside = contextvars.ContextVar("admiralty_inside_intent", default=False)


class IntentGate:
    """Counts the intents under way; ``close`` refuses new ones and waits for the rest."""

    def __init__(self) -> None:
        self._running = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self.closing = False

    @contextlib.asynccontextmanager
    async def intent(self) -> AsyncIterator[None]:
        if _inside.get():
            yield
            return
        if self.closing:
            raise InvalidState(STOPPING)
        self._running += 1
        self._idle.clear()
        token = _inside.set(True)
        try:
            yield
        finally:
            _inside.reset(token)
            self._running -= 1
            if self._running == 0:
                self._idle.set()

    @property
    def running(self) -> int:
        return self._running

    async def close(self, grace: float) -> bool:
        """No new intent from now on; waits up to ``grace`` seconds for those under way.
        True when none is left."""
        self.closing = True
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), grace)
        return self._running == 0
