"""The live page, its JSON state and its event stream, through Flask's test client."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask

from webui import InMemoryFeed, create_app

PLAYING: dict[str, Any] = {
    "game": "deserto",
    "title": "Deserto at the kitchen table",
    "seats": [
        {"seat": 0, "name": "Ana", "score": 3, "to_play": False, "cards_in_hand": 3},
        {"seat": 1, "name": "Bogdan", "score": 17, "to_play": True, "cards_in_hand": 2},
    ],
    "table": [{"zone": "nw", "cards": ["vizier"], "top": "vizier"}],
    "verdicts": [
        {"index": 3, "seat": 0, "ok": True, "rules": [], "message": "fine"},
        {
            "index": 4,
            "seat": 1,
            "ok": False,
            "rules": ["DES-NO-BRIGAND-BY-VIZIER"],
            "message": "A brigand may not go next to a vizier",
        },
    ],
    "status": "playing",
    "message": "Bogdan to play",
    "winners": [],
}


@pytest.fixture
def feed() -> InMemoryFeed:
    feed = InMemoryFeed()
    feed.publish(PLAYING)
    return feed


@pytest.fixture
def app(feed: InMemoryFeed) -> Flask:
    return create_app(feed, {"SSE_KEEPALIVE_SECONDS": 0.05, "SSE_LIFETIME_SECONDS": 5.0})


def test_the_page_shows_seats_scores_table_and_the_flagged_play(app: Flask) -> None:
    response = app.test_client().get("/")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    for text in ("Ana", "Bogdan", ">3<", ">17<", "vizier", "Bogdan to play"):
        assert text in page
    assert 'class="seat to-play"' in page
    flag = page[page.index('id="flag"') : page.index("</section>", page.index('id="flag"'))]
    assert "hidden" not in flag.split(">")[0]
    assert "DES-NO-BRIGAND-BY-VIZIER" in flag and "may not go next to a vizier" in flag


def test_the_winners_are_named(feed: InMemoryFeed, app: Flask) -> None:
    feed.publish({**PLAYING, "status": "finished", "winners": [1]})
    page = app.test_client().get("/").get_data(as_text=True)
    winners = page[page.index('id="winners"') : page.index("</p>", page.index('id="winners"'))]
    assert "Winner: Bogdan" in winners and "hidden" not in winners


def test_the_page_escapes_what_players_typed(feed: InMemoryFeed, app: Flask) -> None:
    feed.publish({**PLAYING, "seats": [{"seat": 0, "name": "<b>Ana</b>", "score": 0}]})
    page = app.test_client().get("/").get_data(as_text=True)
    assert "<b>Ana</b>" not in page and "&lt;b&gt;Ana&lt;/b&gt;" in page


def test_the_page_renders_before_the_first_snapshot() -> None:
    app = create_app(InMemoryFeed())
    page = app.test_client().get("/").get_data(as_text=True)
    assert "Waiting for the table" in page


def test_api_state_returns_the_snapshot(app: Flask) -> None:
    response = app.test_client().get("/api/state")
    assert response.status_code == 200
    assert response.get_json() == {**PLAYING, "version": 1}


def test_healthz(app: Flask) -> None:
    assert app.test_client().get("/healthz").get_json() == {"ok": True}


def data_of(chunk: str) -> dict[str, Any]:
    data_lines = [line for line in chunk.splitlines() if line.startswith("data: ")]
    assert len(data_lines) == 1, chunk
    snapshot: dict[str, Any] = json.loads(data_lines[0].removeprefix("data: "))
    return snapshot


def test_events_stream_the_snapshot_and_each_new_one(feed: InMemoryFeed, app: Flask) -> None:
    response = app.test_client().get("/events", buffered=False)
    try:
        assert response.mimetype == "text/event-stream"
        chunks = (chunk.decode() for chunk in response.iter_encoded())
        first = next(chunks)
        assert first.startswith("retry: ")
        assert data_of(first)["seats"][1]["name"] == "Bogdan"
        assert next(chunks) == ": keep-alive\n\n"
        feed.publish({**PLAYING, "message": "Ana to play"})
        second = next(chunks)
        assert data_of(second) == {**PLAYING, "message": "Ana to play", "version": 2}
    finally:
        response.close()


def test_an_event_stream_ends_after_its_lifetime(feed: InMemoryFeed) -> None:
    app = create_app(feed, {"SSE_KEEPALIVE_SECONDS": 0.05, "SSE_LIFETIME_SECONDS": 0.2})
    response = app.test_client().get("/events", buffered=False)
    chunks = [chunk.decode() for chunk in response.iter_encoded()]
    response.close()
    assert "data: " in chunks[0]
    assert set(chunks[1:]) == {": keep-alive\n\n"}
