"""Calibration: the mat found from its tags, in a synthetic frame with a known camera."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from vision.calibration import BadFrame, TableNotFound, calibrate, check_frame, to_grey


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
