"""`tableref doctor`: checks a table's hardware one part at a time and says what to fix.

The camera (a frame, the mat's four tags, focus and exposure measured on the mat, and
one card of the enrolled deck named when laid on the mat), each seat LED lit in turn,
each seat's button pressed when asked, the buzzer, the data folder, and the page on
the LAN address. Run it with the service stopped (it needs the
camera and the pins to itself):

    sudo systemctl stop tableref
    sudo -u tableref /opt/tableref/venv/bin/tableref doctor --config /etc/tableref/tableref.toml
"""

from __future__ import annotations

import os
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import cv2
import numpy as np

from firmware.commands import open_camera, seat_panel, serve_page
from firmware.config import TableConfig
from firmware.deck_profile import PROFILE_FILE, profile_folder
from firmware.enrollment import BACK, build_reader
from firmware.network import lan_address
from firmware.service import TableService
from firmware.store import MatchStore
from hardware.camera import Camera, CameraError, Frame, Image
from hardware.panel import Panel, PinsError, SimulatedPanel
from referee.games import GAMES, get_game
from vision.calibration import Calibration, VisionError, calibrate
from vision.mat import MatSpec, TagPlacement, default_mat
from vision.table_reader import SeenCard, TableReader

#: Edge sharpness on the mat tags (steepest gradient per unit of contrast): the recorded
#: sessions measure 0.71-0.79, a lens blur of 1 px 0.54-0.57 (still read), of 1.5 px 0.44-0.47.
MIN_SHARPNESS = 0.5
#: Mean grey level of the mat: the dim recorded sessions, refereed fine, measure about 33.
MIN_BRIGHTNESS = 20.0
#: Share of the mat's pixels blown out to white.
MAX_CLIPPED = 0.02
CAMERA_TRIES = 50
#: Frames read before the one measured: a Pi camera's auto exposure needs about a second.
SETTLE_FRAMES = 30
LED_SECONDS = 0.6
#: Seconds to wait for a card laid on the mat to be named.
CARD_SECONDS = 20.0


@dataclass(frozen=True)
class Check:
    """One line of the report: what was checked, how it went, and what to do if not."""

    name: str
    ok: bool
    detail: str
    fix: str = ""

    def line(self) -> str:
        verdict = "ok  " if self.ok else "FAIL"
        return f"{verdict} {self.name}: {self.detail}" + (f"; fix: {self.fix}" if self.fix else "")


