"""Which camera frames a recording keeps: a table changes a few times a second.

A camera delivers 30 frames a second or more; kept at that rate an hour of play is
gigabytes, and the tracker needs only a few frames a second to see a table settle
(docs/sessions.md). `FrameRate` keeps one frame every 1/fps seconds, and up to
`motion_fps` while the picture changes (a hand reaching in), so that what the hand did
is seen in more than one frame.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

#: The frame is compared with the last kept one at this size (width, height).
THUMBNAIL = (64, 36)
#: Mean absolute grey-level change between thumbnails that counts as motion.
MOTION_LEVEL = 3.0
#: Frames come at their own pace: one a millisecond early still counts as due.
SLACK_S = 0.001


class FrameRate:
    """Decides frame by frame whether to keep it; `keep(image, t)` with t in seconds."""

    def __init__(self, fps: float, motion_fps: float) -> None:
        if fps <= 0 or motion_fps < fps:
            raise ValueError("--fps must be above 0 and --motion-fps at least --fps")
        self.fps = fps
        self.motion_fps = motion_fps
        self._last_t: float | None = None
        self._last: NDArray[np.int16] | None = None

    def keep(self, image: NDArray[np.uint8], t: float) -> bool:
        if self._last_t is not None and t - self._last_t < 1 / self.motion_fps - SLACK_S:
            return False
        small = self._thumbnail(image)
        due = self._last_t is None or t - self._last_t >= 1 / self.fps - SLACK_S
        change = 0.0 if self._last is None else float(np.mean(np.abs(small - self._last)))
        moving = change > MOTION_LEVEL
        if not (due or moving):
            return False
        self._last_t, self._last = t, small
        return True

    @staticmethod
    def _thumbnail(image: NDArray[np.uint8]) -> NDArray[np.int16]:
        grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        return np.asarray(cv2.resize(grey, THUMBNAIL, interpolation=cv2.INTER_AREA), np.int16)
