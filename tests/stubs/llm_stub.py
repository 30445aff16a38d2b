"""A tiny OpenAI-compatible chat completions server for tests.

Replies are scripted per test (a queue); every request is recorded so a test can assert
what the client sent. It listens on 127.0.0.1 on a free port, in a daemon thread.

    with LlmStub() as stub:
        stub.reply_drafts([{...}])
        LlmDistiller(url=stub.url, model="m").distill(observation)
        assert stub.requests[0].json["response_format"]["type"] == "json_schema"
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Reply:
    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    delay: float = 0.0


@dataclass(frozen=True)
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    json: Any = field(default=None)


def chat_envelope(content: str | None, *, model: str = "stub") -> dict[str, Any]:
    return {
        "id": "chatcmpl-stub",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
    }


class LlmStub:
    def __init__(self) -> None:
        self.replies: deque[Reply] = deque()
        self.requests: list[Recorded] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> LlmStub:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    # --- scripting -------------------------------------------------------------------------
    def reply(self, reply: Reply) -> LlmStub:
        with self._lock:
            self.replies.append(reply)
        return self

    def reply_json(self, body: Any, *, status: int = 200, delay: float = 0.0) -> LlmStub:
        return self.reply(Reply(status, json.dumps(body).encode(), delay=delay))

    def reply_content(self, content: str | None, *, delay: float = 0.0) -> LlmStub:
        """A well-formed completion whose message content is ``content`` (any text)."""
        return self.reply_json(chat_envelope(content), delay=delay)

    def reply_drafts(self, drafts: list[dict[str, Any]], *, delay: float = 0.0) -> LlmStub:
        return self.reply_content(json.dumps({"drafts": drafts}, ensure_ascii=False), delay=delay)

    def reply_status(self, status: int, body: str = "") -> LlmStub:
        return self.reply(Reply(status, body.encode(), content_type="text/plain"))

    def reply_raw(self, body: str, *, status: int = 200) -> LlmStub:
        return self.reply(Reply(status, body.encode(), content_type="text/plain"))

    # --- serving ---------------------------------------------------------------------------
    def _next(self) -> Reply:
        with self._lock:
            if self.replies:
                return self.replies.popleft()
        return Reply(599, b'{"error": "no scripted reply left"}')

    def _record(self, handler: BaseHTTPRequestHandler, body: bytes) -> None:
        try:
            parsed = json.loads(body) if body else None
        except ValueError:
            parsed = None
        with self._lock:
            self.requests.append(
                Recorded(
                    handler.command,
                    handler.path,
                    {k.lower(): v for k, v in handler.headers.items()},
                    body,
                    parsed,
                )
            )

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                stub._record(self, body)
                reply = stub._next()
                if reply.delay:
                    time.sleep(reply.delay)
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", reply.content_type)
                    self.send_header("Content-Length", str(len(reply.body)))
                    self.end_headers()
                    self.wfile.write(reply.body)
                except (BrokenPipeError, ConnectionResetError):
                    return  # the client gave up (a timeout test)

            def log_message(self, format: str, *args: Any) -> None:
                return

        return Handler
