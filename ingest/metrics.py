"""Prometheus counters of the gate, exported at ``/metrics``."""

from __future__ import annotations

from prometheus_client import Counter

GATE_ACCEPTED = Counter(
    "tractatus_gate_accepted_total", "Items accepted by the validation gate", ["origin"]
)
GATE_QUARANTINED = Counter(
    "tractatus_gate_quarantined_total",
    "Items refused by the validation gate and quarantined",
    ["origin", "reason"],
)