@dataclass(frozen=True)
class Doctor:
    """What the checks use; every part is replaceable, so the checks run on mock pins, a
    replayed camera and a simulated finger in the tests."""

    config: TableConfig
    mat: MatSpec
    open_camera: Callable[[], Camera]
    open_panel: Callable[[], Panel]
    seats: int
    out: TextIO
    button_timeout: float = 15.0
    ask: Callable[[int], None] | None = None  # called when seat N's press is awaited
    page_url: Callable[[], str] | None = None
    serve_page: Callable[[], Callable[[], None]] | None = None  # starts it, returns stop
    sleep: Callable[[float], None] = time.sleep
    clock: Callable[[], float] = time.monotonic
    deck: str | None = None  # the deck a card of is named; None: none enrolled or given
    card_reader: Callable[[], TableReader] | None = None  # a reader that knows `deck`
    show_card: Callable[[], None] | None = None  # called when a card is asked for
    card_timeout: float = CARD_SECONDS

    def run(self) -> int:
        """Run every check, print each as it is known; 0 if all passed, else 1."""
        checks = [*self.camera_checks(), *self.panel_checks(), self.data_check(),
                  self.page_check()]
        failed = [check for check in checks if not check.ok]
        self.say(f"{len(checks) - len(failed)} of {len(checks)} checks passed" +
                 ("" if not failed else ": fix the FAIL lines above, then run doctor again"))
        return 1 if failed else 0

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def report(self, check: Check) -> Check:
        self.say(check.line())
        return check

    # -- the camera ---------------------------------------------------------------

    def camera_checks(self) -> list[Check]:
        try:
            with self.open_camera() as camera:
                return self.checks_on(camera)
        except CameraError as error:
            return [self.report(Check("camera", False, str(error),
                                      "stop the service first (sudo systemctl stop tableref)"
                                      " if it runs, else check the camera's cable"))]

    def checks_on(self, camera: Camera) -> list[Check]:
        frame = first_frame(camera)
        if frame is None:
            return [self.report(Check("camera", False, "no frame delivered",
                                      "check the camera's cable, or the video file"))]
        height, width = frame.image.shape[:2]
        full = "" if frame.full is None else f" (and {frame.full.shape[1]}x" \
                                              f"{frame.full.shape[0]} for naming cards)"
        checks = [self.report(Check("camera", True, f"a {width}x{height} frame{full}"))]
        try:
            cal = calibrate(frame.image, self.mat)
        except VisionError as error:
            return [*checks, self.report(Check(
                "mat tags", False, str(error),
                "put the whole mat in view, flat, lit evenly, no hand over a corner"))]
        seen = len(cal.tags_seen)
        tags = len(self.mat.tags)
        checks.append(self.report(Check(
            "mat tags", seen == tags, f"{seen} of the {tags} tags found",
            "" if seen == tags else "move the camera or the mat so all four corners show")))
        sharpness = tag_sharpness(frame.image, cal, self.mat.tags)
        checks.append(self.report(Check(
            "focus", sharpness >= MIN_SHARPNESS,
            f"sharpness {sharpness:.2f} on the tags (at least {MIN_SHARPNESS} needed)",
            "" if sharpness >= MIN_SHARPNESS else
            "focus the lens (Camera Module 3: keep autofocus on, or set LensPosition), "
            "clean it, or lower the camera")))
        brightness, clipped = mat_exposure(frame.image, cal, self.mat)
        exposure_ok = brightness >= MIN_BRIGHTNESS and clipped <= MAX_CLIPPED
        fix = ""
        if brightness < MIN_BRIGHTNESS:
            fix = "more light on the table"
        elif clipped > MAX_CLIPPED:
            fix = "move the lamp: a glare spot or too much light washes the mat out"
        checks.append(self.report(Check(
            "exposure", exposure_ok,
            f"mat brightness {brightness:.0f} of 255 (at least {MIN_BRIGHTNESS:.0f}), "
            f"{clipped:.1%} blown out (at most {MAX_CLIPPED:.0%})", fix)))
        checks.append(self.report(self.card_check(camera, sharpness)))
        return checks

    def card_check(self, camera: Camera, sharpness: float) -> Check:
        """Whether focus and light are good enough to name a card of the deck: one laid
        face up on the mat (or one already there) named within `card_timeout`."""
        if self.deck is None or self.card_reader is None:
            return Check("card", False, "no deck to name a card of",
                         "enrol the table's deck (tableref enrol --game GAME), or run "
                         "doctor --game GAME for our print-and-play deck")
        self.say(f"     lay one card of the {self.deck} deck face up on the mat "
                 f"(within {self.card_timeout:g} s)")
        if self.show_card is not None:
            self.show_card()
        reader = self.card_reader()
        focus = f"sharpness {sharpness:.2f} on the tags"
        best: SeenCard | None = None  # the likeliest card not named (a back, an unknown)
        deadline = self.clock() + self.card_timeout
        while self.clock() < deadline:
            frame = camera.read()
            if frame is None:
                break  # a replay or a video ended
            try:
                cards = reader.read(frame.image, full=frame.full).cards
            except VisionError:
                continue  # a hand over the tags while the card is laid down
            named = [card for card in cards if card.code not in (None, BACK)]
            if named:
                card = max(named, key=lambda seen: seen.confidence)
                return Check("card", True, f"named {card.code} (confidence "
                             f"{card.confidence:.2f}); {focus}")
            # a face not named tells more than a back
            best = max([*cards, *([best] if best else [])],
                       key=lambda seen: (seen.code != BACK, seen.confidence), default=None)
        if best is None:
            return Check("card", False, f"no card seen on the mat in {self.card_timeout:g} s; "
                         f"{focus}", "lay one card face up in the middle of the mat, no "
                         "hand over it")
        if best.code == BACK:
            return Check("card", False, f"only the back of a card seen; {focus}",
                         "turn the card face up")
        return Check("card", False, f"a card was seen but not named (confidence "
                     f"{best.confidence:.2f} at best); {focus}",
                     "focus the lens and light the mat evenly (no glare on the card); if "
                     "the card is of your own deck, enrol it again under this light "
                     "(tableref enrol)")

    # -- LEDs, buttons, buzzer ----------------------------------------------------

    def panel_checks(self) -> list[Check]:
        try:
            panel = self.open_panel()
        except (PinsError, ValueError) as error:
            return [self.report(Check("seat panel", False, str(error),
                                      "see hardware/WIRING.md and the pins in the config"))]
        checks = []
        with panel:
            for seat in range(self.seats):
                panel.show_turn(seat)
                self.say(f"     seat {seat + 1}'s LED is lit: look")
                self.sleep(LED_SECONDS)
            panel.show_turn(None)
            checks.append(self.report(Check(
                "LEDs", True, f"lit seats 1 to {self.seats} in turn",
                "if one stayed dark: its resistor, or the LED the wrong way round "
                "(long leg to the resistor)")))
            for seat in range(self.seats):
                checks.append(self.report(self.button_check(panel, seat)))
            panel.alarm()
            self.sleep(LED_SECONDS)
            panel.status_ok()
            checks.append(self.report(Check(
                "buzzer", True, "beeped three times, status LED blinked",
                "if silent: an active buzzer, + to GPIO " f"{self.config.buzzer_pin}")))
        return checks

    def button_check(self, panel: Panel, seat: int) -> Check:
        name = f"seat {seat + 1} button"
        panel.events()  # forget presses made before the question
        self.say(f"     press seat {seat + 1}'s button (within {self.button_timeout:g} s)")
        if self.ask is not None:
            self.ask(seat)
        deadline = self.clock() + self.button_timeout
        while self.clock() < deadline:
            panel.poll()
            for event in panel.events():
                if event.seat == seat:
                    return Check(name, True, f"a {event.kind} came in")
                return Check(name, False, f"seat {event.seat + 1}'s button answered",
                             "two buttons' wires are swapped: see hardware/WIRING.md")
            self.sleep(0.02)
        button_pin = self.config.seat_pins[seat][0]
        return Check(name, False, f"no press in {self.button_timeout:g} s",
                     f"the button goes from GPIO {button_pin} to GND, nothing else")

    # -- data and page ------------------------------------------------------------

    def data_check(self) -> Check:
        folder = self.config.data
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-") as probe:
                probe.write(b"tableref")
                probe.flush()
                os.fsync(probe.fileno())
        except OSError as error:
            return self.report(Check(
                "data folder", False, f"{folder} is not writable ({error.strerror})",
                f"run as the service's user, or chown it: sudo chown tableref {folder}"))
        return self.report(Check("data folder", True, f"{folder} is writable"))

    def page_check(self) -> Check:
        url = self.page_url() if self.page_url is not None else ""
        if ".local" in url:
            return self.report(Check(
                "page", False, "the Pi has no network address",
                "join the room's Wi-Fi (sudo nmtui), or install with --hotspot"))
        stop = None
        try:
            if not answers(url) and self.serve_page is not None:
                stop = self.serve_page()  # the service is stopped: serve the page here
            ok = answers(url)
        finally:
            if stop is not None:
                stop()
        return self.report(Check(
            "page", ok, f"{url} {'answers' if ok else 'does not answer'}",
            "" if ok else f"let port {self.config.port} through the firewall, or check "
            "host in the config"))


