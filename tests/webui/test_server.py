"""The waitress server helper, on a free port of the loopback interface."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from webui import serve
from webui.server import OUTPUT_BUFFER_BYTES


def test_the_server_serves_healthz_and_stops(app: Flask) -> None:
    server = serve(app, host="127.0.0.1", port=0, threads=40)
    try:
        assert server.port > 0
        with urllib.request.urlopen(f"{server.url}/healthz", timeout=5) as response:
            assert json.load(response) == {"ok": True}
    finally:
        server.stop()
    with pytest.raises(OSError):
        urllib.request.urlopen(f"{server.url}/healthz", timeout=2)


def test_the_event_stream_is_not_buffered_by_the_server(
    table: Any, make_app: Callable[..., Flask], data: dict[str, Any]
) -> None:
    app = make_app(table, SSE_KEEPALIVE_SECONDS=0.2, SSE_LIFETIME_SECONDS=5.0)
    server = serve(app, host="127.0.0.1", port=0)
    try:
        with urllib.request.urlopen(f"{server.url}/events", timeout=5) as stream:
            lines = (line.decode().rstrip("\n") for line in stream)
            assert next(line for line in lines if line.startswith("data: "))
            table.publish({**data["playing"], "message": "Ana to play"})
            # The update arrives while the stream stays open (benchmarks/page_load.py
            # times it): nothing holds it back until the stream ends.
            update = next(line for line in lines if line.startswith("data: "))
            assert json.loads(update.removeprefix("data: "))["message"] == "Ana to play"
    finally:
        server.stop()


def test_the_live_fragment_is_served_in_the_phones_language(app: Flask) -> None:
    server = serve(app, host="127.0.0.1", port=0, threads=40)
    try:
        request = urllib.request.Request(f"{server.url}/live",
                                         headers={"Accept-Language": "ro-RO,ro;q=0.9"})
        with urllib.request.urlopen(request, timeout=5) as response:
            assert "Jucători" in response.read().decode()
    finally:
        server.stop()


def test_a_response_many_output_buffers_long_arrives_whole() -> None:
    chunk = bytes(range(256)) * 64  # 16 KB
    count = 8 * OUTPUT_BUFFER_BYTES // len(chunk)
    app = Flask(__name__)
    app.add_url_rule("/long", "long", lambda: (chunk for _ in range(count)))
    server = serve(app, host="127.0.0.1", port=0, threads=40)
    try:
        with urllib.request.urlopen(f"{server.url}/long", timeout=30) as response:
            assert response.read() == chunk * count
    finally:
        server.stop()


def test_too_few_threads_for_a_table_of_phones_is_refused(app: Flask) -> None:
    with pytest.raises(ValueError, match="at least 40"):
        serve(app, host="127.0.0.1", port=0, threads=4)
