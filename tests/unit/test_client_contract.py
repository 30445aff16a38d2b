"""The client cannot drift from the server: its routes and answer models are checked against the
OpenAPI document the application serves (``app.openapi()``, i.e. ``/openapi.json``).

Every route the client calls exists with the method it uses; every route the server has is
reachable from the client (or listed below, with the reason); and wherever the document
describes a success answer, the client's model has the same shape: the same field names, JSON
types, formats, enums and nullability, recursively. Routes whose answer the document does not
describe yet are compared as soon as it does (the exact contract tightens this test by itself).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from tractatus_client import _calls
from tractatus_client.sync import Tractatus

from server.app import create_app
from server.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
NOT_IN_CLIENT = {
    ("GET", "/metrics"): "Prometheus text for a scraper, not for an application",
}
ASSERTION = {"subject": "s", "predicate": "p", "object": "o", "source_kind": "user_stated"}

# One sample call per method of the client (the async client has the same ones).
CALLS: dict[str, _calls.Call[Any]] = {
    "assert_fact": _calls.assert_one(ASSERTION),
    "assert_facts": _calls.assert_many([ASSERTION]),
    "retract": _calls.assert_one({**ASSERTION, "polarity": False}),
    "facts": _calls.facts("s", "p"),
    "history": _calls.history("s", "p"),
    "entities": _calls.entities("q"),
    "entity": _calls.entity("ent_000000000000000000000000"),
    "procedures": _calls.procedures(trigger="open_order"),
    "procedure": _calls.procedure("01ARZ3NDEKTSV4RRFFQ69G5FAV"),
    "observe": _calls.observe_one({"text": "t"}),
    "observe_many": _calls.observe_many([{"text": "t"}]),
    "observation": _calls.observation("o1", context=1),
    "recall": _calls.recall("q"),
    "index_passages": _calls.index_passages(),
    "record_event": _calls.record_event({}),
    "event": _calls.event("e1"),
    "chain": _calls.chain("e1"),
    "why": _calls.why("s", "p"),
    "timeline": _calls.timeline("t1"),
    "start_task": _calls.start_task("t1"),
    "task": _calls.task("t1"),
    "end_task": _calls.end_task("t1"),
    "pin": _calls.pin("a1"),
    "unpin": _calls.pin("a1", pinned=False),
    "sleep": _calls.sleep(dry_run=True),
    "ontology": _calls.ontology(),
    "register_predicate": _calls.register_predicate({}),
    "quarantine": _calls.quarantine(),
    "health": _calls.health(),
    "ready": _calls.ready(),
}


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    app = create_app(Settings(principals=ROOT / "README.md"))
    doc: dict[str, Any] = app.openapi()
    return doc


def _template(path: str) -> str:
    return re.sub(r"\{[^}]+\}", "{}", path)


def _route(document: dict[str, Any], method: str, path: str) -> tuple[str, dict[str, Any]]:
    for template, operations in document["paths"].items():
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
        if re.match(pattern, path) and method.lower() in operations:
            return template, operations[method.lower()]
    raise AssertionError(f"the server has no route {method} {path}")


def shape(schema: dict[str, Any], defs: dict[str, Any]) -> Any:
    """A comparable normal form of a JSON schema (titles, descriptions, defaults ignored)."""
    if "$ref" in schema:
        return shape(defs[schema["$ref"].rsplit("/", 1)[-1]], defs)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = frozenset(shape(s, defs) for s in schema[key])
            return next(iter(options)) if len(options) == 1 else options
    if "enum" in schema or "const" in schema:
        return ("enum", tuple(sorted(schema.get("enum", [schema.get("const")]))))
    kind = schema.get("type")
    if kind == "array":
        return ("array", shape(schema.get("items", {}), defs))
    if kind == "object" or "properties" in schema:
        properties = schema.get("properties")
        if not properties:
            extra = schema.get("additionalProperties")
            return ("map", shape(extra, defs)) if isinstance(extra, dict) else ("object",)
        fields = tuple(sorted((name, shape(s, defs)) for name, s in properties.items()))
        return ("object", fields)
    if kind is None:
        return ("any",)
    return (kind, schema.get("format"))


def _answer_schemas(operation: dict[str, Any]) -> list[dict[str, Any]]:
    """The JSON schemas of the 2xx answers the document describes (a write route may answer a
    single body 201 and a batch 200: the client's model must be one of them)."""
    schemas = []
    for status, response in sorted(operation["responses"].items()):
        if status.startswith("2"):
            schema = response.get("content", {}).get("application/json", {}).get("schema")
            if isinstance(schema, dict) and ("$ref" in schema or "properties" in schema):
                schemas.append(schema)
    return schemas


def test_every_client_method_has_a_sample_call() -> None:
    methods = {n for n in vars(Tractatus) if not n.startswith("_")} - {"run", "close"}
    assert methods | {"observe_many"} == set(CALLS)


def test_every_route_of_the_client_exists_and_every_route_is_reachable(
    document: dict[str, Any],
) -> None:
    used = {(c.method, _template(_route(document, c.method, c.path)[0])) for c in CALLS.values()}
    served = {
        (method.upper(), _template(path))
        for path, operations in document["paths"].items()
        for method in operations
    }
    assert used <= served
    missing = served - used - set(NOT_IN_CLIENT)
    assert not missing, f"routes the client cannot call: {sorted(missing)}"


def test_answer_models_have_the_shape_the_server_documents(document: dict[str, Any]) -> None:
    defs = document["components"]["schemas"]
    compared = []
    for name, call in CALLS.items():
        _, operation = _route(document, call.method, call.path)
        schemas = _answer_schemas(operation)
        if not schemas:
            continue
        client = call.model.model_json_schema(by_alias=True)
        ours = shape(client, client.get("$defs", {}))
        documented = [shape(schema, defs) for schema in schemas]
        assert any(
            ours == theirs or (isinstance(theirs, frozenset) and ours in theirs)
            for theirs in documented
        ), name
        compared.append(name)
    # the routes with response models today; more as the document becomes exact
    assert {"facts", "history", "event", "chain", "why", "timeline", "recall"} <= set(compared)


def test_a_drifted_model_would_be_caught(document: dict[str, Any]) -> None:
    defs = document["components"]["schemas"]
    server = shape(defs["FactsAnswer"], defs)
    client = _calls.facts("s", "p").model.model_json_schema(by_alias=True)
    assert shape(client, client["$defs"]) == server
    client["$defs"]["Assertion"]["properties"]["confidence"] = {"type": "string"}
    assert shape(client, client["$defs"]) != server
