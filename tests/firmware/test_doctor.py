"""`tableref doctor` on gpiozero's mock pins and a replayed camera, with the button
presses made by a simulated finger when the doctor asks for them."""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from firmware.config import TableConfig
from firmware.deck_profile import PROFILE_FILE, profile_folder
from firmware.doctor import Doctor, checked_game, tag_sharpness
from firmware.enrollment import build_reader
from hardware.camera import Camera, Frame, ReplayCamera
from hardware.panel import DEFAULT_PIN_MAP, Panel, PinsError, SeatPanel
from referee.games import get_game
from vision.calibration import calibrate
from vision.mat import default_mat

SESSION = Path(__file__).resolve().parents[1] / "fixtures/deserto/two-players-daylight"
SEATS = 3


class OneImage(Camera):
    """A camera that shows one picture, forever."""

    def __init__(self, image: np.ndarray) -> None:
        self.image = image

    def read(self) -> Frame | None:
        return Frame(self.image, t=0.0, index=0)

    def close(self) -> None:
        """Nothing to release."""


def finger(factory: MockFactory, pressed: Callable[[int], int] = lambda seat: seat
           ) -> Callable[[int], None]:
    """Presses the button of `pressed(seat)` when the doctor asks for `seat`'s."""

    def press(seat: int) -> None:
        pin = factory.pin(DEFAULT_PIN_MAP.seats[pressed(seat)][0])
        pin.drive_low()
        pin.drive_high()

    return press


def doctor(
    tmp_path: Path,
    factory: MockFactory,
    camera: Callable[[], Camera] = lambda: ReplayCamera(SESSION),
    ask: Callable[[int], None] | None = None,
    panel: Callable[[], Panel] | None = None,
    page: bool = True,
    game: str | None = "deserto",
    show_card: Callable[[], None] | None = None,
) -> tuple[int, list[str]]:
    out = io.StringIO()
    config = TableConfig(data=tmp_path / "data", pins="mock")
    open_panel = panel or (lambda: SeatPanel(
        DEFAULT_PIN_MAP.seats[:SEATS], DEFAULT_PIN_MAP.status_led, DEFAULT_PIN_MAP.buzzer,
        pin_factory=factory, bounce_time=None))
    code = Doctor(
        config, default_mat(), camera, open_panel, SEATS, out,
        button_timeout=2.0, ask=ask if ask is not None else finger(factory),
        page_url=lambda: "http://192.168.1.20:8000/" if page else "http://tableref.local:8000/",
        serve_page=lambda: lambda: None,
        sleep=lambda seconds: time.sleep(min(seconds, 0.02)),  # no busy wait, no long one
        deck=None if game is None else get_game(game).deck.name,
        card_reader=None if game is None else lambda: build_reader(get_game(game).deck,
                                                                   default_mat()),
        show_card=show_card, card_timeout=1.0,
    ).run()
    return code, out.getvalue().splitlines()


@pytest.fixture
def factory() -> MockFactory:
    return MockFactory()


@pytest.fixture(autouse=True)
def page_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("firmware.doctor.answers", lambda url: url.startswith("http://192."))


def verdicts(lines: list[str]) -> dict[str, str]:
    return {line[5:].split(":")[0]: line[:4].strip() for line in lines
            if line.startswith(("ok  ", "FAIL"))}


def test_a_table_in_order_passes_every_check(tmp_path: Path, factory: MockFactory) -> None:
    code, lines = doctor(tmp_path, factory)
    assert code == 0, "\n".join(lines)
    assert verdicts(lines) == {
        "camera": "ok", "mat tags": "ok", "focus": "ok", "exposure": "ok", "LEDs": "ok",
        "seat 1 button": "ok", "seat 2 button": "ok", "seat 3 button": "ok", "buzzer": "ok",
        "card": "ok", "data folder": "ok", "page": "ok",
    }
    assert lines[-1] == "12 of 12 checks passed"
    assert "ok   page: http://192.168.1.20:8000/ answers" in lines


def test_each_led_is_lit_in_turn_and_the_buzzer_sounds(
    tmp_path: Path, factory: MockFactory
) -> None:
    doctor(tmp_path, factory)
    for seat in range(SEATS):
        led = factory.pin(DEFAULT_PIN_MAP.seats[seat][1])
        assert [state.state for state in led.states] == [False, True, False]
    assert any(state.state for state in factory.pin(DEFAULT_PIN_MAP.buzzer).states)


def test_a_button_that_never_answers_names_its_pin(tmp_path: Path, factory: MockFactory) -> None:
    code, lines = doctor(tmp_path, factory, ask=lambda seat: None)
    assert code == 1
    assert ("FAIL seat 1 button: no press in 2 s; fix: the button goes from GPIO 4 to GND, "
            "nothing else") in lines
    assert lines[-1].startswith("9 of 12 checks passed: fix the FAIL lines above")


def test_swapped_buttons_are_found(tmp_path: Path, factory: MockFactory) -> None:
    swapped = finger(factory, lambda seat: {0: 1, 1: 0}.get(seat, seat))
    code, lines = doctor(tmp_path, factory, ask=swapped)
    assert code == 1
    assert verdicts(lines)["seat 1 button"] == "FAIL" and verdicts(lines)["seat 3 button"] == "ok"
    assert any("seat 2's button answered" in line and "swapped" in line for line in lines)


