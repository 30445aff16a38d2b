"""A CJK query read by a second model that reads Chinese (docs/recall.md, "CJK queries").

The shipped embedding model is English: between Chinese texts its cosines rank noise, so a
CJK query is searched without a vector, by its full-text lists read in bigrams, and its
status reads coverage alone. When the server has a CJK model (``ingest.embeddings.cjk``,
bge-small-zh-v1.5 by default), step 7b reads a Chinese query (:func:`chinese`) and the texts
of the first :data:`WINDOW` groups with it, at query time:

- the groups are put in the order of their cosine less :data:`RANK_STEP` per place the
  lexical ranking gave them (a group moved up carries the boost ``cjk``; scores are left as
  they are);
- each group's cosine is its ``why.similarity``, and, lifted onto the lexical rule's scale
  (:func:`relevance`: :data:`THRESHOLD` reads as the lexical threshold), the status reads
  the better of it and the group's coverage. A query naming one person keeps the person's
  rule on coverage.

Nothing is stored: the model reads at most :data:`WINDOW` texts a query (cached by the
embedder), the visible, filtered candidates the lists already found. The two values were
fitted on the Chinese questions of the new users' trials' ``fit`` split and are reported on
the ``test`` split (bench/trials, docs/recall.md).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from graph_schema.recall.fusion import LEXICAL, Scored
from graph_schema.recall.rerank import mark_moved_up

_HAN = re.compile("[\u4e00-\u9fff]")
_KANA = re.compile("[\u3040-\u30ff]")  # hiragana, katakana: Japanese, which the model does not read
WINDOW = 20  # the groups read: the status and kinds window, whatever k
RANK_STEP = 0.02  # a place of the lexical ranking is worth this much cosine
THRESHOLD = 0.58  # the cosine read as the lexical rule's threshold
BOOST = "cjk"


class Reader(Protocol):
    """A model that reads Chinese: the cosine of a query to each text, in order."""

    def cosines(self, query: str, texts: Sequence[str]) -> list[float]:
        """One cosine per text (unit vectors, the query marked as a query)."""
        ...


def chinese(text: str) -> bool:
    """Whether the model reads ``text``: Chinese characters, and no Japanese kana (a CJK
    query in Japanese keeps the lexical reading)."""
    return _HAN.search(text) is not None and _KANA.search(text) is None


def text_of(s: Scored) -> str:
    """What is read of a group: its turn as its passage holds it ("Speaker: turn"), else its
    first text (a fact's sentence)."""
    own = s.turn if s.turn is not None else (s.texts[0] if s.texts else "")
    return f"{s.speaker}: {own}" if s.speaker and s.turn is not None else own


def read(ranked: list[Scored], query: str, reader: Reader) -> tuple[list[Scored], dict[str, float]]:
    """``ranked`` with its first :data:`WINDOW` groups put in the model's order (the rest
    as they were), and the cosine of each group read, by group id."""
    head = ranked[:WINDOW]
    if not head:
        return ranked, {}
    cosines = reader.cosines(query, [text_of(s) for s in head])
    places = sorted(range(len(head)), key=lambda n: (-(cosines[n] - RANK_STEP * n), n))
    order = [head[n] for n in places]
    mark_moved_up(head, order, BOOST)
    return order + ranked[WINDOW:], {s.gid: round(c, 6) for s, c in zip(head, cosines, strict=True)}


def relevance(cosine: float) -> float:
    """A cosine of the CJK model on the lexical rule's scale: :data:`THRESHOLD` reads as
    ``LEXICAL.threshold``."""
    return max(cosine, 0.0) * LEXICAL.threshold / THRESHOLD
