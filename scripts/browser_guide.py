#!/usr/bin/env python3
"""Serve the Neo4j Browser guide and style (docs/browser/) to the local Neo4j Browser.

Started and stopped by ``scripts/neo4j_local.py`` beside the Neo4j server (see
docs/browser.md). Neo4j Browser fetches a guide (``:play URL``) and a style (``:style URL``)
with cross-origin requests, and only from hosts its configuration allows
(``browser.remote_content_hostname_whitelist``); this server answers them with the CORS
headers for the Browser's own origin and nothing else. Loopback only, read-only, standard
library only.

Usage::

    python scripts/browser_guide.py --port 8404 --origin http://127.0.0.1:7404 \
        --directory docs/browser
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
from collections.abc import Sequence
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

LOOPBACK = "127.0.0.1"
# Neo4j Browser sends these with its guide requests, which makes them "non-simple"
ALLOWED_HEADERS = "pragma, cache-control, content-type"


BASE_PLACEHOLDER = "{{guide_base}}"


class GuideHandler(SimpleHTTPRequestHandler):
    """Static files with CORS for the allowed origins; no directory listings. In ``.html``
    files ``{{guide_base}}`` becomes this server's own URL (the guide links its style)."""

    origins: frozenset[str] = frozenset()
    base: str = ""
    extensions_map = {  # noqa: RUF012 (an instance attribute in http.server's typing)
        **SimpleHTTPRequestHandler.extensions_map,
        ".grass": "text/plain; charset=utf-8",
        ".html": "text/html; charset=utf-8",
    }

    def end_headers(self) -> None:
        origin = self.headers.get("Origin")
        if origin in self.origins:
            self.send_header("Access-Control-Allow-Origin", origin)
            self.send_header("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
            self.send_header("Access-Control-Allow-Headers", ALLOWED_HEADERS)
            self.send_header("Vary", "Origin")
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_GET(self) -> None:
        path = self.translate_path(self.path)
        if not path.endswith(".html") or not os.path.isfile(path):
            super().do_GET()
            return
        with open(path, encoding="utf-8") as handle:
            body = handle.read().replace(BASE_PLACEHOLDER, self.base).encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_OPTIONS(self) -> None:
        self.send_response(204)
        self.end_headers()

    def list_directory(self, path: str) -> None:  # type: ignore[override]
        self.send_error(404, "no listing")

    def log_message(self, format: str, *args: object) -> None:
        sys.stderr.write(f"browser_guide: {self.address_string()} {format % args}\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--directory", required=True)
    parser.add_argument("--origin", action="append", required=True, help="a Browser origin")
    args = parser.parse_args(argv)
    settings = {"origins": frozenset(args.origin), "base": f"http://{LOOPBACK}:{args.port}"}
    handler = type("Handler", (GuideHandler,), settings)
    bound = functools.partial(handler, directory=args.directory)
    with ThreadingHTTPServer((LOOPBACK, args.port), bound) as server:
        server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
