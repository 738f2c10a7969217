"""A local stand-in for Discord (REST and gateway) on 127.0.0.1, for tests that run a real
``python -m bot`` process: just enough for a bot to log in, connect, become ready, post to
channels and DMs and read a DM's history.

Message creates follow Discord's documented ``enforce_nonce`` (issue 16.2, P-33): a create
with ``enforce_nonce`` and the nonce of a message the same author created within the last
few minutes returns THAT message and creates none; a nonce over 25 characters is refused,
as Discord does. ``honour_nonces=False`` makes the fake ignore nonces, as Discord would
after the window, so a test can show what nonces prevent.

A test can step into a chosen create: ``on_create`` runs in the fake's thread after the
message is stored and before the answer goes out (it may return False to keep the answer
back until ``release()``), and ``answered`` counts the answers written."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import storage
from storage import outbox as outbox_repo
from storage.outbox import NewMessage

REPO = Path(__file__).resolve().parent.parent.parent
APP_ID = 1234567890123456789
GUILD = 555000000000000001
CHANNELS = (555000000000000002, 555000000000000003)
CHANNEL = CHANNELS[0]
USER = {"id": "42", "username": "admiralty", "discriminator": "0", "avatar": None, "bot": True}
NONCE_WINDOW = 300.0  # Discord: "the past few minutes"
MAX_NONCE = 25  # Discord: a nonce is an integer or a string of up to 25 characters
DM_BASE = 666000000000000000  # a user's DM channel id is this plus the user id's low digits


def _json(body: object, status: int = 200) -> Any:
    """A JSON answer with Discord's exact Content-Type (discord.py compares it whole)."""
    from aiohttp import web

    return web.Response(body=json.dumps(body).encode(), status=status,
                        headers={"Content-Type": "application/json"})


@dataclass
class Create:
    """One message-create request: what came, and what Discord made of it."""

    channel_id: int
    content: str
    nonce: str | None
    replayed: bool  # answered with the message an earlier create with that nonce made
    message_id: int


@dataclass
class _Stored:
    message: dict[str, Any]
    at: float = field(default_factory=time.monotonic)


