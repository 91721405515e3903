"""The table reader end to end: frames in, coded cards with positions out."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.vision.recorded import recorded_views
from vision import render
from vision.calibration import BadFrame, TableNotFound, calibrate
from vision.cards import CardQuad, warp_patch
from vision.foreign_decks import DESIGNS, paint_deck
from vision.identify import CardIdentifier
from vision.mat import default_mat, render_mat
from vision.table_reader import (
    MAX_COVERED,
    MIN_COVERED,
    SeenCard,
    SharpCut,
    TableReader,
    TopDownWarp,
    cut_sharp,
    fill_covered,
)
from vision.template_identifier import TemplateIdentifier

CARD = (63.0, 88.0)
DECKS = Path(__file__).resolve().parents[2] / "referee" / "decks"


@pytest.fixture(scope="module")
def identifier(faces: Any) -> CardIdentifier:
    return CardIdentifier.from_references(faces, np.random.default_rng(0))


def codes_at(reading: Any) -> dict[tuple[int, int], str | None]:
    return {(round(c.table_mm[0] / 10), round(c.table_mm[1] / 10)): c.code for c in reading.cards}


def test_reads_a_table(scene: Any, faces: Any, identifier: CardIdentifier) -> None:
    cx, cy = scene.mat.center_mm
    square = {(cx - 31.5, cy - 44): "vizier", (cx + 31.5, cy - 44): "brigand",
              (cx - 31.5, cy + 44): "treasure", (cx + 31.5, cy + 44): "oasis"}
    for spot, code in square.items():
        scene.add_card(faces[code], spot)
    scene.add_card(faces["back"], (120, 300), 100)
    scene.add_card(faces["vizier"], (480, 250), 200)
    reader = TableReader(scene.mat, identifier, CARD)
    reading = reader.read(scene.frame())
    expected = {(round(x / 10), round(y / 10)): c for (x, y), c in square.items()}
    expected |= {(12, 30): "back", (48, 25): "vizier"}
    assert codes_at(reading) == expected
    assert not reading.obstructed
    assert reading.thumbnail.shape == (210, 297) and reading.thumbnail.dtype == np.uint8
    truth = cv2.perspectiveTransform(np.array([[[120.0, 300.0]]]), scene.mat_to_frame())[0, 0]
    back = next(c for c in reading.cards if c.code == "back")
    assert np.allclose(np.mean(back.corners_px, axis=0), truth, atol=3.0)


def test_seen_card_json_shape() -> None:
    card = SeenCard("oasis", 0.93, [[1.0, 2.0], [3.0, 2.0], [3.0, 5.0], [1.0, 5.0]], (10.0, 20.0))
    data = card.to_json()
    assert data == {"code": "oasis", "confidence": 0.93,
                    "corners": [[1.0, 2.0], [3.0, 2.0], [3.0, 5.0], [1.0, 5.0]],
                    "table_mm": [10.0, 20.0]}
    assert json.loads(json.dumps(data)) == data
    assert SeenCard(None, 0.1, [[0.0, 0.0]] * 4).to_json()["table_mm"] is None


def test_the_top_down_view_is_opencvs_warp_of_the_frame(scene: Any) -> None:
    frame = scene.frame()
    for image in (frame, cv2.resize(frame, (2560, 1440))):  # the second is halved first
        cal = calibrate(image, scene.mat)
        plan = TopDownWarp.plan(cal, image.shape, 1.0)
        assert plan.halve == (image is not frame)
        for view in (image, cv2.add(image, 40)):  # a next frame through the same plan
            h, source = cal.mat_to_warp_h(1.0), view
            if plan.halve:
                source = cv2.resize(view, (1280, 720), interpolation=cv2.INTER_AREA)
                h = h @ np.array([[2.0, 0.0, 0.5], [0.0, 2.0, 0.5], [0.0, 0.0, 1.0]])
            expected = cv2.warpPerspective(source, h, (594, 420), flags=cv2.INTER_LINEAR)
            assert np.array_equal(plan.warp(view), expected)


def test_calibrates_once_and_again_when_asked(scene: Any, identifier: CardIdentifier) -> None:
    reader = TableReader(scene.mat, identifier, CARD)
    frame = scene.frame()
    reader.read(frame)
    first = reader.calibration
    reader.read(frame)
    assert reader.calibration is first
    reader.recalibrate()
    reader.read(frame)
    assert reader.calibration is not first
    given = calibrate(frame, scene.mat)
    reader.read(frame, calibration=given)
    assert reader.calibration is given


def test_follows_a_moved_mat_and_keeps_calibration_under_a_hand(
        scene: Any, faces: Any, identifier: CardIdentifier) -> None:
    scene.add_card(faces["oasis"], (300, 200))
    reader = TableReader(scene.mat, identifier, CARD)
    reader.read(scene.frame())
    first = reader.calibration
    scene.corners_in_frame += np.float32([40, 25])  # the mat was pushed
    reading = reader.read(scene.frame())
    assert reader.calibration is not first
    assert codes_at(reading) == {(30, 20): "oasis"}
    moved = reader.calibration
    for x, y in [(40, 40), (554, 40), (554, 380)]:  # arms over three tags
        scene.add_blob((150, 170, 210), (x, y), (110, 110), ellipse=True)
    reading = reader.read(scene.frame())
    assert reader.calibration is moved
    assert reading.obstructed


def test_a_hand_over_the_mat_is_obstruction(scene: Any, faces: Any,
                                           identifier: CardIdentifier) -> None:
    scene.add_card(faces["treasure"], (200, 200))
    scene.add_blob((150, 170, 210), (420, 330), (110, 200), 60, ellipse=True)
    reading = TableReader(scene.mat, identifier, CARD).read(scene.frame())
    assert reading.obstructed
    assert codes_at(reading) == {(20, 20): "treasure"}


def test_bad_input(scene: Any, identifier: CardIdentifier) -> None:
    reader = TableReader(scene.mat, identifier, CARD)
    with pytest.raises(BadFrame):
        reader.read(None)
    with pytest.raises(TableNotFound):
        reader.read(np.full((720, 1280, 3), 90, np.uint8))


def test_reads_a_rendered_scene_with_tilt_cast_and_hand(faces: Any,
                                                       identifier: CardIdentifier) -> None:
    mat = default_mat()
    mat_image = render_mat(mat, 4.0)
    cards = [
        render.CardPlacement(faces["vizier"], (240.0, 166.0), 0.0, label="vizier"),
        render.CardPlacement(faces["brigand"], (303.0, 166.0), 0.0, label="brigand"),
        render.CardPlacement(faces["treasure"], (240.0, 254.0), 0.0, label="treasure"),
        render.CardPlacement(faces["oasis"], (303.0, 254.0), 0.0, label="oasis"),
        render.CardPlacement(faces["back"], (110.0, 120.0), 35.0, label="back"),
        render.CardPlacement(faces["oasis"], (470.0, 120.0), -20.0, label="oasis"),
    ]
    camera = render.CameraPose(tilt_deg=15.0, yaw_deg=30.0, roll_deg=-30.0)
    empty = render.Scene(mat_image, mat, 4.0, [])
    rng = np.random.default_rng(11)
    reader = TableReader(mat, identifier, CARD)
    reader.read(render.render(empty, camera, render.Lighting.warm_lamp(), rng).image)
    hand = render.HandPose(reach_mm=(480.0, 330.0), angle_deg=180.0, height_mm=60.0)
    scene = render.Scene(mat_image, mat, 4.0, cards, hand)
    frame = render.render(scene, camera, render.Lighting.warm_lamp(), rng).image
    reading = reader.read(frame)
    assert reading.obstructed
    seen = codes_at(reading)
    for card in cards:
        key = (round(card.center_mm[0] / 10), round(card.center_mm[1] / 10))
        assert seen.get(key) == card.label, (key, seen)


def test_cards_found_on_the_small_frame_are_named_from_the_full_one(
        faces: Any, identifier: CardIdentifier) -> None:
    """A camera's two streams of one instant: the reading (codes, corners in the small
    frame's pixels) is that of the small frame, the patches come from the full frame."""
    mat = default_mat()
    mat_image = render_mat(mat, 4.0)
    cards = [render.CardPlacement(faces[code], centre, angle, label=code) for code, centre, angle
             in [("vizier", (240.0, 166.0), 0.0), ("brigand", (330.0, 200.0), 12.0),
                 ("back", (110.0, 120.0), 35.0), ("oasis", (470.0, 120.0), -20.0)]]
    camera = render.CameraPose(tilt_deg=12.0, yaw_deg=20.0, roll_deg=-10.0,
                               resolution=(2560, 1440))
    rng = np.random.default_rng(5)
    light = render.Lighting.daylight()
    frames = [render.render(render.Scene(mat_image, mat, 4.0, on), camera, light, rng).image
              for on in ([], cards)]
    small = [cv2.resize(f, (1280, 720), interpolation=cv2.INTER_AREA) for f in frames]
    alone, twinned = TableReader(mat, identifier, CARD), TableReader(mat, identifier, CARD)
    alone.read(small[0])
    twinned.read(small[0], full=frames[0])
    by_itself, with_full = alone.read(small[1]), twinned.read(small[1], full=frames[1])
    assert codes_at(with_full) == codes_at(by_itself) == {
        (round(c.center_mm[0] / 10), round(c.center_mm[1] / 10)): c.label for c in cards}
    assert [c.corners_px for c in with_full.cards] == [c.corners_px for c in by_itself.cards]
    with pytest.raises(BadFrame, match="not a larger view"):
        twinned.read(small[1], full=cv2.resize(frames[1], (2560, 1920)))


