"""Drawing pictures: the one entry point, off the event loop.

Drawing a map takes tens of milliseconds of CPU; on the event loop that freezes every other
interaction. ``draw`` runs the renderer in a worker thread. A thread, not a process: a probe
that measured the loop's lag while 7 late-game Orbits maps were drawn saw p99 3-10 ms with
a thread (Pillow gives up the GIL while it encodes, and the interpreter switches threads
every 5 ms otherwise) against 230-260 ms on the loop; a process pool would cut that to ~1 ms
but needs its own life cycle and pickling, and would not see renderers registered at run
time. Callers draw one picture at a time, so drawing never competes with itself for the GIL.

Never call it inside a write transaction: the service records a picture REQUEST there
(``storage.outbox.Picture``) and the outbox draws it after commit (``Outbox``)."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.render import registry


async def draw(ruleset: str, name: str, view: dict[str, Any]) -> bytes:
    """PNG bytes of picture ``name`` of ``ruleset`` for ``view``, drawn in a worker thread."""
    return await asyncio.to_thread(registry.render, ruleset, name, view)
