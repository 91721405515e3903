"""Whether a frame shows the table as the last frame read in full did: pixels compared.

A card table lies still for seconds between moves while the camera sends frames of it.
A frame whose pixels are those of the last frame read in full, within the camera's
noise, shows the same table, and TableReader gives that reading again instead of finding
and naming the cards anew (a fraction of a millisecond instead of ten or more).

The frames are compared on the mat only (what lies beyond it is no part of a reading),
each made grey and shrunk to the mean of every SHRINK x SHRINK pixels. The mean averages the
sensor's noise (and a JPEG's) away, while an edge that moves by a fraction of a pixel moves
the mean of each block it crosses by its contrast times the shift over SHRINK. A frame is
still when at most STILL_BLOCKS blocks of the mat differ by more than STILL_LEVEL grey
levels beside another that does (the noise's outliers lie apart; a moved edge or a
fingertip changes blocks side by side). Measured (800x450 frames, the mat at 0.6-1 pixel a
mm): two draws of rendered sensor noise of sigma 2 to 4 grey levels, raw or JPEG at quality
50, changed at most 2 blocks so (16 scenes); a recorded session's frame (tests/fixtures,
374 of them) against itself with noise of sigma 3 and JPEG at 50 again, at most 2; the same
frame with one card moved by 1 mm changed at least 12, turned by 1.5 degrees at least 7,
a bare fingertip 13 mm over the mat's edge at least 7. Light that changes (the camera's
exposure) changes every block: the frame is read in full.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration, Frame

SHRINK = 3  # frame pixels a side of the blocks compared
STILL_LEVEL = 6  # grey levels by which a block's mean may differ in a frame of a still table
STILL_BLOCKS = 3  # blocks that may differ by more (beside another) in a still table's frame


@dataclass
class StillTest:
    """How frames of one size are compared on the mat of one calibration: the box of the
    frame around the mat (whole blocks) and which of its blocks lie wholly on the mat (a
    block across its edge holds some of the table beyond, which is no part of a reading: a
    player's arm resting there, a tablecloth's creases)."""

    calibration: Calibration
    frame_shape: tuple[int, ...]
    box: tuple[int, int, int, int]  # x0, y0, x1, y1 frame pixels, each a multiple of SHRINK
    on_mat: NDArray[np.uint8] = field(repr=False)  # 255 where a block lies on the mat

    @classmethod
    def plan(cls, cal: Calibration, frame_shape: tuple[int, ...]) -> StillTest:
        mat = cal.mat
        corners = cal.mat_to_image(np.array([[0.0, 0.0], [mat.width_mm, 0.0],
                                             [mat.width_mm, mat.height_mm],
                                             [0.0, mat.height_mm]]))
        height, width = frame_shape[:2]
        low = np.floor(corners.min(axis=0) / SHRINK).astype(int) * SHRINK
        high = np.ceil(corners.max(axis=0) / SHRINK).astype(int) * SHRINK
        x0, y0 = max(int(low[0]), 0), max(int(low[1]), 0)
        x1 = min(int(high[0]), width // SHRINK * SHRINK)
        y1 = min(int(high[1]), height // SHRINK * SHRINK)
        x1, y1 = max(x1, x0), max(y1, y0)
        # a block lies on the mat when each of its pixels does (the mat's edge, blurred, a
        # pixel in)
        inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(inside, np.round(corners - (x0, y0)).astype(np.int32), 255)
        inside = np.asarray(cv2.erode(inside, np.ones((3, 3), np.uint8)), np.uint8)
        on_mat = np.asarray(cv2.resize(inside, ((x1 - x0) // SHRINK, (y1 - y0) // SHRINK),
                                       interpolation=cv2.INTER_AREA) == 255, np.uint8) * 255
        return cls(cal, frame_shape, (x0, y0, x1, y1), on_mat)

    def picture(self, image: Frame) -> NDArray[np.uint8]:
        """What a frame is compared by: the mean grey level of each block of the box."""
        x0, y0, x1, y1 = self.box
        if x1 <= x0 or y1 <= y0:
            return np.zeros((0, 0), np.uint8)
        part = image[y0:y1, x0:x1]
        if part.ndim == 3:  # (made grey first: half the time of shrinking three channels)
            part = np.asarray(cv2.cvtColor(part, cv2.COLOR_BGR2GRAY), np.uint8)
        return np.asarray(cv2.resize(part, ((x1 - x0) // SHRINK, (y1 - y0) // SHRINK),
                                     interpolation=cv2.INTER_AREA), np.uint8)

    def same(self, before: NDArray[np.uint8], image: Frame) -> bool:
        """Whether `image` shows the mat as the frame whose picture is `before` did."""
        if image.shape != self.frame_shape:
            return False
        now = self.picture(image)
        if now.shape != before.shape or now.size == 0:
            return False
        difference = np.asarray(cv2.absdiff(now, before), np.uint8)
        return changed_blocks(difference, self.on_mat) <= STILL_BLOCKS


def changed_blocks(difference: NDArray[np.uint8], on_mat: NDArray[np.uint8]) -> int:
    """How many blocks of the mat differ by more than STILL_LEVEL beside another that does:
    the noise's few outliers lie apart, a moved edge or a fingertip changes blocks side by
    side."""
    _, changed = cv2.threshold(difference, STILL_LEVEL, 1, cv2.THRESH_BINARY)
    changed = cv2.bitwise_and(changed, changed, mask=on_mat)
    # each changed block's changed neighbours (and itself), over its 3 x 3
    around = cv2.boxFilter(changed, -1, (3, 3), normalize=False,
                           borderType=cv2.BORDER_CONSTANT)
    return int(np.count_nonzero((around >= 2) & (changed > 0)))
