"""Types of the ledger: assertion writes (strict, for the gate) and what reads answer.

Write models are strict: unknown fields, naive or human-readable timestamps, out-of-range
confidence and wrong JSON types are refused, so the gate can quarantine them with a reason.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    WithJsonSchema,
    field_validator,
    model_validator,
)

from graph_schema.core.timeutil import parse_rfc3339
from graph_schema.core.types import (
    INTEGRAL,
    MAX_TEXT_CHARS,
    NO_NUL_PATTERN,
    AccessList,
    Name,
    SourceKind,
    Status,
    Strict,
    Tier,
    Timestamp,
    check_no_nul,
    check_text,
    text_schema,
)
from graph_schema.ledger.reveals import reveals
from graph_schema.lifecycle.types import Transition, WorkingMemory

MAX_QUOTE_CHARS = 10_000
MAX_OBJECT_CHARS = 10_000
MAX_DISCLOSURES = 8
# the predicate of an utterance: one sentence as said, one slot per observation it was read
# from (ingest/writer.py ``slot_key``; docs/semantics.md)
UTTERANCE = "said"
# evidence spans of one assertion (several sources corroborating it)
MAX_EVIDENCE = 8
# the default of TRACTATUS_MAX_BATCH; the served OpenAPI document states the configured one
MAX_ASSERTION_BATCH = 1_000

# A string object is checked in ``AssertionWrite._consistent`` (not blank, no NUL, bounded);
# its schema says so. Confidence is a number in [0, 1], integers included.
# a JSON number too large for a double (1e999) is no value: it was stored as "inf"
ObjectValue = (
    Annotated[StrictStr, text_schema(max_length=MAX_OBJECT_CHARS)]
    | StrictInt
    | Annotated[StrictFloat, Field(allow_inf_nan=False)]
    | StrictBool
)
Confidence = Annotated[
    StrictFloat | StrictInt,
    Field(ge=0, le=1),
    WithJsonSchema({"type": "number", "minimum": 0, "maximum": 1}),
]


class EvidenceWrite(Strict):
    """The span of a source that supports an assertion."""

    # not blank (``_quote_in_source``) and, like every stored text, no NUL: a quote and a
    # source text holding one were stored (201) until a new user's trial
    quote: Annotated[
        StrictStr,
        Field(min_length=1, max_length=MAX_QUOTE_CHARS),
        AfterValidator(check_no_nul),
        text_schema(max_length=MAX_QUOTE_CHARS),
    ]
    source_text: (
        Annotated[
            StrictStr,
            Field(max_length=MAX_TEXT_CHARS),
            AfterValidator(check_no_nul),
            WithJsonSchema(
                {"type": "string", "maxLength": MAX_TEXT_CHARS, "pattern": NO_NUL_PATTERN}
            ),
        ]
        | None
    ) = None
    # offsets count code points of a source text of at most MAX_TEXT_CHARS (a new user's
    # trial: an end of 2^63 or more answered 500, the store holding no such integer)
    start: Annotated[StrictInt, Field(ge=0, le=MAX_TEXT_CHARS), INTEGRAL] | None = None
    end: Annotated[StrictInt, Field(ge=0, le=MAX_TEXT_CHARS), INTEGRAL] | None = None
    observation_id: Name | None = None
    speaker: Name | None = None
    occurred_at: Timestamp | None = None

    @model_validator(mode="after")
    def _quote_in_source(self) -> EvidenceWrite:
        if not self.quote.strip():
            raise ValueError("evidence quote must not be blank")
        if (self.start is None) != (self.end is None):
            raise ValueError("evidence start and end come together")
        if self.source_text is None:
            # evidence citing an observation is checked against its stored text by the gate
            # (ingest.gate.check_sources), which fills source_text in before the writer
            if (
                self.observation_id is None
                and self.start is not None
                and (self.start, self.end) != (0, len(self.quote))
            ):
                raise ValueError("evidence offsets need the source_text they point into")
            return self
        if self.start is not None and self.end is not None:
            if self.end > len(self.source_text):
                # a slice past the end stops at the end: "green tea" at 7..100 of a text of 16
                # matched, and the end 100 was stored (a new user's trial)
                raise ValueError(
                    f"evidence offsets run past the end of source_text ({len(self.source_text)}"
                    " code points)"
                )
            if self.source_text[self.start : self.end] != self.quote:
                raise ValueError("evidence offsets do not match the quote in source_text")
        elif self.quote not in self.source_text:
            raise ValueError("evidence quote does not occur verbatim in source_text")
        return self

    def span(self) -> tuple[int, int]:
        if self.start is not None and self.end is not None:
            return self.start, self.end
        if self.source_text is not None:
            start = self.source_text.index(self.quote)
            return start, start + len(self.quote)
        return 0, len(self.quote)


class DisclosureWrite(Strict):
    """A coarser view of an assertion for a wider audience, fixed at write time."""

    audience: Annotated[AccessList, Field(min_length=1)]
    object: Annotated[StrictStr, Field(min_length=1, max_length=256)]
    trend: Literal["rising", "falling", "flat"] | None = None


class AssertionWrite(Strict):
    """One atomic assertion as a writer submits it."""

    subject: Name
    predicate: Annotated[StrictStr, Field(min_length=1, max_length=64)]
    object: ObjectValue | None = None
    polarity: StrictBool = True
    valid_from: Timestamp | None = None
    valid_to: Timestamp | None = None
    source_kind: SourceKind
    asserted_by: Name
    confidence: Confidence
    # one span, or several (each checked; the fact is readable only by readers of every
    # source they cite)
    evidence: (
        EvidenceWrite | Annotated[list[EvidenceWrite], Field(min_length=1, max_length=MAX_EVIDENCE)]
    )
    access: AccessList = Field(default_factory=list)
    task_id: Name | None = None
    expected_current: StrictStr | None = None
    disclosures: Annotated[list[DisclosureWrite], Field(max_length=MAX_DISCLOSURES)] = Field(
        default_factory=list
    )

    @field_validator("source_kind", mode="before")
    @classmethod
    def _source_kind_is_text(cls, value: Any) -> Any:
        if not isinstance(value, str):
            raise ValueError("source_kind must be a string")
        return value

    @field_validator("evidence", mode="before")
    @classmethod
    def _evidence_is_spans(cls, value: Any) -> Any:
        if not isinstance(value, dict | list):
            raise ValueError(
                "must be one span, an object with a quote (and optionally source_text, start "
                f"and end, or observation_id), or a list of 1 to {MAX_EVIDENCE} spans"
            )
        return value

    @field_validator("object")
    @classmethod
    def _object_text(cls, value: Any) -> Any:
        """A string object is a text (not blank, no NUL) of at most MAX_OBJECT_CHARS, placed
        at ``object`` as every field's problem is (it was "body: object longer than ...")."""
        if isinstance(value, str):
            check_text(value)
            if len(value) > MAX_OBJECT_CHARS:
                raise ValueError(f"String should have at most {MAX_OBJECT_CHARS} characters")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> AssertionWrite:
        if self.polarity and self.object is None:
            raise ValueError("an assertion with polarity true needs an object")
        if (
            self.valid_from is not None
            and self.valid_to is not None
            and parse_rfc3339(self.valid_to) <= parse_rfc3339(self.valid_from)
        ):
            raise ValueError("valid_to must be after valid_from")
        self._check_disclosures()
        return self

    def _check_disclosures(self) -> None:
        if not self.disclosures:
            return
        if not self.access:
            raise ValueError("disclosures are coarser views of a restricted fact: set access")
        exact = self.object_text() or ""
        for disclosure in self.disclosures:
            if exact and reveals(exact, disclosure.object):
                raise ValueError("a disclosure must not contain the exact value")

    @property
    def spans(self) -> list[EvidenceWrite]:
        """The evidence as a list, one item per span (a single object is one span)."""
        return list(self.evidence) if isinstance(self.evidence, list) else [self.evidence]

    def with_spans(self, spans: list[EvidenceWrite]) -> AssertionWrite:
        """This write with its spans replaced, in the form it was sent (object or list)."""
        evidence = spans if isinstance(self.evidence, list) else spans[0]
        return self.model_copy(update={"evidence": evidence})

    @property
    def has_precondition(self) -> bool:
        return "expected_current" in self.model_fields_set

    def object_text(self) -> str | None:
        if self.object is None:
            return None
        if isinstance(self.object, bool):
            return "true" if self.object else "false"
        return str(self.object)


