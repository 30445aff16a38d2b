"""One exception per error code of the API; every one carries the request id.

The server answers every error as ``{"error": {"code", "message", "details", "request_id"}}``.
The client raises the subclass named by ``code`` (``BY_CODE``, else by the HTTP status:
``BY_STATUS``), with ``status``, ``code``, ``message``, ``details`` and ``request_id`` (the
``X-Request-ID`` the server echoed, else the one the client sent). A code's class derives from
its status's class, so code that catches the status's class catches it too (``Rejected`` aside:
it came first). The tree (docs/client.md lists the codes of each)::

    TractatusError
    ├── ConnectionFailed          no answer, after the retries
    ├── BadRequest                400
    ├── Unauthenticated           401
    ├── Forbidden                 403
    ├── NotFound                  404
    ├── Conflict                  409
    │   ├── PreconditionFailed    .current
    │   ├── OntologyConflict
    │   └── ValidTimeConflict
    ├── PayloadTooLarge           413
    ├── UnsupportedMediaType      415
    ├── InvalidRequest            422 .problems
    │   └── SecretDetected        422 .secrets, .count
    ├── Rejected                  422 .rejections, .reasons, .quarantine_ids
    ├── RateLimited               429
    └── ServerError               5xx
        └── Unavailable           503

``InvalidArgument`` is a ``ValueError`` raised before anything is sent, not a ``TractatusError``.
"""

from __future__ import annotations

from typing import Any


class TractatusError(Exception):
    """Root of every error this client raises."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        code: str = "error",
        details: dict[str, Any] | None = None,
        request_id: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.details: dict[str, Any] = details or {}
        self.request_id = request_id
        self.retry_after = retry_after  # seconds, from the answer's Retry-After

    def __str__(self) -> str:
        where = f"HTTP {self.status} " if self.status is not None else ""
        rid = f" (request {self.request_id})" if self.request_id else ""
        return f"{where}{self.code}: {self.message}{rid}"


class InvalidArgument(ValueError):
    """An argument the client refuses before sending anything, with what is wrong and why: a
    number JSON cannot carry (NaN, an infinity, 1e400), evidence that is not a quote or a
    span, a caller's idempotency key without the caller's ``occurred_at``, text or a mapping
    where a list is expected (``access="ops"``: never split into letters). A ``ValueError``
    (not a ``TractatusError``: no request was made); the MCP server makes it a tool error."""


class ConnectionFailed(TractatusError):
    """The server could not be reached (after the retries an idempotent call is allowed)."""


class BadRequest(TractatusError):
    """400: the body is not JSON, or the request is malformed."""


class Unauthenticated(TractatusError):
    """401: missing, malformed, unknown or revoked bearer key."""


class Forbidden(TractatusError):
    """403: the key's role may not use this operation (e.g. admin routes)."""


class NotFound(TractatusError):
    """404: no such resource, or one the caller may not see (the two look the same)."""


class Conflict(TractatusError):
    """409: the write conflicts with what is stored."""


class PreconditionFailed(Conflict):
    """409 ``precondition_failed``: ``expected_current`` did not match the slot.

    ``current`` is the version that governs now (``None`` when the slot is empty), as the
    server reported it in ``details.current``.
    """

    @property
    def current(self) -> dict[str, Any] | None:
        current = self.details.get("current")
        return current if isinstance(current, dict) else None


class OntologyConflict(Conflict):
    """409 ``ontology_conflict``: a predicate is registered with another definition."""


class ValidTimeConflict(Conflict):
    """409 ``valid_time_conflict``: declared by servers before 2026-12 and never answered (a
    write crossing a later version supersedes it and leaves remnants, docs/semantics.md);
    kept so that code importing it keeps working."""


class PayloadTooLarge(TractatusError):
    """413 ``body_too_large`` / ``batch_too_large``."""


class UnsupportedMediaType(TractatusError):
    """415 ``unsupported_media_type``: a body sent without a JSON ``Content-Type`` (the client
    always sends one; a call given other headers may not)."""


class InvalidRequest(TractatusError):
    """422 ``invalid_request``: the request does not fit the API (nothing was written)."""

    @property
    def problems(self) -> list[dict[str, Any]]:
        problems = self.details.get("problems")
        return problems if isinstance(problems, list) else []


class SecretDetected(InvalidRequest):
    """422 ``secret_detected``: the write holds what looks like a secret (a private key, an API
    key or token, a password, a card number, an IBAN); nothing was written or quarantined.

    ``secrets`` has one ``{"field", "kind"}`` per secret found (the field as a path,
    ``body.evidence.quote``; never the value), ``count`` how many were found. Send the write
    again without them. An ``InvalidRequest``, the class this 422 was raised as before it had
    its own.
    """

    @property
    def secrets(self) -> list[dict[str, Any]]:
        secrets = self.details.get("secrets")
        return [s for s in secrets if isinstance(s, dict)] if isinstance(secrets, list) else []

    @property
    def count(self) -> int:
        count = self.details.get("count")
        return count if isinstance(count, int) else len(self.secrets)


class Rejected(TractatusError):
    """422 ``rejected``: the gate refused the write and quarantined it (nothing else written).

    ``rejections`` has one ``{"index", "reason", "message"}`` per refused item,
    ``quarantine_ids`` the ids of the quarantined copies.
    """

    @property
    def rejections(self) -> list[dict[str, Any]]:
        rejections = self.details.get("rejections")
        return rejections if isinstance(rejections, list) else []

    @property
    def reasons(self) -> list[str]:
        return [str(r.get("reason")) for r in self.rejections]

    @property
    def quarantine_ids(self) -> list[str]:
        ids = self.details.get("quarantine_ids")
        return ids if isinstance(ids, list) else []


class RateLimited(TractatusError):
    """429: too many requests (retried for idempotent calls)."""


class ServerError(TractatusError):
    """5xx that no other class covers."""


class Unavailable(ServerError):
    """503: ``store_unavailable`` (Neo4j cannot be reached), ``store_busy`` (its transactions
    kept meeting locks), ``embedding_unavailable`` or ``embedding_space_mismatch`` (the server
    cannot embed); retried for idempotent calls."""


BY_CODE: dict[str, type[TractatusError]] = {
    "invalid_json": BadRequest,
    "bad_request": BadRequest,
    "unauthenticated": Unauthenticated,
    "forbidden": Forbidden,
    "not_found": NotFound,
    "precondition_failed": PreconditionFailed,
    "ontology_conflict": OntologyConflict,
    "valid_time_conflict": ValidTimeConflict,
    "task_ended": Conflict,
    "task_conflict": Conflict,
    "sleep_running": Conflict,
    "body_too_large": PayloadTooLarge,
    "batch_too_large": PayloadTooLarge,
    "unsupported_media_type": UnsupportedMediaType,
    "invalid_request": InvalidRequest,
    "secret_detected": SecretDetected,
    "rejected": Rejected,
    "rate_limited": RateLimited,
    "store_unavailable": Unavailable,
    "store_busy": Unavailable,
    "embedding_unavailable": Unavailable,
    "embedding_space_mismatch": Unavailable,
}

BY_STATUS: dict[int, type[TractatusError]] = {
    400: BadRequest,
    401: Unauthenticated,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    413: PayloadTooLarge,
    415: UnsupportedMediaType,
    422: InvalidRequest,
    429: RateLimited,
    503: Unavailable,
}


def error_class(status: int, code: str) -> type[TractatusError]:
    if code in BY_CODE:
        return BY_CODE[code]
    if status in BY_STATUS:
        return BY_STATUS[status]
    return ServerError if status >= 500 else TractatusError