def test_a_blurred_camera_fails_focus_and_a_dark_one_exposure(
    tmp_path: Path, factory: MockFactory
) -> None:
    with ReplayCamera(SESSION) as replay:
        frame = replay.read()
    assert frame is not None
    soft = cv2.GaussianBlur(frame.image, (0, 0), 1.3)
    _, lines = doctor(tmp_path, factory, camera=lambda: OneImage(soft))
    assert verdicts(lines)["focus"] == "FAIL" and verdicts(lines)["mat tags"] == "ok"
    dark = (frame.image * 0.2).astype(np.uint8)
    _, lines = doctor(tmp_path, factory, camera=lambda: OneImage(dark))
    assert verdicts(lines)["exposure"] == "FAIL" and verdicts(lines)["focus"] == "ok"
    assert any("more light on the table" in line for line in lines)


def frame_at(index: int) -> np.ndarray:
    with ReplayCamera(SESSION) as replay:
        while (frame := replay.read()) is not None:
            if frame.index == index:
                return frame.image
    raise AssertionError(f"no frame {index}")


def test_a_card_laid_on_the_mat_when_asked_is_named_with_the_sharpness(
    tmp_path: Path, factory: MockFactory
) -> None:
    asked: list[str] = []
    _, lines = doctor(tmp_path, factory, show_card=lambda: asked.append("a card"))
    assert asked == ["a card"]
    ask = lines.index("     lay one card of the deserto deck face up on the mat (within 1 s)")
    [card] = [line for line in lines if line.startswith("ok   card: ")]
    assert lines.index(card) == ask + 1
    named = card.removeprefix("ok   card: named ").split(" ")[0]
    assert named in get_game("deserto").deck.codes
    assert "(confidence 1.00); sharpness 0.7" in card and card.endswith(" on the tags")


def test_cards_in_colours_the_deck_was_not_learnt_in_are_seen_but_not_named(
    tmp_path: Path, factory: MockFactory
) -> None:
    swapped = np.ascontiguousarray(frame_at(40)[..., ::-1])  # a camera giving RGB for BGR
    code, lines = doctor(tmp_path, factory, camera=lambda: OneImage(swapped))
    assert code == 1
    [card] = [line for line in lines if line.startswith("FAIL card: ")]
    assert card.startswith("FAIL card: a card was seen but not named (confidence 0.")
    assert "at best); sharpness 0.7" in card and "fix: focus the lens" in card


def test_an_empty_mat_or_a_card_face_down_says_what_to_lay(
    tmp_path: Path, factory: MockFactory
) -> None:
    empty = frame_at(0)
    _, lines = doctor(tmp_path, factory, camera=lambda: OneImage(empty))
    assert any(line.startswith("FAIL card: no card seen on the mat in 1 s; sharpness 0.")
               and "lay one card face up" in line for line in lines)


def test_without_an_enrolled_deck_or_a_game_it_says_how_to_give_one(
    tmp_path: Path, factory: MockFactory
) -> None:
    code, lines = doctor(tmp_path, factory, game=None)
    assert code == 1
    assert ("FAIL card: no deck to name a card of; fix: enrol the table's deck (tableref enrol "
            "--game GAME), or run doctor --game GAME for our print-and-play deck") in lines


def test_the_card_is_of_the_game_given_else_of_the_deck_enrolled(tmp_path: Path) -> None:
    config = TableConfig(data=tmp_path / "data")
    assert checked_game(config, None) is None
    assert checked_game(config, "uno") == "uno"
    profile = profile_folder(config.data, "tempus") / PROFILE_FILE
    profile.parent.mkdir(parents=True)
    profile.write_text("{}")  # only whether there is one counts here
    assert checked_game(config, None) == "tempus"
    assert checked_game(config, "uno") == "uno"


def test_sharpness_falls_with_blur() -> None:
    with ReplayCamera(SESSION) as replay:
        frame = replay.read()
    assert frame is not None
    cal, mat = calibrate(frame.image, default_mat()), default_mat()
    sharp = tag_sharpness(frame.image, cal, mat.tags)
    soft = tag_sharpness(cv2.GaussianBlur(frame.image, (0, 0), 1.0), cal, mat.tags)
    assert sharp > 0.6 and soft < sharp


def test_no_mat_in_view_says_what_to_do(tmp_path: Path, factory: MockFactory) -> None:
    code, lines = doctor(tmp_path, factory,
                         camera=lambda: OneImage(np.full((450, 800, 3), 128, np.uint8)))
    assert code == 1
    assert any(line.startswith("FAIL mat tags: saw 0 of the 4 mat tags") and
               "put the whole mat in view" in line for line in lines)


def test_missing_pins_and_no_network_are_reported_not_raised(
    tmp_path: Path, factory: MockFactory
) -> None:
    def no_backend() -> Panel:
        raise PinsError("the lgpio GPIO backend is not installed")

    code, lines = doctor(tmp_path, factory, panel=no_backend, page=False)
    assert code == 1
    assert "FAIL seat panel: the lgpio GPIO backend is not installed; fix: see " \
           "hardware/WIRING.md and the pins in the config" in lines
    assert any(line.startswith("FAIL page: the Pi has no network address") for line in lines)


def test_a_data_folder_that_cannot_be_written_is_named(
    tmp_path: Path, factory: MockFactory
) -> None:
    (tmp_path / "data").write_text("a file where the folder should be")
    _, lines = doctor(tmp_path, factory)
    assert verdicts(lines)["data folder"] == "FAIL"


def test_the_command_line_runs_it_and_exits_1_when_something_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from firmware.cli import main

    video = tmp_path / "none.avi"
    code = main(["doctor", "--camera", str(video), "--pins", "mock", "--data",
                 str(tmp_path / "data"), "--port", "0", "--seats", "1",
                 "--button-timeout", "0.1"])
    out = capsys.readouterr().out
    assert code == 1
    assert f"FAIL camera: video file not found: {video}" in out
    assert "FAIL seat 1 button: no press in 0.1 s" in out
    assert "ok   data folder" in out
