"""A light client of the Tractatus memory API: ``Tractatus`` (sync) and ``AsyncTractatus``.

    from tractatus_client import Tractatus, PreconditionFailed

    with Tractatus("http://127.0.0.1:8000", "tr_live_...") as memory:
        facts = memory.facts("user:alice", "tech_stack")

Only httpx, pydantic and tenacity are needed; ``pip install "tractatus-client[mcp]"`` adds the
MCP server (``tractatus-mcp``).
"""

from tractatus_client._calls import UNSET, Call
from tractatus_client._http import REQUEST_ID_HEADER, VERSION, RetryPolicy
from tractatus_client.aio import AsyncTractatus
from tractatus_client.errors import (
    BadRequest,
    Conflict,
    ConnectionFailed,
    Forbidden,
    InvalidArgument,
    InvalidRequest,
    NotFound,
    OntologyConflict,
    PayloadTooLarge,
    PreconditionFailed,
    RateLimited,
    Rejected,
    SecretDetected,
    ServerError,
    TractatusError,
    Unauthenticated,
    Unavailable,
    UnsupportedMediaType,
    ValidTimeConflict,
)
from tractatus_client.sync import Tractatus

__version__ = VERSION
__all__ = [
    "REQUEST_ID_HEADER",
    "UNSET",
    "AsyncTractatus",
    "BadRequest",
    "Call",
    "Conflict",
    "ConnectionFailed",
    "Forbidden",
    "InvalidArgument",
    "InvalidRequest",
    "NotFound",
    "OntologyConflict",
    "PayloadTooLarge",
    "PreconditionFailed",
    "RateLimited",
    "Rejected",
    "RetryPolicy",
    "SecretDetected",
    "ServerError",
    "Tractatus",
    "TractatusError",
    "Unauthenticated",
    "Unavailable",
    "UnsupportedMediaType",
    "ValidTimeConflict",
]