def first_frame(
    camera: Camera, settle: int = SETTLE_FRAMES, tries: int = CAMERA_TRIES
) -> Frame | None:
    """The `settle`-th frame a camera delivers, or its last if it ends sooner (a live
    camera may need a moment for its first one)."""
    last = None
    delivered = 0
    for _ in range(tries + settle):
        frame = camera.read()
        if frame is None:
            if last is not None:
                return last  # a replay or a video ended
            time.sleep(0.05)
            continue
        last, delivered = frame, delivered + 1
        if delivered >= settle:
            break
    return last


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "healthz", timeout=3) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def tag_sharpness(image: Image, cal: Calibration, tags: tuple[TagPlacement, ...]) -> float:
    """The softest tag's edge sharpness: its steepest gradients (99th percentile, Sobel)
    over its contrast; about 1 / (blur in px * 2.5), whatever the tag's size."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    values = []
    for tag in tags:
        if tag.tag_id not in cal.tags_seen:
            continue
        (cx, cy), half = tag.center_mm, tag.size_mm / 2
        quad = cal.mat_to_image([[cx - half, cy - half], [cx + half, cy - half],
                                 [cx + half, cy + half], [cx - half, cy + half]])
        x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int), 0)
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int)
        patch = grey[y0:y1, x0:x1]
        if patch.size == 0:
            continue
        gradient = np.hypot(cv2.Sobel(patch, cv2.CV_32F, 1, 0), cv2.Sobel(patch, cv2.CV_32F, 0, 1))
        contrast = float(np.percentile(patch, 95) - np.percentile(patch, 5))
        values.append(float(np.percentile(gradient, 99)) / (4 * contrast + 1e-6))
    return min(values, default=0.0)


def mat_exposure(image: Image, cal: Calibration, mat: MatSpec) -> tuple[float, float]:
    """The mat's mean grey level and the share of its pixels at 250 or more."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    corners = cal.mat_to_image(np.array([[0.0, 0.0], [mat.width_mm, 0.0],
                                         [mat.width_mm, mat.height_mm], [0.0, mat.height_mm]]))
    mask = np.zeros(grey.shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 255)
    values = grey[mask > 0]
    if values.size == 0:
        return 0.0, 0.0
    return float(values.mean()), float((values >= 250).mean())


