"""The page's enrolment in headless Chromium, replaying recorded enrolment sessions.

A real `TableService` with a data folder, served by waitress; the test thread feeds the
recorded frames (tests/fixtures/enrolment/uno-recoloured, first pass) to the service as
the live loop would, and a phone (390x844) logged in with the PIN lays out, checks and
confirms every layout on the page until the deck profile is written. Then a deck whose
black specials are framed unlike its other faces (vision.foreign_decks' uno-pale, rendered
by tests/conftest.py) is enrolled the same way: a layout the camera doubts is looked at
again, then kept anyway, while a Romanian and an Italian phone read the session's words
in their language (what is wrong with a frame the camera cannot use, too). Screenshots
of each step go to out/screenshots/ (gitignored).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import Error as PlaywrightError

from firmware.deck_profile import load_profile
from firmware.service import TableService
from firmware.store import MatchStore
from hardware.camera import ReplayCamera
from hardware.panel import SimulatedPanel
from vision.mat import default_mat
from webui import create_app
from webui.i18n import load_catalogues
from webui.server import serve

ROOT = Path(__file__).resolve().parents[2]
SESSION = ROOT / "tests/fixtures/enrolment/uno-recoloured"
LAYOUTS = json.loads((SESSION / "session.json").read_text())["enrolment"]["layouts"]
SHOTS = ROOT / "out/screenshots"
PIN = "731904"
WORDS = load_catalogues()["en"]
LEARNING_MS = 120_000  # the last confirmation learns the deck to find confusable faces


def visit(page: Page, path: str) -> None:
    """Go to `path`. An admin page reloads itself when the table changes (admin.js), and
    on a slow machine that reload can land while the test navigates: Chromium then says
    the navigation was interrupted by another one; the page asked is loaded again."""
    for attempt in range(3):
        try:
            page.goto(path)
            return
        except PlaywrightError as error:
            if attempt == 2 or "interrupted by another navigation" not in str(error):
                raise


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TableService, str,
                                                                         Path]]:
    folder = tmp_path_factory.mktemp("enrol-table")
    store = MatchStore.open(folder / "tableref.sqlite")
    service = TableService(store, SimulatedPanel(2), default_mat(), buttons=1,
                           data=folder / "data")
    service.set_pin(PIN)
    server = serve(create_app(service, {"SSE_KEEPALIVE_SECONDS": 0.5}), "127.0.0.1", 0)
    try:
        yield service, server.url, folder / "data"
    finally:
        server.stop()
        store.close()


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


def phone(browser: Browser, url: str, locale: str = "en-US") -> BrowserContext:
    context = browser.new_context(base_url=url, viewport={"width": 390, "height": 844},
                                  device_scale_factor=2, is_mobile=True, has_touch=True,
                                  locale=locale)
    context.set_default_timeout(10_000)
    return context


def log_in(page: Page) -> None:
    visit(page, "/admin")
    page.fill("#login-pin", PIN)
    page.click("#login-button")
    expect(page.locator("#enrol-link")).to_be_visible()


def start_enrolment(page: Page, first_shot: str | None = None) -> None:
    """Log in with the PIN, open the enrolment and start UNO's."""
    log_in(page)
    page.click("#enrol-link")
    expect(page.locator("#enrol-start-form")).to_be_visible()
    page.select_option("#enrol-start-form select[name=game]", "uno")
    if first_shot:
        shot(page, first_shot)
    page.click("#enrol-start-button")
    expect(page.locator("#notice")).to_have_text(WORDS.say("done.enrol_start"))


def lay_out(page: Page, service: TableService, camera: ReplayCamera, layout: list[str],
            number: int, layout_shot: str | None = None) -> list[np.ndarray]:
    """See the layout asked on the page, feed the camera's frames until the crops are
    cut, and see them on the page; returns the frames fed."""
    visit(page, "/admin/enrol")
    places = page.locator("#enrol-layout .enrol-place")
    expect(places).to_have_count(len(layout))
    assert places.evaluate_all("ps => ps.map(p => p.dataset.code)") == layout
    if layout_shot:
        shot(page, layout_shot)
    visit(page, "about:blank")  # the layout page looks again every 2 s: stop it
    fed = []
    while (status := service.enrolment()) and status["state"] == "laying":
        frame = camera.read()
        assert frame is not None, f"the session ended before layout {number}"
        fed.append(frame.image)
        service.on_frame(frame.image)
    visit(page, "/admin/enrol")
    crops = page.locator("#enrol-crops .enrol-crop img")
    expect(crops).to_have_count(len(layout))
    assert crops.evaluate_all("images => images.every(i => i.naturalWidth > 100)")
    return fed