def test_a_patch_cut_from_many_pixels_is_their_mean_not_a_sample_of_them() -> None:
    """Print finer than a patch pixel (a 1-pixel check seen at 3 image pixels a patch pixel)
    comes out near its mean grey, where sampling alone aliases it into a coarse check."""
    check = np.indices((264, 192)).sum(axis=0) % 2 * 255
    image = np.dstack([check] * 3).astype(np.uint8)
    corners = np.array([[0.0, 0.0], [192.0, 0.0], [192.0, 264.0], [0.0, 264.0]]) - 0.5
    patch = cut_sharp(image, corners, (64, 88))
    sampled = warp_patch(image, corners, (64, 88))
    assert patch.shape == sampled.shape == (88, 64, 3)
    assert patch[4:-4, 4:-4].std() < 20 < 100 < sampled[4:-4, 4:-4].std()
    assert abs(float(patch[4:-4, 4:-4].mean()) - 127.5) < 3


def test_patches_cut_together_are_those_cut_one_by_one() -> None:
    """The full frame's patches cut at once (most from a BGRA copy of the parts under them)
    are cut_sharp's pixel for pixel: tiles and cards of any size and turn, some over the
    frame's edge, the buffer holding the previous frame's pixels elsewhere."""
    rng = np.random.default_rng(7)
    cutter = SharpCut.for_frames((648, 1152, 3))
    for _ in range(3):
        noise = rng.integers(0, 256, (648, 1152, 3), np.uint8)
        image = np.asarray(cv2.GaussianBlur(noise, (3, 3), 0), np.uint8)
        centres = rng.uniform((-20.0, -20.0), (1172.0, 668.0), (40, 2))
        scales = rng.uniform(0.5, 7.0, 40)
        turns = rng.uniform(0.0, 2 * np.pi, 40)
        along = np.stack([np.cos(turns), np.sin(turns)], axis=1)
        across = np.stack([-along[:, 1], along[:, 0]], axis=1)
        half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) / 2
        corners = (centres[:, None] + scales[:, None, None] * (
            half[None, :, :1] * 20 * along[:, None] + half[None, :, 1:] * 30 * across[:, None])
            + rng.normal(0.0, 0.5, (40, 4, 2)))
        together = cutter.cut(image, corners, (64, 88))
        one_by_one = np.stack([cut_sharp(image, c, (64, 88)) for c in corners])
        assert together.shape == (40, 88, 64, 3)
        assert np.array_equal(together, one_by_one)


