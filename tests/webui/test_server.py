"""The waitress server helper, on a free port of the loopback interface."""

from __future__ import annotations

import json
import urllib.request

import pytest

from webui import InMemoryFeed, create_app, serve


def test_the_server_serves_healthz_and_stops() -> None:
    server = serve(create_app(InMemoryFeed()), host="127.0.0.1", port=0, threads=40)
    try:
        assert server.port > 0
        with urllib.request.urlopen(f"{server.url}/healthz", timeout=5) as response:
            assert json.load(response) == {"ok": True}
    finally:
        server.stop()
    with pytest.raises(OSError):
        urllib.request.urlopen(f"{server.url}/healthz", timeout=2)


def test_the_event_stream_is_not_buffered_by_the_server() -> None:
    feed = InMemoryFeed()
    app = create_app(feed, {"SSE_KEEPALIVE_SECONDS": 0.2, "SSE_LIFETIME_SECONDS": 5.0})
    server = serve(app, host="127.0.0.1", port=0)
    try:
        with urllib.request.urlopen(f"{server.url}/events", timeout=5) as stream:
            lines = (line.decode().rstrip("\n") for line in stream)
            assert next(line for line in lines if line.startswith("data: "))
            feed.publish({"status": "playing", "message": "Ana to play"})
            update = next(line for line in lines if line.startswith("data: "))
            assert json.loads(update.removeprefix("data: "))["message"] == "Ana to play"
    finally:
        server.stop()


def test_too_few_threads_for_a_table_of_phones_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 40"):
        serve(create_app(InMemoryFeed()), host="127.0.0.1", port=0, threads=4)
