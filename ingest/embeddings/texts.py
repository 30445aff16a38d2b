"""What is embedded for an assertion, one vector per assertion of a write, and a recall
query's vector."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from graph_schema.ledger.types import AssertionWrite
from graph_schema.recall.query import content_terms
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


# a capitalised word (a name: of a person, a place, a work), with its possessive
_NAME = re.compile(r"[A-Z][a-z]+(?:['\u2019]s)?[,;:]?")
_SENTENCE_END = (".", "?", "!")


def query_without_names(query: str) -> str | None:
    """The query less its capitalised words, a sentence's first word kept (``"What did
    Caroline's friend paint?"`` -> ``"What did friend paint?"``); None when nothing is cut,
    or when nothing is left to ask (``"Who is Anjali?"``: the name is the question). Text
    without capitals (CJK, lower case) is never changed."""
    kept: list[str] = []
    first = True
    for word in query.split():
        if first or not _NAME.fullmatch(word.rstrip("?.!")):
            kept.append(word)
        elif word.endswith(_SENTENCE_END) and kept:  # the name ended the sentence: its mark
            kept[-1] += word[-1]
        first = word.endswith(_SENTENCE_END)
    plain = " ".join(kept)
    if plain == " ".join(query.split()) or not content_terms(plain):
        return None
    return plain


def query_vector(embedder: Embedder, query: str, *, names: bool = True) -> list[float]:
    """What recall searches with: the mean of the query's vector and the vector of the query
    without its names (:func:`query_without_names`), unit length; the query's own vector
    when it names nothing. Every searched turn carries its speaker's name ("Speaker: turn"),
    so a name in a question pulls every turn of that speaker alike; the half without names
    weighs what is asked (docs/recall.md, "The query's vector"). ``names=False`` (recall step
    ``names`` disabled) searches with the query's own vector alone."""
    plain = query_without_names(query) if names else None
    if plain is None:
        return embedder.embed_query([query])[0]
    own, without = embedder.embed_query([query, plain])
    mean = [(a + b) / 2 for a, b in zip(own, without, strict=True)]
    norm = math.sqrt(sum(v * v for v in mean)) or 1.0
    return [v / norm for v in mean]
