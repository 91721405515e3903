"""A stand-in for picamera2 (the Pi's camera library), for tests on any machine.

It follows picamera2's API as documented (Picamera2.global_camera_info,
create_video_configuration(main=, lores=, buffer_count=), configure, start,
capture_arrays(names) -> (arrays, metadata) from one request, capture_metadata,
set_controls, stop, close), records every call in `CALLS`, and serves the frames of a
recorded session: "main" as RGB888 (B, G, R bytes) at its configured size, "lores" as
YUV420 (I420, height * 3/2 rows). Auto exposure and white balance drift from frame to
frame until set_controls turns them off, as a real sensor's do.

    install(monkeypatch, frames)   # then `import picamera2` finds this module
"""

from __future__ import annotations

import sys
import types
from typing import Any

import cv2
import numpy as np
import pytest

CALLS: list[tuple[str, Any]] = []
FRAMES: list[np.ndarray] = []
CAMERAS: list[dict[str, Any]] = [{"Model": "imx708", "Num": 0}]
FAIL_AFTER: list[int] = []  # capture_arrays fails once this many frames were served
FORMATS = {"RGB888", "BGR888", "XRGB8888", "XBGR8888", "YUV420"}


class Picamera2:
    @staticmethod
    def global_camera_info() -> list[dict[str, Any]]:
        return list(CAMERAS)

    def __init__(self, camera_num: int = 0) -> None:
        CALLS.append(("__init__", camera_num))
        self.config: dict[str, Any] | None = None
        self.started = False
        self.served = 0
        self.controls: dict[str, Any] = {"AeEnable": True, "AwbEnable": True}

    def create_video_configuration(
        self, main: dict[str, Any] | None = None, lores: dict[str, Any] | None = None,
        raw: dict[str, Any] | None = None, transform: Any = None, colour_space: Any = None,
        buffer_count: int = 6, controls: dict[str, Any] | None = None,
        display: str | None = "main", encode: str | None = "main",
    ) -> dict[str, Any]:
        CALLS.append(("create_video_configuration",
                      {"main": main, "lores": lores, "buffer_count": buffer_count}))
        for stream in (main, lores):
            if stream is not None and stream.get("format", "XBGR8888") not in FORMATS:
                raise RuntimeError(f"Invalid format {stream['format']}")
        return {"main": main or {"size": (1280, 720), "format": "XBGR8888"}, "lores": lores,
                "buffer_count": buffer_count, "controls": controls or {}}

    def configure(self, config: dict[str, Any]) -> None:
        CALLS.append(("configure", config))
        main, lores = config["main"], config["lores"]
        if lores is not None and (
            lores["size"][0] > main["size"][0] or lores["size"][1] > main["size"][1]
        ):
            raise RuntimeError("lores stream dimensions may not exceed main stream")
        self.config = config

    def start(self) -> None:
        CALLS.append(("start", None))
        if self.config is None:
            raise RuntimeError("Camera has not been configured")
        self.started = True

    def capture_arrays(self, names: list[str] | None = None) -> tuple[list[np.ndarray],
                                                                      dict[str, Any]]:
        names = names or ["main"]
        CALLS.append(("capture_arrays", list(names)))
        if not self.started or self.config is None:
            raise RuntimeError("Camera is not running")
        if FAIL_AFTER and self.served >= FAIL_AFTER[0]:
            raise RuntimeError("Camera frontend has timed out!\nPlease check that your "
                               "camera sensor connector is attached securely.")
        frame = FRAMES[self.served % len(FRAMES)]
        self.served += 1
        return [self._stream(frame, self.config[name]) for name in names], self._metadata()

    def capture_metadata(self) -> dict[str, Any]:
        CALLS.append(("capture_metadata", None))
        return self._metadata()

    def set_controls(self, controls: dict[str, Any]) -> None:
        CALLS.append(("set_controls", dict(controls)))
        self.controls.update(controls)

    def stop(self) -> None:
        CALLS.append(("stop", None))
        self.started = False

    def close(self) -> None:
        CALLS.append(("close", None))

    def _metadata(self) -> dict[str, Any]:
        if not self.controls["AeEnable"]:
            exposure, gain = self.controls["ExposureTime"], self.controls["AnalogueGain"]
        else:  # auto still hunting
            exposure, gain = 10_000 + 37 * self.served, 1.0 + 0.01 * self.served
        colour = (self.controls["ColourGains"] if not self.controls["AwbEnable"]
                  else (1.8 + 0.001 * self.served, 1.5))
        return {"ExposureTime": exposure, "AnalogueGain": gain, "ColourGains": colour,
                "SensorTimestamp": 1_000_000 * self.served, "Lux": 400.0}

    @staticmethod
    def _stream(frame: np.ndarray, stream: dict[str, Any]) -> np.ndarray:
        width, height = stream["size"]
        image = cv2.resize(frame, (width, height), interpolation=cv2.INTER_AREA)
        if stream["format"] == "YUV420":
            return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2YUV_I420))
        if stream["format"] == "BGR888":  # libcamera's BGR888 is R, G, B bytes
            return np.ascontiguousarray(image[:, :, ::-1])
        return np.ascontiguousarray(image)


def install(monkeypatch: pytest.MonkeyPatch, frames: list[np.ndarray]) -> None:
    """Make `import picamera2` find this stand-in, serving `frames`, with a fresh log."""
    module = types.ModuleType("picamera2")
    module.Picamera2 = Picamera2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    for shared, fresh in ((CALLS, []), (FRAMES, frames), (FAIL_AFTER, []),
                          (CAMERAS, [{"Model": "imx708", "Num": 0}])):
        shared[:] = fresh
