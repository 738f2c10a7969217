"""Discord's ``enforce_nonce``, which simcord 3.2.1 does not model (its message routes list
``nonce`` and ``enforce_nonce`` as ignored fields, simcord/http/_helpers.py).

Discord's documented behaviour: a message create with ``enforce_nonce`` and the nonce of a
message the same author created in the last few minutes returns THAT message and creates
none. ``honour_nonces`` puts exactly that in front of simcord's create route (the bot is
the only author that sends nonces here; a test restarts within the window)."""

from __future__ import annotations

from typing import Any

import pytest
from simcord.http import router
from simcord.http._helpers import message_response
from simcord.http.routes import messages as routes


def honour_nonces(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str, bool]]:
    """Installs the nonce check; returns a log of (channel id, nonce, answered with an
    existing message) for every create that carried a nonce."""
    seen: dict[tuple[int, str], int] = {}
    log: list[tuple[int, str, bool]] = []
    real = routes.send_message

    def send(ctx: Any) -> Any:
        body = ctx.json if isinstance(ctx.json, dict) else {}
        nonce = body.get("nonce") if body.get("enforce_nonce") else None
        channel_id = ctx.int_arg("channel_id")
        if nonce is not None and (channel_id, str(nonce)) in seen:
            log.append((channel_id, str(nonce), True))
            existing = ctx.backend.get_message(channel_id, seen[(channel_id, str(nonce))])
            return message_response(ctx, existing)
        payload = real(ctx)
        if nonce is not None:
            seen[(channel_id, str(nonce))] = int(payload["id"])
            log.append((channel_id, str(nonce), False))
        return payload

    entries = [(t, send if handler is real else handler) for t, handler in router._ROUTES["POST"]]
    monkeypatch.setitem(router._ROUTES, "POST", entries)
    return log
