"""Requests answered before routing: the route they were for, and ``HEAD`` on the probes.

* :func:`template` names the route of every request in the access log and the metrics: the
  one routing chose, else, for a request answered before routing (401 by authentication, 413
  by ``Content-Length``, 429 by the rate limit), the route routing would have chosen, read
  from the application's OpenAPI paths. A new operator's trial saw those labelled
  ``unmatched`` and could not tell which route was throttled or sent oversized bodies.
  ``unmatched`` is left for a path no route has.
* :class:`HeadProbes` answers ``HEAD`` on ``/healthz``, ``/readyz`` and ``/metrics`` as their
  ``GET`` without the body (load balancers and uptime checkers probe with ``HEAD``; the same
  trial got 405).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from starlette.routing import Route, compile_path
from starlette.types import ASGIApp, Message, Receive, Scope, Send

UNMATCHED = "unmatched"
# the GET endpoints that need no key, answered to HEAD too
PROBES = frozenset({"/healthz", "/readyz", "/metrics"})


@dataclass(frozen=True)
class _Template:
    pattern: re.Pattern[str]
    methods: frozenset[str]
    path: str


def _templates(app: Any) -> list[_Template]:
    """The application's route templates in routing order, built once: its own routes
    (``/openapi.json``, ``/docs``), then the API's (its OpenAPI paths)."""
    built: list[_Template] | None = getattr(app.state, "route_templates", None)
    if built is None:
        built = [
            _Template(route.path_regex, frozenset(route.methods or ()), route.path)
            for route in app.router.routes
            if isinstance(route, Route)
        ]
        built += [
            _Template(compile_path(path)[0], frozenset(m.upper() for m in operations), path)
            for path, operations in app.openapi()["paths"].items()
        ]
        app.state.route_templates = built
    return built


def template(scope: Scope) -> str:
    """The template of the route a request is for (``/v1/events/{event_id}``): the route
    routing chose; else the first with this path and method, then the first with this path
    (as routing chooses); else ``unmatched``."""
    chosen = getattr(scope.get("route"), "path", None)
    if chosen is not None:
        return str(chosen)
    app = scope.get("app")
    if app is None:
        return UNMATCHED
    path = scope["path"]
    matching = [t for t in _templates(app) if t.pattern.match(path)]
    same_method = [t for t in matching if scope["method"] in t.methods]
    return (same_method or matching)[0].path if matching else UNMATCHED


class HeadProbes:
    """``HEAD`` on a probe answered as its ``GET`` without the body: the same status and
    headers (``Content-Length`` included, as RFC 9110 allows)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD" or scope["path"] not in PROBES:
            await self.app(scope, receive, send)
            return

        async def bodiless(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, bodiless)
