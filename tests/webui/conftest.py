"""A fake table behind the page: the `TableControl` protocol on in-memory state.

Every call that changes something is recorded in `FakeTable.calls`, so a test can show
that a refused request reached nothing. The data (data/table.json) is a Deserto-like
match in play with a flagged move, an unknown card and a page move, the games a match
can start with, and two ended matches with their records and the tally.
"""

from __future__ import annotations

import copy
import json
import re
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from playwright.sync_api import Browser, sync_playwright
from werkzeug.test import TestResponse

from webui import ControlError, create_app

DATA: dict[str, Any] = json.loads(
    Path(__file__).with_name("data").joinpath("table.json").read_text(encoding="utf-8")
)
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]
#: How the browser tests open the page: on a phone's screen (390 x 844 CSS pixels, twice
#: as dense, touch), in English until the page is switched (Accept-Language).
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "locale": "en-US",
}
PNG = b"\x89PNG\r\n\x1a\nfake-card"
JPEG = b"\xff\xd8\xff\xe0fake-photo"
PIN = "1234"
PUBLIC_URL = "http://192.168.1.20:8000/"


class FakeTable:
    """`webui.control.TableControl` in memory; `calls` lists every change asked for."""

    def __init__(self, snapshot: dict[str, Any], pin: str | None = PIN) -> None:
        self._changed = threading.Condition()
        self._version = 1
        self._snapshot = copy.deepcopy(snapshot)
        self.pin = pin
        self.calls: list[tuple[Any, ...]] = []
        self.refuse_with: str | ControlError | None = None  # the next change raises it
        self.crash = False  # the next snapshot raises a bug
        self.pin_checks = 0

    # -- the feed -----------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        if self.crash:
            raise RuntimeError("a bug with a secret in its traceback: hunter2")
        with self._changed:
            return {**copy.deepcopy(self._snapshot), "version": self._version}

    def wait_for_change(self, version: int, timeout: float) -> int:
        with self._changed:
            self._changed.wait_for(lambda: self._version != version, timeout)
            return self._version

    def publish(self, snapshot: dict[str, Any]) -> int:
        """What firmware does after each move: a new snapshot, a new version."""
        with self._changed:
            self._snapshot = copy.deepcopy(snapshot)
            self._version += 1
            self._changed.notify_all()
            return self._version

    # -- changes ------------------------------------------------------------------

    def _change(self, *call: Any) -> None:
        if isinstance(self.refuse_with, ControlError):
            raise self.refuse_with
        if self.refuse_with is not None:
            raise ControlError(self.refuse_with)
        self.calls.append(call)
        with self._changed:
            self._version += 1
            self._changed.notify_all()

    def games(self) -> list[dict[str, Any]]:
        return copy.deepcopy(DATA["games"])

    def start_match(self, header: dict[str, Any]) -> None:
        self._change("start_match", header)

    def end_match(self) -> None:
        self._change("end_match")

    def undo(self) -> None:
        self._change("undo")

    def accept(self, index: int) -> None:
        self._change("accept", index)

    def correct_card(self, card: int, code: str) -> None:
        self._change("correct_card", card, code)

    def page_move(self, seat: int, kind: str, fields: dict[str, Any]) -> None:
        self._change("page_move", seat, kind, fields)

    def press(self, seat: int, kind: str) -> None:
        self._change("press", seat, kind)

    # -- history and pictures -----------------------------------------------------

    def history(self) -> list[dict[str, Any]]:
        return copy.deepcopy(DATA["history"])

    def match_record(self, match_id: int) -> dict[str, Any]:
        if str(match_id) not in DATA["records"]:
            raise ControlError(f"there is no match {match_id}")
        record: dict[str, Any] = copy.deepcopy(DATA["records"][str(match_id)])
        return record

    def tally(self) -> list[dict[str, Any]]:
        return copy.deepcopy(DATA["tally"])

    def card_image(self, game: str, code: str) -> bytes | None:
        return PNG if game == "deserto" and code in DATA["playing"]["codes"] else None

    def photo(self, key: str) -> bytes | None:
        return JPEG if re.fullmatch(r"m1-\d+|u0", key) else None

    # -- the PIN ------------------------------------------------------------------

    def pin_is_set(self) -> bool:
        return self.pin is not None

    def set_pin(self, pin: str) -> None:
        self._change("set_pin", pin)
        self.pin = pin

    def check_pin(self, pin: str) -> bool:
        self.pin_checks += 1
        return pin == self.pin

    def secret_key(self) -> bytes:
        return b"k" * 32


