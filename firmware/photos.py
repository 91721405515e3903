"""Photo crops for the page: the moment a flagged play or an unreadable card was seen.

A crop is a small JPEG of the camera frame around the cards concerned, so a phone
shows the table what the camera saw without sending whole frames around.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

MARGIN = 0.6  # of the cards' size, around them, so the neighbours show too
LONGEST_SIDE_PX = 480
JPEG_QUALITY = 75


def crop_jpeg(
    frame: np.ndarray, outlines: Sequence[Sequence[Sequence[float]]]
) -> bytes | None:
    """A JPEG of `frame` around the card outlines (image px), the whole frame if none;
    None if `frame` is not an 8-bit picture (a photo is never worth a crash)."""
    if frame.dtype != np.uint8 or frame.ndim not in (2, 3) or 0 in frame.shape[:2]:
        return None
    height, width = frame.shape[:2]
    image = frame
    points = np.array([point for outline in outlines for point in outline], dtype=np.float64)
    if len(points):
        low, high = points.min(axis=0), points.max(axis=0)
        pad = (high - low).max() * MARGIN
        x0, y0 = np.maximum(low - pad, 0).astype(int)
        x1, y1 = np.minimum(high + pad, (width, height)).astype(int)
        if x1 > x0 and y1 > y0:
            image = frame[y0:y1, x0:x1]
    scale = LONGEST_SIDE_PX / max(image.shape[:2])
    if scale < 1:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    return encoded.tobytes() if ok else None
