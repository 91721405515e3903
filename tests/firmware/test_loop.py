"""The main loop keeps going when the camera stops delivering, and ends with a replay."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from firmware.loop import drive
from hardware.camera import Camera, CameraError, Frame
from hardware.panel import ButtonEvent
from referee.table import PressKind


class FlakyCamera(Camera):
    """Delivers frames, then fails a few times, then delivers again."""

    def __init__(self, script: list[str], stop: threading.Event | None = None) -> None:
        self._script = list(script)
        self._stop = stop
        self.index = 0

    def read(self) -> Frame | None:
        if not self._script:
            if self._stop is not None:
                self._stop.set()
            return None
        step = self._script.pop(0)
        if step == "fail":
            raise CameraError("camera stopped delivering frames")
        if step == "none":
            return None
        self.index += 1
        return Frame(np.zeros((4, 4, 3), np.uint8), t=float(self.index), index=self.index)

    def close(self) -> None:
        pass


class RecordingPipeline:
    def __init__(self) -> None:
        self.seen: list[Any] = []

    def on_frame(self, frame: np.ndarray | None, label: str = "", t: float | None = None) -> None:
        self.seen.append(label)

    def on_press(self, seat: int, kind: PressKind, t: float | None = None) -> None:
        self.seen.append((seat, kind))

    def note_problem(self, message: str) -> None:
        self.seen.append(message)


def test_a_live_camera_that_stops_is_reported_and_the_loop_goes_on() -> None:
    stop = threading.Event()
    camera = FlakyCamera(["frame", "fail", "fail", "none", "frame"], stop)
    pipeline = RecordingPipeline()
    drive(pipeline, camera, lambda t: [], stop=stop, live=True,
          sleep=lambda seconds: None)
    assert pipeline.seen == [
        "frame 1",
        "camera stopped delivering frames",
        "camera stopped delivering frames",
        "frame 2",
    ]


def test_a_replay_ends_at_its_last_frame_and_delivers_every_press() -> None:
    presses = [ButtonEvent(0, "hold", 1.5), ButtonEvent(1, "double", 9.0)]

    def due(t: float) -> list[ButtonEvent]:
        ready = [p for p in presses if p.t <= t]
        del presses[: len(ready)]
        return ready

    pipeline = RecordingPipeline()
    drive(pipeline, FlakyCamera(["frame", "frame"]), due)
    assert pipeline.seen == ["frame 1", (0, "hold"), "frame 2", (1, "double")]