class Clock:
    """A clock the test moves by hand, for the rate limits."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Phone:
    """A phone's browser on the page: the test client, its CSRF token, its login."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def get(self, path: str, **kwargs: Any) -> TestResponse:
        return self.client.get(path, **kwargs)

    def page(self, path: str, **kwargs: Any) -> str:
        response = self.client.get(path, **kwargs)
        assert response.status_code == 200, (path, response.status_code)
        return response.get_data(as_text=True)

    def token(self, path: str = "/admin") -> str:
        """The session's CSRF token, as a page shows it in its forms."""
        found = re.search(r'name="csrf" value="([^"]+)"', self.page(path))
        assert found, f"no CSRF token on {path}"
        return found.group(1)

    def post(self, path: str, data: dict[str, Any] | None = None, *, token: bool = True,
             **kwargs: Any) -> TestResponse:
        """POST a form, with the session's token unless `token` is False."""
        form = dict(data or {})
        if token:
            form.setdefault("csrf", self.token())
        return self.client.post(path, data=form, **kwargs)

    def log_in(self, pin: str = PIN) -> None:
        response = self.post("/admin/login", {"pin": pin})
        assert response.status_code == 303, response.get_data(as_text=True)


def message_of(response: TestResponse) -> str:
    """The one-line reason a refused request shows."""
    if response.is_json:
        return str(response.get_json()["error"])
    found = re.search(r'id="error-message"[^>]*>([^<]*)<', response.get_data(as_text=True))
    assert found, response.get_data(as_text=True)
    return found.group(1)


@pytest.fixture
def data() -> dict[str, Any]:
    return copy.deepcopy(DATA)


@pytest.fixture
def table() -> FakeTable:
    return FakeTable(DATA["playing"])


@pytest.fixture
def make_table() -> Callable[..., FakeTable]:
    """FakeTable(snapshot, pin=...) for a test that needs another table."""
    return FakeTable


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def make_app(clock: Clock) -> Callable[..., Flask]:
    """An app over `table`, with quick event streams and the hand-moved clock."""

    def make(table: FakeTable, **config: Any) -> Flask:
        settings = {"SSE_KEEPALIVE_SECONDS": 0.05, "SSE_LIFETIME_SECONDS": 5.0,
                    "CLOCK": clock, "PUBLIC_URL": PUBLIC_URL, **config}
        return create_app(table, settings)

    return make


@pytest.fixture
def app(table: FakeTable, make_app: Callable[..., Flask]) -> Flask:
    return make_app(table)


@pytest.fixture
def phone(app: Flask) -> Iterator[Phone]:
    with app.test_client() as client:
        yield Phone(client)


@pytest.fixture
def admin(phone: Phone) -> Phone:
    """A phone logged in with the PIN."""
    phone.log_in()
    return phone


@pytest.fixture
def refused() -> Callable[[TestResponse], str]:
    return message_of


@pytest.fixture(scope="session")
def phone_screen() -> dict[str, Any]:
    """PHONE: the browser context's settings of a phone (browser.new_context(**...))."""
    return PHONE


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's chromium, headless; never a downloaded browser."""
    if not CHROMIUM.is_file():
        pytest.fail(f"{CHROMIUM} is missing: the browser tests need Debian's chromium "
                    "(sudo apt-get install chromium, or bash scripts/dev test installs it)",
                    pytrace=False)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                              args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
