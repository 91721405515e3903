"""A still table is read once: a frame within the camera's noise of the last frame read in
full gets its reading again; a card moved by 1 mm or turned by 1.5 degrees, a fingertip
coming in, a change of light, an unknown card or a covered mat are read in full."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from firmware.enrollment import build_reader
from firmware.tracker import Tracker, TrackerSettings
from referee.games import get_game
from vision.calibration import calibrate
from vision.mat import MAT_BGR, default_mat
from vision.still import StillTest
from vision.table_reader import FULL_READS, TableReader

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
#: A still table of a recorded session: dim light, dark mat, six cards named (two of them
#: backs, brown on the dark mat: the faintest edges), each stacked pair alike.
STILL = FIXTURES / "deserto" / "two-players-hands-dim" / "frames" / "00606.jpg"
SKIN_BGR = (80.0, 115.0, 160.0)

Image = NDArray[np.uint8]


def next_frame(image: Image, seed: int) -> Image:
    """The camera's next frame of the same scene: fresh sensor noise (sigma 3 grey levels)
    and a JPEG round trip at quality 50, as the recorded sessions' frames."""
    noise = np.random.default_rng(seed).normal(0.0, 3.0, image.shape)
    noisy = np.clip(image + noise, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, 50])
    assert ok
    return np.asarray(cv2.imdecode(jpeg, cv2.IMREAD_COLOR), np.uint8)


def moved_card(image: Image, corners: list[list[float]], matrix: NDArray[np.float64]) -> Image:
    """The frame with one card (its outline grown 2 px: its blurred rim) moved by the
    affine `matrix`; the mat it leaves keeps the card's old pixels (the change is less)."""
    h, w = image.shape[:2]
    moved = cv2.warpAffine(image, matrix, (w, h), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE)
    outline = cv2.transform(np.array(corners, np.float32).reshape(1, -1, 2), matrix)[0]
    mask = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(mask, np.round(outline).astype(np.int32), 255)
    inside = cv2.dilate(mask, np.ones((5, 5), np.uint8)) > 0
    out = image.copy()
    out[inside] = moved[inside]
    return out


@pytest.fixture(scope="module")
def still_frame() -> Image:
    image = cv2.imread(str(STILL))
    assert image is not None
    return np.asarray(image, np.uint8)


@pytest.fixture()
def reader() -> TableReader:
    return build_reader(get_game("deserto").deck, default_mat())


def read_in_full(reader: TableReader, image: Image, seed: int = 100) -> Any:
    """Read a still table as often as it is read in full; the last reading."""
    readings = [reader.read(image if n == 0 else next_frame(image, seed + n))
                for n in range(FULL_READS)]
    assert not any(r.repeated for r in readings)
    return readings[-1]


def settle_again(reader: TableReader, image: Image, seed: int) -> None:
    """The table back as it was after a change read in full: after FULL_READS frames of it
    (a frame read alike just before them may count among them) it is read once again."""
    for n in range(FULL_READS):
        reader.read(next_frame(image, seed + n))
    assert reader.read(next_frame(image, seed + FULL_READS)).repeated


def test_a_still_table_is_read_once(reader: TableReader, still_frame: Image) -> None:
    """Once the tracker's agreeing frames have each read it in full."""
    first = read_in_full(reader, still_frame)
    assert len(first.cards) == 6 and all(c.code for c in first.cards)
    for seed in range(4):
        again = reader.read(next_frame(still_frame, seed))
        assert again.repeated
        assert [(c.code, c.corners_px) for c in again.cards] == [
            (c.code, c.corners_px) for c in first.cards]
        assert again.thumbnail is first.thumbnail and again.obstructed is False
    # the reading given again is the caller's: changing it leaves the kept one as it was
    again.cards.clear()
    assert len(reader.read(next_frame(still_frame, 9)).cards) == 6