def test_a_deck_is_enrolled_on_the_page_from_the_camera(
    served: tuple[TableService, str, Path], browser: Browser
) -> None:
    service, url, data = served
    context = phone(browser, url)
    try:
        page = context.new_page()
        start_enrolment(page, "enrol-start.png")
        camera = ReplayCamera(SESSION)
        for number, layout in enumerate(LAYOUTS, start=1):
            lay_out(page, service, camera, layout, number,
                    "enrol-layout.png" if number == 1 else None)
            expect(page.locator("#enrol-keep-button")).to_have_count(0)  # nothing doubted
            if number == 1:
                shot(page, "enrol-crops.png")
                # a correction that names two crops alike is refused, and nothing changes
                page.select_option('select[name="crop-2"]', layout[0])
                page.click("#enrol-confirm-button")
                named = service.enrolment()["card_texts"][layout[0]]["en"]  # "red 0"
                expect(page.locator("main")).to_contain_text(f"two crops would be {named}")
                visit(page, "/admin/enrol")
            page.click("#enrol-confirm-button", timeout=LEARNING_MS)
            expect(page.locator("#notice")).to_have_text(WORDS.say("done.enrol_answer"),
                                                         timeout=LEARNING_MS)

        expect(page.locator("#enrol-done")).to_contain_text(WORDS.say("enrol.written"))
        # the recorded deck's faces have a white margin: found by their outline in play
        expect(page.locator("#enrol-rims")).to_have_text(WORDS.say("enrol.rims_light"))
        shot(page, "enrol-done.png")
        profile = load_profile(data / "decks/uno")
        expect(page.locator("#enrol-faces")).to_have_text(
            WORDS.say("enrol.faces_dark" if profile.dark_faces else "enrol.faces_light"))
        assert set(profile.faces) == {code for layout in LAYOUTS for code in layout}
        assert abs(profile.card_mm[0] - 57) < 1.5 and abs(profile.card_mm[1] - 89) < 1.5

        # a phone without the PIN sees none of it
        other = browser.new_context(base_url=url)
        try:
            response = other.new_page().goto("/admin/enrol/crop/1")
            assert response is not None and response.status == 403
        finally:
            other.close()
    finally:
        context.close()