class FakeDiscord:
    """Discord for one bot. ``messages`` holds what is on Discord, per channel, oldest
    first; ``creates`` every message-create request in arrival order."""

    def __init__(self, *, honour_nonces: bool = True, slow_first_post: float = 0.0) -> None:
        self.honour_nonces = honour_nonces
        self.slow_first_post = slow_first_post
        self.messages: dict[int, list[dict[str, Any]]] = {}
        self.creates: list[Create] = []
        self.first_post = threading.Event()
        self.on_create: Callable[[Create], bool | None] | None = None
        self.answered = 0
        self.identifies = 0  # gateway logins (IDENTIFY), one per run of the bot
        self._nonces: dict[tuple[str, str], _Stored] = {}
        self._ids = itertools.count(800_000_000_000_000_001)
        self._released = threading.Event()
        self.loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()
        assert self._ready.wait(10)

    # ------------------------------------------------------------------ what a test reads

    def contents(self, channel_id: int) -> list[str]:
        return [m["content"] for m in self.messages.get(channel_id, [])]

    def all_contents(self) -> list[tuple[int, str]]:
        """(channel id, text) of every message on Discord."""
        return [(c, m["content"]) for c, ms in self.messages.items() for m in ms]

    def release(self) -> None:
        """Lets a held answer go (the bot that waited for it may be dead by then)."""
        self._released.set()

    @staticmethod
    def dm_channel(user_id: int) -> int:
        return DM_BASE + user_id % 10**15

    # ------------------------------------------------------------------ server

    def _serve(self) -> None:
        from aiohttp import web

        app = web.Application()
        app.router.add_get("/gw/", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        runner = web.AppRunner(app)
        self.loop.run_until_complete(runner.setup())
        site = web.TCPSite(runner, "127.0.0.1", 0)
        self.loop.run_until_complete(site.start())
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self._ready.set()
        self.loop.run_forever()

    async def _rest(self, request: Any) -> Any:
        path = "/" + request.match_info["tail"]
        if path == "/users/@me":
            return _json(USER)
        if path == "/oauth2/applications/@me":
            return _json({"id": str(APP_ID), "name": "Admiralty", "icon": None,
                          "description": "", "verify_key": "k", "bot_public": True,
                          "bot_require_code_grant": False, "owner": USER, "flags": 0})
        if request.method == "PUT" and path.endswith("/commands"):
            body = await request.json()
            return _json([{**c, "id": str(900 + i), "application_id": str(APP_ID),
                           "version": "1"} for i, c in enumerate(body)])
        if request.method == "POST" and path == "/users/@me/channels":
            body = await request.json()
            user_id = int(body["recipient_id"])
            return _json({"id": str(self.dm_channel(user_id)), "type": 1,
                          "last_message_id": None,
                          "recipients": [{"id": str(user_id), "username": f"u{user_id}",
                                          "discriminator": "0", "avatar": None}]})
        for channel_id in CHANNELS:
            if path == f"/channels/{channel_id}":
                return _json({"id": str(channel_id), "type": 0, "guild_id": str(GUILD),
                              "name": f"room-{channel_id % 10}", "position": 0,
                              "permission_overwrites": [], "nsfw": False})
        parts = path.strip("/").split("/")
        if len(parts) == 3 and parts[0] == "channels" and parts[2] == "messages":
            channel_id = int(parts[1])
            if request.method == "POST":
                return await self._create(request, channel_id)
            if request.method == "GET":
                return _json(self._history(channel_id, request.query))
        return _json({"message": "Unknown", "code": 0}, status=404)

    async def _create(self, request: Any, channel_id: int) -> Any:
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            body = json.loads(form["payload_json"])
        else:
            body = await request.json()
        nonce = body.get("nonce")
        if nonce is not None and len(str(nonce)) > MAX_NONCE:
            return _json({"message": "Invalid Form Body", "code": 50035, "errors": {"nonce": {
                "_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                             "message": f"Must be {MAX_NONCE} or fewer in length."}]}}},
                status=400)
        key = (USER["id"], str(nonce))
        earlier = self._nonces.get(key) if nonce is not None else None
        replay = (self.honour_nonces and body.get("enforce_nonce") is True
                  and earlier is not None and time.monotonic() - earlier.at < NONCE_WINDOW)
        if replay:
            assert earlier is not None
            message = earlier.message
        else:
            message = self._message(channel_id, body)
            self.messages.setdefault(channel_id, []).append(message)
            if nonce is not None:
                self._nonces[key] = _Stored(message)
        create = Create(channel_id, message["content"], None if nonce is None else str(nonce),
                        replay, int(message["id"]))
        self.creates.append(create)
        if not self.first_post.is_set():
            self.first_post.set()
            await asyncio.sleep(self.slow_first_post)  # a signal can come meanwhile
        if self.on_create is not None and self.on_create(create) is False:
            self._released.clear()
            while not self._released.is_set():  # the answer waits for release()
                await asyncio.sleep(0.01)
        answer = _json(message)
        try:
            await answer.prepare(request)
            await answer.write_eof()  # on the wire before ``answered`` says so
        except ConnectionResetError:
            return answer  # the bot died waiting for this answer (a crash test's kill)
        self.answered += 1
        return answer

    def _message(self, channel_id: int, body: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": str(next(self._ids)), "channel_id": str(channel_id), "author": USER,
            "content": body.get("content") or "", "timestamp": "2026-01-01T00:00:00+00:00",
            "edited_timestamp": None, "tts": False, "mention_everyone": False,
            "mentions": [], "mention_roles": [], "attachments": [],
            "embeds": body.get("embeds") or [], "pinned": False, "type": 0, "flags": 0,
            "components": body.get("components") or [], "nonce": body.get("nonce")}

    def _history(self, channel_id: int, query: Any) -> list[dict[str, Any]]:
        """Newest first, as Discord answers ``GET /channels/{id}/messages``."""
        found = list(reversed(self.messages.get(channel_id, [])))
        if "before" in query:
            found = [m for m in found if int(m["id"]) < int(query["before"])]
        return found[: int(query.get("limit", 50))]

    async def _gateway(self, request: Any) -> Any:
        from aiohttp import WSMsgType, web

        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                break
            data = json.loads(msg.data)
            if data["op"] == 1:
                await ws.send_str(json.dumps({"op": 11}))
            elif data["op"] == 2:
                self.identifies += 1
                await ws.send_str(json.dumps({"op": 0, "t": "READY", "s": 1, "d": {
                    "v": 10, "user": USER, "guilds": [], "session_id": "s1",
                    "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gw/",
                    "application": {"id": str(APP_ID), "flags": 0}}}))
        return ws

    @property
    def prelude(self) -> str:
        """Python that points discord.py at this stand-in (run before the bot starts). The
        stand-in sends no GUILD_CREATE, so discord.py's wait for them after READY (2 s by
        default) is cut short: each run of the bot starts sending sooner."""
        return ("import discord.http, discord.gateway, discord.state, yarl\n"
                f"discord.http.Route.BASE = 'http://127.0.0.1:{self.port}/api/v10'\n"
                "discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = "
                f"yarl.URL('ws://127.0.0.1:{self.port}/gw/')\n"
                "_state_init = discord.state.ConnectionState.__init__\n"
                "def _quick_ready(self, *args, **kwargs):\n"
                "    _state_init(self, *args, **kwargs)\n"
                "    self.guild_ready_timeout = 0.05\n"
                "discord.state.ConnectionState.__init__ = _quick_ready\n")

    def close(self) -> None:
        self.release()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


# A line per answer to a message create the bot has READ, appended by the bot process to the
# file the harness names: the test then knows the reply is in and the sent-mark not yet made.
# It only watches; the bot's own code runs as it is.
REPLY_WATCH = """\
import discord.http as _h
_real_request = _h.HTTPClient.request
async def _watched_request(self, route, **kwargs):
    out = await _real_request(self, route, **kwargs)
    if route.method == 'POST' and route.path.endswith('/messages'):
        with open({path!r}, 'a') as f:
            f.write(route.path + '\\n')
    return out
_h.HTTPClient.request = _watched_request
"""


def start_bot(workdir: Path, db_path: Path, fake: FakeDiscord,
              replies: Path | None = None) -> subprocess.Popen[str]:
    """``python -m bot``'s main against ``fake`` on ``db_path``; ``replies``: the file the
    bot appends a line to when it has read a message create's answer."""
    config = workdir / "config.toml"
    if not config.exists():
        config.write_text(f'database_path = "{db_path}"\n', encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "ADMIRALTY_"))}
    watch = REPLY_WATCH.format(path=str(replies)) if replies is not None else ""
    code = f"import sys\n{fake.prelude}{watch}from bot.__main__ import main\nsys.exit(main([]))"
    return subprocess.Popen(
        [sys.executable, "-c", code], cwd=workdir, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
        env={**env, "PYTHONPATH": str(REPO), "DISCORD_TOKEN": "a.b.c"})


async def seed(db_path: Path, messages: list[NewMessage]) -> None:
    """Messages already due in the outbox, as a crash or a busy moment would leave them."""
    db = await storage.open_database(db_path)
    try:
        async with db.transaction() as tx:
            await outbox_repo.enqueue(tx, messages, 0.0)
    finally:
        await db.close()
