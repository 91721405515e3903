"""Table calibration: find the mat's ArUco tags and map image pixels to mat millimetres.

    >>> calibration = calibrate(frame, default_mat())          # doctest: +SKIP
    >>> calibration.image_to_mat([[640.0, 360.0]])             # doctest: +SKIP
    array([[297.1, 209.8]])
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np
from numpy.typing import ArrayLike, NDArray

from vision.mat import MatSpec, TagPlacement, aruco_dictionary, tag_quiet_zone_mm
from vision.tag_edges import refine_square

Frame = NDArray[np.uint8]
Points = NDArray[np.float64]
MIN_FRAME_SIDE = 64
MIN_TAGS = 2  # clean tags that calibrate a frame alone
MIN_FULL_FIT = 3  # tags that check each other well (a previous calibration checks fewer)
TAG_TOLERANCE_MM = 0.8  # a tag this far off the others' mapping is not trusted
ZONE_TOLERANCE_MM = 1.5  # a tag's white surround this far off its black square is covered


#: What is wrong with a frame vision cannot use, in a word that does not change: the
#: frame is none, not an image, too small, not a larger view of the frame it came with
#: (a camera's two streams); too few of the mat's tags are seen, they are seen but not
#: clean (something lies on them), or they do not agree on one flat mat.
FrameTrouble = Literal["no_frame", "not_image", "too_small", "two_streams", "tags_unseen",
                       "tags_covered", "mat_not_flat"]


class VisionError(Exception):
    """Base of the errors vision raises for a frame it cannot use. The message says why in
    English with the figures (for a log or a terminal); `reason` names it (FrameTrouble)
    for those who say it in their own words, as the enrolment page does in its languages."""

    def __init__(self, message: str, reason: FrameTrouble) -> None:
        super().__init__(message)
        self.reason: FrameTrouble = reason


class TableNotFound(VisionError):
    """The mat is not (fully enough) in view: too few of its tags were seen."""


class BadFrame(VisionError):
    """The frame is not an image: None, empty, the wrong type, or too small."""


def check_frame(frame: object) -> Frame:
    """Return the frame if it is a usable uint8 grey or BGR image, else raise BadFrame."""
    if frame is None:
        raise BadFrame("no frame (None); is the camera delivering images?", "no_frame")
    if not isinstance(frame, np.ndarray):
        raise BadFrame(f"a frame must be a numpy array, got {type(frame).__name__}",
                       "not_image")
    if frame.dtype != np.uint8:
        raise BadFrame(f"a frame must be uint8, got {frame.dtype}", "not_image")
    if frame.ndim not in (2, 3) or (frame.ndim == 3 and frame.shape[2] not in (1, 3)):
        raise BadFrame(f"a frame must be grey or BGR, got shape {frame.shape}", "not_image")
    if min(frame.shape[:2]) < MIN_FRAME_SIDE:
        raise BadFrame(f"frame {frame.shape[1]}x{frame.shape[0]} is too small to read a table",
                       "too_small")
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
    tags_seen: tuple[int, ...]  # the tags it was made from
    tags_dropped: tuple[int, ...] = ()  # tags found but left out: they disagreed

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


def square_mm(centre: tuple[float, float], side: float) -> Points:
    """A square's corners on the mat in the order ArUco gives a tag's: clockwise from the
    top-left (tags are printed upright)."""
    (cx, cy), half = centre, side / 2
    return np.array([[cx - half, cy - half], [cx + half, cy - half],
                     [cx + half, cy + half], [cx - half, cy + half]])


@dataclass(frozen=True)
class TagView:
    """One mat tag as found in a frame: points in the image and where they are printed.

    `clean` when both its black square and the white square around it were found whole
    and agree (8 points); else only the tag's own 4 corners (refined if its sides could
    be), and a card or a finger may be over part of it.
    """

    tag_id: int
    image_px: Points
    mat_mm: Points
    clean: bool


def find_tags(image: Frame, mat: MatSpec) -> dict[int, TagView]:
    """The mat's tags in a grey image, by id. Of an id seen twice, the first is kept."""
    corners, ids, _ = _detector(mat).detectMarkers(image)
    placements = {t.tag_id: t for t in mat.tags}
    found: dict[int, TagView] = {}
    for tag_id, quad in zip([] if ids is None else ids.ravel().tolist(), corners, strict=True):
        tag = placements.get(int(tag_id))
        if tag is not None and tag.tag_id not in found:
            found[tag.tag_id] = _view(image, tag, np.asarray(quad, np.float64).reshape(4, 2))
    return found


def _view(image: Frame, tag: TagPlacement, quad: Points) -> TagView:
    """The tag's corners from the lines along its sides, and those of its white surround
    when they agree with them (ZONE_TOLERANCE_MM)."""
    inner_mm = square_mm(tag.center_mm, tag.size_mm)
    refined = refine_square(image, quad)
    if refined is None:
        return TagView(tag.tag_id, quad, inner_mm, clean=False)
    local = np.asarray(cv2.getPerspectiveTransform(inner_mm.astype(np.float32),
                                                   refined.astype(np.float32)), np.float64)
    outer_mm = square_mm(tag.center_mm, tag_quiet_zone_mm(tag))
    outer = refine_square(image, _transform(local, outer_mm), dark_inside=False)
    back = np.asarray(np.linalg.inv(local), np.float64)
    if outer is None or float(np.linalg.norm(_transform(back, outer) - outer_mm,
                                             axis=1).max()) > ZONE_TOLERANCE_MM:
        return TagView(tag.tag_id, refined, inner_mm, clean=False)
    return TagView(tag.tag_id, np.vstack([refined, outer]), np.vstack([inner_mm, outer_mm]),
                   clean=True)