class AssertionBatch(Strict):
    """Several assertions, written in one transaction: all of them or none."""

    assertions: Annotated[list[AssertionWrite], Field(min_length=1, max_length=MAX_ASSERTION_BATCH)]


class EvidenceOut(BaseModel):
    id: str
    quote: str
    start: int | None = None
    end: int | None = None
    observation_id: str | None = None
    speaker: str | None = None
    occurred_at: datetime | None = None


class AssertionOut(BaseModel):
    id: str
    subject: str
    predicate: str
    object: str | None
    polarity: bool
    valid_from: datetime
    valid_to: datetime | None
    recorded_at: datetime
    superseded_at: datetime | None
    source_kind: SourceKind
    asserted_by: str
    confidence: float
    tier: Tier
    task_id: str | None = None
    access: list[str] = Field(default_factory=list)
    evidence: list[EvidenceOut] = Field(default_factory=list)
    supersedes: list[str] = Field(default_factory=list)
    superseded_by: list[str] = Field(default_factory=list)
    remnant_of: str | None = None
    # a restoration (docs/lifecycle.md): the version whose content and place it restores
    restored_from: str | None = None
    restore_rule: str | None = None
    restore_reason: str | None = None
    view: Literal["exact", "disclosure"] = "exact"
    trend: str | None = None