def test_reads_the_top_cards_of_a_square_of_offset_piles(faces: Any,
                                                        identifier: CardIdentifier) -> None:
    """Deserto's 2x2 square of piles: each new card a few mm and degrees off the one below."""
    mat = default_mat()
    mat_image = render_mat(mat, 4.0)
    rng = np.random.default_rng(424242)
    cx, cy = mat.center_mm
    piles = {(-1, -1): ["oasis", "brigand"], (1, -1): ["treasure", "vizier", "oasis"],
             (-1, 1): ["vizier", "treasure"], (1, 1): ["brigand"]}
    cards = []
    for (sx, sy), codes in piles.items():
        for code in codes:
            dx, dy = rng.uniform(-2.5, 2.5, 2)
            centre = (cx + sx * 34.5 + float(dx), cy + sy * 47.0 + float(dy))
            cards.append(render.CardPlacement(faces[code], centre, float(rng.uniform(-4, 4)),
                                              label=code))
    camera = render.CameraPose(tilt_deg=8.0, yaw_deg=20.0, roll_deg=-20.0)
    reader = TableReader(mat, identifier, CARD)
    light = render.Lighting.daylight()
    reader.read(render.render(render.Scene(mat_image, mat, 4.0, []), camera, light, rng).image)
    frame = render.render(render.Scene(mat_image, mat, 4.0, cards), camera, light, rng).image
    reading = reader.read(frame)
    assert not reading.obstructed
    tops = {(sx, sy): codes[-1] for (sx, sy), codes in piles.items()}
    for (sx, sy), code in tops.items():
        spot = (cx + sx * 34.5, cy + sy * 47.0)
        here = [c for c in reading.cards
                if np.hypot(c.table_mm[0] - spot[0], c.table_mm[1] - spot[1]) < 12]
        assert [c.code for c in here] == [code], ((sx, sy), here)


