"""The OpenAPI document: FastAPI's, from the routes' models, with the server's batch limits.

The request and answer shapes all come from the pydantic models (graph_schema/<capability>/
types.py) and the error answers from :func:`server.errors.declared`. Two things no model
can know are added here: the request id every answer carries (``X-Request-ID``,
server/request_ids.py), and this server's configuration: the most items
a batch may hold (``TRACTATUS_MAX_BATCH``, ``TRACTATUS_MAX_OBSERVATION_BATCH``), written
into the batch schemas here so that the served document is exact for the server that serves it.

``docs/openapi.json`` is the document of a server with the default settings, written by
``tractatus openapi`` (:func:`render`: sorted keys, two-space indent, a final newline);
``tests/unit/test_openapi.py`` fails when the served document differs from it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from graph_schema.core.types import REQUEST_ID_PATTERN
from server import request_ids
from server.settings import Settings

COMMITTED = Path("docs") / "openapi.json"
# component -> (array property, the setting that bounds it)
BATCH_LIMITS = {
    "AssertionBatch": ("assertions", "max_batch"),
    "ObservationBatch": ("observations", "max_observation_batch"),
}


def build(app: FastAPI, settings: Settings) -> dict[str, Any]:
    """The document of ``app`` as configured by ``settings``."""
    document = get_openapi(
        title=app.title,
        version=app.version,
        openapi_version=app.openapi_version,
        summary=app.summary,
        description=app.description,
        routes=app.routes,
    )
    schemas = document["components"]["schemas"]
    for component, (field, setting) in BATCH_LIMITS.items():
        schemas[component]["properties"][field]["maxItems"] = getattr(settings, setting)
    _request_ids(document)
    return document


def _request_ids(document: dict[str, Any]) -> None:
    """Every answer carries an ``X-Request-ID``. The caller's header is not declared as a
    parameter: it is never refused (junk is replaced), and a declared pattern would promise
    a refusal that does not come."""
    schema = {"type": "string", "pattern": REQUEST_ID_PATTERN}
    answered = {"description": "the request's id (the caller's, or a new one)", "schema": schema}
    for operations in document["paths"].values():
        for operation in operations.values():
            for response in operation["responses"].values():
                response.setdefault("headers", {})[request_ids.HEADER] = answered


def install(app: FastAPI, settings: Settings) -> None:
    """Serve :func:`build`'s document at ``/openapi.json`` (made once, on first request)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = build(app, settings)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def render(document: dict[str, Any]) -> str:
    """The committed form: deterministic, so that a difference is a change of the contract."""
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def default_settings(principals: Path) -> Settings:
    """Settings at their defaults, whatever the environment says (the committed document)."""
    return Settings.model_construct(principals=principals)