def _fit(views: list[TagView]) -> NDArray[np.float64] | None:
    """The least-squares homography (image pixels -> mat mm) through the tags' points."""
    h, _ = cv2.findHomography(np.vstack([v.image_px for v in views]),
                              np.vstack([v.mat_mm for v in views]), 0)
    return None if h is None else np.asarray(h, np.float64)


def _off_mm(h: NDArray[np.float64], view: TagView) -> float:
    """How far (mm, its worst point) a tag lies from where the mapping h puts it."""
    return float(np.linalg.norm(_transform(h, view.image_px) - view.mat_mm, axis=1).max())


def agreeing_tags(found: dict[int, TagView]) -> list[TagView]:
    """The largest set of tags that agree on one flat mat (empty if none does).

    Every set of tags is fitted; the set wins whose every tag lies within
    TAG_TOLERANCE_MM of the fit, the larger first, then the tighter. A tag half covered
    by a card or a finger is often still found, with a corner pulled off by millimetres:
    it disagrees and is left out rather than bending the mapping. Two tags check each
    other only weakly, so a pair must be clean (each its square and its surround).
    """
    views = [found[i] for i in sorted(found)]
    best: tuple[int, float, list[TagView]] = (0, 0.0, [])
    for size in range(len(views), 1, -1):
        for subset in itertools.combinations(views, size):
            if size < MIN_FULL_FIT and not all(v.clean for v in subset):
                continue
            h = _fit(list(subset))
            worst = math.inf if h is None else max(_off_mm(h, v) for v in subset)
            if worst <= TAG_TOLERANCE_MM and (best[0] < size or worst < best[1]):
                best = (size, worst, list(subset))
        if best[0]:
            break
    return best[2]


def _mat_moved(previous: Calibration, views: list[TagView]) -> NDArray[np.float64] | None:
    """The mat's own move across the table since the previous calibration, as a turn and
    a shift in mat mm (3x3), from where the previous mapping puts the tags seen; None
    unless every point fits such a move within TAG_TOLERANCE_MM (the camera moved, or a
    tag is off). A mat pushed on the table is seen as the same camera saw it before,
    moved: this needs one clean tag, not two."""
    printed = np.vstack([v.mat_mm for v in views])
    seen = np.vstack([previous.image_to_mat(v.image_px) for v in views])
    centre_printed, centre_seen = printed.mean(axis=0), seen.mean(axis=0)
    u, _, vt = np.linalg.svd((printed - centre_printed).T @ (seen - centre_seen))
    turn = (u @ vt).T
    if np.linalg.det(turn) < 0:
        return None
    move = np.eye(3)
    move[:2, :2], move[:2, 2] = turn, centre_seen - turn @ centre_printed
    if float(np.linalg.norm(_transform(move, printed) - seen, axis=1).max()) > TAG_TOLERANCE_MM:
        return None
    return move


def _calibration(to_mat: NDArray[np.float64], image: Frame, mat: MatSpec,
                 kept: list[TagView], found: dict[int, TagView]) -> Calibration:
    ids = {v.tag_id for v in kept}
    return Calibration(
        image_to_mat_h=to_mat,
        mat_to_image_h=np.asarray(np.linalg.inv(to_mat), np.float64),
        image_size=(image.shape[1], image.shape[0]),
        mat=mat,
        tags_seen=tuple(sorted(ids)),
        tags_dropped=tuple(i for i in sorted(found) if i not in ids),
    )


def calibrate(frame: object, mat: MatSpec, previous: Calibration | None = None) -> Calibration:
    """Find the mat in the frame from those of its tags that agree (`agreeing_tags`).

    Three or four tags make a new mapping, and so do two clean ones (to within about a
    millimetre over the mat, a few at worst). Given the previous calibration of this
    camera (same frame size), fewer than three tags are checked against it instead: if
    they agree, it is returned itself (nothing moved); if they fit a push of the mat
    across the table, the pushed mat's mapping; one tag is then enough.
    """
    image = to_grey(check_frame(frame))
    if previous is not None and previous.image_size != (image.shape[1], image.shape[0]):
        previous = None
    found = find_tags(image, mat)
    if len(found) < (1 if previous is not None else MIN_TAGS):
        ids = [t.tag_id for t in mat.tags]
        ids_text = f"{min(ids)}..{max(ids)}" if ids else "none"
        raise TableNotFound(
            f"saw {len(found)} of the {len(ids)} mat tags (ids {ids_text}); "
            "is the whole mat in view and lit?", "tags_unseen")
    kept = agreeing_tags(found)
    if previous is not None and len(kept) < MIN_FULL_FIT:
        # fewer than three agree: the previous calibration judges them, the clean ones first
        judged = kept or [v for v in found.values() if v.clean] or list(found.values())
        if all(_off_mm(previous.image_to_mat_h, v) <= TAG_TOLERANCE_MM for v in judged):
            return previous
        move = _mat_moved(previous, judged) if all(v.clean for v in judged) else None
        if move is not None:
            # a point printed at q now lies where the mat was at move(q) before
            to_mat = np.asarray(np.linalg.solve(move, previous.image_to_mat_h), np.float64)
            return _calibration(to_mat, image, mat, judged, found)
    if not kept and len(found) < MIN_FULL_FIT:
        raise TableNotFound(
            f"saw {len(found)} of the {len(mat.tags)} mat tags, but not {MIN_TAGS} clean ones; "
            "is something lying on a tag?", "tags_covered")
    h = _fit(kept) if kept else None
    if h is None:
        raise TableNotFound("the mat tags do not agree on one flat mat; is the mat folded?",
                            "mat_not_flat")
    return _calibration(h, image, mat, kept, found)