def _rendered(scene: render.Scene, lighting: render.Lighting, seed: int,
              camera: render.CameraPose | None = None) -> tuple[Any, Any]:
    """(empty frame, frame) of a rendered scene: the empty one for the reader to learn from."""
    camera = camera or render.CameraPose(tilt_deg=8.0, yaw_deg=10.0, roll_deg=-5.0)
    rng = np.random.default_rng(seed)
    empty = dataclasses.replace(scene, cards=[], hand=None)
    return (render.render(empty, camera, lighting, rng).image,
            render.render(scene, camera, lighting, rng).image)


def test_glare_beside_cards_is_neither_a_card_nor_a_hand(faces: Any,
                                                          identifier: CardIdentifier) -> None:
    mat = default_mat()
    cards = [render.CardPlacement(faces["vizier"], (300.0, 180.0), 10.0, label="vizier"),
             render.CardPlacement(faces["oasis"], (365.0, 200.0), 12.0, label="oasis"),
             render.CardPlacement(faces["back"], (200.0, 260.0), -30.0, label="back")]
    glare = render.Glare(center=(0.62, 0.62), radius=0.08, strength=0.7)
    light = dataclasses.replace(render.Lighting.daylight(), glare=glare)
    scene = render.Scene(render_mat(mat, 4.0), mat, 4.0, cards)
    empty, frame = _rendered(scene, light, 31)
    reader = TableReader(mat, identifier, CARD)
    assert not reader.read(empty).obstructed
    reading = reader.read(frame)
    assert not reading.obstructed
    assert sorted(c.code or "?" for c in reading.cards) == ["back", "oasis", "vizier"]


def test_a_glare_spot_fitted_as_a_big_card_on_the_bare_mat_is_learnt_as_mat(
        identifier: CardIdentifier) -> None:
    # A lamp's spot on the bare mat, about as large as a 70 x 120 mm card: the first look
    # (against the local estimate of the mat light) fits a card in it. Its outline is no
    # sharp step, so the model learns the glare there, and no card shows in the next frame.
    mat = default_mat()
    scene = render.Scene(render_mat(mat, 4.0), mat, 4.0, [])
    light = dataclasses.replace(render.Lighting.daylight(),
                                glare=render.Glare(center=(0.41, 0.57), radius=0.054,
                                                   strength=0.62))
    camera = render.CameraPose(tilt_deg=14.0, yaw_deg=-127.0, roll_deg=122.0, fov_deg=59.8,
                               fill=0.77)
    empty = render.render(scene, camera, light, np.random.default_rng(3), blur_sigma=0.34,
                          noise_sigma=2.9, jpeg_quality=95).image
    reader = TableReader(mat, identifier, (70.5, 120.5))
    reader.read(empty)
    assert reader.read(empty).cards == []


