"""The app factory: its routes, its refusal of debug modes, its error pages and headers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

ROUTES = {
    ("/", "GET"), ("/live", "GET"), ("/api/state", "GET"), ("/events", "GET"),
    ("/healthz", "GET"), ("/cards/<game>/<code>.png", "GET"), ("/photos/<key>.jpg", "GET"),
    ("/seat", "POST"), ("/me", "POST"), ("/qr.svg", "GET"), ("/wifi.svg", "GET"),
    ("/lang/<code>", "GET"),
    ("/admin", "GET"), ("/admin/pin", "POST"), ("/admin/login", "POST"),
    ("/admin/logout", "POST"), ("/admin/new", "GET"), ("/admin/start", "POST"),
    ("/admin/end", "POST"), ("/admin/end", "GET"), ("/admin/undo", "POST"),
    ("/admin/accept", "POST"), ("/admin/card", "POST"), ("/admin/move", "POST"),
    ("/admin/enrol", "GET"), ("/admin/enrol/start", "POST"), ("/admin/enrol/answer", "POST"),
    ("/admin/enrol/again", "POST"), ("/admin/enrol/stop", "POST"),
    ("/admin/enrol/crop/<int:number>", "GET"),
    ("/history", "GET"), ("/history/<int:match_id>", "GET"),
    ("/static/<path:filename>", "GET"),
}


def test_the_app_has_exactly_the_documented_routes(app: Flask) -> None:
    found = {
        (rule.rule, method)
        for rule in app.url_map.iter_rules()
        for method in rule.methods or ()
        if method not in ("HEAD", "OPTIONS")
    }
    assert found == ROUTES


@pytest.mark.parametrize("flag", ["DEBUG", "TESTING", "PROPAGATE_EXCEPTIONS"])
def test_no_debug_mode_can_be_configured(
    table: Any, make_app: Callable[..., Flask], flag: str
) -> None:
    with pytest.raises(ValueError, match=flag):
        make_app(table, **{flag: True})


def test_an_error_is_a_plain_500_page_without_a_traceback(
    table: Any, make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FLASK_DEBUG", "1")
    app = make_app(table)
    assert app.debug is False
    table.crash = True
    for path in ("/", "/live", "/api/state"):
        response = app.test_client().get(path)
        page = response.get_data(as_text=True)
        assert response.status_code == 500
        assert "Something went wrong in the referee." in page
        for leak in ("Traceback", "hunter2", "RuntimeError", "werkzeug", "debugger"):
            assert leak not in page


def test_a_page_that_is_not_there_is_a_plain_404(phone: Any, refused: Callable[..., str]) -> None:
    response = phone.get("/nowhere")
    assert response.status_code == 404
    assert refused(response) == "There is nothing here."
    response = phone.get("/nowhere", headers={"Accept": "application/json"})
    assert response.get_json() == {"ok": False, "error": "There is nothing here."}


def test_a_get_on_an_action_is_a_405(phone: Any, refused: Callable[..., str]) -> None:
    response = phone.get("/seat")
    assert response.status_code == 405
    assert refused(response) == "That address does not take this kind of request."


def test_a_huge_form_is_refused(table: Any, admin: Any) -> None:
    response = admin.post("/admin/start", {"seat": "x" * 100_000})
    assert response.status_code == 413
    assert table.calls == []


def test_every_response_forbids_framing_and_foreign_scripts(phone: Any) -> None:
    for path in ("/", "/admin", "/history", "/nowhere"):
        headers = phone.get(path).headers
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        assert "default-src 'self'" in headers["Content-Security-Policy"]
        assert headers["X-Frame-Options"] == "DENY"
        assert headers["X-Content-Type-Options"] == "nosniff"


def test_the_static_files_are_served(phone: Any) -> None:
    for name in ("style.css", "live.js", "admin.js"):
        response = phone.get(f"/static/{name}")
        assert response.status_code == 200 and response.data
        response.close()


def test_pages_have_a_phone_viewport_and_no_inline_script(phone: Any, admin: Any) -> None:
    for path in ("/", "/admin", "/admin/new?game=deserto", "/history", "/history/1"):
        page = admin.page(path)
        assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
        assert "<script>" not in page and " onclick=" not in page
