"""A Remi round on the real page, in headless Chromium on a phone (issue 13).

A real `TableService` on a SQLite file, served by waitress, fed the recorded 4-player
round (tests/fixtures/remi/four-players-dim) through the same loop as live play, its
button presses included: once until Dan has opened (the atu, a row of seven tiles, five
melds of three seats, the racks counted) and once to the round's end (the scores). The
page shows them in each of its five languages. Screenshots go to out/screenshots/
(gitignored).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from firmware.service import TableService
from firmware.session import play_session
from firmware.store import MatchStore
from hardware.camera import read_session_metadata
from hardware.panel import SimulatedPanel
from referee.text import LANGUAGES
from vision.mat import MatSpec
from webui import create_app
from webui.i18n import load_catalogues
from webui.server import RunningServer, serve

ROOT = Path(__file__).resolve().parents[2]
SESSION = ROOT / "tests/fixtures/remi/four-players-dim"
SHOTS = ROOT / "out/screenshots"
WORDS = load_catalogues()
# From the session's expected.jsonl: the frame before Ana lays out her second and third
# melds (move #21). By then Dan has opened (#18) and discarded yellow 7 (#19), Ana drawn.
OPENED_FRAME = "frames/00024.jpg"
RACKS = [9, 11, 14, 8]  # Ana drew (#20); Bogdan's illegal run stays on the table
MELDS = [("Ana", ["red-11", "red-12", "red-13"]), ("Ana", ["blue-10", "black-10", "yellow-10"]),
         ("Bogdan", ["black-5", "black-6", "black-8"]),
         ("Dan", ["yellow-11", "yellow-12", "yellow-13"]),
         ("Dan", ["blue-12", "red-12", "black-12"])]
ROW = ["red-1", "blue-2", "black-13", "yellow-4", "red-3", "blue-11", "yellow-7"]
SCORES = [155, -60, -120, 10]  # the round's end, as `tableref replay` says it


def served(folder: Path, session: Path) -> tuple[RunningServer, dict[str, Any], MatchStore]:
    """A table service fed `session` whole, served; its server, snapshot and store."""
    store = MatchStore.open(folder / "tableref.sqlite")
    metadata = read_session_metadata(session)
    service = TableService(store, SimulatedPanel(4), MatSpec.from_json(metadata["mat"]),
                           buttons=4)
    server = serve(create_app(service, {"SSE_KEEPALIVE_SECONDS": 0.5}), "127.0.0.1", 0)
    service.start_match(metadata["match"])
    play_session(service, session, SimulatedPanel(4))
    return server, service.snapshot(), store


def cut_before(folder: Path, frame: str) -> Path:
    """The recorded session up to (not with) the first event showing `frame`: its frames
    linked, its events cut there."""
    part = folder / "part"
    part.mkdir()
    for name in ("frames", "full"):
        (part / name).symlink_to(SESSION / name)
    shutil.copy(SESSION / "session.json", part / "session.json")
    events = [json.loads(line) for line in (SESSION / "events.jsonl").read_text().splitlines()]
    end = next(event["t"] for event in events if event.get("frame") == frame)
    (part / "events.jsonl").write_text(
        "".join(json.dumps(event) + "\n" for event in events if event["t"] < end))
    return part


@pytest.fixture(scope="module")
def opened(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    """The served table once Dan has opened: its URL and snapshot."""
    folder = tmp_path_factory.mktemp("remi-opened")
    server, snapshot, store = served(folder, cut_before(folder, OPENED_FRAME))
    try:
        yield server.url, snapshot
    finally:
        server.stop()
        store.close()


@pytest.fixture(scope="module")
def ended(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    """The served table at the round's end: its URL and snapshot."""
    server, snapshot, store = served(tmp_path_factory.mktemp("remi-ended"), SESSION)
    try:
        yield server.url, snapshot
    finally:
        server.stop()
        store.close()


def phone_page(browser: Browser, screen: dict[str, Any], url: str, language: str
               ) -> tuple[BrowserContext, Page]:
    """A phone's page (`screen`: conftest's phone_screen) of the table at `url`, in
    `language`, live."""
    context = browser.new_context(base_url=url, **screen)
    context.set_default_timeout(5000)
    page = context.new_page()
    page.goto(f"/lang/{language}")
    page.goto("/")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    return context, page


def test_the_snapshot_holds_the_row_the_melds_with_their_owners_and_the_racks(
        opened: tuple[str, dict[str, Any]]) -> None:
    _, snapshot = opened
    assert [seat["cards_in_hand"] for seat in snapshot["seats"]] == RACKS
    atu, row, *melds = snapshot["table"]
    assert atu["cards"] == ["yellow-9"] and row["cards"] == ROW
    assert [(meld["zone_texts"]["en"], meld["cards"]) for meld in melds] == [
        (f"{owner}'s meld {n}", cards) for n, (owner, cards) in enumerate(MELDS, 1)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_shows_the_row_the_melds_and_the_racks_on_a_phone(
        opened: tuple[str, dict[str, Any]], browser: Browser, phone_screen: dict[str, Any],
        language: str) -> None:
    url, snapshot = opened
    context, page = phone_page(browser, phone_screen, url, language)
    try:
        seats = page.locator("#seats li.seat")
        expect(seats.locator(".name")).to_have_text(["Ana", "Bogdan", "Carmen", "Dan"])
        expect(seats.locator(".hand")).to_have_text(
            [WORDS[language].say("seats.in_hand", count=count) for count in RACKS])
        zones = page.locator("#table li.zone")
        expect(zones.locator(".zone-name")).to_have_text(
            [zone["zone_texts"][language] for zone in snapshot["table"]])
        row = zones.nth(1)
        expect(row.locator("img.card.top")).to_have_attribute("data-code", "yellow-7")
        expect(row.locator(".under img.card")).to_have_count(6)
        for n, (owner, cards) in enumerate(MELDS, 2):
            meld = zones.nth(n)
            expect(meld.locator(".zone-name")).to_contain_text(owner)
            expect(meld.locator("img.card")).to_have_count(len(cards))
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"remi-opened-{language}.png"), full_page=True)
    finally:
        context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_shows_the_round_s_scores_on_a_phone(
        ended: tuple[str, dict[str, Any]], browser: Browser, phone_screen: dict[str, Any],
        language: str) -> None:
    url, snapshot = ended
    assert [seat["score"] for seat in snapshot["seats"]] == SCORES
    context, page = phone_page(browser, phone_screen, url, language)
    try:
        expect(page.locator("#seats li.seat .score")).to_have_text(
            [str(score) for score in SCORES])
        newest = page.locator("#verdicts > li.verdict").first  # newest first
        expect(newest).to_contain_text("Ana +155, Bogdan -60, Carmen -120, Dan +10")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"remi-scores-{language}.png"), full_page=True)
    finally:
        context.close()
