"""The main loop: frames from a camera and presses from the panel into the pipeline.

Live play and replay run this same loop; they differ only in where frames and presses
come from. A live camera that fails is reported on the page and retried with a growing
pause (and opened again, when the loop knows how), never fatal.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from hardware.camera import Camera, CameraError
from hardware.panel import ButtonEvent
from referee.table import PressKind


class Pipeline(Protocol):
    """What the loop feeds: `firmware.pipeline.RefereePipeline`."""

    def on_frame(
        self, frame: np.ndarray | None, label: str = "", t: float | None = None,
        full: np.ndarray | None = None,
    ) -> None: ...
    def on_press(self, seat: int, kind: PressKind, t: float | None = None) -> None: ...
    def note_problem(self, message: str) -> None: ...


#: Returns the presses that happened up to time t (seconds, the frames' clock).
PressSource = Callable[[float], Iterable[ButtonEvent]]
#: Opens the camera again after it failed.
CameraOpener = Callable[[], Camera]


@dataclass(frozen=True)
class Backoff:
    """Pauses between retries of a failed camera: `first` s, doubling up to `longest`.

    A camera that was unplugged or crashed is not hammered, and one that comes back is
    picked up within `longest` seconds."""

    first: float = 1.0
    longest: float = 30.0

    def pause(self, failures: int) -> float:
        """The pause after the `failures`-th failure in a row (1, 2, ...)."""
        return float(min(self.longest, self.first * 2 ** (failures - 1)))


CAMERA_BACK = "the camera is delivering frames again"


def drive(
    pipeline: Pipeline,
    camera: Camera,
    presses: PressSource,
    stop: threading.Event | None = None,
    live: bool = False,
    pace: Callable[[float], None] | None = None,
    sleep: Callable[[float], object] | None = None,
    reopen: CameraOpener | None = None,
    backoff: Backoff = Backoff(),
) -> Camera:
    """Feed frames and presses to `pipeline` until the camera ends or `stop` is set.

    A live camera that has no frame now is asked again; one that fails is reported,
    then retried after `backoff`'s pause, reopened with `reopen` if given. A replay or a
    video file ends at its last frame. `pace(t)`, if given, is called before each frame,
    e.g. to replay in real time. `sleep` waits (default: until `stop`, at most the pause).
    Returns the camera in use at the end (a reopened one is not the one passed in), for
    the caller to close.
    """
    stop = stop or threading.Event()
    wait = sleep or stop.wait
    last_t = 0.0
    failures = 0
    broken = False  # the camera failed and is to be opened again before the next read
    ended = False  # a replay or a video ran out of frames (not stopped)
    while not stop.is_set():
        try:
            if broken and reopen is not None:
                camera.close()
                camera = reopen()
            broken = False
            frame = camera.read()
        except CameraError as error:
            if not live:
                pipeline.note_problem(str(error))
                ended = True
                break
            failures += 1
            broken = True
            pause = backoff.pause(failures)
            pipeline.note_problem(f"{error}; trying again in {pause:g} s")
            wait(pause)
            continue
        if frame is None:
            if not live:
                ended = True
                break
            wait(0.02)
            continue
        if failures:
            failures = 0
            pipeline.note_problem(CAMERA_BACK)
        if pace is not None:
            pace(frame.t)
        last_t = frame.t
        for event in presses(frame.t):
            pipeline.on_press(event.seat, event.kind, t=event.t)
        pipeline.on_frame(frame.image, label=f"frame {frame.index}", t=frame.t, full=frame.full)
    # A replay that ran out hands on the presses recorded after its last frame; a stop
    # (SIGTERM in the middle of a frame) only those up to the last frame read: the rest
    # were never made at the table the pipeline saw.
    for event in presses(float("inf") if ended and not live else last_t):
        pipeline.on_press(event.seat, event.kind, t=event.t)
    return camera
