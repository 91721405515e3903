"""The main loop keeps going when the camera stops delivering, and ends with a replay."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from firmware.loop import CAMERA_BACK, Backoff, drive
from hardware.camera import Camera, CameraError, Frame
from hardware.panel import ButtonEvent
from referee.table import PressKind


class FlakyCamera(Camera):
    """Delivers frames, then fails a few times, then delivers again."""

    def __init__(self, script: list[str], stop: threading.Event | None = None) -> None:
        self._script = list(script)
        self._stop = stop
        self.index = 0
        self.closed = False

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
        return Frame(np.zeros((4, 4, 3), np.uint8), t=float(self.index), index=self.index,
                     full=np.zeros((8, 8, 3), np.uint8) if step == "full" else None)

    def close(self) -> None:
        self.closed = True


class RecordingPipeline:
    def __init__(self) -> None:
        self.seen: list[Any] = []

    def on_frame(self, frame: np.ndarray | None, label: str = "", t: float | None = None,
                 full: np.ndarray | None = None) -> None:
        self.seen.append(label if full is None else f"{label} with its {full.shape[1]} px twin")

    def on_press(self, seat: int, kind: PressKind, t: float | None = None) -> None:
        self.seen.append((seat, kind))

    def note_problem(self, message: str) -> None:
        self.seen.append(message)


def test_a_live_camera_that_stops_is_reported_and_retried_with_growing_pauses() -> None:
    stop = threading.Event()
    camera = FlakyCamera(["frame", "fail", "fail", "none", "frame"], stop)
    pipeline = RecordingPipeline()
    pauses: list[float] = []
    drive(pipeline, camera, lambda t: [], stop=stop, live=True, sleep=pauses.append)
    assert pipeline.seen == [
        "frame 1",
        "camera stopped delivering frames; trying again in 1 s",
        "camera stopped delivering frames; trying again in 2 s",
        CAMERA_BACK,
        "frame 2",
    ]
    assert pauses == [1.0, 2.0, 0.02, 0.02]  # two failures, then two empty reads


def test_a_cameras_full_frame_goes_with_its_small_one_to_the_pipeline() -> None:
    pipeline = RecordingPipeline()
    drive(pipeline, FlakyCamera(["full", "frame"]), lambda t: [], live=False)
    assert pipeline.seen == ["frame 1 with its 8 px twin", "frame 2"]


def test_the_pause_doubles_up_to_its_longest() -> None:
    assert [Backoff(1.0, 30.0).pause(n) for n in range(1, 8)] == [1, 2, 4, 8, 16, 30, 30]


def test_a_failed_camera_is_opened_again_and_the_new_one_is_handed_back() -> None:
    stop = threading.Event()
    broken = FlakyCamera(["frame", "fail"])
    spare = FlakyCamera(["frame", "frame"], stop)
    opened: list[FlakyCamera] = []

    def reopen() -> Camera:
        if not opened:
            opened.append(broken)  # the first attempt finds no camera yet
            raise CameraError("no Pi camera found: check the ribbon cable")
        opened.append(spare)
        return spare

    pipeline = RecordingPipeline()
    last = drive(pipeline, broken, lambda t: [], stop=stop, live=True,
                 sleep=lambda seconds: None, reopen=reopen)
    assert last is spare and broken.closed
    assert pipeline.seen == [
        "frame 1",
        "camera stopped delivering frames; trying again in 1 s",
        "no Pi camera found: check the ribbon cable; trying again in 2 s",
        CAMERA_BACK,
        "frame 1",
        "frame 2",
    ]


def test_a_stop_ends_a_live_loop_between_frames() -> None:
    stop = threading.Event()
    pipeline = RecordingPipeline()

    def presses(t: float) -> list[ButtonEvent]:
        stop.set()  # as SIGTERM's handler does, in the middle of a frame
        return []

    drive(pipeline, FlakyCamera(["frame", "frame", "frame"]), presses, stop=stop, live=True)
    assert pipeline.seen == ["frame 1"]


def test_a_replay_ends_at_its_last_frame_and_delivers_every_press() -> None:
    presses = [ButtonEvent(0, "hold", 1.5), ButtonEvent(1, "double", 9.0)]

    def due(t: float) -> list[ButtonEvent]:
        ready = [p for p in presses if p.t <= t]
        del presses[: len(ready)]
        return ready

    pipeline = RecordingPipeline()
    drive(pipeline, FlakyCamera(["frame", "frame"]), due)
    assert pipeline.seen == ["frame 1", (0, "hold"), "frame 2", (1, "double")]


def test_a_replay_stopped_in_the_middle_of_a_frame_keeps_the_later_presses_back() -> None:
    """The demo stopped by SIGTERM: a press recorded after the frame being read is not
    handed to the pipeline, else it would end a turn on a table it never saw."""
    stop = threading.Event()
    presses = [ButtonEvent(0, "hold", 0.5), ButtonEvent(1, "double", 9.0)]

    def due(t: float) -> list[ButtonEvent]:
        ready = [p for p in presses if p.t <= t]
        del presses[: len(ready)]
        stop.set()  # as SIGTERM's handler does, while frame 1 is read
        return ready

    pipeline = RecordingPipeline()
    drive(pipeline, FlakyCamera(["frame", "frame", "frame"]), due, stop=stop)
    assert pipeline.seen == [(0, "hold"), "frame 1"]
