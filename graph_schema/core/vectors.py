"""Embedding vectors as query parameters.

The neo4j driver formats every RUN message's parameters with ``repr`` for its debug log
*before* the logger decides whether debug is on (``neo4j/_sync/io/_bolt/_bolt5.py``:
``log.debug(..., " ".join(map(repr, fields)))``). For an ``UNWIND`` of 200 assertions with
384-float embeddings that ``repr`` is most of the cost of sending the query (measured here:
49 ms -> 7.5 ms per query). :class:`Vector` is a plain ``list`` of floats to the driver and
to Cypher, with a constant-size ``repr``.
"""

from __future__ import annotations


class Vector(list[float]):
    __slots__ = ()

    def __repr__(self) -> str:
        return f"<vector of {len(self)} floats>"