def card_steps(reader: TableReader, corners: list[list[float]]
               ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """A card's centre in the frame, and the frame pixels of 1 mm along the mat's x and y
    there."""
    cal = reader.calibration
    assert cal is not None
    centre = np.mean(np.array(corners), axis=0)
    at_mm = cal.image_to_mat(centre[None])[0]
    x_px, y_px = cal.mat_to_image(np.array([at_mm + (1.0, 0.0), at_mm + (0.0, 1.0)]))
    return centre, x_px - centre, y_px - centre


@pytest.mark.parametrize("change", ["moved 1 mm", "turned 1.5 degrees"])
def test_a_card_moved_a_little_is_read_again(reader: TableReader, still_frame: Image,
                                             change: str) -> None:
    first = read_in_full(reader, still_frame)
    for i, card in enumerate(first.cards):  # each card: backs, faces, on a pile
        centre, along_x, along_y = card_steps(reader, card.corners_px)
        for direction in range(4):
            if change == "moved 1 mm":
                angle = direction * np.pi / 2 + 0.4
                step = np.cos(angle) * along_x + np.sin(angle) * along_y
                matrix = np.array([[1.0, 0.0, step[0]], [0.0, 1.0, step[1]]])
            else:
                turn = 1.5 if direction % 2 else -1.5
                matrix = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), turn, 1.0)
            frame = next_frame(moved_card(still_frame, card.corners_px, matrix), 10 * i + direction)
            assert not reader.read(frame).repeated, (card.code, change, direction)
            settle_again(reader, still_frame, 1000 + 10 * i + direction)


def test_a_fingertip_coming_in_is_read_again(reader: TableReader, still_frame: Image) -> None:
    """A bare fingertip (a skin of the renderer's hands, lit as the mat is) 13 mm over each
    of the mat's edges."""
    read_in_full(reader, still_frame)
    cal = reader.calibration
    assert cal is not None
    mat = cal.mat
    inside = np.zeros(still_frame.shape[:2], np.uint8)
    corners = cal.mat_to_image(np.array([[0.0, 0.0], [mat.width_mm, 0.0],
                                         [mat.width_mm, mat.height_mm], [0.0, mat.height_mm]]))
    cv2.fillConvexPoly(inside, np.round(corners).astype(np.int32), 255)
    light = np.median(still_frame[inside > 0], axis=0) / np.array(MAT_BGR)
    skin = tuple(float(c) for c in np.array(SKIN_BGR) * light)
    w, h = mat.width_mm, mat.height_mm
    for n, ((x, y), (dx, dy)) in enumerate([((w * 0.3, 0.0), (0, 1)), ((w, h * 0.6), (-1, 0)),
                                            ((w * 0.7, h), (0, -1)), ((0.0, h * 0.4), (1, 0))]):
        turns = np.radians(np.arange(0, 360, 15))
        tip = (np.array([x + 13 * dx, y + 13 * dy]) + np.outer(13 * np.cos(turns), (dx, dy))
               + np.outer(9 * np.sin(turns), (-dy, dx)))
        frame = still_frame.copy()
        cv2.fillPoly(frame, [np.round(cal.mat_to_image(tip)).astype(np.int32)], skin,
                     lineType=cv2.LINE_AA)
        assert not reader.read(next_frame(frame, n)).repeated, n
        settle_again(reader, still_frame, 50 + 10 * n)


def test_a_change_of_light_is_read_again(reader: TableReader, still_frame: Image) -> None:
    """The camera's exposure drifting 3 % a frame: compared with the last frame read in
    full, not the frame before, so the drift adds up to a full read."""
    read_in_full(reader, still_frame)
    repeated = []
    for step in range(1, 5):
        brighter = np.asarray(cv2.convertScaleAbs(still_frame, alpha=1 + 0.03 * step), np.uint8)
        repeated.append(reader.read(next_frame(brighter, step)).repeated)
    assert not all(repeated)


