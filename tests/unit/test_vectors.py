"""Vectors are plain float lists to the driver, with a repr that does not print them."""

from __future__ import annotations

from graph_schema.core.vectors import Vector


def test_repr_is_constant_size() -> None:
    vector = Vector([0.123456789] * 384)
    assert repr(vector) == "<vector of 384 floats>"
    assert repr({"rows": [vector] * 200}).count("0.123") == 0
    assert vector == [0.123456789] * 384 and isinstance(vector, list)
