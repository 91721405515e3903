"""The Pi camera adapter against a stand-in picamera2 that records its calls and serves
the frames of a recorded session (tests/hardware/fake_picamera2.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from firmware.exposure import LockOnMat, sees_whole_mat
from hardware.camera import CameraError, PiCamera, ReplayCamera
from tests.hardware import fake_picamera2
from tests.hardware.fake_picamera2 import CALLS
from vision.mat import default_mat

SESSION = Path(__file__).resolve().parents[1] / "fixtures/deserto/two-players-daylight"


def session_frames(count: int) -> list[np.ndarray]:
    frames = []
    with ReplayCamera(SESSION) as camera:
        while len(frames) < count and (frame := camera.read()) is not None:
            frames.append(frame.image)
    return frames


@pytest.fixture
def frames(monkeypatch: pytest.MonkeyPatch) -> list[np.ndarray]:
    recorded = session_frames(40)
    fake_picamera2.install(monkeypatch, recorded)
    return recorded


def calls(name: str) -> list[object]:
    return [argument for called, argument in CALLS if called == name]


def test_two_streams_of_one_request_give_the_small_frame_and_the_full_one(
    frames: list[np.ndarray],
) -> None:
    with PiCamera(resolution=(800, 448), full_resolution=(1600, 896)) as camera:
        first, second = camera.read(), camera.read()
    assert first is not None and second is not None and first.full is not None
    [configured] = calls("create_video_configuration")
    assert configured == {"main": {"size": (1600, 896), "format": "RGB888"},
                          "lores": {"size": (800, 448), "format": "YUV420"},
                          "buffer_count": 4}
    assert calls("capture_arrays") == [["main", "lores"], ["main", "lores"]]
    assert [name for name, _ in CALLS][-2:] == ["stop", "close"]
    # BGR, the sizes asked for, and the same instant: the full frame shrunk is the small one.
    assert first.image.shape == (448, 800, 3) and first.image.dtype == np.uint8
    assert first.full.shape == (896, 1600, 3) and first.full.flags.c_contiguous
    expected = cv2.resize(frames[0], (800, 448), interpolation=cv2.INTER_AREA)
    assert np.abs(first.image.astype(int) - expected).mean() < 3  # YUV 4:2:0 round trip
    shrunk = cv2.resize(first.full, (800, 448), interpolation=cv2.INTER_AREA)
    assert np.abs(shrunk.astype(int) - first.image).mean() < 3
    assert (first.index, second.index) == (0, 1) and second.t >= first.t


def test_without_a_full_resolution_one_stream_serves_the_small_frame(
    frames: list[np.ndarray],
) -> None:
    with PiCamera(resolution=(800, 448), full_resolution=None) as camera:
        frame = camera.read()
    assert frame is not None and frame.full is None and frame.image.shape == (448, 800, 3)
    assert calls("capture_arrays") == [["main"]]


def test_locking_fixes_exposure_and_white_balance_at_what_auto_chose(
    frames: list[np.ndarray],
) -> None:
    with PiCamera(resolution=(800, 448), full_resolution=(1600, 896)) as camera:
        for _ in range(3):
            camera.read()
        auto = fake_picamera2.Picamera2._metadata(camera._camera)  # type: ignore[attr-defined]
        locked = camera.lock_exposure()
        camera.read()
        camera.read()
    assert locked == {"AeEnable": False, "AwbEnable": False,
                      "ExposureTime": auto["ExposureTime"],
                      "AnalogueGain": auto["AnalogueGain"],
                      "ColourGains": auto["ColourGains"]}
    assert calls("set_controls") == [locked]


def test_the_exposure_is_fixed_once_the_whole_mat_is_seen(frames: list[np.ndarray]) -> None:
    camera = LockOnMat(PiCamera(resolution=(800, 448), full_resolution=(1600, 896)),
                       sees_whole_mat(default_mat()), settle_frames=5, check_every=5)
    with camera:
        for _ in range(12):
            assert camera.read() is not None
    assert camera.locked is not None and camera.locked["AeEnable"] is False
    assert len(calls("set_controls")) == 1  # fixed once, never hunted again


def test_a_frame_without_the_mat_never_locks(frames: list[np.ndarray]) -> None:
    fake_picamera2.FRAMES[:] = [np.full((450, 800, 3), 90, np.uint8)]
    camera = LockOnMat(PiCamera(resolution=(800, 448), full_resolution=None),
                       sees_whole_mat(default_mat()), settle_frames=1, check_every=1)
    with camera:
        for _ in range(3):
            camera.read()
    assert camera.locked is None and calls("set_controls") == []


def test_a_camera_that_times_out_is_one_line(frames: list[np.ndarray]) -> None:
    fake_picamera2.FAIL_AFTER[:] = [1]
    with PiCamera() as camera:
        camera.read()
        with pytest.raises(CameraError) as error:
            camera.read()
    assert str(error.value).startswith("the Pi camera stopped: Camera frontend has timed out!")
    assert "\n" not in str(error.value)


def test_no_camera_on_the_ribbon_says_what_to_check(frames: list[np.ndarray]) -> None:
    fake_picamera2.CAMERAS.clear()
    with pytest.raises(CameraError, match="no Pi camera found: check the ribbon cable"):
        PiCamera()
    assert calls("__init__") == []


def test_a_camera_that_cannot_start_is_one_line_and_released(
    frames: list[np.ndarray],
) -> None:
    with pytest.raises(CameraError, match="the Pi camera cannot start: lores stream"):
        PiCamera(resolution=(1920, 1080), full_resolution=(1280, 720))
    assert calls("close") == [None]


def test_without_picamera2_installed_the_error_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # type: ignore[arg-type]
    with pytest.raises(CameraError, match="sudo apt install python3-picamera2"):
        PiCamera()