def test_an_unknown_card_is_read_in_full_every_frame(still_frame: Image) -> None:
    """Deserto's table read by a reader of UNO's faces: no card named, each frame tried."""
    deserto = get_game("deserto").deck
    reader = build_reader(get_game("uno").deck, default_mat())
    reader.card_mm = deserto.card_mm
    first = reader.read(still_frame)
    assert first.cards and any(c.code is None for c in first.cards)
    for seed in range(FULL_READS + 1):
        assert not reader.read(next_frame(still_frame, seed)).repeated


def test_a_covered_mat_is_read_in_full_every_frame(reader: TableReader,
                                                   still_frame: Image) -> None:
    read_in_full(reader, still_frame)
    arm = still_frame.copy()
    cv2.ellipse(arm, (400, 300), (150, 60), 30, 0, 360, (40, 60, 90), -1)
    for seed in range(FULL_READS + 1):
        reading = reader.read(arm if seed == 0 else next_frame(arm, seed))
        assert reading.obstructed and not reading.repeated


def test_calibration_full_frames_and_learning_stay_right(reader: TableReader,
                                                         still_frame: Image) -> None:
    read_in_full(reader, still_frame)
    first = reader.calibration
    counted = reader._frames
    assert reader.read(next_frame(still_frame, 1)).repeated
    assert reader._frames == counted + 1  # the mat model learns on the frames it always did
    given = calibrate(still_frame, default_mat())
    assert not reader.read(next_frame(still_frame, 2), calibration=given).repeated
    assert reader.calibration is given
    for seed in range(3, 3 + FULL_READS):
        reader.read(next_frame(still_frame, seed), calibration=given)
    assert reader.read(next_frame(still_frame, 9), calibration=given).repeated
    reader.recalibrate()
    assert not reader.read(next_frame(still_frame, 10)).repeated
    assert reader.calibration is not first
    full = cv2.resize(still_frame, (1600, 900))
    assert not reader.read(still_frame, full=full).repeated  # now named from a full frame
    for _ in range(FULL_READS):
        reader.read(still_frame, full=full)
    assert reader.read(still_frame, full=full).repeated
    assert not reader.read(still_frame).repeated  # and no longer
    off = TableReader(default_mat(), reader.identifier, reader.card_mm, reuse_still=False)
    for _ in range(FULL_READS + 1):
        assert not off.read(still_frame).repeated


def test_the_still_test_compares_the_mat_alone(still_frame: Image) -> None:
    """What lies beyond the mat (a player's arm resting on the table) is no part of it."""
    cal = calibrate(still_frame, default_mat())
    still = StillTest.plan(cal, still_frame.shape)
    before = still.picture(still_frame)
    beyond = still_frame.copy()
    x0, y0, x1, y1 = still.box
    beyond[:, : max(x0 - 1, 0)] = 255
    beyond[: max(y0 - 1, 0)] = 0
    assert still.same(before, beyond)
    smaller = np.asarray(cv2.resize(still_frame, (640, 360)), np.uint8)
    assert not still.same(before, smaller)  # another size


def test_the_tracker_settles_on_frames_read_in_full(reader: TableReader,
                                                   still_frame: Image) -> None:
    """The tracker's agreeing frames each read the table anew (a pile's outline picked a
    degree apart settles as their median); the repeated readings after them, the same
    thumbnail again, are no motion and no new view."""
    assert TrackerSettings().agreeing_frames <= FULL_READS
    tracker = Tracker(default_mat().center_mm)
    frames = [still_frame, *(next_frame(still_frame, seed) for seed in range(8))]
    readings = [reader.read(frame) for frame in frames]
    views = [tracker.update(reading) for reading in readings]
    assert [r.repeated for r in readings] == [False] * FULL_READS + [True] * (9 - FULL_READS)
    assert [v is not None for v in views] == [n == FULL_READS - 1 for n in range(9)]
