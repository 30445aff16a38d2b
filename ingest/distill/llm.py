"""The LLM distiller: an OpenAI-compatible chat completions endpoint (Ollama, vLLM,
llama.cpp server, any hosted API of that shape).

One request per observation: ``POST {url}/v1/chat/completions`` with temperature 0 and a
``json_schema`` response format generated from :class:`DraftList`. The reply is parsed and
checked for *shape* only; what it *says* (invented predicates, quotes that are not in the
text, human-readable dates) is passed on as drafts, for the gate to refuse with a reason.
A reply that cannot be used at all raises :class:`DistillationFailed`, and the caller
quarantines the whole observation with that reason.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from typing import Any, Final, Literal

import httpx
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from graph_schema.core import problems
from graph_schema.core.errors import TractatusError
from graph_schema.observations.types import ObservationIn
from graph_schema.schema.ontology import seed_predicates
from graph_schema.schema.types import Predicate
from ingest.distill.base import Draft

FailureReason = Literal[
    "llm_invalid_json", "llm_schema_mismatch", "llm_unreachable", "llm_http_error"
]
MAX_RAW_CHARS: Final = 2_000
CHAT_PATH: Final = "/v1/chat/completions"
SCHEMA_NAME: Final = "drafts"
FIRST_PERSON: Final = frozenset(
    {"i", "me", "we", "us", "myself", "speaker", "the speaker", "user", "the user", "我", "我们"}
)


class DistillationFailed(TractatusError):
    """The model's reply could not be used at all; the observation is quarantined whole.

    ``reason`` is one of ``llm_invalid_json`` (not JSON), ``llm_schema_mismatch`` (JSON of
    the wrong shape, missing fields), ``llm_unreachable`` (connection errors, timeouts or
    5xx/429 after every retry) and ``llm_http_error`` (the endpoint refused the request
    with another 4xx: wrong model name, unsupported option). ``raw`` is the reply,
    truncated to ``MAX_RAW_CHARS``.
    """

    code = "distillation_failed"

    def __init__(self, reason: FailureReason, message: str, *, raw: str = "") -> None:
        raw = raw[:MAX_RAW_CHARS]
        super().__init__(message, details={"reason": reason, "raw": raw})
        self.reason: FailureReason = reason
        self.raw = raw


class LlmDraft(BaseModel):
    """One proposed assertion, as the model must return it."""

    model_config = ConfigDict(extra="ignore")

    subject: str = Field(description="Who or what the statement is about; the speaker id for I/we.")
    predicate: str = Field(description="One of the listed predicate names.")
    object: str | int | float | bool | None = Field(
        description="The value; null only for a retraction of a single-valued predicate."
    )
    polarity: bool = Field(True, description="false when the text says it is NOT so.")
    confidence: float = Field(description="0 to 1: how sure the text makes this.")
    quote: str = Field(description="The exact words of the text that support it, copied verbatim.")
    start: int | None = Field(None, description="Character offset of the quote in the text.")
    end: int | None = Field(None, description="Offset just after the quote (start + length).")
    valid_from: str | None = Field(
        None,
        description="RFC 3339 time with offset when it became true, if the text says; else null.",
    )


class DraftList(BaseModel):
    model_config = ConfigDict(extra="ignore")

    drafts: list[LlmDraft]


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_inline(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        return _inline(defs[node["$ref"].rsplit("/", 1)[-1]], defs)
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "properties":
            out[key] = {name: _inline(prop, defs) for name, prop in value.items()}
        elif key not in ("default", "title", "$defs"):
            out[key] = _inline(value, defs)
    if out.get("type") == "object" and "properties" in out:
        out["required"] = list(out["properties"])
        out["additionalProperties"] = False
    return out


def drafts_json_schema() -> dict[str, Any]:
    """The response schema in the strict form OpenAI-compatible servers accept: references
    inlined, every property required (optional ones are nullable), no extra properties."""
    schema = DraftList.model_json_schema()
    inlined: dict[str, Any] = _inline(schema, schema.get("$defs", {}))
    return inlined


SYSTEM_PROMPT = """You turn one observation (a chat turn, note, tool result or document \
paragraph) into atomic facts for a memory system.

