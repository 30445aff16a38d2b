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
        # a new user's contract trial: each of these was accepted and read by another team
        ("987654", "987 654"),
        ("987654", "987'654"),
        ("987654", "987.654"),
        ("987654", "987\u202f654"),
        ("987654", "\uff19\uff18\uff17\uff16\uff15\uff14"),
        ("987654", "987654.00"),
        ("987654", "9\u200b87654"),
        ("9876.54", "9.876,54"),
        ("Initech Corp", "InitechCorp"),
        ("Initech Corp", "Initech\u200bCorp"),
        ("Initech Corp", "\uff29\uff4e\uff49\uff54\uff45\uff43\uff48 Corp"),
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
        ("987654", "about a million"),
    ],
)
def test_a_coarser_view_is_not(exact: str, view: str) -> None:
    assert not reveals(exact, view)