def test_a_dark_hand_on_the_dark_mat_is_obstruction(faces: Any,
                                                     identifier: CardIdentifier) -> None:
    mat = default_mat()
    cards = [render.CardPlacement(faces["treasure"], (150.0, 150.0), 0.0, label="treasure")]
    hand = render.HandPose(reach_mm=(380.0, 250.0), angle_deg=180.0, height_mm=40.0,
                           skin_bgr=(55, 80, 120), sleeve_bgr=None)
    scene = render.Scene(render_mat(mat, 4.0), mat, 4.0, cards, hand)
    empty, frame = _rendered(scene, render.Lighting.daylight(), 32)
    reader = TableReader(mat, identifier, CARD)
    reader.read(empty)
    reading = reader.read(frame)
    assert reading.obstructed
    assert codes_at(reading) == {(15, 15): "treasure"}


def test_a_hand_there_at_calibration_is_not_learnt_as_mat(
        scene: Any, faces: Any, identifier: CardIdentifier) -> None:
    scene.add_card(faces["oasis"], (150, 150))
    bare = scene.frame()
    scene.add_blob((150, 170, 210), (420, 300), (110, 200), 60, ellipse=True)
    reader = TableReader(scene.mat, identifier, CARD)
    assert reader.read(scene.frame()).obstructed  # calibrated with the hand over the mat
    reading = reader.read(bare)  # the hand has gone
    assert not reading.obstructed
    assert codes_at(reading) == {(15, 15): "oasis"}
    assert reader.read(scene.frame()).obstructed  # and it is seen when it comes back


def test_keeps_its_calibration_while_a_hand_covers_two_tags(
        scene: Any, faces: Any, identifier: CardIdentifier) -> None:
    scene.add_card(faces["oasis"], (300, 200))
    reader = TableReader(scene.mat, identifier, CARD)
    reader.read(scene.frame())
    first = reader.calibration
    for x, y in [(40, 40), (554, 40)]:  # arms over two tags: the other two still agree
        scene.add_blob((150, 170, 210), (x, y), (110, 110), ellipse=True)
    reading = reader.read(scene.frame())
    assert reader.calibration is first
    assert reading.obstructed
    assert codes_at(reading) == {(30, 20): "oasis"}


def test_the_light_on_each_card_is_read_off_the_mat_beside_it(identifier: CardIdentifier
                                                               ) -> None:
    mat = default_mat()
    lamp = render.Lighting.warm_lamp()
    frame = render.render(render.Scene(render_mat(mat, 4.0), mat, 4.0, []),
                          render.CameraPose(tilt_deg=10.0), lamp, np.random.default_rng(2)).image
    reader = TableReader(mat, identifier, CARD)
    quads = [CardQuad.from_axes(centre, (0.0, 1.0), CARD) for centre in ((150, 150), (400, 300))]
    assert reader._lights(quads) is None  # no mat seen yet
    reader.read(frame)
    lights = reader._lights(quads)
    assert lights is not None
    # the lamp's colour (its gains over blue's), wherever the card lies in its fall-off
    for light in lights:
        assert light[1:] / light[0] == pytest.approx(
            np.array(lamp.gains_bgr[1:]) / lamp.gains_bgr[0], rel=0.05)


@pytest.fixture(scope="module")
def pale() -> tuple[dict[str, Any], TemplateIdentifier]:
    """uno-pale's faces, and a TemplateIdentifier enrolled from a view of each."""
    faces = json.loads((DECKS / "uno.json").read_text(encoding="utf-8"))["faces"]
    painted = paint_deck(DESIGNS["uno-pale"], faces, seed=1, px_per_mm=4.0)
    views = {code: np.asarray(cv2.resize(face, (62, 96), interpolation=cv2.INTER_AREA), np.uint8)
             for code, face in painted.items()}
    return painted, TemplateIdentifier.from_references(views)


Places = dict[tuple[int, int], str | None]