Return JSON {"drafts": [...]} where each draft is one fact:
- subject: who or what it is about. For first-person statements (I, we, my, 我, 我们) use \
the speaker id exactly as given.
- predicate: ONLY one of the predicate names listed below. If a statement fits none, use \
"said" with the statement itself as object.
- object: the value, short and normalised (a name, a place, a number), not a sentence.
- polarity: false when the text says it is NOT the case ("I don't use Vim").
- confidence: 0 to 1; explicit first-person statements about 0.9, inferences lower.
- quote: the exact words of the text that support the fact, copied character for \
character (never paraphrased or translated).
- start, end: the character offsets of the quote in the text (0-based, end exclusive).
- valid_from: when it became true, as RFC 3339 with offset (e.g. 2026-03-01T00:00:00+00:00), \
resolving relative dates against the observation time; null if the text does not say.
When someone switched or moved from X to Y, only Y is a current fact. Skip questions, \
plans and hypotheticals unless recorded as "said". Return {"drafts": []} if nothing applies.

Predicates:
"""


def _predicate_line(item: Predicate | str) -> str:
    if isinstance(item, str):
        return f"- {item}"
    kind = f"{item.cardinality.value}, {item.value_type.value}"
    return f"- {item.name} ({kind}): {item.description}".rstrip(": ")


def build_messages(
    observation: ObservationIn, predicates: Sequence[Predicate | str]
) -> list[dict[str, str]]:
    system = SYSTEM_PROMPT + "\n".join(_predicate_line(p) for p in predicates)
    user = json.dumps(
        {
            "speaker": observation.speaker,
            "occurred_at": observation.occurred_at,
            "source_kind": observation.source_kind.value,
            "text": observation.text,
        },
        ensure_ascii=False,
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


_FENCE = re.compile(r"^\s*```(?:json)?\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL | re.IGNORECASE)


def _content(body: str) -> str:
    try:
        envelope = json.loads(body)
    except ValueError as error:
        raise DistillationFailed(
            "llm_invalid_json", f"the endpoint's reply is not JSON: {error}", raw=body
        ) from None
    try:
        content = envelope["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise DistillationFailed(
            "llm_schema_mismatch", "the reply has no choices[0].message.content", raw=body
        ) from None
    if not isinstance(content, str):
        raise DistillationFailed(
            "llm_schema_mismatch", "choices[0].message.content is not text", raw=body
        )
    fenced = _FENCE.match(content)
    return fenced.group(1) if fenced else content


def _parse(content: str) -> DraftList:
    try:
        data = json.loads(content)
    except ValueError as error:
        raise DistillationFailed(
            "llm_invalid_json", f"the model's answer is not JSON: {error}", raw=content
        ) from None
    if isinstance(data, list):
        data = {"drafts": data}
    try:
        return DraftList.model_validate(data)
    except ValidationError as error:
        first = problems.first(error.errors())
        where = problems.where(first["loc"], "answer")
        raise DistillationFailed(
            "llm_schema_mismatch",
            f"the model's answer has the wrong shape: {where}: {first['msg']}",
            raw=content,
        ) from None


def locate(
    text: str, quote: str, start: int | None, end: int | None
) -> tuple[int | None, int | None]:
    """Offsets of ``quote`` in ``text``: the given ones when right; else the occurrence
    nearest the given start (the first one when none is given); else as given."""
    if start is not None and end is not None and 0 <= start <= end and text[start:end] == quote:
        return start, end
    if not quote:
        return start, end
    best: int | None = None
    at = text.find(quote)
    while at != -1:
        if best is None or (start is not None and abs(at - start) < abs(best - start)):
            best = at
        if start is None or at > start:
            break
        at = text.find(quote, at + 1)
    if best is None:
        return start, end
    return best, best + len(quote)


def to_drafts(parsed: DraftList, observation: ObservationIn) -> list[Draft]:
    drafts: list[Draft] = []
    for item in parsed.drafts:
        subject = item.subject.strip()
        if not subject or subject.lower() in FIRST_PERSON:
            subject = observation.speaker
        start, end = locate(observation.text, item.quote, item.start, item.end)
        draft: Draft = {
            "subject": subject,
            "predicate": item.predicate,
            "object": item.object,
            "polarity": item.polarity,
            "confidence": item.confidence,
            "quote": item.quote,
            "start": start,
            "end": end,
        }
        if item.valid_from is not None:
            draft["valid_from"] = item.valid_from
        drafts.append(draft)
    return drafts


def base_url(url: str) -> str:
    """``http://host:11434``, ``http://host:11434/`` and ``http://host:11434/v1`` all mean
    the same server: requests go to ``{base}/v1/chat/completions``."""
    parsed = httpx.URL(url)
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise ValueError(f"the LLM URL must be http(s)://host[:port][/path]: {url!r}")
    return str(url).rstrip("/").removesuffix("/v1")


class LlmDistiller:
    """Distils through an OpenAI-compatible endpoint; see the module docstring."""

    name = "llm"

    @property
    def version(self) -> str:
        """The model: another model is another distiller (``tractatus redistill``)."""
        return self.model

    def __init__(
        self,
        *,
        url: str,
        model: str,
        timeout: float = 60.0,
        retries: int = 2,
        api_key: str | None = None,
        backoff: float = 0.5,
        predicates: Sequence[Predicate | str] | None = None,
    ) -> None:
        if retries < 0 or timeout <= 0 or backoff < 0:
            raise ValueError("retries and backoff must be >= 0 and timeout > 0")
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.url = base_url(url)
        self.model = model
        self.retries = retries
        self.backoff = backoff
        self.predicates: tuple[Predicate | str, ...] = tuple(
            predicates if predicates is not None else seed_predicates()
        )
        self._client = httpx.Client(base_url=self.url, timeout=timeout, headers=headers)

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> LlmDistiller:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def request_body(
        self, observation: ObservationIn, predicates: Sequence[Predicate | str] | None = None
    ) -> dict[str, Any]:
        return {
            "model": self.model,
            "messages": build_messages(observation, predicates or self.predicates),
            "temperature": 0,
            "stream": False,
            "response_format": {
                "type": "json_schema",
                "json_schema": {
                    "name": SCHEMA_NAME,
                    "schema": drafts_json_schema(),
                    "strict": True,
                },
            },
        }

    def _post(self, body: dict[str, Any]) -> str:
        """The reply text; retries connection errors, timeouts, 429 and 5xx with backoff."""
        problem = ""
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(self.backoff * 2 ** (attempt - 1))
            try:
                response = self._client.post(CHAT_PATH, json=body)
            except httpx.RequestError as error:
                problem = f"{type(error).__name__}: {error}"
                continue
            if response.status_code == 429 or response.status_code >= 500:
                problem = f"HTTP {response.status_code}: {response.text[:200]}"
                continue
            if response.status_code >= 400:
                raise DistillationFailed(
                    "llm_http_error",
                    f"the LLM endpoint refused the request with HTTP {response.status_code}",
                    raw=response.text,
                )
            return response.text
        raise DistillationFailed(
            "llm_unreachable",
            f"the LLM endpoint failed {self.retries + 1} time(s); last: {problem}",
            raw=problem,
        )

    def distill(
        self, observation: ObservationIn, *, predicates: Sequence[Predicate] | None = None
    ) -> list[Draft]:
        """Drafts for one observation; raises :class:`DistillationFailed` when the reply is
        unusable. ``predicates`` overrides the constructor's list (the live ontology)."""
        body = self._post(self.request_body(observation, predicates))
        return to_drafts(_parse(_content(body)), observation)
