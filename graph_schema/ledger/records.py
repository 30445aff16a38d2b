"""Neo4j records of assertions and evidence into the ledger's answer types."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from graph_schema.core.records import native
from graph_schema.ledger.types import AssertionOut, EvidenceOut, HistoryVersion
from graph_schema.lifecycle.types import Transition


def evidence_out(props: dict[str, Any]) -> EvidenceOut:
    data = native(props)
    return EvidenceOut.model_validate(
        {k: data.get(k) for k in EvidenceOut.model_fields if k in data}
    )


def assertion_out(record: Any, *, known_at: datetime | None = None) -> AssertionOut:
    """Build an AssertionOut from a record made by ``cypher.ASSERTION_PROJECTION``.

    With ``known_at``, closing stamps set after that record time are hidden.
    """
    props = native(dict(record["assertion"]))
    if known_at is not None:
        if props.get("superseded_at") is not None and props["superseded_at"] > known_at:
            props["superseded_at"] = None
        closed_at = props.get("closed_at")
        if props.get("valid_to") is not None and closed_at is not None and closed_at > known_at:
            props["valid_to"] = None
    # its own evidence first, then what it carries from the version it restates
    # (docs/semantics.md "A restatement keeps the start"), each by offset and id
    carried = {e["id"] for e in record["evidence"] if e.get("carried")}
    evidence = sorted(
        (evidence_out(e) for e in record["evidence"]),
        key=lambda e: (e.id in carried, e.start or 0, e.id),
    )
    fields = {k: props.get(k) for k in AssertionOut.model_fields}
    fields["access"] = list(props.get("access") or [])
    fields["view"] = props.get("view") or "exact"
    fields["evidence"] = evidence
    fields["supersedes"] = sorted(record["supersedes"])
    fields["superseded_by"] = sorted(record["superseded_by"])
    return AssertionOut.model_validate(fields)


def transition_out(props: dict[str, Any]) -> Transition:
    """A TierChange or PinChange map (``lifecycle.cypher.transitions``) as history shows it."""
    data = native(props)
    if data.get("pinned") is not None:
        pinned = bool(data["pinned"])
        return Transition(
            at=data["at"],
            change="pin",
            from_="unpinned" if pinned else "pinned",
            to="pinned" if pinned else "unpinned",
            rule=data["rule"],
            reason=data["reason"],
        )
    return Transition(
        at=data["at"],
        change="tier",
        from_=data["from_tier"],
        to=data["to_tier"],
        rule=data["rule"],
        reason=data["reason"],
        run_id=data.get("run_id"),
    )


def history_version(record: Any, *, known_at: datetime) -> HistoryVersion:
    """A version of a history read, with its transitions."""
    base = assertion_out(record, known_at=known_at)
    return HistoryVersion.model_validate(
        {
            **base.model_dump(),
            "transitions": [transition_out(t) for t in record["transitions"]],
        }
    )