def checked_game(config: TableConfig, game: str | None) -> str | None:
    """The game a card of is named: `game`, else the first with an enrolled deck profile."""
    if game is not None:
        return game
    enrolled = [name for name in sorted(GAMES) if
                (profile_folder(config.data, get_game(name).deck.name) / PROFILE_FILE).is_file()]
    return enrolled[0] if enrolled else None


def doctor(config: TableConfig, seats: int | None, button_timeout: float, out: TextIO,
           game: str | None = None) -> int:
    """`tableref doctor` on this machine's camera, pins and network; a card of `game`'s
    deck (default: the enrolled one) named."""
    count = min(seats or len(config.seat_pins), len(config.seat_pins))
    named = checked_game(config, game)
    deck = get_game(named).deck if named is not None else None

    def page_url() -> str:
        return f"http://{lan_address()}:{config.port}/"

    def serve() -> Callable[[], None]:
        """The page on a throw-away log, for as long as the check takes."""
        folder = tempfile.TemporaryDirectory(prefix="tableref-doctor-")
        store = MatchStore.open(Path(folder.name) / "tableref.sqlite")
        server = serve_page(TableService(store, SimulatedPanel(2), default_mat(), 0), config)

        def stop() -> None:
            server.stop()
            store.close()
            folder.cleanup()

        return stop

    return Doctor(
        config, default_mat(), lambda: open_camera(config.camera),
        lambda: seat_panel(config.pin_map, config.pins, count), count, out,
        button_timeout=button_timeout, page_url=page_url, serve_page=serve,
        deck=None if deck is None else deck.name,
        card_reader=None if deck is None else lambda: build_reader(
            deck, default_mat(), config.deck_photos, config.data),
    ).run()
