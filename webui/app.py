"""The app factory: the live page, admin, history, languages and joining, over a table.

    app = create_app(control, {"PUBLIC_URL": "http://192.168.1.20:8000/"})
    serve(app, host="0.0.0.0", port=8000)   # webui.server

`control` is firmware's `TableControl` (webui.control): the app only asks it, so the
page stays thin and knows no game. The session cookie is signed with the control's
secret key, so admin sessions survive a restart. There is no debug mode: `DEBUG` and
`TESTING` are refused, and an error is a plain 500 page.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any

from flask import Flask, Response, g
from werkzeug.exceptions import HTTPException, InternalServerError

from webui import admin, enrolment, history, i18n, joining, live
from webui.context import EXTENSION, Site
from webui.control import ControlError, TableControl
from webui.forms import LONGEST_NAME
from webui.i18n import current, load_catalogues, localized
from webui.responses import on_control_error, on_crash, on_http_error, on_refused
from webui.security import (
    CSRF_FIELD,
    FailureLimiter,
    RateLimit,
    Refused,
    check_csrf,
    csrf_token,
    is_admin,
)

DEFAULT_CONFIG: dict[str, Any] = {
    "SSE_KEEPALIVE_SECONDS": 15.0,  # a comment line so proxies and phones keep the stream
    "SSE_LIFETIME_SECONDS": 60.0,  # then the browser's EventSource reconnects by itself
    "SSE_RETRY_MILLISECONDS": 2000,
    "VERDICTS_SHOWN": 8,
    "PUBLIC_URL": None,  # the address phones should open (the QR code); else the request's
    "HOTSPOT": None,  # called: (SSID, password) of the Pi's own Wi-Fi while it is up
    "PIN_TRIES": 5,  # wrong PINs in a row from one phone before it must wait
    "PIN_LOCKOUT_SECONDS": 60.0,  # the first wait; it doubles after each further lockout
    "PIN_LOCKOUT_MAX_SECONDS": 3600.0,
    "PRESS_LIMIT": 6,  # seat presses from one phone ...
    "PRESS_PERIOD_SECONDS": 5.0,  # ... in any such window
    "ADMIN_SESSION_HOURS": 12,
    "CLOCK": time.monotonic,  # for the rate limits; tests pass their own
}


def create_app(control: TableControl, config: Mapping[str, Any] | None = None) -> Flask:
    """The Flask app for the table behind `control`; `config` overrides DEFAULT_CONFIG."""
    settings = {**DEFAULT_CONFIG, **(config or {})}
    for flag in ("DEBUG", "TESTING", "PROPAGATE_EXCEPTIONS"):
        if settings.get(flag):
            raise ValueError(f"{flag} is not allowed: the page must never show a traceback")
    app = Flask(__name__)
    app.config.update(settings)
    app.config.update(
        DEBUG=False,  # also when FLASK_DEBUG is set in the environment
        SECRET_KEY=control.secret_key(),
        SESSION_COOKIE_NAME="tableref_session",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=timedelta(hours=float(settings["ADMIN_SESSION_HOURS"])),
        MAX_CONTENT_LENGTH=64 * 1024,
        MAX_FORM_PARTS=200,
    )
    clock: Callable[[], float] = settings["CLOCK"]
    app.extensions[EXTENSION] = Site(
        control=control,
        pin_failures=FailureLimiter(int(settings["PIN_TRIES"]),
                                    float(settings["PIN_LOCKOUT_SECONDS"]),
                                    float(settings["PIN_LOCKOUT_MAX_SECONDS"]), clock),
        presses=RateLimit(int(settings["PRESS_LIMIT"]),
                          float(settings["PRESS_PERIOD_SECONDS"]), clock),
        catalogues=load_catalogues(),
    )
    for blueprint in (live.bp, admin.bp, enrolment.bp, history.bp, i18n.bp, joining.bp):
        app.register_blueprint(blueprint)
    app.before_request(i18n.choose_language)
    app.before_request(check_csrf)
    app.after_request(security_headers)
    app.register_error_handler(Refused, on_refused)
    app.register_error_handler(ControlError, on_control_error)
    app.register_error_handler(InternalServerError, on_crash)
    app.register_error_handler(HTTPException, on_http_error)
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.context_processor(template_names)
    app.jinja_env.filters["score_of"] = history.score_of
    app.jinja_env.filters["move_words"] = history.move_words
    app.jinja_env.filters["standalone"] = i18n.standalone
    app.jinja_env.tests["attached"] = i18n.attached
    return app


def template_names() -> dict[str, Any]:
    """What every template may use: the words, the token, the language, the switch."""
    catalogue = current()
    language = str(getattr(g, "lang", "en"))

    def say(item: Mapping[str, Any] | None, field: str = "message",
            texts: str = "texts") -> str:
        return localized(item, language, field, texts)

    def rules_said(item: Mapping[str, Any] | None) -> list[tuple[str, str]]:
        """(name in this language, id) for each rule `item` names."""
        rules = list((item or {}).get("rules") or [])
        names = list((item or {}).get("rule_texts") or [])
        return [(localized({"message": rule, "texts": names[n] if n < len(names) else {}},
                           language), rule) for n, rule in enumerate(rules)]

    return {
        "t": catalogue.say,
        "say": say,
        "rules_said": rules_said,
        "lang": language,
        "languages": {code: found.name for code, found in i18n.site_catalogues().items()},
        "csrf_token": csrf_token,
        "csrf_field": CSRF_FIELD,
        "is_admin": is_admin(),
        "public_url": joining.public_url(),
        "hotspot": joining.hotspot(),
        "longest_name": LONGEST_NAME,
    }


def security_headers(response: Response) -> Response:
    """No framing, no sniffing, scripts and styles only from this page's own files."""
    response.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'",
    )
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response