def read_under_a_warm_lamp(pale: tuple[dict[str, Any], TemplateIdentifier], brightness: float
                           ) -> tuple[Places, Places]:
    """Six pale cards read under a uniform warm lamp this bright: (what was read, the truth)
    by place."""
    faces, identifier = pale
    design = DESIGNS["uno-pale"]
    mat = default_mat()
    mat_image = render_mat(mat, 4.0)
    codes = ["green-5", "green-8", "green-reverse", "blue-6", "yellow-3", "red-2"]
    cards = [render.CardPlacement(faces[c], (180.0 + 80 * (i % 3), 150.0 + 110 * (i // 3)), 0.0,
                                  size_mm=design.card_mm, label=c) for i, c in enumerate(codes)]
    camera = render.CameraPose(tilt_deg=10.0)
    lamp = render.Lighting(brightness=brightness, gains_bgr=(0.75, 0.95, 1.2))
    rng = np.random.default_rng(3)
    reader = TableReader(mat, identifier, design.card_mm)
    reader.read(render.render(render.Scene(mat_image, mat, 4.0, []), camera, lamp, rng).image)
    reading = reader.read(render.render(render.Scene(mat_image, mat, 4.0, cards), camera, lamp,
                                        rng).image)
    return codes_at(reading), {(round(c.center_mm[0] / 10), round(c.center_mm[1] / 10)): c.label
                               for c in cards}


def test_a_pale_green_under_a_warm_lamp_is_named_in_the_light_the_mat_shows(
        pale: tuple[dict[str, Any], TemplateIdentifier]) -> None:
    # a warm lamp clips a pale card's white in red; against it the greens read
    # yellow-green, none of the deck's colours (unknown), unless the light the mat beside
    # them shows tells where their white's red lies
    seen, truth = read_under_a_warm_lamp(pale, 1.0)
    assert seen == truth


@pytest.mark.parametrize("brightness", [1.4, 1.7])
def test_a_pale_green_clipped_in_red_and_green_is_not_named_yellow(
        pale: tuple[dict[str, Any], TemplateIdentifier], brightness: float) -> None:
    # brighter, the lamp clips the greens' print in red as in green: it reads yellow, as
    # near yellow's views as a yellow card's (each green named yellow)
    seen, truth = read_under_a_warm_lamp(pale, brightness)
    assert seen.keys() == truth.keys()
    assert not [(truth[k], got) for k, got in seen.items() if got not in (truth[k], None)]


def test_the_part_of_a_card_other_outlines_cover_is_found_in_its_patch(
        identifier: CardIdentifier) -> None:
    reader = TableReader(default_mat(), identifier, CARD)
    card = CardQuad.from_axes((150.0, 150.0), (0.0, 1.0), CARD)
    # another card over its bottom right corner: 23 x 28 mm of it, grown by its blurred rim
    corner = CardQuad.from_axes((190.0, 210.0), (0.0, 1.0), CARD)
    far = CardQuad.from_axes((400.0, 300.0), (0.0, 1.0), CARD)
    cover = reader._cover(card, [corner, far])
    assert cover is not None and cover.shape == (88, 64)
    ys, xs = np.nonzero(cover)
    assert ys.min() > 55 and xs.min() > 35  # the bottom right, nothing else
    assert 0.12 < cover.mean() < 0.14
    assert reader._cover(card, [far]) is None
    # a corner's tip, 8 x 13 mm: too little to have left the card unknown
    tip = CardQuad.from_axes((205.0, 225.0), (0.0, 1.0), CARD)
    assert reader._cover(card, [tip]) is None and MIN_COVERED > 0.03
    # a card lying mostly over it leaves too little of it to name
    over = CardQuad.from_axes((160.0, 160.0), (0.0, 1.0), CARD)
    assert reader._cover(card, [over]) is None and MAX_COVERED < 0.5


COVERED_CORNER = (Path(__file__).resolve().parents[1] / "fixtures" / "vision"
                  / "tempus_framed_covered_corner.npz")


def test_a_card_whose_corner_another_covers_is_named_with_that_part_filled() -> None:
    # held-out tempus-framed table 1000110: a joker's corner across a red 13's side, its dark
    # rim on the light field, 10 % of the patch (the outline grown by its rim). As cut:
    # unknown (0.74-0.79 with the 13 at SIZE). Filled with the rest's median: named
    recorded = np.load(COVERED_CORNER)
    views = recorded_views(recorded)
    patch, cover, light = recorded["patch"], recorded["cover"], recorded["light"][None]
    # (an identifier each: one would answer the same patch from its memory)
    as_cut, filled = (TemplateIdentifier.from_references(views) for _ in range(2))
    assert as_cut.identify_batch(patch[None], light)[0][0] is None
    fill_covered(patch, cover)
    assert (patch[cover] == patch[cover][0]).all()
    assert filled.identify_batch(patch[None], light)[0][0] == "red-13"


class _MarkedCards:
    """An identifier for a reader whose cut gives each outline a patch marked with its
    number (channel 0) and a dark bottom-right corner (channel 1) that a cover over that
    corner fills: it names the outlines and covered patches it is told to, and keeps the
    batches it was asked."""

    reads_light = True
    reads_covered = True

    def __init__(self, plain: dict[int, str], covered: dict[int, str]) -> None:
        self.plain, self.covered = plain, covered
        self.batches: list[list[tuple[int, bool]]] = []

    def identify_batch(self, patches: Any, lights: Any = None) -> list[tuple[str | None, float]]:
        seen = [(int(p[0, 0, 0]), bool(p[-1, -1, 1] > 100)) for p in patches]
        self.batches.append(seen)
        return [((self.covered if filled else self.plain).get(k), 0.9) for k, filled in seen]


def _marked_reader(outlines: list[CardQuad], identifier: _MarkedCards) -> TableReader:
    reader = TableReader(default_mat(), identifier, CARD)  # type: ignore[arg-type]

    def cut(source: Any, cal: Any, quads: list[CardQuad]) -> Any:
        patches = np.full((len(quads), 88, 64, 3), 200, np.uint8)
        patches[:, 60:, 40:, 1] = 7
        for patch, quad in zip(patches, quads, strict=True):
            patch[..., 0] = next(k for k, o in enumerate(outlines) if o is quad)
        return patches

    reader._cut = cut  # type: ignore[method-assign]
    return reader


def test_an_unknown_cards_rival_and_covered_looks_are_one_batch_the_rival_first() -> None:
    # card 0 unknown, card 1 named over its bottom right corner; 2 is card 0's rival outline
    card = CardQuad.from_axes((150.0, 150.0), (0.0, 1.0), CARD)
    rival = CardQuad.from_axes((152.0, 150.0), (0.0, 1.0), CARD)
    card = dataclasses.replace(card, alternatives=(rival,))
    corner = CardQuad.from_axes((190.0, 210.0), (0.0, 1.0), CARD)
    # the rival names card 0, and so would its covered patch otherwise: the rival wins
    identifier = _MarkedCards({2: "vizier"}, {0: "oasis"})
    reader = _marked_reader([card, corner, rival], identifier)
    quads, named = [card, corner], [(None, 0.1), ("back", 0.9)]
    reader._name_unknown(None, None, None, quads, named)  # type: ignore[arg-type]
    assert quads == [rival, corner] and named == [("vizier", 0.9), ("back", 0.9)]
    assert identifier.batches == [[(2, False), (0, True)]]


def test_a_cover_an_outline_replaced_after_it_was_cut_is_made_again() -> None:
    # card 0's corner lies under card 1, whose rival (2) lies far off and is named: as the
    # outlines then lie nothing covers card 0, and its covered look's answer is left
    card = CardQuad.from_axes((150.0, 150.0), (0.0, 1.0), CARD)
    far = CardQuad.from_axes((400.0, 300.0), (0.0, 1.0), CARD)
    corner = dataclasses.replace(CardQuad.from_axes((190.0, 210.0), (0.0, 1.0), CARD),
                                 alternatives=(far,))
    identifier = _MarkedCards({2: "treasure"}, {0: "oasis"})
    reader = _marked_reader([card, corner, far], identifier)
    named: list[tuple[str | None, float]]
    quads, named = [card, corner], [(None, 0.1), (None, 0.1)]
    reader._name_unknown(None, None, None, quads, named)  # type: ignore[arg-type]
    assert quads == [card, far] and named == [(None, 0.1), ("treasure", 0.9)]
    assert identifier.batches == [[(2, False), (0, True), (1, False)]]
    # card 1 far off, its rival over card 0's corner and named: card 0's cover is new, and
    # card 0 is named with it in a batch of its own
    far = dataclasses.replace(far, alternatives=(corner,))
    identifier = _MarkedCards({2: "treasure"}, {0: "oasis"})
    reader = _marked_reader([card, far, corner], identifier)
    quads, named = [card, far], [(None, 0.1), (None, 0.1)]
    reader._name_unknown(None, None, None, quads, named)  # type: ignore[arg-type]
    assert quads == [card, corner] and named == [("oasis", 0.9), ("treasure", 0.9)]
    assert identifier.batches == [[(2, False)], [(0, True)]]
