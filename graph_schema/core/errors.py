"""The domain exception tree. HTTP status codes are chosen in ``server/errors.py``.

TractatusError
├── GateRejected            input refused by the validation gate (quarantined)
├── PreconditionFailed      ``expected_current`` did not match the slot
├── NotFound                a named resource does not exist (or is not visible)
├── TaskEnded               a write names a task of the writer that has ended
├── TaskConflict            a task is started again with another goal or access
├── SleepRunning            another sleep holds the sleep lock
├── OntologyConflict        a predicate is re-registered with a different definition
├── AuthenticationFailed    missing, malformed or unknown bearer key
├── PermissionDenied        the principal's role may not use this operation
├── StoreUnavailable        Neo4j cannot be reached
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


class ModelUnavailable(TractatusError):
    """The server cannot embed now: nothing is read or written until an operator acts."""

    code = "model_unavailable"
