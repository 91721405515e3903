"""The live page: seats, scores, whose turn it is, the table and the latest verdicts.

    app = create_app(feed, {"SSE_KEEPALIVE_SECONDS": 15})
    serve(app, host="0.0.0.0", port=8000)   # webui.server

Read-only: every route only reads the feed.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Mapping
from typing import Any

from flask import Flask, Response, jsonify, render_template

from webui.feed import LiveFeed

DEFAULT_CONFIG: dict[str, Any] = {
    "SSE_KEEPALIVE_SECONDS": 15.0,  # a comment line so proxies and phones keep the stream
    "SSE_LIFETIME_SECONDS": 60.0,  # then the browser's EventSource reconnects by itself
    "SSE_RETRY_MILLISECONDS": 2000,
    "VERDICTS_SHOWN": 8,
}


def create_app(feed: LiveFeed, config: Mapping[str, Any] | None = None) -> Flask:
    """The Flask app that shows what ``feed`` holds; ``config`` overrides DEFAULT_CONFIG."""
    app = Flask(__name__)
    app.config.update(DEFAULT_CONFIG)
    app.config.update(config or {})

    @app.get("/")
    def page() -> str:
        snapshot = feed.snapshot()
        return render_template(
            "index.html",
            snapshot=snapshot,
            verdicts=latest_verdicts(snapshot, app.config["VERDICTS_SHOWN"]),
            seat_names=seat_names(snapshot),
            settings={"verdictsShown": app.config["VERDICTS_SHOWN"]},
        )

    @app.get("/api/state")
    def state() -> Response:
        response = jsonify(feed.snapshot())
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.get("/events")
    def events() -> Response:
        stream = snapshot_stream(
            feed,
            keepalive=float(app.config["SSE_KEEPALIVE_SECONDS"]),
            lifetime=float(app.config["SSE_LIFETIME_SECONDS"]),
            retry_ms=int(app.config["SSE_RETRY_MILLISECONDS"]),
        )
        return Response(
            stream,
            mimetype="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    @app.get("/healthz")
    def healthz() -> Response:
        return jsonify({"ok": True})

    return app


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
    """Seat number to player name, for verdicts that only name the seat."""
    return {
        seat["seat"]: seat.get("name") or f"Seat {seat['seat'] + 1}"
        for seat in snapshot.get("seats") or []
    }
