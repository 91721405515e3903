"""Table calibration: find the mat's ArUco tags and map image pixels to mat millimetres.

    >>> calibration = calibrate(frame, default_mat())          # doctest: +SKIP
    >>> calibration.image_to_mat([[640.0, 360.0]])             # doctest: +SKIP
    array([[297.1, 209.8]])
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import ArrayLike, NDArray

from vision.mat import MatSpec, aruco_dictionary

Frame = NDArray[np.uint8]
Points = NDArray[np.float64]
MIN_FRAME_SIDE = 64
MIN_TAGS = 3


class VisionError(Exception):
    """Base of the errors vision raises for a frame it cannot use."""


class TableNotFound(VisionError):
    """The mat is not (fully enough) in view: too few of its tags were seen."""


class BadFrame(VisionError):
    """The frame is not an image: None, empty, the wrong type, or too small."""


def check_frame(frame: object) -> Frame:
    """Return the frame if it is a usable uint8 grey or BGR image, else raise BadFrame."""
    if frame is None:
        raise BadFrame("no frame (None); is the camera delivering images?")
    if not isinstance(frame, np.ndarray):
        raise BadFrame(f"a frame must be a numpy array, got {type(frame).__name__}")
    if frame.dtype != np.uint8:
        raise BadFrame(f"a frame must be uint8, got {frame.dtype}")
    if frame.ndim not in (2, 3) or (frame.ndim == 3 and frame.shape[2] not in (1, 3)):
        raise BadFrame(f"a frame must be grey or BGR, got shape {frame.shape}")
    if min(frame.shape[:2]) < MIN_FRAME_SIDE:
        raise BadFrame(f"frame {frame.shape[1]}x{frame.shape[0]} is too small to read a table")
    return frame


def to_grey(frame: Frame) -> Frame:
    """A single-channel view of a grey or BGR frame."""
    if frame.ndim == 2:
        return frame
    if frame.shape[2] == 1:
        return frame[:, :, 0]
    return np.asarray(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), np.uint8)


@dataclass(frozen=True)
class Calibration:
    """The homography from image pixels to mat millimetres, and back."""

    image_to_mat_h: NDArray[np.float64]
    mat_to_image_h: NDArray[np.float64]
    image_size: tuple[int, int]  # (width, height) of the frames it was made from
    mat: MatSpec
    tags_seen: tuple[int, ...]

    def image_to_mat(self, points: ArrayLike) -> Points:
        """Map Nx2 image pixels to mat mm."""
        return _transform(self.image_to_mat_h, points)

    def mat_to_image(self, points: ArrayLike) -> Points:
        """Map Nx2 mat mm to image pixels."""
        return _transform(self.mat_to_image_h, points)

    def mat_to_warp_h(self, px_per_mm: float) -> NDArray[np.float64]:
        """The homography from image pixels to a top-down view at px_per_mm."""
        scale = np.diag([px_per_mm, px_per_mm, 1.0])
        h: NDArray[np.float64] = scale @ self.image_to_mat_h
        return h

    def warp_mat(self, frame: Frame, px_per_mm: float,
                 interpolation: int = cv2.INTER_LINEAR) -> Frame:
        """The top-down view of the mat at px_per_mm (black where the frame does not reach)."""
        size = (round(self.mat.width_mm * px_per_mm), round(self.mat.height_mm * px_per_mm))
        warped = cv2.warpPerspective(frame, self.mat_to_warp_h(px_per_mm), size,
                                     flags=interpolation)
        return np.asarray(warped, np.uint8)


def _transform(h: NDArray[np.float64], points: ArrayLike) -> Points:
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
    return np.asarray(cv2.perspectiveTransform(pts, h), np.float64).reshape(-1, 2)


def _detector(mat: MatSpec) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(aruco_dictionary(mat), params)


def calibrate(frame: object, mat: MatSpec) -> Calibration:
    """Find the mat in the frame from at least 3 of its 4 tags (all 4 corners of each)."""
    image = to_grey(check_frame(frame))
    corners, ids, _ = _detector(mat).detectMarkers(image)
    wanted = {t.tag_id: t for t in mat.tags}
    image_pts: list[NDArray[np.float64]] = []
    mat_pts: list[NDArray[np.float64]] = []
    seen: list[int] = []
    for tag_id, quad in zip([] if ids is None else ids.ravel().tolist(), corners, strict=True):
        tag = wanted.get(int(tag_id))
        if tag is None or tag.tag_id in seen:
            continue
        seen.append(tag.tag_id)
        (cx, cy), half = tag.center_mm, tag.size_mm / 2
        image_pts.append(np.asarray(quad, np.float64).reshape(4, 2))
        # ArUco corners run clockwise from the tag's top-left, and tags are printed upright
        mat_pts.append(np.array([[cx - half, cy - half], [cx + half, cy - half],
                                 [cx + half, cy + half], [cx - half, cy + half]]))
    if len(seen) < MIN_TAGS:
        ids_text = f"{min(wanted)}..{max(wanted)}" if wanted else "none"
        raise TableNotFound(
            f"saw {len(seen)} of the {len(wanted)} mat tags (ids {ids_text}); "
            "is the whole mat in view and lit?")
    src, dst = np.vstack(image_pts), np.vstack(mat_pts)
    h, inliers = cv2.findHomography(src, dst, cv2.RANSAC, 3.0)
    if h is None or int(inliers.sum()) < 4 * MIN_TAGS:
        raise TableNotFound("the mat tags do not agree on one flat mat; is the mat folded?")
    to_mat = np.asarray(h, np.float64)
    return Calibration(
        image_to_mat_h=to_mat,
        mat_to_image_h=np.asarray(np.linalg.inv(to_mat), np.float64),
        image_size=(image.shape[1], image.shape[0]),
        mat=mat,
        tags_seen=tuple(sorted(seen)),
    )
