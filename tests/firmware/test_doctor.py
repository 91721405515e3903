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
from firmware.doctor import Doctor, tag_sharpness
from hardware.camera import Camera, Frame, ReplayCamera
from hardware.panel import DEFAULT_PIN_MAP, Panel, PinsError, SeatPanel
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
        "data folder": "ok", "page": "ok",
    }
    assert lines[-1] == "11 of 11 checks passed"
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
    assert lines[-1].startswith("8 of 11 checks passed: fix the FAIL lines above")


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
