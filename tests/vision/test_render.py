"""The scene renderer: deterministic, geometrically truthful, and each effect visible."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision.mat import MatSpec, default_mat, render_mat
from vision.render import (
    CLUTTER_KINDS,
    CameraPose,
    CardPlacement,
    Clutter,
    Glare,
    HandPose,
    Lighting,
    RenderResult,
    Scene,
    card_corners_px,
    random_layout,
    render,
)

MAT_PPM = 3.0
MAT = default_mat()
TILTED = CameraPose(tilt_deg=15.0, yaw_deg=30.0, roll_deg=-25.0, fill=0.8)
NEUTRAL = Lighting()
CLEAN = {"blur_sigma": 0.0, "noise_sigma": 0.0, "jpeg_quality": None}

Image = NDArray[np.uint8]


@pytest.fixture(scope="module")
def mat_image() -> Image:
    return render_mat(MAT, MAT_PPM)


def marked_card(colour: tuple[int, int, int] = (0, 0, 230)) -> Image:
    """A plain card with a white margin and a blue square in its top-left quarter, so
    that both its position and its orientation can be checked."""
    img = np.full((352, 252, 3), 255, np.uint8)
    img[12:-12, 12:-12] = colour
    img[12:120, 12:90] = (230, 0, 0)
    return img


def scene_with(mat_image: Image, cards: list[CardPlacement], hand: HandPose | None = None,
               clutter: list[Clutter] | None = None) -> Scene:
    return Scene(mat_image, MAT, MAT_PPM, cards, hand, clutter or [])


def sample(image: Image, point: NDArray[np.float64]) -> NDArray[np.int64]:
    x, y = np.round(point).astype(int)
    return image[y, x].astype(np.int64)


def is_red(bgr: NDArray[np.int64]) -> bool:
    return bool(bgr[2] > 150 and bgr[0] < 90 and bgr[1] < 90)


def is_blue(bgr: NDArray[np.int64]) -> bool:
    return bool(bgr[0] > 150 and bgr[2] < 90 and bgr[1] < 90)


def full_scene(mat_image: Image, seed: int) -> tuple[Scene, CameraPose, Lighting]:
    rng = np.random.default_rng(seed)
    cards = random_layout(rng, MAT, [(f"c{i}", marked_card()) for i in range(8)])
    scene = scene_with(mat_image, cards, HandPose.random(rng, MAT),
                       [Clutter.random(rng, MAT) for _ in range(2)])
    return scene, CameraPose.random(rng), Lighting.random(rng)


def test_same_seed_same_frame_and_other_seed_another(mat_image: Image) -> None:
    frames = []
    for seed in (5, 5, 6):
        scene, camera, lighting = full_scene(mat_image, seed)
        frames.append(render(scene, camera, lighting, np.random.default_rng(seed)).image)
    assert np.array_equal(frames[0], frames[1])
    assert not np.array_equal(frames[0], frames[2])


@pytest.mark.parametrize("resolution", [(1280, 720), (640, 480)])
def test_frame_has_the_camera_size_and_is_bgr_bytes(mat_image: Image,
                                                    resolution: tuple[int, int]) -> None:
    camera = CameraPose.random(np.random.default_rng(1), resolution)
    result = render(scene_with(mat_image, []), camera, Lighting.daylight(),
                    np.random.default_rng(1))
    assert result.image.shape == (resolution[1], resolution[0], 3)
    assert result.image.dtype == np.uint8
    assert result.card_corners_px == [] and result.visible_fraction == []


@pytest.mark.parametrize("lift_mm", [0.0, 40.0])
def test_ground_truth_corners_land_on_the_card(mat_image: Image, lift_mm: float) -> None:
    card = CardPlacement(marked_card(), (300.0, 200.0), 35.0, lift_mm=lift_mm)
    scene = scene_with(mat_image, [card])
    result = render(scene, TILTED, NEUTRAL, np.random.default_rng(0), **CLEAN)
    corners = result.card_corners_px[0]
    assert np.allclose(corners, card_corners_px(scene, TILTED, card))
    centre = corners.mean(axis=0)
    tl, tr, br, bl = corners
    assert is_blue(sample(result.image, tl + 0.2 * (centre - tl)))  # the marked quarter
    for corner in (tr, br, bl):
        assert is_red(sample(result.image, corner + 0.2 * (centre - corner)))
    for corner in corners:  # just outside the card is mat, not card
        assert not is_red(sample(result.image, corner + 0.15 * (corner - centre)))
    assert result.visible_fraction == [pytest.approx(1.0, abs=0.05)]


def test_mat_tags_are_where_the_homography_says(mat_image: Image) -> None:
    result = render(scene_with(mat_image, []), TILTED, Lighting.warm_lamp(),
                    np.random.default_rng(0))
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(dictionary, params)
    corners, ids, _ = detector.detectMarkers(result.image)
    assert ids is not None and sorted(ids.ravel().tolist()) == [0, 1, 2, 3]
    for quad, tag_id in zip(corners, ids.ravel(), strict=True):
        tag = MAT.tags[int(tag_id)]
        (cx, cy), half = tag.center_mm, tag.size_mm / 2
        mm = np.array([[cx - half, cy - half, 1], [cx + half, cy - half, 1],
                       [cx + half, cy + half, 1], [cx - half, cy + half, 1]])
        uvw = mm @ result.homography_mat_to_image.T
        expected = uvw[:, :2] / uvw[:, 2:]
        assert np.abs(quad.reshape(4, 2) - expected).max() < 1.0


def test_later_cards_lie_on_top(mat_image: Image) -> None:
    below = CardPlacement(marked_card((0, 0, 230)), (300.0, 200.0), 0.0)
    above = CardPlacement(marked_card((0, 200, 0)), (330.0, 200.0), 0.0)
    result = render(scene_with(mat_image, [below, above]), TILTED, NEUTRAL,
                    np.random.default_rng(0), **CLEAN)
    overlap_mm = np.array([[315.0, 210.0]])
    h = result.homography_mat_to_image
    uvw = np.column_stack([overlap_mm, [1.0]]) @ h.T
    bgr = sample(result.image, (uvw[:, :2] / uvw[:, 2:])[0])
    assert bgr[1] > 150 and bgr[2] < 90
    assert result.visible_fraction[0] < 0.7 and result.visible_fraction[1] > 0.95


def test_hand_and_clutter_change_the_frame_and_hide_cards(mat_image: Image) -> None:
    card = CardPlacement(marked_card(), (300.0, 210.0), 0.0)
    hand = HandPose(reach_mm=(300.0, 210.0), angle_deg=-90.0, height_mm=60.0)

    def frame(scene: Scene) -> RenderResult:
        return render(scene, TILTED, NEUTRAL, np.random.default_rng(3), **CLEAN)

    bare = frame(scene_with(mat_image, [card]))
    with_hand = frame(scene_with(mat_image, [card], hand=hand))
    changed = np.any(bare.image != with_hand.image, axis=2).mean()
    assert changed > 0.05
    assert with_hand.visible_fraction[0] < 0.5 < bare.visible_fraction[0]
    for kind in CLUTTER_KINDS:
        item = Clutter(kind, (300.0, -30.0), 20.0, (200.0, 60.0, 60.0))
        with_item = frame(scene_with(mat_image, [card], clutter=[item]))
        assert np.any(bare.image != with_item.image, axis=2).sum() > 150, kind


def test_jpeg_quality_sets_the_encoded_size(mat_image: Image) -> None:
    scene, camera, lighting = full_scene(mat_image, 2)
    sizes = {q: render(scene, camera, lighting, np.random.default_rng(2), jpeg_quality=q)
             for q in (30, 95)}
    assert sizes[30].jpeg_bytes < 0.7 * sizes[95].jpeg_bytes
    raw = render(scene, camera, lighting, np.random.default_rng(2), jpeg_quality=None)
    assert raw.jpeg_bytes == 0
    error = {q: np.abs(r.image.astype(int) - raw.image).mean() for q, r in sizes.items()}
    assert error[30] > error[95]


def test_lighting_presets_shift_colour_and_brightness(mat_image: Image) -> None:
    card = CardPlacement(np.full((352, 252, 3), 235, np.uint8), (297.0, 210.0), 0.0)

    def frame(lighting: Lighting) -> NDArray[np.float64]:
        image = render(scene_with(mat_image, [card]), TILTED, lighting,
                       np.random.default_rng(0), **CLEAN).image
        means: NDArray[np.float64] = image.reshape(-1, 3).mean(axis=0)
        return means

    neutral, warm = frame(NEUTRAL), frame(Lighting.warm_lamp())
    cool, dim = frame(Lighting.daylight()), frame(Lighting.dim())
    ratio = {name: m[2] / m[0] for name, m in
             (("neutral", neutral), ("warm", warm), ("cool", cool))}
    assert ratio["warm"] > 1.3 * ratio["neutral"]
    assert ratio["cool"] < ratio["neutral"]
    assert dim.mean() < 0.6 * neutral.mean()
    glare = Lighting(glare=Glare(center=(0.5, 0.5), radius=0.1, strength=0.7))
    assert frame(glare).mean() > neutral.mean() + 3


def test_random_cameras_keep_the_whole_mat_in_view() -> None:
    rng = np.random.default_rng(11)
    for _ in range(200):
        camera = CameraPose.random(rng)
        assert 0 <= camera.tilt_deg <= 20 and 0.6 <= camera.fill <= 0.85
        uvw = mat_corners(MAT) @ camera.homography(MAT).T
        uv = uvw[:, :2] / uvw[:, 2:]
        w, h = camera.resolution
        margin = 0.05 * h
        assert np.all(uv >= margin) and np.all(uv[:, 0] <= w - margin)
        assert np.all(uv[:, 1] <= h - margin)


def mat_corners(spec: MatSpec) -> NDArray[np.float64]:
    w, h = spec.width_mm, spec.height_mm
    return np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], dtype=np.float64)


def test_random_layout_stays_on_the_mat_clear_of_the_tags() -> None:
    rng = np.random.default_rng(4)
    for _ in range(20):
        cards = random_layout(rng, MAT, [(str(i), marked_card()) for i in range(10)],
                              p_touch=0.4, p_overlap=0.3)
        assert len(cards) == 10
        for card in cards:
            xy = card.corners_mm()[:, :2]
            assert np.all(xy > 0) and np.all(xy[:, 0] < MAT.width_mm)
            assert np.all(xy[:, 1] < MAT.height_mm)
            for tag in MAT.tags:
                assert np.hypot(*(np.array(card.center_mm) - tag.center_mm)) > 80


def test_random_clutter_keeps_off_the_tags() -> None:
    rng = np.random.default_rng(9)
    for _ in range(100):
        item = Clutter.random(rng, MAT)
        for tag in MAT.tags:
            assert np.hypot(*(np.array(item.center_mm) - tag.center_mm)) > tag.size_mm
