"""The main loop: frames from a camera and presses from the panel into the pipeline.

Live play and replay run this same loop; they differ only in where frames and presses
come from. A camera that stops delivering is reported and retried, never fatal.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from typing import Protocol

import numpy as np

from hardware.camera import Camera, CameraError
from hardware.panel import ButtonEvent
from referee.table import PressKind


class Pipeline(Protocol):
    """What the loop feeds: `firmware.pipeline.RefereePipeline`."""

    def on_frame(
        self, frame: np.ndarray | None, label: str = "", t: float | None = None
    ) -> None: ...
    def on_press(self, seat: int, kind: PressKind, t: float | None = None) -> None: ...
    def note_problem(self, message: str) -> None: ...


#: Returns the presses that happened up to time t (seconds, the frames' clock).
PressSource = Callable[[float], Iterable[ButtonEvent]]


def drive(
    pipeline: Pipeline,
    camera: Camera,
    presses: PressSource,
    stop: threading.Event | None = None,
    live: bool = False,
    pace: Callable[[float], None] | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Feed frames and presses to `pipeline` until the camera ends or `stop` is set.

    A live camera that has no frame now or fails is retried; a replay or a video file
    ends at its last frame. `pace(t)`, if given, is called before each frame, e.g. to
    replay in real time.
    """
    stop = stop or threading.Event()
    last_t = 0.0
    while not stop.is_set():
        try:
            frame = camera.read()
        except CameraError as error:
            pipeline.note_problem(str(error))
            if not live:
                break
            sleep(1.0)
            continue
        if frame is None:
            if not live:
                break
            sleep(0.02)
            continue
        if pace is not None:
            pace(frame.t)
        last_t = frame.t
        for event in presses(frame.t):
            pipeline.on_press(event.seat, event.kind, t=event.t)
        pipeline.on_frame(frame.image, label=f"frame {frame.index}", t=frame.t)
    for event in presses(float("inf") if not live else last_t):
        pipeline.on_press(event.seat, event.kind, t=event.t)
