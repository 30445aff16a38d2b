"""The size classes Neo4j plans apart, and the shapes the warm-up runs."""

from __future__ import annotations

import pytest

from graph_schema.recall import warm
from graph_schema.recall.types import RecallFilters


@pytest.mark.parametrize(
    ("n", "low"),
    [(0, 0), (1, 1), (2, 2), (10, 2), (11, 11), (100, 11), (101, 101), (1000, 101), (1001, 1001)],
)
def test_a_length_falls_in_its_size_class(n: int, low: int) -> None:
    assert warm.size_class(n) == low


def test_the_shapes_cover_each_filter_at_both_common_lengths() -> None:
    shapes = warm._shapes()
    assert shapes[0].conversation_id is not None  # an agent's usual scope comes first
    assert RecallFilters() in shapes
    for name in ("conversation_id", "task_id", "subject"):
        values = [getattr(s, name) for s in shapes if getattr(s, name) is not None]
        assert sorted(warm.size_class(len(v)) for v in values) == [2, 11]


def test_principals_are_warmed_for_once_per_size_class_of_their_groups() -> None:
    assert warm.group_classes([0, 1, 3, 7, 1, 12]) == [0, 1, 2, 11]
    assert warm.group_classes([]) == []