class HistoryVersion(AssertionOut):
    """A version as history shows it: with its tier and pin transitions known at the read's
    record time (none for a disclosure view)."""

    transitions: list[Transition] = Field(default_factory=list)


class WriteResult(BaseModel):
    """What a write did to its slot. The two lists name versions the writer may read; what
    each version became (closed: `valid_to` set; superseded: `superseded_at` set, in
    docs/semantics.md's sense) is in the slot's history."""

    assertion: AssertionOut
    superseded: str | None = Field(
        None,
        description="the version that governed now before this write, when this write ended"
        " it (closed it where the new version starts, or superseded it): the one a"
        " compare-and-set replaced; null when the write governs no earlier 'now' (a first"
        " version, a back-fill, a future version)",
    )
    closed: list[str] = Field(
        default_factory=list,
        description="every version this write ended, whether it closed it (set its"
        " `valid_to`) or superseded it (a version its interval covered, or one cut into a"
        " remnant); the slot's history says which",
    )
    # the task the assertion went into, after this write (null outside any task)
    working_memory: WorkingMemory | None = None


class AssertionsWritten(BaseModel):
    """The answer to a batch: one result per assertion, in the order sent."""

    results: list[WriteResult]


class FactsAnswer(BaseModel):
    status: Status
    subject: str
    predicate: str
    facts: list[AssertionOut]
    scopes_disagree: bool = Field(
        default=False,
        description=(
            "True when the predicate is one-valued and the facts answered hold more than one"
            " value: they come from different access scopes the caller reads together (one"
            " slot has one current value). Computed from the facts the caller may read only."
        ),
    )
    as_of: datetime
    known_at: datetime


class HistoryAnswer(BaseModel):
    status: Status
    subject: str
    predicate: str
    versions: list[HistoryVersion]
    known_at: datetime
