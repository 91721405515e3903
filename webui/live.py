"""The live page: seats, scores, the seat to play, the table in deck art, the latest
verdicts, a flagged play shown big, and seat buttons for seats without a physical one.

The page and its fragment (`/live`) are rendered here from the snapshot; the browser
listens to `/events` (server-sent events, the whole snapshot on each change) and then
fetches the fragment again, so the markup is written once, in `templates/_live.html`.
`/api/state` and `/events` give the snapshot as JSON for scripts and load checks.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator, Mapping
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    jsonify,
    render_template,
    request,
    session,
)
from werkzeug.wrappers import Response as BaseResponse

from webui import seat_buttons
from webui.context import control, site
from webui.feed import LiveFeed
from webui.forms import claimed_press, seat_press
from webui.i18n import current
from webui.responses import done
from webui.security import Refused, client, is_admin

bp = Blueprint("live", __name__)

#: Card codes, game names and photo keys as the page accepts them in a URL.
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_+-]{0,63}")
CARD_MAX_AGE = 24 * 3600


@bp.get("/")
def page() -> str:
    return render_template("index.html", **live_context())


@bp.get("/live")
def fragment() -> Response:
    """The part of the page that changes, for the browser to swap in after an event."""
    response = Response(render_template("_live.html", **live_context()))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/api/state")
def state() -> Response:
    response = jsonify(control().snapshot())
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/events")
def events() -> Response:
    config = current_app.config
    stream = snapshot_stream(
        control(),
        keepalive=float(config["SSE_KEEPALIVE_SECONDS"]),
        lifetime=float(config["SSE_LIFETIME_SECONDS"]),
        retry_ms=int(config["SSE_RETRY_MILLISECONDS"]),
    )
    return Response(
        stream,
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


@bp.get("/healthz")
def healthz() -> Response:
    return jsonify({"ok": True})


@bp.get("/cards/<game>/<code>.png")
def card(game: str, code: str) -> BaseResponse:
    """A face of the game's deck art: the table is drawn from these, not from photos."""
    if not NAME.fullmatch(game) or not NAME.fullmatch(code):
        abort(404)
    image = control().card_image(game, code)
    if image is None:
        abort(404)
    return picture(image, "image/png", f"public, max-age={CARD_MAX_AGE}")


@bp.get("/photos/<key>.jpg")
def photo(key: str) -> BaseResponse:
    """The crop of the moment a play was seen (a flagged play, an unknown card)."""
    if not NAME.fullmatch(key):
        abort(404)
    image = control().photo(key)
    if image is None:
        abort(404)
    return picture(image, "image/jpeg", "private, no-cache")


def picture(image: bytes, mimetype: str, cache: str) -> BaseResponse:
    """An image with an ETag, so a phone that has it gets a 304 instead of the bytes again
    (a photo is checked each time: a key might be reused for a newer picture)."""
    response = Response(image, mimetype=mimetype)
    response.headers["Cache-Control"] = cache
    response.add_etag()
    return response.make_conditional(request)


@bp.post("/seat")
def press() -> BaseResponse:
    """A seat's button on the phone: no PIN, like the physical one, but rate limited."""
    wait = site().presses.take(client())
    if wait > 0:
        raise Refused(429, "error.press_rate", seconds=max(1, round(wait)))
    snapshot = control().snapshot()
    seat, kind = seat_press(request.form, snapshot.get("seats") or [])
    if not is_admin() and claimed_seat(snapshot) != seat:
        raise Refused(403, "error.not_your_seat")
    control().press(seat, kind)
    return done("done.press", "live.page")


#: The session key of the seat this phone said is its own ("This is me").
CLAIM = "seat"


@bp.post("/me")
def claim() -> BaseResponse:
    """"This is me": the phone offers (and may press) only that seat's buttons, for the
    match being played; an empty seat lets it go. The admin presses any seat."""
    snapshot = control().snapshot()
    seat = claimed_press(request.form, snapshot.get("seats") or [])
    if seat is None:
        session.pop(CLAIM, None)
        return done("done.unclaimed", "live.page")
    session[CLAIM] = {"match": snapshot.get("match_id"), "seat": seat}
    return done("done.claimed", "live.page")


def claimed_seat(snapshot: Mapping[str, Any]) -> int | None:
    """The seat this phone claimed in the match being played (none in another match)."""
    claim = session.get(CLAIM)
    if not isinstance(claim, dict) or snapshot.get("match_id") is None:
        return None
    seat = claim.get("seat")
    return seat if claim.get("match") == snapshot.get("match_id") and isinstance(seat, int) \
        else None


def live_context() -> dict[str, Any]:
    """What `index.html` and `_live.html` draw: the snapshot and a few derived names."""
    snapshot = control().snapshot()
    shown = int(current_app.config["VERDICTS_SHOWN"])
    names = seat_names(snapshot)
    offered = seat_buttons.offered(snapshot, current())
    mine = claimed_seat(snapshot)
    admin = is_admin()
    return {
        "snapshot": snapshot,
        "names": names,
        "winner_names": [names.get(int(seat), str(seat)) for seat in snapshot.get("winners") or []],
        "verdicts": latest_verdicts(snapshot, shown),
        # A phone presses its own seat's buttons; the admin any seat's.
        "seat_buttons": offered if admin else {s: b for s, b in offered.items() if s == mine},
        "claimable": [] if admin or mine is not None else sorted(offered),
        "claimed": None if admin else mine,
    }


def snapshot_stream(
    feed: LiveFeed, keepalive: float, lifetime: float, retry_ms: int
) -> Iterator[str]:
    """Server-sent events: the snapshot now, then again on each change, for ``lifetime`` s."""
    ends_at = time.monotonic() + lifetime
    snapshot = feed.snapshot()
    version = int(snapshot["version"])
    yield f"retry: {retry_ms}\nid: {version}\ndata: {json.dumps(snapshot)}\n\n"
    while (remaining := ends_at - time.monotonic()) > 0:
        if feed.wait_for_change(version, min(keepalive, remaining)) == version:
            yield ": keep-alive\n\n"
            continue
        snapshot = feed.snapshot()
        version = int(snapshot["version"])
        yield f"id: {version}\ndata: {json.dumps(snapshot)}\n\n"


def latest_verdicts(snapshot: Mapping[str, Any], shown: int) -> list[dict[str, Any]]:
    """The last ``shown`` verdicts, newest first."""
    verdicts: list[dict[str, Any]] = snapshot.get("verdicts") or []
    return list(reversed(verdicts[-shown:])) if shown > 0 else []


def seat_names(snapshot: Mapping[str, Any]) -> dict[int, str]:
    """Seat number to player name ("Seat 2" in the page's language for a seat with none)."""
    catalogue = current()
    return {
        int(seat["seat"]): seat.get("name")
        or catalogue.say("seat.unnamed", number=int(seat["seat"]) + 1)
        for seat in snapshot.get("seats") or []
    }
