"""The rate limits and the CSRF token, on their own."""

from __future__ import annotations

from typing import Any

import pytest

from webui.security import FailureLimiter, RateLimit


def test_the_failure_limiter_locks_out_after_the_allowed_failures(clock: Any) -> None:
    limiter = FailureLimiter(allowed=3, lockout=10.0, longest=25.0, clock=clock)
    assert [limiter.failed("a"), limiter.failed("a")] == [2, 1]
    assert limiter.wait("a") == 0.0
    assert limiter.failed("a") == 0
    assert limiter.wait("a") == 10.0 and limiter.wait("b") == 0.0
    clock.now += 10.0
    assert limiter.wait("a") == 0.0
    for _ in range(3):
        limiter.failed("a")
    assert limiter.wait("a") == 20.0
    clock.now += 20.0
    for _ in range(3):
        limiter.failed("a")
    assert limiter.wait("a") == 25.0  # capped at `longest`


def test_a_success_forgets_the_failures(clock: Any) -> None:
    limiter = FailureLimiter(allowed=2, lockout=10.0, longest=60.0, clock=clock)
    limiter.failed("a")
    limiter.succeeded("a")
    assert limiter.failed("a") == 1


def test_a_limiter_allows_at_least_one_try() -> None:
    with pytest.raises(ValueError):
        FailureLimiter(allowed=0, lockout=1.0, longest=1.0, clock=lambda: 0.0)


def test_the_rate_limit_is_a_sliding_window_per_client(clock: Any) -> None:
    limit = RateLimit(count=2, period=5.0, clock=clock)
    assert limit.take("a") == 0.0
    clock.now += 1.0
    assert limit.take("a") == 0.0
    assert limit.take("a") == 4.0 and limit.take("b") == 0.0
    clock.now += 4.0
    assert limit.take("a") == 0.0
    assert limit.take("a") == 1.0


def test_each_session_gets_its_own_token(app: Any) -> None:
    tokens = set()
    for _ in range(3):
        page = app.test_client().get("/").get_data(as_text=True)
        marker = 'name="csrf" value="'
        start = page.index(marker) + len(marker)
        tokens.add(page[start : page.index('"', start)])
    assert len(tokens) == 3 and all(len(token) >= 40 for token in tokens)


def test_login_gives_the_session_a_new_token(phone: Any) -> None:
    before = phone.token()
    phone.log_in()
    assert phone.token() != before
