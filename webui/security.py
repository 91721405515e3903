"""Who may change what: a CSRF token per session, the admin session, and rate limits.

Anyone on the table's Wi-Fi can open the page, so every state-changing request is a
POST that carries the session's CSRF token (a phone's cookie alone is not enough), the
admin actions also need a session opened with the PIN, and both the PIN and the seat
buttons are rate limited per client. The limits live in memory: a restart forgets
them, which costs an attacker a reboot of the Pi per round of guesses.

    limiter = FailureLimiter(allowed=5, lockout=60.0, longest=3600.0, clock=time.monotonic)
    if limiter.wait("192.168.1.7") == 0.0 and not check(pin):
        limiter.failed("192.168.1.7")
"""

from __future__ import annotations

import hmac
import secrets
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, TypeVar, cast

from flask import request, session

CSRF_FIELD = "csrf"
CSRF_HEADER = "X-CSRF-Token"

View = TypeVar("View", bound=Callable[..., Any])


class Label(str):
    """A catalogue key given as a parameter of a message: translated when shown."""


class Refused(Exception):
    """A request refused before it reached the table; nothing has changed.

    `key` names the one-line message in the page's catalogue; `params` fill it in
    (a `Label` parameter is itself translated).
    """

    def __init__(self, status: int, key: str, **params: Any) -> None:
        super().__init__(key)
        self.status = status
        self.key = key
        self.params = params


def csrf_token() -> str:
    """This session's token for the forms it is shown (made on first use)."""
    token = session.get(CSRF_FIELD)
    if not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        session[CSRF_FIELD] = token
    return token


def check_csrf() -> None:
    """Refuse a POST whose token is missing or is not this session's (constant time)."""
    if request.method != "POST":
        return
    sent = request.form.get(CSRF_FIELD) or request.headers.get(CSRF_HEADER) or ""
    expected = session.get(CSRF_FIELD)
    if not isinstance(expected, str) or not hmac.compare_digest(
        sent.encode("utf-8"), expected.encode("utf-8")
    ):
        raise Refused(403, "error.csrf")


def client() -> str:
    """Whom a rate limit counts: the phone's address on the LAN (no proxy in front)."""
    return request.remote_addr or "unknown"


def is_admin() -> bool:
    return session.get("admin") is True


def start_admin_session() -> None:
    """A fresh session (new token, no fixation) that may use the admin actions."""
    session.clear()
    session["admin"] = True
    session.permanent = True
    csrf_token()


def end_admin_session() -> None:
    session.clear()
    csrf_token()


def admin_required(view: View) -> View:
    """Refuse the view unless the session was opened with the PIN."""

    @wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        if not is_admin():
            raise Refused(403, "error.not_admin")
        return view(*args, **kwargs)

    return cast(View, guarded)


@dataclass
class _Failures:
    count: int = 0
    lockouts: int = 0
    until: float = 0.0


class FailureLimiter:
    """Consecutive failures per client; after `allowed` the client waits `lockout`
    seconds, twice as long after each further lockout, at most `longest`."""

    def __init__(
        self, allowed: int, lockout: float, longest: float, clock: Callable[[], float]
    ) -> None:
        if allowed < 1:
            raise ValueError("allowed must be at least 1")
        self.allowed = allowed
        self._lockout = lockout
        self._longest = longest
        self._clock = clock
        self._clients: dict[str, _Failures] = {}
        self._lock = threading.Lock()

    def wait(self, who: str) -> float:
        """Seconds `who` must still wait before another try (0.0: may try now)."""
        with self._lock:
            record = self._clients.get(who)
            return max(0.0, record.until - self._clock()) if record else 0.0

    def failed(self, who: str) -> int:
        """Count a failure; return the tries left before a wait (0: now waiting)."""
        with self._lock:
            record = self._clients.setdefault(who, _Failures())
            record.count += 1
            if record.count < self.allowed:
                return self.allowed - record.count
            record.count = 0
            record.lockouts += 1
            record.until = self._clock() + min(
                self._longest, self._lockout * 2 ** (record.lockouts - 1)
            )
            return 0

    def succeeded(self, who: str) -> None:
        with self._lock:
            self._clients.pop(who, None)


class RateLimit:
    """At most `count` requests in any `period` seconds per client (a sliding window)."""

    def __init__(self, count: int, period: float, clock: Callable[[], float]) -> None:
        self.count = count
        self.period = period
        self._clock = clock
        self._clients: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def take(self, who: str) -> float:
        """Record a request and return 0.0, or the seconds to wait if over the limit."""
        with self._lock:
            now = self._clock()
            times = self._clients.setdefault(who, deque())
            while times and times[0] <= now - self.period:
                times.popleft()
            if len(times) >= self.count:
                return times[0] + self.period - now
            times.append(now)
            if len(self._clients) > 1024:  # forget phones that went quiet
                for key in [k for k, v in self._clients.items() if v[-1] <= now - self.period]:
                    del self._clients[key]
            return 0.0
