"""What is embedded for an assertion, and one vector per assertion of a write."""

from __future__ import annotations

from collections.abc import Sequence

from graph_schema.ledger.types import AssertionWrite
from ingest.embeddings.model import Embedder


def assertion_text(item: AssertionWrite) -> str:
    """What is embedded for an assertion: the sentence for ``said``, else the triple + quote."""
    return text_of(item.subject, item.predicate, item.object_text(), item.spans[0].quote)


def text_of(subject: str, predicate: str, obj: str | None, quote: str | None) -> str:
    """:func:`assertion_text` from its parts, as a stored version holds them (its subject,
    predicate, object text and first evidence quote): what ``tractatus reembed`` embeds."""
    obj = obj or ""
    if predicate == "said" and obj:
        return obj
    triple = " ".join(x for x in (subject, predicate.replace("_", " "), obj) if x)
    return triple if not quote or quote == obj else f"{triple}. {quote}"


def embed_items(
    embedder: Embedder | None, items: Sequence[AssertionWrite]
) -> list[list[float] | None]:
    """One vector per item (None without an embedder); a repeated text is encoded once."""
    if embedder is None or not items:
        return [None] * len(items)
    texts = [assertion_text(item) for item in items]
    unique = list(dict.fromkeys(texts))
    by_text = dict(zip(unique, embedder.embed(unique), strict=True))
    return [by_text[text] for text in texts]
