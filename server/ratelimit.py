"""Rate limits per principal: a token bucket per authenticated caller, in this process.

Each principal may send ``rate`` requests per second on average and ``burst`` at once; a
request over that is answered ``429 rate_limited`` with ``Retry-After`` (whole seconds until a
token is back) before the route runs, so nothing is read or written. The buckets live in the
process: with several replicas behind a load balancer, each one limits on its own (a caller
gets up to ``replicas x rate``). The number of buckets is bounded by the principals file: only
authenticated callers have one. Off (``rate = 0``) by default.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class _Bucket:
    tokens: float
    stamp: float


@dataclass
class RateLimiter:
    rate: float  # tokens per second
    burst: int  # the bucket's size
    clock: Callable[[], float] = time.monotonic
    _buckets: dict[str, _Bucket] = field(default_factory=dict)

    def take(self, principal: str) -> float:
        """Take one token of ``principal``'s bucket: 0 when it had one, else the seconds
        until it will (nothing taken). Called from the event loop only: no lock needed."""
        now = self.clock()
        bucket = self._buckets.get(principal)
        if bucket is None:
            bucket = self._buckets[principal] = _Bucket(float(self.burst), now)
        bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.stamp) * self.rate)
        bucket.stamp = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return 0.0
        return (1.0 - bucket.tokens) / self.rate


def retry_after(wait: float) -> int:
    """``Retry-After`` in whole seconds, never 0 (a caller that waits that long gets a token)."""
    return max(1, math.ceil(wait))
