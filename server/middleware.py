"""Pure ASGI middleware: request ids, a body size limit, authentication and request metrics."""

from __future__ import annotations

import json
import logging
import time

import anyio
from prometheus_client import Counter, Histogram
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from graph_schema.core.errors import AuthenticationFailed
from server import before_routing, request_ids
from server.auth import KeyRing
from server.errors import BodyTooLarge, error_body
from server.ratelimit import RateLimiter, retry_after

REQUESTS = Counter("tractatus_http_requests_total", "HTTP requests", ["method", "route", "status"])
access = logging.getLogger("tractatus.access")
LATENCY = Histogram("tractatus_http_request_seconds", "HTTP request latency", ["method", "route"])


async def _send_json(
    send: Send, status: int, body: dict[str, object], extra: list[tuple[bytes, bytes]]
) -> None:
    payload = json.dumps(body).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
        *extra,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


async def _send_413(send: Send, limit: int) -> None:
    body = error_body("body_too_large", f"the body exceeds {limit} bytes", {"limit": limit})
    await _send_json(send, 413, body, [(b"connection", b"close")])


# What the body limit reads and throws away before its 413 (at most this many times the limit,
# for at most this many seconds): an answer sent while the client is still writing, followed by
# a close with its body unread, reaches the client as a connection reset, not as the 413 (a new
# agent developer's trial: the async client and the MCP server saw "ReadError" and uploaded the
# body three more times). Only an authenticated principal within its rate gets this far.
DRAIN_FACTOR = 8
DRAIN_SECONDS = 10.0


class BodyLimit:
    """Refuse bodies over ``limit`` bytes, by Content-Length or while streaming; a body declared
    over it is read and discarded first (:meth:`drain`), so that every client reads the 413."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope["headers"]:
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                if int(value) <= self.limit * DRAIN_FACTOR:
                    await self.drain(receive)
                await _send_413(send, self.limit)
                return
        seen = 0
        started = False

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise BodyTooLarge(self.limit)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited, tracking_send)
        except BodyTooLarge:
            if not started:
                await _send_413(send, self.limit)

    async def drain(self, receive: Receive) -> None:
        """Read and discard a body declared over the limit, up to ``DRAIN_FACTOR`` times the
        limit and for at most ``DRAIN_SECONDS`` (beyond, the connection is closed after the
        413). A body without a Content-Length needs none of this: the route's 413 leaves the
        connection open and the server reads past the rest of the body itself."""
        budget = self.limit * DRAIN_FACTOR
        more = True
        with anyio.move_on_after(DRAIN_SECONDS):
            while more and budget > 0:
                message = await receive()
                if message["type"] != "http.request":
                    return  # the client went away
                budget -= len(message.get("body", b""))
                more = bool(message.get("more_body", False))


class Authenticate:
    """Resolve the caller before anything else on ``/v1``: before the body is read or parsed.

    The principal is left in ``scope["state"]["principal"]`` for :func:`server.deps.get_principal`.
    """

    def __init__(self, app: ASGIApp, keyring: KeyRing) -> None:
        self.app, self.keyring = app, keyring

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/v1"):
            await self.app(scope, receive, send)
            return
        headers = [v for k, v in scope["headers"] if k == b"authorization"]
        header = headers[0].decode("latin-1") if len(headers) == 1 else None
        try:
            principal = self.keyring.authenticate(header)
        except AuthenticationFailed as error:
            await _send_json(
                send, 401, error_body(error.code, error.message), [(b"www-authenticate", b"Bearer")]
            )
            return
        scope.setdefault("state", {})["principal"] = principal
        await self.app(scope, receive, send)


class RateLimit:
    """Refuse a principal's request over its rate (429 ``rate_limited`` with ``Retry-After``),
    after authentication and before the body is read or anything runs."""

    def __init__(self, app: ASGIApp, limiter: RateLimiter) -> None:
        self.app, self.limiter = app, limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        principal = scope.get("state", {}).get("principal") if scope["type"] == "http" else None
        wait = self.limiter.take(principal.id) if principal is not None else 0.0
        if wait <= 0:
            await self.app(scope, receive, send)
            return
        seconds = retry_after(wait)
        body = error_body(
            "rate_limited",
            "too many requests for this principal",
            {"retry_after": seconds},
        )
        await _send_json(send, 429, body, [(b"retry-after", str(seconds).encode())])


class Metrics:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = {"code": 500}
        start = time.perf_counter()

        async def capture(message: Message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, capture)
        finally:
            path = before_routing.template(scope)  # a 401, 413 or 429 too
            seconds = time.perf_counter() - start
            LATENCY.labels(scope["method"], path).observe(seconds)
            REQUESTS.labels(scope["method"], path, str(status["code"])).inc()
            _access_line(scope, path, status["code"], seconds)


def _access_line(scope: Scope, route: str, status: int, seconds: float) -> None:
    """One log line per request: the route's template (``/v1/events/{event_id}``, never the
    path or query sent, which may hold a subject or a text), the status, the time and the
    caller's principal id (never its key). The request id is added by the log handler."""
    principal = scope.get("state", {}).get("principal")
    access.info(
        "%s %s %d",
        scope["method"],
        route,
        status,
        extra={
            "method": scope["method"],
            "route": route,
            "status": status,
            "ms": round(seconds * 1000, 1),
            "principal": getattr(principal, "id", None),
        },
    )


class RequestId:
    """Give every request its id (the caller's ``X-Request-ID`` when it is safe, else a new
    one: ``server.request_ids``) and put it on every answer, before anything else runs."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = [v for k, v in scope["headers"] if k == b"x-request-id"]
        request_id = request_ids.accept(given)
        request_ids.begin(request_id)
        header = (b"x-request-id", request_id.encode("ascii"))

        async def stamped(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [h for h in message.get("headers", []) if h[0].lower() != header[0]]
                message = {**message, "headers": [*headers, header]}
            await send(message)

        await self.app(scope, receive, stamped)
