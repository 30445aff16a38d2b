"""The domain exception tree. HTTP status codes are chosen in ``server/errors.py``.

TractatusError
├── GateRejected            input refused by the validation gate (quarantined)
├── SecretDetected          a write holds what looks like a secret (nothing kept)
├── PreconditionFailed      ``expected_current`` did not match the slot
├── NotFound                a named resource does not exist (or is not visible)
├── TaskEnded               a write names a task of the writer that has ended
├── TaskConflict            a task is started again with another goal or access
├── SleepRunning            another sleep holds the sleep lock
├── OntologyConflict        a predicate is re-registered with a different definition
├── AuthenticationFailed    missing, malformed or unknown bearer key
├── PermissionDenied        the principal's role may not use this operation
├── StoreUnavailable        Neo4j cannot be reached
├── StoreBusy               Neo4j answered, but a transaction conflict outlasted the retries
└── ModelUnavailable        the embedding model cannot be used now
    ├── EmbeddingUnavailable    not installed, damaged, or its worker died
    │                           (``ingest.embeddings.model``)
    └── EmbeddingSpaceMismatch  not the model the store's vectors come from
                                (``graph_schema.schema.space``)
"""

from __future__ import annotations

from typing import Any


class TractatusError(Exception):
    """Root of every error Tractatus raises on purpose."""

    code = "internal_error"
    # what an API caller is told instead of ``message`` when that may name the server's own
    # files or settings (``message`` then goes to the server's log only)
    public: str | None = None

    def __init__(self, message: str, *, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details: dict[str, Any] = details or {}


class GateRejected(TractatusError):
    code = "rejected"

    def __init__(
        self, message: str, *, rejections: list[dict[str, Any]], quarantine_ids: list[str]
    ) -> None:
        super().__init__(
            message, details={"rejections": rejections, "quarantine_ids": quarantine_ids}
        )
        self.rejections = rejections
        self.quarantine_ids = quarantine_ids


class SecretDetected(TractatusError):
    """A write holds what looks like a secret (``graph_schema.core.secrets``): refused before
    anything is written or quarantined. ``details.secrets`` names each field and kind, never
    the value (a new user's security review stored keys and card numbers through every write
    route and read them back on every read route)."""

    code = "secret_detected"

    @classmethod
    def of(cls, hits: list[tuple[str, str]], total: int) -> SecretDetected:
        field, kind = hits[0]
        more = f" (and {total - 1} more)" if total > 1 else ""
        return cls(
            f"the request holds what looks like a secret: {kind} in {field}{more}; nothing was"
            " written. A memory keeps what it is given for good: remove the secret (or write a"
            " reference to where it is kept) and send the request again",
            details={"secrets": [{"field": f, "kind": k} for f, k in hits], "count": total},
        )


class PreconditionFailed(TractatusError):
    code = "precondition_failed"


class NotFound(TractatusError):
    code = "not_found"


class TaskEnded(TractatusError):
    code = "task_ended"


class TaskConflict(TractatusError):
    code = "task_conflict"


class SleepRunning(TractatusError):
    code = "sleep_running"


class OntologyConflict(TractatusError):
    code = "ontology_conflict"


class AuthenticationFailed(TractatusError):
    code = "unauthenticated"


class PermissionDenied(TractatusError):
    code = "forbidden"


class StoreUnavailable(TractatusError):
    code = "store_unavailable"


class StoreBusy(TractatusError):
    """The store is up, but the transaction kept meeting others' locks (a deadlock, a lock
    wait that timed out) until the driver's retries (``TRACTATUS_NEO4J_RETRY_TIME``) ran out:
    nothing was written, and the same request may succeed when sent again. A new user's trial
    was told "the graph store is unavailable" while ``/healthz`` said the store was up."""

    code = "store_busy"
    public = (
        "the graph store is busy: the request's transaction kept conflicting with other"
        " transactions (a deadlock or a lock wait) until the retries ran out; nothing was"
        " written; send it again"
    )


class ModelUnavailable(TractatusError):
    """The server cannot embed now: nothing is read or written until an operator acts."""

    code = "model_unavailable"
