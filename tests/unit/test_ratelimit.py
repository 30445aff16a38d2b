"""The token bucket per principal (server/ratelimit.py), on a clock the test moves."""

from __future__ import annotations

from server.ratelimit import RateLimiter, retry_after


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_then_the_rate() -> None:
    clock = Clock()
    limiter = RateLimiter(rate=2.0, burst=3, clock=clock)
    assert [limiter.take("alice") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limiter.take("alice") == 0.5  # one token comes back in half a second
    clock.now = 0.5
    assert limiter.take("alice") == 0.0
    assert limiter.take("alice") > 0


def test_each_principal_has_its_own_bucket() -> None:
    limiter = RateLimiter(rate=1.0, burst=1, clock=Clock())
    assert limiter.take("alice") == 0.0
    assert limiter.take("alice") > 0
    assert limiter.take("bob") == 0.0


def test_a_refused_request_takes_nothing_and_idle_buckets_fill_to_the_burst() -> None:
    clock = Clock()
    limiter = RateLimiter(rate=1.0, burst=2, clock=clock)
    limiter.take("alice"), limiter.take("alice")
    for _ in range(5):
        assert limiter.take("alice") == 1.0  # refusals do not dig the hole deeper
    clock.now = 100.0
    assert [limiter.take("alice") for _ in range(3)][:2] == [0.0, 0.0]


def test_retry_after_is_whole_seconds_and_never_zero() -> None:
    assert retry_after(0.01) == 1 and retry_after(1.0) == 1 and retry_after(1.2) == 2
