"""Calibration: the mat found from its tags, in a synthetic frame with a known camera."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision import render
from vision.calibration import (
    BadFrame,
    Calibration,
    TableNotFound,
    calibrate,
    check_frame,
    find_tags,
    to_grey,
)
from vision.deck_art import paint_back
from vision.mat import default_mat, render_mat


def test_recovers_the_mapping_within_2_mm(scene: Any) -> None:
    frame = scene.frame()
    cal = calibrate(frame, scene.mat)
    assert cal.tags_seen == (0, 1, 2, 3)
    assert cal.image_size == (1280, 720)
    grid = np.array([[x, y] for x in range(0, 595, 66) for y in range(0, 421, 60)], float)
    truth_px = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), scene.mat_to_frame()).reshape(-1, 2)
    assert np.abs(cal.image_to_mat(truth_px) - grid).max() < 2.0
    assert np.abs(cal.mat_to_image(grid) - truth_px).max() < 2.0


def test_works_with_three_tags_and_on_grey_frames(scene: Any) -> None:
    scene.add_blob((90, 60, 40), (40, 380), (90, 90))  # a book over tag 3
    cal = calibrate(to_grey(scene.frame()), scene.mat)
    assert cal.tags_seen == (0, 1, 2)
    assert np.abs(cal.image_to_mat(cal.mat_to_image([[297, 210]])) - [297, 210]).max() < 1e-6
    px = cal.mat_to_image([[297.0, 210.0]])
    truth = cv2.perspectiveTransform(np.array([[[297.0, 210.0]]]), scene.mat_to_frame())
    assert np.abs(px - truth.reshape(1, 2)).max() < 3.0


def test_too_few_tags_is_table_not_found(scene: Any) -> None:
    scene.add_blob((90, 60, 40), (40, 380), (90, 90))
    scene.add_blob((90, 60, 40), (554, 380), (90, 90))
    scene.add_blob((90, 60, 40), (554, 40), (90, 90))
    with pytest.raises(TableNotFound, match=r"saw 1 of the 4 mat tags \(ids 0\.\.3\)"):
        calibrate(scene.frame(), scene.mat)
    with pytest.raises(TableNotFound, match="saw 0 of the 4"):
        calibrate(np.full((720, 1280, 3), 100, np.uint8), scene.mat)


def test_warp_mat_gives_the_top_down_view(scene: Any) -> None:
    cal = calibrate(scene.frame(), scene.mat)
    top = cal.warp_mat(scene.frame(), 1.0)
    assert top.shape == (420, 594, 3)
    # tag 0's white surround and black border sit where the mat says
    assert top[10, 40].mean() > 200 and top[17, 40].mean() < 60


@pytest.mark.parametrize("frame", [
    None, np.zeros((0, 0, 3), np.uint8), np.zeros((720, 1280, 3), np.float32),
    np.zeros((20, 30, 3), np.uint8), np.zeros((720, 1280, 4), np.uint8), "frame.jpg",
])
def test_bad_frames(frame: object, scene: Any) -> None:
    with pytest.raises(BadFrame):
        check_frame(frame)
    with pytest.raises(BadFrame):
        calibrate(frame, scene.mat)


# --- rendered frames: cards over the tags --------------------------------------------------

RENDER_MAT = default_mat()
RENDER_CAMERA = render.CameraPose(tilt_deg=15, yaw_deg=30, roll_deg=-25, fill=0.75)
GRID_MM = np.array([[x, y] for x in range(0, 595, 33) for y in range(0, 421, 30)], float)


@pytest.fixture(scope="module")
def rendered_mat() -> NDArray[np.uint8]:
    return render_mat(RENDER_MAT, 4.0)


def _render(mat_image: NDArray[np.uint8], cards: list[render.CardPlacement]
            ) -> render.RenderResult:
    scene = render.Scene(mat_image, RENDER_MAT, 4.0, cards)
    return render.render(scene, RENDER_CAMERA, render.Lighting.daylight(),
                         np.random.default_rng(1))


def _worst_mm(cal: Calibration, result: render.RenderResult) -> float:
    """The calibration's worst error over the mat (mm) against the renderer's truth."""
    truth_px = cv2.perspectiveTransform(GRID_MM.reshape(-1, 1, 2),
                                        result.homography_mat_to_image).reshape(-1, 2)
    return float(np.linalg.norm(cal.image_to_mat(truth_px) - GRID_MM, axis=1).max())


def _on_tag(tag_id: int, dx: float = 0.0, dy: float = 0.0) -> render.CardPlacement:
    """A face-down card on the tag (covering it), or beside it by (dx, dy) mm."""
    x, y = RENDER_MAT.tags[tag_id].center_mm
    return render.CardPlacement(paint_back("#6b3f1d", (63, 88), 8.0), (x + dx, y + dy), 0.0)


def _half_over_tag_1() -> render.CardPlacement:
    """A card whose edge lies on tag 1's white surround: ArUco still finds the tag, with
    corners pulled about 5 mm off."""
    return _on_tag(1, -51.5, 10.0)


def test_a_rendered_frame_with_all_four_tags(rendered_mat: NDArray[np.uint8]) -> None:
    result = _render(rendered_mat, [])
    cal = calibrate(result.image, RENDER_MAT)
    assert cal.tags_seen == (0, 1, 2, 3) and cal.tags_dropped == ()
    assert _worst_mm(cal, result) < 0.5


@pytest.mark.parametrize("covered", [(2, 3), (1, 3)])  # two tags left side by side, diagonal
def test_two_clean_tags_calibrate(rendered_mat: NDArray[np.uint8],
                                  covered: tuple[int, int]) -> None:
    result = _render(rendered_mat, [_on_tag(i) for i in covered])
    cal = calibrate(result.image, RENDER_MAT)
    assert cal.tags_seen == tuple(i for i in range(4) if i not in covered)
    assert _worst_mm(cal, result) < 1.5


def test_a_half_covered_tag_that_disagrees_is_dropped(rendered_mat: NDArray[np.uint8]) -> None:
    for extra, seen in (([], (0, 2, 3)), ([_on_tag(3)], (0, 2))):
        result = _render(rendered_mat, [_half_over_tag_1(), *extra])
        found = find_tags(to_grey(result.image), RENDER_MAT)
        assert not found[1].clean and found[0].clean
        truth = np.linalg.inv(result.homography_mat_to_image)
        pulled = cv2.perspectiveTransform(found[1].image_px.reshape(-1, 1, 2), truth)
        assert np.abs(pulled.reshape(-1, 2) - found[1].mat_mm).max() > 3.0  # found, but off
        cal = calibrate(result.image, RENDER_MAT)
        assert (cal.tags_seen, cal.tags_dropped) == (seen, (1,))
        assert _worst_mm(cal, result) < 1.5


def test_one_clean_tag_and_a_half_covered_one_are_not_enough_alone(
        rendered_mat: NDArray[np.uint8]) -> None:
    frame = _render(rendered_mat, [_half_over_tag_1(), _on_tag(2), _on_tag(3)]).image
    with pytest.raises(TableNotFound, match="saw 2 of the 4 mat tags, but not 2 clean ones"):
        calibrate(frame, RENDER_MAT)
    before = calibrate(_render(rendered_mat, []).image, RENDER_MAT)
    assert calibrate(frame, RENDER_MAT, previous=before) is before  # tag 0 agrees with it


def test_with_the_previous_calibration_one_tag_is_enough(
        rendered_mat: NDArray[np.uint8]) -> None:
    before = calibrate(_render(rendered_mat, []).image, RENDER_MAT)
    frame = _render(rendered_mat, [_on_tag(1), _on_tag(2), _on_tag(3)]).image
    with pytest.raises(TableNotFound, match="saw 1 of the 4"):
        calibrate(frame, RENDER_MAT)
    assert calibrate(frame, RENDER_MAT, previous=before) is before
    smaller = cv2.resize(frame, (640, 360))  # another camera mode: the previous does not apply
    with pytest.raises(TableNotFound, match="saw 1 of the 4"):
        calibrate(smaller, RENDER_MAT, previous=before)


def test_a_pushed_mat_is_followed_from_one_tag(scene: Any) -> None:
    before = calibrate(scene.frame(), scene.mat)
    turn, shift = np.radians(2.0), np.array([12.0, -7.0])  # the mat turned and slid
    push = np.array([[np.cos(turn), -np.sin(turn), shift[0]],
                     [np.sin(turn), np.cos(turn), shift[1]], [0.0, 0.0, 1.0]])
    corners = np.array([[0, 0], [594, 0], [594, 420], [0, 420]], np.float64).reshape(-1, 1, 2)
    moved = cv2.perspectiveTransform(cv2.perspectiveTransform(corners, push), scene.mat_to_frame())
    scene.corners_in_frame = moved.reshape(4, 2).astype(np.float32)
    for x, y in [(554, 40), (554, 380), (40, 380)]:  # arms over three tags
        scene.add_blob((150, 170, 210), (x, y), (110, 110), ellipse=True)
    after = calibrate(scene.frame(), scene.mat, previous=before)
    assert after is not before and after.tags_seen == (0,)
    grid = GRID_MM.reshape(-1, 1, 2)
    truth = cv2.perspectiveTransform(grid, scene.mat_to_frame()).reshape(-1, 2)
    assert np.abs(after.mat_to_image(GRID_MM) - truth).max() < 2.0  # pixels
