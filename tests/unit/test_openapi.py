"""The OpenAPI document: the served one is the committed one (docs/openapi.json), it resolves
completely, and every operation declares the answers it can give in the one error shape."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from graph_schema.ledger.types import MAX_ASSERTION_BATCH
from graph_schema.observations.types import MAX_OBSERVATION_BATCH
from server import openapi
from server.app import create_app
from server.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / openapi.COMMITTED
# every keyword the document may use in a schema (JSON Schema 2020-12 as OpenAPI 3.1 has it)
KEYWORDS = frozenset(
    [
        "$ref",
        "type",
        "properties",
        "required",
        "items",
        "additionalProperties",
        "anyOf",
        "oneOf",
        "allOf",
        "if",
        "then",
        "enum",
        "const",
        "format",
        "pattern",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minItems",
        "maxItems",
        "title",
        "description",
        "default",
    ]
)
ADMIN_ONLY = {
    ("post", "/v1/ontology/predicates"),
    ("get", "/v1/quarantine"),
    ("post", "/v1/recall/index"),
    ("post", "/v1/sleep"),
}
# refused to a caller who is neither the owner (the task's, the assertion's writer) nor an admin,
# or who names access groups it is not in
OWNER_OR_ADMIN = {
    ("post", "/v1/tasks"),
    ("post", "/v1/tasks/{task_id}/end"),
    ("post", "/v1/assertions/{assertion_id}/pin"),
    ("post", "/v1/assertions/{assertion_id}/unpin"),
}


def _served(**settings: Any) -> dict[str, Any]:
    app = create_app(Settings.model_construct(principals=ROOT / "README.md", **settings))
    document: dict[str, Any] = app.openapi()
    return document


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return _served()


def _operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(m, p, op) for p, ops in document["paths"].items() for m, op in ops.items()]


def test_the_served_document_is_the_committed_one(document: dict[str, Any]) -> None:
    """Regenerate with ``tractatus openapi`` when the contract changes on purpose."""
    assert COMMITTED.read_text("utf-8") == openapi.render(document), (
        "docs/openapi.json differs from the served document: run `tractatus openapi`"
    )


def test_every_reference_resolves(document: dict[str, Any]) -> None:
    refs: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("$ref"), str):
                refs.append(node["$ref"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(document)
    assert refs
    for ref in refs:
        assert ref.startswith("#/components/schemas/"), ref
        assert ref.rsplit("/", 1)[1] in document["components"]["schemas"], ref


def test_schemas_use_only_json_schema_keywords(document: dict[str, Any]) -> None:
    """pydantic writes constraints it cannot place (``ge`` on a union) as unknown keys."""
    unknown: set[str] = set()

    def walk(schema: Any) -> None:
        if isinstance(schema, dict):
            unknown.update(k for k in schema if k not in KEYWORDS)
            for key, value in schema.items():
                if key == "properties":
                    for prop in value.values():
                        walk(prop)
                elif key in ("items", "additionalProperties", "if", "then"):
                    walk(value)
                elif key in ("anyOf", "oneOf", "allOf"):
                    for option in value:
                        walk(option)

    for schema in document["components"]["schemas"].values():
        walk(schema)
    for _, _, op in _operations(document):
        for parameter in op.get("parameters", []):
            walk(parameter["schema"])
    assert not unknown, unknown


def test_every_operation_declares_its_errors_in_the_one_shape(document: dict[str, Any]) -> None:
    for method, path, op in _operations(document):
        responses = op["responses"]
        # the body limit answers before any route, a GET's body too; /v1 refuses an unknown
        # query parameter on every operation (a new user's trial: GET /v1/ontology?foo=1
        # answered 422 and a GET with a 9 MB body 413, neither declared)
        assert "413" in responses, (method, path)
        if path.startswith("/v1"):
            assert "401" in responses, (method, path)
            assert "422" in responses, (method, path)
            assert "503" in responses, (method, path)
            forbidden = (method, path) in ADMIN_ONLY | OWNER_OR_ADMIN
            assert ("403" in responses) == forbidden, (method, path)
        if "requestBody" in op:
            assert {"400", "413", "422"} <= set(responses), (method, path)
        if op.get("parameters"):
            assert "422" in responses, (method, path)
        for status, response in responses.items():
            if status.startswith(("4", "5")):
                schema = response["content"]["application/json"]["schema"]
                refs = [schema.get("$ref")] + [o.get("$ref") for o in schema.get("anyOf", [])]
                assert "#/components/schemas/ErrorBody" in refs, (method, path, status)


def test_writes_through_the_gate_declare_its_refusal(document: dict[str, Any]) -> None:
    for path in ("/v1/assertions", "/v1/observations", "/v1/events"):
        refusal = document["paths"][path]["post"]["responses"]["422"]
        options = refusal["content"]["application/json"]["schema"]["anyOf"]
        assert {"$ref": "#/components/schemas/RejectedBody"} in options
        assert "rejected" in refusal["description"]
        assert "409" in document["paths"][path]["post"]["responses"]


def test_times_are_declared_as_rfc3339(document: dict[str, Any]) -> None:
    facts = {p["name"]: p for p in document["paths"]["/v1/facts"]["get"]["parameters"]}
    as_of = facts["as_of"]["schema"]["anyOf"][0]
    assert as_of["format"] == "date-time" and "[Zz]|[+-]" in as_of["pattern"]
    assert facts["tier"]["schema"]["anyOf"][0]["items"]["$ref"].endswith("/Tier")


def test_batch_bounds_follow_the_settings() -> None:
    default = _served()["components"]["schemas"]
    assert default["AssertionBatch"]["properties"]["assertions"]["maxItems"] == MAX_ASSERTION_BATCH
    assert (
        default["ObservationBatch"]["properties"]["observations"]["maxItems"]
        == MAX_OBSERVATION_BATCH
    )
    assert Settings.model_fields["max_batch"].default == MAX_ASSERTION_BATCH
    assert Settings.model_fields["max_observation_batch"].default == MAX_OBSERVATION_BATCH
    small = _served(max_batch=5, max_observation_batch=3)["components"]["schemas"]
    assert small["AssertionBatch"]["properties"]["assertions"]["maxItems"] == 5
    assert small["ObservationBatch"]["properties"]["observations"]["maxItems"] == 3


def test_the_committed_document_is_rendered_deterministically() -> None:
    text = COMMITTED.read_text("utf-8")
    assert text.endswith("}\n")
    assert openapi.render(json.loads(text)) == text


def test_every_answer_declares_its_request_id(document: dict[str, Any]) -> None:
    for method, path, op in _operations(document):
        for status, response in op["responses"].items():
            assert "X-Request-ID" in response.get("headers", {}), (method, path, status)


def test_every_503_declares_retry_after(document: dict[str, Any]) -> None:
    for method, path, op in _operations(document):
        if "503" in op["responses"]:
            assert "Retry-After" in op["responses"]["503"]["headers"], (method, path)


# the operations that embed text (their writes are searched, or their query is)
EMBEDDING = {
    ("post", "/v1/observations"),
    ("post", "/v1/assertions"),
    ("post", "/v1/events"),
    ("post", "/v1/recall"),
    ("post", "/v1/recall/index"),
}


def test_the_operations_that_embed_declare_the_models_503s(document: dict[str, Any]) -> None:
    """`embedding_unavailable` / `embedding_space_mismatch` answered 500, undeclared, before."""
    for method, path, op in _operations(document):
        described = op["responses"].get("503", {}).get("description", "")
        for code in ("`embedding_unavailable`", "`embedding_space_mismatch`"):
            assert (code in described) == ((method, path) in EMBEDDING), (method, path, code)
