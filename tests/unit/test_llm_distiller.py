"""The LLM distiller against a local stub of an OpenAI-compatible endpoint, and the factory.

No test here can reach a real model: the distiller is given the stub's URL directly.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from bench.harness import free_port
from graph_schema.core.types import Principal
from graph_schema.ledger.types import AssertionWrite
from graph_schema.observations.types import ObservationIn
from graph_schema.schema.ontology import seed_predicates
from ingest.distill.factory import make_distiller
from ingest.distill.llm import (
    MAX_RAW_CHARS,
    DistillationFailed,
    LlmDistiller,
    drafts_json_schema,
    locate,
)
from ingest.distill.offline import OfflineDistiller
from ingest.gate import Rejection, check_item
from tests.stubs.llm_stub import LlmStub

TEXT = "我们项目从Vue换成React了. I live in Berlin."
SPEAKER = "user:alice"
ONTOLOGY = {p.name: p for p in seed_predicates()}


@pytest.fixture
def stub() -> Iterator[LlmStub]:
    with LlmStub() as running:
        yield running


def observation(text: str = TEXT) -> ObservationIn:
    return ObservationIn(
        text=text,
        speaker=SPEAKER,
        occurred_at="2026-06-01T09:00:00+00:00",
        source_kind="user_stated",
        access=["finance"],
    )


def distiller(stub: LlmStub, **kwargs: Any) -> LlmDistiller:
    options: dict[str, Any] = {"url": stub.url, "model": "qwen2.5:7b", "backoff": 0.0}
    options.update(kwargs)
    return LlmDistiller(**options)


def draft(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "subject": SPEAKER,
        "predicate": "tech_stack",
        "object": "React",
        "polarity": True,
        "confidence": 0.9,
        "quote": "我们项目从Vue换成React了",
        "start": 0,
        "end": 16,
        "valid_from": None,
    }
    base.update(fields)
    return base


def gate(d: dict[str, Any], obs: ObservationIn) -> AssertionWrite | Rejection:
    body = {k: v for k, v in d.items() if k not in ("quote", "start", "end")}
    body.update(
        source_kind=obs.source_kind.value,
        asserted_by=obs.speaker,
        access=list(obs.access),
        evidence={
            "quote": d["quote"],
            "source_text": obs.text,
            "start": d["start"],
            "end": d["end"],
            "speaker": obs.speaker,
            "occurred_at": obs.occurred_at,
        },
    )
    return check_item(
        body, index=0, ontology=ONTOLOGY, principal=Principal(id="a", groups=("finance",))
    )


# --- the request ----------------------------------------------------------------------------


def test_request_carries_model_schema_prompt_and_text(stub: LlmStub) -> None:
    stub.reply_drafts([draft()])
    with distiller(stub) as llm:
        drafts = llm.distill(observation())
    assert len(stub.requests) == 1
    sent = stub.requests[0]
    assert (sent.method, sent.path) == ("POST", "/v1/chat/completions")
    assert "authorization" not in sent.headers
    body = sent.json
    assert body["model"] == "qwen2.5:7b"
    assert body["temperature"] == 0
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "drafts", "schema": drafts_json_schema(), "strict": True},
    }
    system, user = body["messages"]
    assert system["role"] == "system" and user["role"] == "user"
    for predicate in ONTOLOGY:
        assert f"- {predicate} (" in system["content"]
    assert json.loads(user["content"]) == {
        "speaker": SPEAKER,
        "occurred_at": "2026-06-01T09:00:00+00:00",
        "source_kind": "user_stated",
        "text": TEXT,
    }
    assert drafts == [{k: v for k, v in draft().items() if k != "valid_from"}]


def test_the_schema_is_strict() -> None:
    schema = drafts_json_schema()
    item = schema["properties"]["drafts"]["items"]
    assert schema["required"] == ["drafts"] and schema["additionalProperties"] is False
    assert item["additionalProperties"] is False
    assert set(item["required"]) == set(item["properties"]) == set(draft())
    assert "$defs" not in json.dumps(schema) and "$ref" not in json.dumps(schema)
    assert {"type": "null"} in item["properties"]["valid_from"]["anyOf"]


def test_api_key_and_caller_predicates_are_sent(stub: LlmStub) -> None:
    stub.reply_drafts([])
    with distiller(stub, api_key="sk-local-123", predicates=["uses", "said"]) as llm:
        assert llm.distill(observation(), predicates=["mood"]) == []
        stub.reply_drafts([])
        llm.distill(observation())
    first, second = stub.requests
    assert first.headers["authorization"] == "Bearer sk-local-123"
    assert "- mood" in first.json["messages"][0]["content"]
    assert "- uses" not in first.json["messages"][0]["content"]
    assert "- uses\n- said" in second.json["messages"][0]["content"]


@pytest.mark.parametrize("suffix", ["", "/", "/v1", "/v1/"])
def test_base_url_forms_reach_the_same_path(stub: LlmStub, suffix: str) -> None:
    stub.reply_drafts([])
    with distiller(stub, url=stub.url + suffix) as llm:
        llm.distill(observation())
    assert stub.requests[0].path == "/v1/chat/completions"


# --- replies that parse -------------------------------------------------------------------


def test_valid_drafts_pass_the_gate(stub: LlmStub) -> None:
    stub.reply_drafts(
        [
            draft(),
            draft(
                predicate="lives_in", object="Berlin", quote="I live in Berlin.", start=18, end=35
            ),
        ]
    )
    obs = observation()
    with distiller(stub) as llm:
        drafts = llm.distill(obs)
    assert [(d["predicate"], d["object"]) for d in drafts] == [
        ("tech_stack", "React"),
        ("lives_in", "Berlin"),
    ]
    for d in drafts:
        assert obs.text[d["start"] : d["end"]] == d["quote"]
        assert isinstance(gate(d, obs), AssertionWrite)


def test_wrong_or_missing_offsets_are_recomputed_from_the_quote(stub: LlmStub) -> None:
    text = "I use Vim. Really, I use Vim."
    stub.reply_drafts(
        [
            draft(predicate="uses", object="Vim", quote="I use Vim", start=None, end=None),
            draft(predicate="uses", object="Vim", quote="I use Vim", start=17, end=30),
            draft(predicate="uses", object="Vim", quote="I use Vim", start=2, end=5),
        ]
    )
    with distiller(stub) as llm:
        drafts = llm.distill(observation(text))
    assert [(d["start"], d["end"]) for d in drafts] == [(0, 9), (19, 28), (0, 9)]
    assert all(text[d["start"] : d["end"]] == "I use Vim" for d in drafts)


def test_first_person_subjects_become_the_speaker(stub: LlmStub) -> None:
    stub.reply_drafts([draft(subject="I"), draft(subject="我们"), draft(subject="user:bob")])
    with distiller(stub) as llm:
        subjects = [d["subject"] for d in llm.distill(observation())]
    assert subjects == [SPEAKER, SPEAKER, "user:bob"]


def test_invented_predicate_is_passed_on_and_refused_by_the_gate(stub: LlmStub) -> None:
    stub.reply_drafts([draft(predicate="favourite_colour", object="blue")])
    obs = observation()
    with distiller(stub) as llm:
        (d,) = llm.distill(obs)
    assert d["predicate"] == "favourite_colour"
    refused = gate(d, obs)
    assert isinstance(refused, Rejection) and refused.reason == "unknown_predicate"


def test_quote_not_in_text_keeps_its_offsets_and_is_refused(stub: LlmStub) -> None:
    stub.reply_drafts([draft(quote="we migrated to React", start=3, end=23)])
    obs = observation()
    with distiller(stub) as llm:
        (d,) = llm.distill(obs)
    assert (d["quote"], d["start"], d["end"]) == ("we migrated to React", 3, 23)
    refused = gate(d, obs)
    assert isinstance(refused, Rejection) and refused.reason == "evidence_mismatch"


def test_human_readable_date_is_passed_on_and_refused_as_bad_timestamp(stub: LlmStub) -> None:
    stub.reply_drafts([draft(valid_from="March 3rd, 2024")])
    obs = observation()
    with distiller(stub) as llm:
        (d,) = llm.distill(obs)
    assert d["valid_from"] == "March 3rd, 2024"
    refused = gate(d, obs)
    assert isinstance(refused, Rejection) and refused.reason == "bad_timestamp"


def test_rfc3339_valid_from_is_kept(stub: LlmStub) -> None:
    stub.reply_drafts([draft(valid_from="2024-03-03T00:00:00+08:00")])
    obs = observation()
    with distiller(stub) as llm:
        (d,) = llm.distill(obs)
    assert d["valid_from"] == "2024-03-03T00:00:00+08:00"
    assert isinstance(gate(d, obs), AssertionWrite)


def test_code_fenced_answer_and_bare_list_are_accepted(stub: LlmStub) -> None:
    stub.reply_content("```json\n" + json.dumps({"drafts": [draft()]}) + "\n```")
    stub.reply_content(json.dumps([draft()]))
    with distiller(stub) as llm:
        assert llm.distill(observation())[0]["object"] == "React"
        assert llm.distill(observation())[0]["object"] == "React"


# --- replies that cannot be used ----------------------------------------------------------


def failure(stub: LlmStub, **kwargs: Any) -> DistillationFailed:
    with distiller(stub, **kwargs) as llm, pytest.raises(DistillationFailed) as caught:
        llm.distill(observation())
    return caught.value


def test_answer_that_is_not_json(stub: LlmStub) -> None:
    stub.reply_content("Sure! Alice uses React.")
    error = failure(stub)
    assert error.reason == "llm_invalid_json"
    assert error.raw == "Sure! Alice uses React."
    assert error.details["reason"] == "llm_invalid_json"
    assert error.code == "distillation_failed"


def test_envelope_that_is_not_json(stub: LlmStub) -> None:
    stub.reply_raw("<html>gateway</html>")
    error = failure(stub)
    assert (error.reason, error.raw) == ("llm_invalid_json", "<html>gateway</html>")


@pytest.mark.parametrize(
    "answer",
    [
        {"drafts": [{k: v for k, v in draft().items() if k != "quote"}]},
        {"drafts": [draft(confidence="very")]},
        {"drafts": "none"},
        {"facts": []},
        "just a string",
    ],
)
def test_answer_of_the_wrong_shape(stub: LlmStub, answer: Any) -> None:
    stub.reply_content(json.dumps(answer))
    error = failure(stub)
    assert error.reason == "llm_schema_mismatch"
    assert error.raw == json.dumps(answer)


@pytest.mark.parametrize(
    "envelope",
    [{"choices": []}, {"error": "overloaded"}, {"choices": [{"message": {"content": None}}]}],
)
def test_envelope_without_content(stub: LlmStub, envelope: dict[str, Any]) -> None:
    stub.reply_json(envelope)
    assert failure(stub).reason == "llm_schema_mismatch"


def test_raw_reply_is_truncated(stub: LlmStub) -> None:
    stub.reply_content("x" * (MAX_RAW_CHARS * 3))
    error = failure(stub)
    assert error.reason == "llm_invalid_json"
    assert error.raw == "x" * MAX_RAW_CHARS


# --- transport: retries, timeouts, refusals -------------------------------------------------


def test_server_error_then_success_is_retried(stub: LlmStub) -> None:
    stub.reply_status(500, "boom").reply_status(503).reply_drafts([draft()])
    with distiller(stub, retries=2) as llm:
        drafts = llm.distill(observation())
    assert [d["object"] for d in drafts] == ["React"]
    assert len(stub.requests) == 3
    assert stub.requests[0].json == stub.requests[2].json


def test_rate_limit_is_retried(stub: LlmStub) -> None:
    stub.reply_status(429).reply_drafts([])
    with distiller(stub, retries=1) as llm:
        assert llm.distill(observation()) == []
    assert len(stub.requests) == 2


def test_server_errors_beyond_the_retries_are_unreachable(stub: LlmStub) -> None:
    stub.reply_status(500).reply_status(502).reply_drafts([draft()])
    error = failure(stub, retries=1)
    assert error.reason == "llm_unreachable"
    assert "HTTP 502" in error.raw
    assert len(stub.requests) == 2


def test_client_error_is_not_retried(stub: LlmStub) -> None:
    stub.reply_status(404, "model 'qwen2.5:7b' not found").reply_drafts([draft()])
    error = failure(stub, retries=3)
    assert error.reason == "llm_http_error"
    assert "not found" in error.raw
    assert len(stub.requests) == 1


def test_backoff_grows_between_attempts(stub: LlmStub) -> None:
    stub.reply_status(500).reply_status(500).reply_drafts([])
    began = time.monotonic()
    with distiller(stub, retries=2, backoff=0.2) as llm:
        assert llm.distill(observation()) == []
    assert time.monotonic() - began >= 0.2 + 0.4


def test_timeout_is_unreachable(stub: LlmStub) -> None:
    stub.reply_drafts([draft()], delay=2.0)
    began = time.monotonic()
    error = failure(stub, retries=0, timeout=0.3)
    assert error.reason == "llm_unreachable"
    assert "Timeout" in error.raw
    assert time.monotonic() - began < 1.5


def test_nothing_listening_is_unreachable_after_every_retry() -> None:
    url = f"http://127.0.0.1:{free_port()}"
    with (
        LlmDistiller(url=url, model="m", retries=2, backoff=0.0) as llm,
        pytest.raises(DistillationFailed) as caught,
    ):
        llm.distill(observation())
    assert caught.value.reason == "llm_unreachable"
    assert "3 time(s)" in caught.value.message
    assert "ConnectError" in caught.value.raw


def test_bad_constructor_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        LlmDistiller(url="ftp://host", model="m")
    with pytest.raises(ValueError):
        LlmDistiller(url="http://127.0.0.1:1", model="m", retries=-1)


# --- offsets helper -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "end", "expected"),
    [(None, None, (2, 4)), (2, 4, (2, 4)), (5, 7, (5, 7)), (7, 9, (8, 10)), (0, 0, (2, 4))],
)
def test_locate(start: int | None, end: int | None, expected: tuple[int, int]) -> None:
    assert locate("..ab.ab.ab", "ab", start, end) == expected


def test_locate_keeps_offsets_of_a_quote_not_in_the_text() -> None:
    assert locate("hello", "bye", 1, 4) == (1, 4)
    assert locate("hello", "bye", None, None) == (None, None)


# --- the factory ----------------------------------------------------------------------------

FACTORY = {"llm_model": "m", "llm_timeout": 5.0, "llm_retries": 1, "llm_api_key": None}


@pytest.mark.parametrize("url", [None, "", "   "])
def test_factory_without_url_is_offline(url: str | None) -> None:
    assert isinstance(make_distiller(llm_url=url, **FACTORY), OfflineDistiller)


def test_factory_with_url_builds_the_llm_distiller(stub: LlmStub) -> None:
    made = make_distiller(
        llm_url=stub.url, llm_model="llama3", llm_timeout=5.0, llm_retries=0, llm_api_key="k"
    )
    assert isinstance(made, LlmDistiller)
    assert (made.name, made.model, made.retries, made.url) == ("llm", "llama3", 0, stub.url)
    stub.reply_drafts([])
    assert made.distill(observation()) == []
    assert stub.requests[0].headers["authorization"] == "Bearer k"
    made.close()
