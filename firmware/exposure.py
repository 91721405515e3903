"""Fixing the Pi camera's exposure and white balance once it sees the whole mat.

On auto, the camera follows every hand and sleeve over the table and the mat model and
the enrolled deck's colours drift with it; locked at the values auto chose for a clear
view of the mat, the colours hold for the whole game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from hardware.camera import Camera, Frame, Image
from vision.calibration import VisionError, calibrate
from vision.mat import MatSpec


class LockableCamera(Camera, Protocol):
    """A camera whose exposure and white balance can be fixed (`hardware.camera.PiCamera`)."""

    def lock_exposure(self) -> dict[str, Any]: ...


def sees_whole_mat(mat: MatSpec) -> Callable[[Image], bool]:
    """A check that all four of `mat`'s tags are in an image."""

    def check(image: Image) -> bool:
        try:
            return len(calibrate(image, mat).tags_seen) == len(mat.tags)
        except VisionError:
            return False

    return check


class LockOnMat(Camera):
    """Hands out `camera`'s frames; after `settle_frames` (auto exposure converging),
    looks for the whole mat every `check_every` frames and, once it is seen, fixes the
    exposure. The frames are unchanged."""

    def __init__(
        self,
        camera: LockableCamera,
        finds_mat: Callable[[Image], bool],
        settle_frames: int = 30,
        check_every: int = 5,
    ) -> None:
        self.camera = camera
        self._finds_mat = finds_mat
        self._settle_frames = settle_frames
        self._check_every = check_every
        self._frames = 0
        self.locked: dict[str, Any] | None = None

    def read(self) -> Frame | None:
        frame = self.camera.read()
        if frame is None or self.locked is not None:
            return frame
        self._frames += 1
        due = self._frames >= self._settle_frames and (
            (self._frames - self._settle_frames) % self._check_every == 0
        )
        if due and self._finds_mat(frame.image):
            self.locked = self.camera.lock_exposure()
        return frame

    def close(self) -> None:
        self.camera.close()
