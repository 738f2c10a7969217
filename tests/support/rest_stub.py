"""A local HTTP server on 127.0.0.1 that stands in for Discord's REST API in tests of a real
``python -m bot`` process: each stand-in gives only its answers, this does the serving."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Callable
from typing import Any

# (method, path, JSON body or None) -> (status, JSON body to send back)
Answer = Callable[[str, str, Any], tuple[int, Any]]


class RestStub:
    """Serves ``answer`` on a free port until ``close``; ``requests`` keeps (method, path) of
    every request in order."""

    def __init__(self, answer: Answer) -> None:
        seen: list[tuple[str, str]] = []
        self.requests = seen

        class Handler(http.server.BaseHTTPRequestHandler):
            def _serve(self, method: str) -> None:
                seen.append((method, self.path))
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length)) if length else None
                status, out = answer(method, self.path, body)
                data = json.dumps(out).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                self._serve("GET")

            def do_PUT(self) -> None:  # noqa: N802
                self._serve("PUT")

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/api/v10"

    def paths(self) -> list[str]:
        return [path for _, path in self.requests]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
