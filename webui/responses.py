"""How a request ends: a done action goes back to its page with a notice (or a small
JSON answer for the page's script), a refused one shows its one-line reason with the
right status, and an unexpected error is a plain 500 page without a traceback."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Response, flash, jsonify, redirect, render_template, request, url_for
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as BaseResponse

from webui.control import ControlError
from webui.i18n import current, safe_next
from webui.security import Refused

#: A refusal from the table itself (ControlError): the request was well formed but the
#: table cannot carry it out now (no match, nothing to undo, ...).
CONTROL_REFUSED = 409


def wants_json() -> bool:
    """The page's script asks for JSON; a plain form post gets HTML."""
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json"


def done(key: str, endpoint: str) -> BaseResponse:
    """The action happened: say so and go back to `endpoint` (303, so a reload does not
    post again)."""
    message = current().say(key)
    if wants_json():
        return jsonify({"ok": True, "message": message})
    flash(message)
    return redirect(url_for(endpoint), code=303)


def refusal(status: int, message: str) -> tuple[Response | str, int]:
    """A one-line reason, as JSON for the script or as a small page."""
    if wants_json():
        return jsonify({"ok": False, "error": message}), status
    return render_template("error.html", status=status, message=message, back=back()), status


def back() -> str:
    """Where the error page's link goes: the page of this site the request came from."""
    came_from = urlsplit(request.referrer or "")
    if came_from.netloc != request.host or not came_from.path.startswith("/"):
        return "/"
    return safe_next(came_from.path + (f"?{came_from.query}" if came_from.query else ""))


def on_refused(error: Refused) -> tuple[Response | str, int]:
    return refusal(error.status, current().say(error.key, **error.params))


def on_control_error(error: ControlError) -> tuple[Response | str, int]:
    message = error.texts.get(current().code) or str(error)
    return refusal(CONTROL_REFUSED, message.splitlines()[0] if message else "")


def on_http_error(error: HTTPException) -> tuple[Response | str, int]:
    """404, 405, 413...: Werkzeug's own pages would be English and unstyled."""
    status = error.code or 500
    catalogue = current()
    key = f"error.http_{status}"
    message = (catalogue.say(key) if key in catalogue.strings
               else catalogue.say("error.http_other", status=status))
    return refusal(status, message)


def on_crash(error: Exception) -> tuple[Response | str, int]:
    """An error nobody could cause on purpose: Flask has logged it; the phone gets a
    plain page, never a traceback."""
    return refusal(500, current().say("error.http_500"))
