"""The real page in headless Chromium against a replayed session (issue 5, "Done when").

One real table for the module: a `TableService` on a SQLite file, a simulated seat panel,
the mat of the recorded session, one physical button (seat 0; the page offers one to
seat 1), served for real by waitress. The test thread feeds the session's frames one at
a time, so each test decides when a move arrives while the page is open on a phone:
Debian's chromium driven by Playwright, a 390x844 touch viewport.

Each test starts its own match (the one before goes to the history), so the tests do
not depend on each other's order; only the admin PIN is set once, on the first-run page,
as on a new table. Screenshots of each step go to out/screenshots/ (gitignored).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Locator,
    Page,
    expect,
)

from firmware.service import TableService
from firmware.store import MatchStore
from hardware.camera import ReplayCamera, read_session_metadata
from hardware.panel import SimulatedPanel
from referee.games import GAMES
from referee.text import catalogue, translate
from vision.mat import MatSpec
from webui import create_app
from webui.app import DEFAULT_CONFIG
from webui.i18n import load_catalogues
from webui.server import RunningServer, serve

ROOT = Path(__file__).resolve().parents[2]
SESSION = ROOT / "tests/fixtures/deserto/two-players-daylight"
SHOTS = ROOT / "out/screenshots"
LIVE_MS = 3000  # a move must reach an open page within this (the issue asks for 1 s)
PIN = "482916"
WORDS = load_catalogues()  # the page's chrome, per language

# From the session's expected.jsonl: move 1 is Bogdan's vizier capturing a card (his
# score goes 0 -> 1); move 7 is Bogdan's brigand next to a vizier, flagged, then taken
# back by the table.
CAPTURE, CAPTURER = 1, 1
FLAGGED, FLAG_RULE = 7, "DES-NO-BRIGAND-BY-VIZIER"
FLAG_MESSAGE = "a brigand may not go next to a vizier"


class Table:
    """The table behind the page: a real service fed the recorded session step by step."""

    def __init__(self, service: TableService, store: MatchStore, url: str) -> None:
        self.service = service
        self.store = store
        self.url = url
        self.header: dict[str, Any] = read_session_metadata(SESSION)["match"]
        self._camera: ReplayCamera | None = None

    def new_match(self) -> int:
        """Start the session's match afresh (as the page would) with the camera rewound."""
        self.service.start_match(self.header)
        self._camera = ReplayCamera(SESSION)
        return int(self.snapshot()["match_id"])

    def snapshot(self) -> dict[str, Any]:
        return self.service.snapshot()

    def feed_until(self, reached: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Feed frames until the snapshot satisfies `reached`; return that snapshot.

        Only frames: the session's first button press (t=22.3 s) comes after every
        move these tests look at."""
        assert self._camera is not None, "start a match first"
        while (frame := self._camera.read()) is not None:
            self.service.on_frame(frame.image, f"frame {frame.index}", frame.t)
            snapshot = self.snapshot()
            if reached(snapshot):
                return snapshot
        raise AssertionError("the session ended before the awaited moment")

    def feed_to_move(self, index: int) -> dict[str, Any]:
        """Feed until move `index` is the latest verdict."""
        return self.feed_until(lambda s: bool(s["verdicts"]) and s["verdicts"][-1]["index"] == index
                               and len(s["verdicts"]) == index + 1)

    def score(self, seat: int) -> int:
        return int(self.snapshot()["seats"][seat]["score"])


# -- fixtures ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    """The service on a SQLite file, served on a free port of 127.0.0.1 by waitress."""
    folder = tmp_path_factory.mktemp("browser-table")
    store = MatchStore.open(folder / "tableref.sqlite")
    mat = MatSpec.from_json(read_session_metadata(SESSION)["mat"])
    service = TableService(store, SimulatedPanel(2), mat, buttons=1)
    # A short keep-alive only so that stopping the server does not wait for open streams.
    server: RunningServer = serve(create_app(service, {"SSE_KEEPALIVE_SECONDS": 0.5}),
                                  "127.0.0.1", 0)
    try:
        yield Table(service, store, server.url)
    finally:
        server.stop()
        store.close()


@pytest.fixture
def phone(browser: Browser, table: Table, phone_screen: dict[str, Any]
          ) -> Iterator[Callable[[], Page]]:
    """Open a new phone (its own cookies) on the page; all are closed after the test."""
    contexts: list[BrowserContext] = []

    def open_phone() -> Page:
        context = browser.new_context(base_url=table.url, **phone_screen)
        context.set_default_timeout(5000)
        contexts.append(context)
        return context.new_page()

    yield open_phone
    for context in contexts:
        context.close()


@pytest.fixture(scope="module")
def pin(browser: Browser, table: Table, phone_screen: dict[str, Any]) -> str:
    """The first run, on the page: no PIN yet, so /admin asks for one and sets it."""
    assert not table.service.pin_is_set()
    context = browser.new_context(base_url=table.url, **phone_screen)
    try:
        page = context.new_page()
        page.goto("/admin")
        expect(page.locator("#pin-setup-form")).to_be_visible()
        expect(page.locator("#login-form")).to_have_count(0)
        page.fill("#pin", PIN)
        page.fill("#pin-again", PIN)
        shot(page, "pin-setup.png")
        page.click("#pin-setup-button")
        expect(page.locator("#notice")).to_have_text(WORDS["en"].say("done.pin"))
        expect(page.locator("#admin-match")).to_be_visible()
        assert table.service.pin_is_set() and table.service.check_pin(PIN)
    finally:
        context.close()
    return PIN


def shot(page: Page, name: str) -> None:
    """A screenshot of the phone's viewport, named after the step."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name))


def log_in(page: Page, pin: str) -> None:
    page.goto("/admin")
    expect(page.locator("#login-form")).to_be_visible()
    page.fill("#login-pin", pin)
    page.click("#login-button")
    expect(page.locator("#notice")).to_have_text(WORDS["en"].say("done.login"))


def open_live(page: Page) -> None:
    """The live page, listening: its event stream has delivered the first snapshot."""
    page.goto("/")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")


def switch_to(page: Page, language: str) -> None:
    """Pick a language from the page's list; the page has switched once its html says so."""
    page.click(f"#languages a[data-lang={language}]")
    expect(page.locator("html")).to_have_attribute("lang", language)


def score_on(page: Page, seat: int) -> Locator:
    return page.locator(f'#seats li.seat[data-seat="{seat}"] .score')


def verdict_on(page: Page, index: int) -> Locator:
    return page.locator(f'#verdicts li.verdict[data-index="{index}"]')


# -- the tests ----------------------------------------------------------------------


def test_the_page_shows_the_seats_then_a_move_arrives_live(
    table: Table, phone: Callable[[], Page]
) -> None:
    table.new_match()
    page = phone()
    open_live(page)
    live = page.locator("#live")
    expect(live).to_have_attribute("data-status", "playing")
    expect(live).to_have_attribute("data-version", str(table.snapshot()["version"]))
    expect(page.locator("#seats li.seat")).to_have_count(2)
    for seat, name in enumerate(table.header["seats"]):
        expect(page.locator(f'#seats li.seat[data-seat="{seat}"] .name')).to_have_text(name)
        expect(score_on(page, seat)).to_have_attribute("data-score", "0")
    expect(page.locator('#seats li.seat[data-seat="0"]')).to_have_attribute("data-to-play",
                                                                             "true")
    expect(page.locator("#verdicts li.verdict")).to_have_count(0)
    shot(page, "live-start.png")

    # Without a reload: a mark left on the document must still be there after the update.
    page.evaluate("window.sameDocument = true")
    first = table.feed_to_move(0)["verdicts"][0]
    expect(verdict_on(page, 0)).to_be_visible(timeout=LIVE_MS)
    expect(verdict_on(page, 0)).to_have_attribute("data-ok", "true")
    assert first["texts"]["en"] == ""  # a plain move: said once, with nothing after it
    expect(verdict_on(page, 0).locator(".move")).to_have_text(first["description_texts"]["en"])
    expect(verdict_on(page, 0).locator(".message")).to_have_count(0)
    expect(page.locator('#seats li.seat[data-seat="1"]')).to_have_attribute("data-to-play",
                                                                             "true")
    assert page.evaluate("window.sameDocument") is True
    shot(page, "live-after-move.png")

    # A capture changes a score on the open page.
    table.feed_to_move(CAPTURE)
    assert table.score(CAPTURER) == 1
    expect(score_on(page, CAPTURER)).to_have_attribute("data-score", "1", timeout=LIVE_MS)
    expect(live).to_have_attribute("data-version", str(table.snapshot()["version"]))
    assert page.evaluate("window.sameDocument") is True
    shot(page, "live-after-capture.png")


def test_a_flagged_play_is_shown_big_with_its_rule_explanation_and_photo(
    table: Table, phone: Callable[[], Page]
) -> None:
    table.new_match()
    page = phone()
    open_live(page)
    expect(page.locator("#flag")).to_be_hidden()
    flagged = table.feed_until(lambda s: s["flagged"] is not None)["flagged"]
    assert flagged["index"] == FLAGGED and flagged["rules"] == [FLAG_RULE]

    flag = page.locator("#flag")
    expect(flag).to_be_visible(timeout=LIVE_MS)
    expect(flag).to_have_attribute("data-index", str(FLAGGED))
    # The rule by its name, its id small beside it for the rule sheet.
    rule = page.locator(f'#flag-rules .rule[data-rule="{FLAG_RULE}"]')
    expect(rule.locator(".rule-name")).to_have_text("No brigand next to a vizier")
    expect(rule.locator("small.rule-id")).to_have_text(f"({FLAG_RULE})")
    expect(page.locator("#flag-message")).to_have_text(FLAG_MESSAGE)
    expect(page.locator("#flag-seat")).to_have_text(table.header["seats"][1])
    expect(page.locator("#flag-move")).to_have_text(flagged["description_texts"]["en"])
    assert flagged["description"].startswith("puts a brigand")  # what was played
    # The turn stays with the flagged seat until the card is taken back, and the drawing
    # marks the card where it lies.
    holder = page.locator('#seats li.seat[data-seat="1"]')
    expect(holder).to_have_attribute("data-to-play", "true")
    expect(holder.locator(".turn")).to_have_text(WORDS["en"].say("seats.to_take_back"))
    expect(page.locator('#seats li.seat[data-seat="0"]')).to_have_attribute("data-to-play",
                                                                             "false")
    cell = flagged["move"]["cell"]
    expect(page.locator(f'#table li.zone[data-zone="{cell}"] img.flagged-card')).to_be_visible()
    expect(page.locator("#table img.flagged-card")).to_have_count(1)
    expect(verdict_on(page, FLAGGED)).to_have_attribute("data-ok", "false")
    # The crop of the moment it was seen actually loads, and is the stored JPEG.
    page.wait_for_function(
        "() => { const img = document.querySelector('#flag-photo');"
        " return img !== null && img.complete && img.naturalWidth > 0; }",
        timeout=LIVE_MS,
    )
    jpeg = table.service.photo(flagged["photo"])
    assert jpeg is not None
    decoded = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert decoded is not None
    height, width = decoded.shape[:2]
    size = page.eval_on_selector("#flag-photo", "img => [img.naturalWidth, img.naturalHeight]")
    assert size == [width, height]
    box = page.locator("#flag").bounding_box()
    assert box is not None and box["width"] > 300  # big: about the phone's whole width
    shot(page, "flagged.png")

    # The table takes the brigand back: the flag goes away by itself.
    table.feed_until(lambda s: s["flagged"] is None)
    expect(flag).to_be_hidden(timeout=LIVE_MS)
    expect(verdict_on(page, FLAGGED)).to_have_count(0)
    expect(holder.locator(".turn")).to_have_text(WORDS["en"].say("seats.to_play"))
    expect(page.locator("#table img.flagged-card")).to_have_count(0)


def test_undo_on_the_admin_page_takes_the_capture_off_the_live_score(
    table: Table, phone: Callable[[], Page], pin: str
) -> None:
    match_id = table.new_match()
    live = phone()
    open_live(live)
    table.feed_to_move(CAPTURE)
    expect(score_on(live, CAPTURER)).to_have_attribute("data-score", "1", timeout=LIVE_MS)
    before = int(score_on(live, CAPTURER).get_attribute("data-score") or "")

    admin = phone()
    admin.goto("/admin")
    expect(admin.locator("#login-form")).to_be_visible()
    shot(admin, "admin-login.png")
    log_in(admin, pin)
    shot(admin, "admin-panel.png")
    # Undo says which move it takes back, in words.
    expect(admin.locator("#undo-button")).to_have_text(WORDS["en"].say(
        "admin.undo_move", index=CAPTURE + 1, who=table.header["seats"][CAPTURER],
        move=table.snapshot()["verdicts"][-1]["description_texts"]["en"]))
    admin.click("#undo-button")
    expect(admin.locator("#notice")).to_have_text(WORDS["en"].say("done.undo"))

    expect(score_on(live, CAPTURER)).to_have_attribute("data-score", "0", timeout=LIVE_MS)
    after = int(score_on(live, CAPTURER).get_attribute("data-score") or "")
    assert (before, after) == (1, 0)
    expect(verdict_on(live, CAPTURE)).to_have_count(0)
    expect(verdict_on(live, CAPTURE - 1)).to_be_visible()
    assert table.score(CAPTURER) == 0
    assert len(table.store.logged_moves(match_id)) == CAPTURE
    assert table.store.events(match_id)[-1]["action"] == "undo"
    expect(admin.locator(f'#admin-status li.seat[data-seat="{CAPTURER}"] .score')).to_have_text(
        "0")
    shot(live, "after-undo.png")


def test_accepting_a_flagged_play_on_the_admin_page_takes_it_off_the_live_page(
    table: Table, phone: Callable[[], Page], pin: str
) -> None:
    match_id = table.new_match()
    live = phone()
    open_live(live)
    table.feed_until(lambda s: s["flagged"] is not None)
    expect(live.locator("#flag")).to_be_visible(timeout=LIVE_MS)

    admin = phone()
    log_in(admin, pin)
    expect(admin.locator("#admin-flag")).to_have_attribute("data-index", str(FLAGGED))
    admin.click("#accept-button")
    expect(admin.locator("#notice")).to_have_text(WORDS["en"].say("done.accept"))
    expect(admin.locator("#admin-flag")).to_have_count(0)

    expect(live.locator("#flag")).to_be_hidden(timeout=LIVE_MS)
    expect(verdict_on(live, FLAGGED)).to_have_class(re.compile(r"\baccepted\b"))
    expect(verdict_on(live, FLAGGED).locator(".tag")).to_have_text(
        WORDS["en"].say("verdicts.accepted"))
    assert table.snapshot()["flagged"] is None
    assert [m.accepted for m in table.store.logged_moves(match_id)][FLAGGED] is True
    shot(live, "after-accept.png")


def test_a_wrong_pin_is_refused_on_the_page_and_changes_nothing(
    table: Table, phone: Callable[[], Page], pin: str
) -> None:
    match_id = table.new_match()
    table.feed_to_move(0)
    version = table.snapshot()["version"]
    events = table.store.events(match_id)
    wrong = "0" * len(pin)
    assert wrong != pin

    page = phone()
    page.goto("/admin")
    page.fill("#login-pin", wrong)
    with page.expect_response(lambda r: r.url.endswith("/admin/login")) as answer:
        page.click("#login-button")
    assert answer.value.status == 403
    message = WORDS["en"].say("error.pin_wrong", left=int(DEFAULT_CONFIG["PIN_TRIES"]) - 1)
    expect(page.locator("#error-message")).to_have_text(message)
    expect(page.locator("#error")).to_have_attribute("data-status", "403")
    shot(page, "wrong-pin.png")

    # Not logged in: the admin page still asks for the PIN, and nothing else changed.
    page.goto("/admin")
    expect(page.locator("#login-form")).to_be_visible()
    expect(page.locator("#undo-button")).to_have_count(0)
    assert table.snapshot()["version"] == version
    assert table.store.events(match_id) == events
    assert table.service.check_pin(pin)
    # The right PIN still works afterwards (and clears the failure count for the others).
    log_in(page, pin)



def test_the_page_and_the_flagged_explanation_switch_to_romanian(
    table: Table, phone: Callable[[], Page]
) -> None:
    table.new_match()
    flagged = table.feed_until(lambda s: s["flagged"] is not None)["flagged"]
    pipeline = table.service.pipeline
    assert pipeline is not None
    romanian = translate(pipeline.match.rulings[FLAGGED].verdict.message, catalogue("ro"))
    assert flagged["texts"]["ro"] == romanian != flagged["texts"]["en"] == FLAG_MESSAGE

    page = phone()
    open_live(page)
    expect(page.locator("#flag-message")).to_have_text(FLAG_MESSAGE)
    switch_to(page, "ro")
    ro = WORDS["ro"]
    expect(page.locator("#languages a[data-lang=ro]")).to_have_attribute("aria-current", "true")
    expect(page.locator("#players h2")).to_have_text(ro.say("seats.title"))
    expect(page.locator("#moves h2")).to_have_text(ro.say("verdicts.title"))
    expect(page.locator("#flag h2")).to_have_text(ro.say("flag.title"))
    expect(page.locator("#status")).to_have_text(ro.say("status.playing"))
    expect(page.locator("#nav-history")).to_have_text(ro.say("nav.history"))
    expect(page.locator("#flag-message")).to_have_text(romanian)
    expect(verdict_on(page, FLAGGED).locator(".message")).to_have_text(romanian)
    shot(page, "romanian.png")

    # Still Romanian after a live update (the fragment is rendered in the reader's language).
    taken_back = table.feed_until(lambda s: s["flagged"] is None)
    expect(page.locator("#live")).to_have_attribute("data-version", str(taken_back["version"]),
                                                    timeout=LIVE_MS)
    expect(page.locator("#players h2")).to_have_text(ro.say("seats.title"))


def test_an_ended_match_is_in_the_history_with_a_move_by_move_replay(
    table: Table, phone: Callable[[], Page], pin: str
) -> None:
    match_id = table.new_match()
    table.feed_to_move(4)  # three captures: Ana 1, Bogdan 2
    scores = [table.score(0), table.score(1)]
    assert scores == [1, 2]

    admin = phone()
    log_in(admin, pin)
    admin.click("#end-button")  # asks first
    expect(admin.locator("#end-confirm h1")).to_have_text(WORDS["en"].say(
        "admin.end_confirm_title"))
    assert table.snapshot()["status"] == "playing"
    admin.click("#end-yes")
    expect(admin.locator("#notice")).to_have_text(WORDS["en"].say("done.end"))
    assert table.snapshot()["status"] == "waiting"

    admin.click("#nav-history")
    listed = admin.locator(f'#match-list li.match[data-match-id="{match_id}"]')
    expect(listed).to_be_visible()
    for seat, name in enumerate(table.header["seats"]):
        listed_seat = listed.locator(f'.match-seats li[data-seat="{seat}"]')
        expect(listed_seat.locator(".name")).to_have_text(name)
        expect(listed_seat.locator(".score")).to_have_text(str(scores[seat]))
    [deserto] = [group for group in table.service.tally() if group["game"] == "deserto"]
    for row in deserto["players"]:
        tallied = admin.locator(
            f'.tally-table[data-game="deserto"] tr[data-player="{row["name"]}"]')
        expect(tallied.locator(".matches")).to_have_text(str(row["matches"]))
        expect(tallied.locator(".points")).to_have_text(str(row["points"]))
    shot(admin, "history.png")

    record = table.service.match_record(match_id)
    assert len(record["moves"]) == 5
    listed.locator("a.match-link").click()
    expect(admin).to_have_url(re.compile(rf"/history/{match_id}$"))
    for step, move in enumerate(record["moves"], start=1):
        expect(admin.locator("#replay-step")).to_have_attribute("data-step", str(step))
        expect(admin.locator("#step-counter")).to_have_text(
            WORDS["en"].say("replay.step", step=step, total=len(record["moves"])))
        for seat in (0, 1):
            expect(admin.locator(f'#step-scores li[data-seat="{seat}"] .score')).to_have_text(
                str(move["scores"][str(seat)]))
        if step == 2:  # the capture, said once
            expect(admin.locator("#step-move")).to_have_text("Bogdan puts a vizier on NE")
            expect(admin.locator("#step-verdict .message")).to_have_text("and captures 1 card")
            shot(admin, "replay.png")
        if step < len(record["moves"]):
            admin.click("#step-next")
    expect(admin.locator("#step-next")).to_have_attribute("aria-disabled", "true")
    listed_capture = admin.locator('#move-list li.verdict[data-index="1"] a')
    expect(listed_capture).to_have_text(re.compile(
        r"#2\s+Bogdan\s+puts a vizier on NE\s+and captures 1 card\s*$"))


def test_a_seat_without_a_button_presses_it_on_the_phone(
    table: Table, phone: Callable[[], Page]
) -> None:
    table.new_match()
    table.feed_to_move(0)  # Ana played; Bogdan (seat 1, no physical button) is to play
    page = phone()
    open_live(page)
    # Any phone could press any seat: it first says which seat it is ("This is me").
    expect(page.locator("form[data-seat-buttons]")).to_have_count(0)
    page.click('button[data-claim="1"]')
    expect(page.locator("#notice")).to_have_text(WORDS["en"].say("done.claimed"))
    expect(page.locator('button[data-claim="1"]')).to_have_text(WORDS["en"].say("seats.not_me"))
    expect(page.locator("form[data-seat-buttons]")).to_have_count(1)
    buttons = page.locator('form[data-seat-buttons="1"]')
    # Bogdan is to play: a hold says it is stuck; a press means nothing in Deserto, and a
    # double press takes back one's own last move (Ana made it).
    expect(buttons.locator("button")).to_have_count(1)
    expect(buttons.locator('button[data-kind="hold"]')).to_have_text(
        WORDS["en"].say("button.deserto.hold"))
    shot(page, "seat-buttons.png")

    buttons.locator('button[data-kind="hold"]').click()  # held: "I am stuck"
    expect(page.locator("#press-result")).to_have_text(WORDS["en"].say("done.press"))
    held = verdict_on(page, 1)
    expect(held).to_be_visible(timeout=LIVE_MS)
    [_, ruling] = table.snapshot()["verdicts"]
    assert ruling["seat"] == 1 and ruling["move"]["move"] == "stuck"
    expect(held.locator(".who")).to_have_text(table.header["seats"][1])
    expect(held.locator(".move")).to_have_text(ruling["description"])  # the game's words
    assert "cannot play" in ruling["description"]
    expect(held).to_have_attribute("data-ok", json.dumps(ruling["ok"]))
    shot(page, "seat-press.png")

    # Names in sentences: the players by name, in English and in Romanian.
    expect(held.locator(".message")).to_have_text("(Ana)")
    assert " ".join(held.locator(".who, .move, .message").all_inner_texts()) == (
        "Bogdan cannot play and gives a card to the previous player (Ana)")
    switch_to(page, "ro")
    expect(verdict_on(page, 1).locator(".move")).to_have_text(
        "nu poate pune nicio carte și îi dă o carte jucătorului dinainte")
    expect(verdict_on(page, 1).locator(".message")).to_have_text("(Ana)")
    # The claim holds in Romanian too: this phone is still Bogdan.
    expect(page.locator('button[data-claim="1"]')).to_have_text(WORDS["ro"].say("seats.not_me"))
    expect(page.locator("form[data-seat-buttons]")).to_have_count(1)
    shot(page, "names-in-sentences-ro.png")


# -- issue 15: the page speaks the table's language -----------------------------------


@pytest.mark.parametrize("language", ["en", "ro"])
def test_a_flagged_play_holds_the_turn_in_both_languages(
    table: Table, phone: Callable[[], Page], language: str
) -> None:
    table.new_match()
    page = phone()
    open_live(page)
    if language != "en":
        switch_to(page, language)
    flagged = table.feed_until(lambda s: s["flagged"] is not None)["flagged"]
    words = WORDS[language]
    holder = page.locator(f'#seats li.seat[data-seat="{flagged["seat"]}"]')
    expect(holder.locator(".turn")).to_have_text(words.say("seats.to_take_back"),
                                                 timeout=LIVE_MS)
    expect(page.locator("#flag-seat")).to_have_text(table.header["seats"][flagged["seat"]])
    expect(page.locator("#flag-message")).to_have_text(flagged["texts"][language])
    named = translate(GAMES["deserto"]().rule_name(FLAG_RULE), catalogue(language))
    expect(page.locator("#flag-rules .rule-name")).to_have_text(named)
    expect(page.locator("#table .flagged-mark")).to_have_text(words.say("table.flagged_card"))
    page.locator("#flag").scroll_into_view_if_needed()
    shot(page, f"flag-holds-turn-{language}.png")
    table.feed_until(lambda s: s["flagged"] is None)
    expect(holder.locator(".turn")).to_have_text(words.say("seats.to_play"), timeout=LIVE_MS)


@pytest.mark.parametrize("language", ["en", "ro"])
def test_each_move_is_said_once_as_a_player_says_it(
    table: Table, phone: Callable[[], Page], language: str
) -> None:
    """The move, then only what the verdict adds: "Bogdan puts a vizier on NE and
    captures 1 card", never the move again after it, nor "card(s)"."""
    table.new_match()
    page = phone()
    open_live(page)
    if language != "en":
        switch_to(page, language)
    table.feed_to_move(CAPTURE)
    capture = verdict_on(page, CAPTURE)
    expect(capture).to_be_visible(timeout=LIVE_MS)
    said = " ".join(capture.locator(".who, .move, .message").all_inner_texts())
    assert said == {"en": "Bogdan puts a vizier on NE and captures 1 card",
                    "ro": "Bogdan pune un vizir pe NE și capturează 1 carte"}[language]
    plain = verdict_on(page, 0)
    expect(plain.locator(".message")).to_have_count(0)  # the move says it all
    expect(plain.locator(".move")).to_have_text(
        {"en": "puts a brigand on SE", "ro": "pune un hoț pe SE"}[language])
    moves = page.locator("#verdicts").inner_text()
    assert "(s)" not in moves and "/" not in moves
    shot(page, f"moves-said-once-{language}.png")


@pytest.mark.parametrize("language", ["en", "ro"])
def test_the_offline_banner_shows_when_the_table_is_gone_and_goes_when_it_is_back(
    table: Table, phone: Callable[[], Page], language: str
) -> None:
    """A server of its own, stopped under the open page, then started again."""
    table.new_match()
    table.feed_to_move(0)
    app = create_app(table.service, {"SSE_KEEPALIVE_SECONDS": 0.5,
                                     "SSE_RETRY_MILLISECONDS": 300})
    server = serve(app, "127.0.0.1", 0)
    port = server.port
    page = phone()
    page.goto(f"{server.url}/lang/{language}?next=/")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    banner = page.locator("#offline-banner")
    expect(banner).to_be_hidden()
    server.stop()
    expect(banner).to_be_visible(timeout=LIVE_MS)
    expect(banner).to_have_text(WORDS[language].say("live.offline_banner"))
    expect(page.locator("body")).to_have_class(re.compile(r"\boffline\b"))
    turn = page.locator("#seats li.to-play .turn")
    assert float(turn.evaluate("e => getComputedStyle(e).opacity")) < 0.6  # greyed out
    shot(page, f"offline-{language}.png")
    again = serve(app, "127.0.0.1", port)
    try:
        expect(banner).to_be_hidden(timeout=10_000)
        expect(page.locator("body")).not_to_have_class(re.compile(r"\boffline\b"))
    finally:
        again.stop()


@pytest.mark.parametrize("language", ["en", "ro"])
def test_the_new_match_form_speaks_the_page_s_language(
    table: Table, phone: Callable[[], Page], pin: str, language: str
) -> None:
    admin = phone()
    log_in(admin, pin)
    words = WORDS[language]
    admin.goto(f"/lang/{language}?next=/admin/new?game=uno")
    expect(admin.locator("#start-form")).to_be_visible()
    # The options in words, their choices named: no raw value, no rule id, no [INF].
    zero = admin.locator("#option-zero")
    expect(zero.locator("legend")).to_have_text(words.say("option.uno.zero"))
    expect(zero.locator("label:has(input:checked) .choice-text")).to_have_text(
        words.say("option.uno.zero.pass_all"))
    form = admin.locator("#start-form").inner_text()
    for raw in ("pass_all", "draw_pile", "play_on", "[INF", "UNO-", "the seed"):
        assert raw not in form
    expect(admin.locator('label[for="first"]')).to_have_text(words.say("new.first.uno"))
    # Seats as needed: the two UNO needs, and one more as soon as a name is typed.
    visible = admin.locator("#seat-names input.seat-name:visible")
    expect(visible).to_have_count(3)
    admin.fill("#seat-name-0", "Ana")
    admin.fill("#seat-name-1", "Bogdan")
    admin.fill("#seat-name-2", "Chiara")
    expect(visible).to_have_count(4)
    expect(admin.locator('#first option[value="2"]')).to_have_text("Chiara")
    shot(admin, f"new-match-{language}.png")
    admin.click("#options-box summary")  # folded until asked for: a short form
    admin.locator("#options").scroll_into_view_if_needed()
    shot(admin, f"new-match-options-{language}.png")


#: In the browser: every text of the new-match form that reaches past the form's right
#: edge or past the viewport, or is cut inside its box (a closed select cuts its choice).
OVERFLOWING = """() => {
  const width = document.documentElement.clientWidth;
  const form = document.querySelector('#start-form').getBoundingClientRect();
  const texts = document.querySelectorAll(
    '#start-form legend, #start-form label, #start-form .choice-text, #start-form select,'
    + ' #start-form summary, #start-form button');
  return Array.from(texts).filter(el => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && (box.right > Math.min(width, form.right) + 0.5
                             || el.scrollWidth > el.clientWidth + 1);
  }).map(el => el.textContent.trim().slice(0, 60));
}"""


@pytest.mark.parametrize("language", ["en", "ro", "it", "es", "pt"])
def test_no_choice_of_the_new_match_form_is_cut_off_at_360_px(
    table: Table, phone: Callable[[], Page], pin: str, language: str
) -> None:
    admin = phone()
    admin.set_viewport_size({"width": 360, "height": 740})
    log_in(admin, pin)
    admin.goto(f"/lang/{language}?next=/admin/new")
    for game in sorted(GAMES):
        admin.goto(f"/admin/new?game={game}")
        admin.click("#options-box summary")
        for group in admin.locator("#options details.option-group summary").all():
            group.click()
        choices = admin.locator("#options .choice-text")
        assert choices.count() > 0
        assert admin.evaluate(OVERFLOWING) == [], game
        assert admin.evaluate("document.documentElement.scrollWidth") <= 360, game
        if game == "uno":
            admin.locator('[data-option="turned_up_reverse"]').scroll_into_view_if_needed()
            shot(admin, f"new-match-options-360-{language}.png")


@pytest.mark.parametrize("language", ["en", "ro"])
def test_ending_a_match_asks_first_and_can_be_called_off(
    table: Table, phone: Callable[[], Page], pin: str, language: str
) -> None:
    table.new_match()
    table.feed_to_move(CAPTURE)
    admin = phone()
    log_in(admin, pin)
    words = WORDS[language]
    admin.goto(f"/lang/{language}?next=/admin")
    end = admin.locator("#admin-end")
    # Apart from Undo: its own section, after the corrections.
    undo_box = admin.locator("#undo-button").bounding_box()
    end_box = end.bounding_box()
    assert undo_box is not None and end_box is not None
    assert end_box["y"] - (undo_box["y"] + undo_box["height"]) > 150
    admin.click("#end-button")
    expect(admin.locator("#end-confirm h1")).to_have_text(words.say("admin.end_confirm_title"))
    expect(admin.locator("#end-confirm-text")).to_contain_text(
        f"{table.header['seats'][CAPTURER]} 1")
    shot(admin, f"end-confirm-{language}.png")
    admin.click("#end-cancel")  # called off: nothing ended
    expect(admin.locator("#admin-end")).to_be_visible()
    assert table.snapshot()["status"] == "playing"
    admin.click("#end-button")
    admin.click("#end-yes")
    expect(admin.locator("#notice")).to_have_text(words.say("done.end"))
    assert table.snapshot()["status"] == "waiting"
    expect(admin.locator("#admin-end")).to_have_count(0)  # nothing left to end
