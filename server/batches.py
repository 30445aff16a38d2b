"""One body or a batch: the shared request shape of the write routes.

The shape is decided before the gate, exactly (docs/api.md "Where the document comes from"):
an object with the batch's key (``assertions``, ``observations``) is a batch, and holds nothing
else; an object without it that has a field of an item is one item, which the gate judges (a
malformed one is refused and quarantined, with its reason); any other body is no request of
the route: ``invalid_request``, nothing written, nothing quarantined. ``{"assertions": [...],
"x": 1}`` and ``{}`` were taken for one assertion and quarantined as drafts. An event (no
batch form) is one item the same way (:func:`no_item`).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from fastapi.responses import JSONResponse

from graph_schema.core.secrets import Policy, refuse_secrets
from server.errors import NOT_AN_OBJECT, error_response, invalid_problems, invalid_request

EXTRA = "Extra inputs are not permitted"
NEITHER = "not_an_item_or_batch"
NOT_AN_ITEM = "not_an_item"
# how many unknown fields a refusal names, and how much of each
NAMES_SHOWN, NAME_SHOWN = 5, 64


def keyed_by_header(items: list[Any], is_batch: bool, header: str | None) -> None:
    """An ``Idempotency-Key`` header on observations keys those that carry no key of their
    own: a single observation by the header, the items of a batch by the header and their
    index (``KEY:0``, ``KEY:1``, ...), so the same request sent again replays each. A key in
    the body wins. (A new user's trial sent the header and it was silently ignored.)"""
    if header is None:
        return
    for index, body in enumerate(items):
        if isinstance(body, dict) and body.get("idempotency_key") is None:
            body["idempotency_key"] = f"{header}:{index}" if is_batch else header


def batch_items(
    payload: Any, *, key: str, max_batch: int, fields: Collection[str], secrets: Policy
) -> tuple[list[Any], bool] | JSONResponse:
    """The items of a body and whether it was a batch, or the error response refusing it.
    ``fields`` are an item's fields; ``secrets`` the policy a refusal naming the body's
    fields is checked with first (a field's name may be a secret)."""
    if not isinstance(payload, dict):
        return invalid_request(*NOT_AN_OBJECT)
    if key in payload:
        return _batch(payload, key=key, max_batch=max_batch, secrets=secrets)
    refused = no_item(
        payload, item=key.removesuffix("s"), batch=key, fields=fields, secrets=secrets
    )
    return refused if refused is not None else ([payload], False)


def no_item(
    payload: dict[str, Any],
    *,
    item: str,
    fields: Collection[str],
    secrets: Policy,
    batch: str | None = None,
) -> JSONResponse | None:
    """The refusal of an object that has none of an item's ``fields`` (``{}``, ``{"x": 1}``):
    no draft, so ``invalid_request`` naming its unknown fields, nothing quarantined; None
    when it has one (the gate judges it). ``batch`` is the route's batch key, if it has one.
    ``POST /v1/events`` took ``{"x": 1}`` for an event missing every field: 422
    ``rejected`` "task_id: field required", quarantined (a new user's trial)."""
    if any(name in payload for name in fields):
        return None
    article = "an" if item[0] in "aeiou" else "a"
    what = f'neither one {item} nor a batch ({{"{batch}": [...]}})' if batch else f"no {item}"
    message = f"{what}: it has none of the fields of {article} {item}"
    if payload:
        refuse_secrets(payload, secrets)
        message += f" (unknown: {_listed(sorted(payload))})"
    return invalid_request("body", message, NEITHER if batch else NOT_AN_ITEM)


def _listed(names: list[str]) -> str:
    """Field names as a message lists them: the first few, each cut to a readable length."""
    shown = [name if len(name) <= NAME_SHOWN else f"{name[:NAME_SHOWN]}..." for name in names]
    more = len(shown) - NAMES_SHOWN
    return ", ".join(shown[:NAMES_SHOWN]) + (f" and {more} more" if more > 0 else "")


def _batch(
    payload: dict[str, Any], *, key: str, max_batch: int, secrets: Policy
) -> tuple[list[Any], bool] | JSONResponse:
    extra = sorted(set(payload) - {key})
    if extra:
        refuse_secrets({name: payload[name] for name in extra}, secrets)
        return invalid_problems([(f"body.{name}", EXTRA, "extra_forbidden") for name in extra])
    items = payload[key]
    if not isinstance(items, list):
        return invalid_request(f"body.{key}", "Input should be a valid list", "list_type")
    if not items:
        return invalid_request(f"body.{key}", "List should have at least 1 item", "too_short")
    if len(items) > max_batch:
        message = f"a batch holds at most {max_batch} {key}"
        return error_response(413, "batch_too_large", message, {"limit": max_batch})
    return items, True
