"""The gate's check that a disclosure does not give the exact value it stands for."""

from __future__ import annotations

import pytest

from graph_schema.ledger.types import reveals


@pytest.mark.parametrize(
    ("exact", "view"),
    [
        ("987654", "about 987654"),
        ("987654", "987,654"),
        ("987654", "9.87654e5"),
        ("987654.0", "987654"),
        ("-3", "it fell to -3"),
        ("Initech", "INITECH"),
        ("Acme  Corp", "acme corp, a supplier"),
    ],
)
def test_the_exact_value_however_written_is_revealed(exact: str, view: str) -> None:
    assert reveals(exact, view)


@pytest.mark.parametrize(
    ("exact", "view"),
    [
        ("5", "between 1 and 50"),
        ("987654", "1,987,654"),
        ("2140000", "2.0M–2.5M"),
        ("Initech", "a software company"),
    ],
)
def test_a_coarser_view_is_not(exact: str, view: str) -> None:
    assert not reveals(exact, view)