def test_a_layout_framed_unlike_the_others_is_kept_anyway(
    served: tuple[TableService, str, Path], browser: Browser,
    uno_pale_enrolment: Path
) -> None:
    service, url, data = served
    service.stop_enrolment()  # the other test's, if it ran
    metadata = json.loads((uno_pale_enrolment / "session.json").read_text(encoding="utf-8"))
    layouts = metadata["enrolment"]["layouts"]
    context = phone(browser, url)
    romanian, italian = phone(browser, url, "ro-RO"), phone(browser, url, "it-IT")
    try:
        page = context.new_page()
        start_enrolment(page)
        ro, it = romanian.new_page(), italian.new_page()
        for other in (ro, it):
            log_in(other)
        # a camera set to a tiny picture: the frame's trouble said in words, nothing stops
        service.on_frame(np.zeros((48, 64, 3), np.uint8))
        frame_problem_in_romanian(ro)
        camera = ReplayCamera(uno_pale_enrolment)
        doubted = []
        for number, layout in enumerate(layouts, start=1):
            fed = lay_out(page, service, camera, layout, number)
            status = service.enrolment()
            assert status is not None
            keep = page.locator("#enrol-keep-button")
            if not status["problems"]:
                expect(keep).to_have_count(0)
                page.click("#enrol-confirm-button", timeout=LEARNING_MS)
            else:
                doubted.append(status["problems"])
                english = [texts["en"] for texts in status["problem_texts"]]
                expect(page.locator("#enrol-crops .problem")).to_have_text(english)
                expect(page.locator("#enrol-crops .hint")).to_have_text(
                    WORDS.say("enrol.keep_hint"))
                expect(keep).to_have_text(WORDS.say("enrol.keep"))
                # "right" alone is refused, saying why; nothing is kept
                page.click("#enrol-confirm-button")
                expect(page.locator("main")).to_contain_text(english[0])
                assert service.enrolment()["progress"] == status["progress"]
                visit(page, "/admin/enrol")
                if len(doubted) == 1:
                    # the table looks again (the same cards here): the crops are cut anew
                    page.click("#enrol-again-button")
                    expect(page.locator("#notice")).to_have_text(WORDS.say("done.enrol_again"))
                    expect(page.locator("#enrol-layout .enrol-place")).to_have_count(len(layout))
                    visit(page, "about:blank")
                    said_in_romanian(ro, layout, status["card_texts"])
                    for image in fed:
                        service.on_frame(image)
                    visit(page, "/admin/enrol")
                    expect(page.locator("#enrol-crops .problem")).to_have_text(
                        status["problems"])
                if layout[4:7] == ["wild", "wild-draw4", "blank"]:
                    shot(page, "enrol-keep.png")
                    problem_in_romanian_and_italian(ro, it)
                page.click("#enrol-keep-button", timeout=LEARNING_MS)
            expect(page.locator("#notice")).to_have_text(WORDS.say("done.enrol_answer"),
                                                         timeout=LEARNING_MS)

        expect(page.locator("#enrol-done")).to_contain_text(WORDS.say("enrol.written"))
        assert ["cards 5, 6 and 7 are framed unlike the others (cards of another deck?)"] \
            in doubted  # the black specials, laid with the yellows
        profile = load_profile(data / "decks/uno")
        assert set(profile.faces) == {code for layout in layouts for code in layout}
        # its black specials have no light rim: the profile knows, and the page says so
        assert profile.dark_faces
        visit(ro, "/admin/enrol")
        expect(ro.locator("#enrol-faces")).to_have_text(
            "Unele fețe sunt mai închise decât covorul, fără margine deschisă: sunt căutate și "
            "sub strălucirea unei lămpi.")
        shot(ro, "enrol-done-ro.png")
    finally:
        for each in (context, romanian, italian):
            each.close()


def frame_problem_in_romanian(ro: Page) -> None:
    """What is wrong with the camera's frame, on a Romanian phone."""
    visit(ro, "/admin/enrol")
    expect(ro.locator("#enrol-message")).to_have_text(
        "imaginea camerei e prea mică pentru a vedea covorul: verificați setările camerei")
    shot(ro, "enrol-frame-ro.png")
    visit(ro, "about:blank")  # the layout page looks again every 2 s


def said_in_romanian(ro: Page, layout: list[str], card_texts: dict[str, dict[str, str]]) -> None:
    """The session's words on a Romanian phone: the cards to lay out again, named as
    the page names them in play."""
    visit(ro, "/admin/enrol")
    named = [card_texts[code]["ro"] for code in layout]
    expect(ro.locator("#enrol-message")).to_have_text("mă uit din nou: așezați "
                                                      + ", ".join(named))
    expect(ro.locator("#enrol-layout .enrol-place .code")).to_have_text(named)
    assert not set(named) & set(layout)  # the table's words, not the codes
    shot(ro, "enrol-again-ro.png")
    visit(ro, "about:blank")  # the layout page looks again every 2 s


def problem_in_romanian_and_italian(ro: Page, it: Page) -> None:
    """The black specials laid with the yellows, doubted in each phone's language; a
    plain "Right" on the Romanian phone is refused in Romanian."""
    for page, problem, name in (
        (ro, "cărțile 5, 6 și 7 au alt chenar decât celelalte (cărți din alt pachet?)", "ro"),
        (it, "le carte 5, 6 e 7 hanno una cornice diversa dalle altre (carte di un altro "
             "mazzo?)", "it"),
    ):
        visit(page, "/admin/enrol")
        expect(page.locator("#enrol-crops .problem")).to_have_text([problem])
        shot(page, f"enrol-keep-{name}.png")
    ro.click("#enrol-confirm-button")
    expect(ro.locator("main")).to_contain_text(
        "cărțile 5, 6 și 7 au alt chenar decât celelalte (cărți din alt pachet?)")
