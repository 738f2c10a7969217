"""SIGTERM and SIGINT stop a real ``python -m bot`` gracefully (P-38): the bot, connected to a
local stand-in for Discord (REST and gateway), is sending the first of two messages already
due when the signal comes; it finishes that one, sends the other, closes the database (no
write-ahead log left) and exits with status 0."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

import storage
from storage import outbox as outbox_repo
from storage.outbox import NewMessage

REPO = Path(__file__).resolve().parent.parent
APP_ID = 1234567890123456789
GUILD, CHANNEL = 555000000000000001, 555000000000000002
USER = {"id": "42", "username": "admiralty", "discriminator": "0", "avatar": None, "bot": True}


def _json(body: object, status: int = 200) -> Any:
    """A JSON answer with Discord's exact Content-Type (discord.py compares it whole)."""
    from aiohttp import web

    return web.Response(body=json.dumps(body).encode(), status=status,
                        headers={"Content-Type": "application/json"})


class FakeDiscord:
    """Discord's REST API and gateway, just enough for a bot to log in, connect, become ready
    and post to one channel; the first post is answered slowly, so a signal can come while
    it is under way."""

    def __init__(self) -> None:
        self.posts: list[str] = []
        self.first_post = threading.Event()
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()
        assert self.ready.wait(10)

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
        self.ready.set()
        self.loop.run_forever()

    async def _rest(self, request: Any) -> Any:

        path = "/" + request.match_info["tail"]
        if path == "/users/@me":
            return _json(USER)
        if path == "/oauth2/applications/@me":
            return _json({"id": str(APP_ID), "name": "Admiralty", "icon": None,
                                      "description": "", "verify_key": "k", "bot_public": True,
                                      "bot_require_code_grant": False, "owner": USER,
                                      "flags": 0})
        if request.method == "PUT" and path.endswith("/commands"):
            body = await request.json()
            return _json([{**c, "id": str(900 + i), "application_id": str(APP_ID),
                                       "version": "1"} for i, c in enumerate(body)])
        if path == f"/channels/{CHANNEL}":
            return _json({"id": str(CHANNEL), "type": 0, "guild_id": str(GUILD),
                                      "name": "war-room", "position": 0,
                                      "permission_overwrites": [], "nsfw": False})
        if request.method == "POST" and path == f"/channels/{CHANNEL}/messages":
            body = await request.json()
            self.posts.append(body["content"])
            if len(self.posts) == 1:
                self.first_post.set()
                await asyncio.sleep(1.5)  # the signal arrives while this post is under way
            return _json({
                "id": str(700 + len(self.posts)), "channel_id": str(CHANNEL), "author": USER,
                "content": body["content"], "timestamp": "2026-01-01T00:00:00+00:00",
                "edited_timestamp": None, "tts": False, "mention_everyone": False,
                "mentions": [], "mention_roles": [], "attachments": [], "embeds": [],
                "pinned": False, "type": 0, "flags": 0, "components": [],
                "nonce": body.get("nonce")})
        return _json({"message": "Unknown", "code": 0}, status=404)

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
                await ws.send_str(json.dumps({"op": 0, "t": "READY", "s": 1, "d": {
                    "v": 10, "user": USER, "guilds": [], "session_id": "s1",
                    "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gw/",
                    "application": {"id": str(APP_ID), "flags": 0}}}))
        return ws

    @property
    def prelude(self) -> str:
        return ("import discord.http, discord.gateway, yarl\n"
                f"discord.http.Route.BASE = 'http://127.0.0.1:{self.port}/api/v10'\n"
                "discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = "
                f"yarl.URL('ws://127.0.0.1:{self.port}/gw/')")

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


async def seed(db_path: Path, texts: list[str]) -> None:
    """Two messages already due in the outbox, as a crash or a busy moment would leave them."""
    db = await storage.open_database(db_path)
    try:
        async with db.transaction() as tx:
            await outbox_repo.enqueue(
                tx, [NewMessage(None, "channel", t, channel_id=CHANNEL) for t in texts], 0.0)
    finally:
        await db.close()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_p38_a_signal_stops_the_bot_after_the_due_messages(
    tmp_path: Path, sig: signal.Signals
) -> None:
    db_path = tmp_path / "admiralty.db"
    texts = ["first news", "second news"]
    asyncio.run(seed(db_path, texts))
    (tmp_path / "config.toml").write_text(f'database_path = "{db_path}"\n', encoding="utf-8")
    fake = FakeDiscord()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "ADMIRALTY_"))}
    code = f"import sys\n{fake.prelude}\nfrom bot.__main__ import main\nsys.exit(main([]))"
    proc = subprocess.Popen(
        [sys.executable, "-c", code], cwd=tmp_path, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
        env={**env, "PYTHONPATH": str(REPO), "DISCORD_TOKEN": "a.b.c"})
    try:
        assert fake.first_post.wait(60), "the bot never posted"
        proc.send_signal(sig)
        _, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        fake.close()
    assert proc.returncode == 0, stderr
    assert f"{sig.name}: stopping once the work under way is done" in stderr
    assert "Traceback" not in stderr
    assert fake.posts == texts  # the one under way finished, the other due one went out
    # closed: the write-ahead log went into the file (SQLite removes it at the last close)
    assert not Path(f"{db_path}-wal").exists()
    conn = sqlite3.connect(db_path)
    try:
        statuses = [r[0] for r in conn.execute("SELECT status FROM outbox ORDER BY id")]
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        conn.close()
    assert statuses == ["sent", "sent"]
