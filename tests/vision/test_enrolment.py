"""Enrolment's eyes: cards of any size found on the mat and measured (every card of
every foreign design laid out in dim and warm light, tiles and tall cards; the bare mat,
a hand and clutter none), cut in grid order, a blurred frame and another deck's card
told apart, and the card in a phone photo."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.decks import load_deck
from vision.calibration import calibrate
from vision.deck_art import FaceArt, paint_face
from vision.deck_measure import measure_deck
from vision.enrolment import (
    LABEL_SCALES,
    LaidCard,
    _fitted,
    blurred,
    border_colour,
    cards_in_photos,
    cut_card,
    deck_size,
    find_card_in_photo,
    find_laid_cards,
    grid_places_mm,
    grid_rows,
    in_grid_order,
    moved,
    odd_borders,
    off_size,
    seen_px_per_mm,
)
from vision.foreign_decks import DESIGNS, paint_deck
from vision.mat import default_mat, render_mat
from vision.render import CameraPose, CardPlacement, Clutter, HandPose, Lighting, Scene, render

MAT = default_mat()
CARD_MM = (56.0, 87.0)  # UNO's size, not our print-and-play 63 x 88


def uno_faces(count: int, colour: str | None = None) -> list[tuple[str, np.ndarray]]:
    deck = load_deck("uno")
    faces = []
    for face in deck.faces[:count]:
        art = dict(face.art)
        if colour is not None:
            art["colour"] = colour
        faces.append((face.code, paint_face(FaceArt.from_json(face.code, art), CARD_MM)))
    return faces


def laid_frame(faces: list[tuple[str, np.ndarray]], seed: int = 3,
               sizes: dict[str, tuple[float, float]] | None = None) -> np.ndarray:
    rng = np.random.default_rng(seed)
    places = grid_places_mm(MAT.center_mm, len(faces))
    cards = [CardPlacement(image, (x + rng.uniform(-5, 5), y + rng.uniform(-5, 5)),
                           float(rng.uniform(-7, 7)), size_mm=(sizes or {}).get(code, CARD_MM),
                           label=code)
             for (code, image), (x, y) in zip(faces, places, strict=True)]
    scene = Scene(render_mat(MAT, 2.0), MAT, 2.0, cards)
    camera = CameraPose(resolution=(1280, 720), tilt_deg=14.0, yaw_deg=30.0, roll_deg=-28.0,
                        fill=0.85)
    return render(scene, camera, Lighting.warm_lamp(), rng).image


def test_cards_of_an_unknown_size_are_found_measured_and_cut_in_grid_order() -> None:
    faces = uno_faces(8)
    frame = laid_frame(faces)
    calibration = calibrate(frame, MAT)
    found = find_laid_cards(frame, calibration)
    assert len(found.cards) == 8 and found.other_mm2 == 0
    size = measure_deck(calibration, [frame]).card_mm
    assert abs(size[0] - CARD_MM[0]) < 1.2 and abs(size[1] - CARD_MM[1]) < 1.2
    assert not any(off_size(card, size) for card in found.cards)
    cards = in_grid_order(found.cards)
    places = grid_places_mm(MAT.center_mm, 8)
    assert all(np.hypot(c.center_mm[0] - x, c.center_mm[1] - y) < 9
               for c, (x, y) in zip(cards, places, strict=True))
    crop = cut_card(frame, calibration, cards[0], size)
    ppm = seen_px_per_mm(calibration, cards[0])
    assert 1.0 < ppm < 3.0
    assert abs(crop.shape[1] - size[0] * ppm) <= 1 and abs(crop.shape[0] - size[1] * ppm) <= 1
    art = cv2.resize(faces[0][1], (crop.shape[1], crop.shape[0]), interpolation=cv2.INTER_AREA)
    assert np.corrcoef(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).ravel(),
                       cv2.cvtColor(art, cv2.COLOR_BGR2GRAY).ravel())[0, 1] > 0.6
    # the same crop twice as fine when the camera gives a frame twice the size
    full = cv2.resize(frame, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
    assert cut_card(full, calibration, cards[0], size, scale=2.0).shape[1] >= 2 * crop.shape[1] - 2


DECKS = Path(__file__).resolve().parents[2] / "referee" / "decks"
ENROL_CAMERA = CameraPose(resolution=(800, 450), tilt_deg=12.0, yaw_deg=-25.0, roll_deg=25.0,
                          fill=0.8)
ENROL_LIGHTS = {"dim": Lighting.dim, "warm_lamp": Lighting.warm_lamp}


def enrolment_frame(faces: list[np.ndarray], card_mm: tuple[float, float], radius_mm: float,
                    lighting: Lighting, seed: int) -> tuple[np.ndarray, list[CardPlacement]]:
    """Faces laid 4x2 in the mat's middle, 14 mm apart and a little askew, as the bench's
    enrolment sessions lay them (an empty list: the bare mat), at a small resolution."""
    rng = np.random.default_rng(seed)
    w, h = card_mm
    cx, cy = MAT.center_mm
    cards = [CardPlacement(face, (cx + (i % 4 - 1.5) * (w + 14) + rng.uniform(-3, 3),
                                  cy + (i // 4 - 0.5) * (h + 14) + rng.uniform(-3, 3)),
                           float(rng.uniform(-4, 4)), size_mm=card_mm, corner_radius_mm=radius_mm)
             for i, face in enumerate(faces)]
    scene = Scene(render_mat(MAT, 2.0), MAT, 2.0, cards)
    return render(scene, ENROL_CAMERA, lighting, rng, noise_sigma=2.5, jpeg_quality=85).image, cards


def outline_error_mm(found: list[np.ndarray], card: CardPlacement, inset_mm: float) -> float:
    """How far (mm) the outline found nearest the card is from its outline, at worst
    corner; `inset_mm`: the card's rim that shows as the mat does, not outlined."""
    w, h = card.size_mm
    truth = CardPlacement(card.image, card.center_mm, card.angle_deg,
                          size_mm=(w - 2 * inset_mm, h - 2 * inset_mm)).corners_mm()[:, :2]
    best = min(found, key=lambda q: float(np.linalg.norm(q.mean(axis=0) - truth.mean(axis=0))))
    return min(float(np.linalg.norm(np.roll(best, k, axis=0) - truth, axis=1).max())
               for k in range(4))


@pytest.mark.parametrize("light", list(ENROL_LIGHTS))
@pytest.mark.parametrize("design", list(DESIGNS))
def test_every_laid_card_of_a_foreign_deck_is_found_in_dim_and_warm_light(design: str,
                                                                           light: str) -> None:
    spec = DESIGNS[design]
    faces = json.loads((DECKS / f"{spec.deck}.json").read_text("utf-8"))["faces"]
    images = paint_deck(spec, faces[:8], seed=1, px_per_mm=4.0)
    frame, cards = enrolment_frame([images[f["code"]] for f in faces[:8]], spec.card_mm,
                                   spec.corner_radius_mm, ENROL_LIGHTS[light](), seed=5)
    calibration = calibrate(frame, MAT)
    found = find_laid_cards(frame, calibration)
    assert len(found.cards) == 8 and found.other_mm2 == 0
    # the pale design's thin rim is the mat's own grey-green: its outline is inside it
    inset = spec.border_mm if design == "uno-pale" else 0.0
    outlines = [np.array(c.quad().corners_mm) for c in found.cards]
    assert max(outline_error_mm(outlines, card, inset) for card in cards) < 1.5


@pytest.mark.parametrize("light", list(ENROL_LIGHTS))
def test_a_pale_card_whose_print_touches_its_rim_is_found_as_one_card(light: str) -> None:
    """The pale design's rim is the mat's own grey: where a wild's circle (or the blank's)
    meets it, the card shows in pieces, which are one card: its middle within 1 mm, its
    corners within 1.6 (the wild draw four's corner indices notch its outline, which tilts
    the fitted rectangle by half a degree, as they would a whole card's)."""
    spec = DESIGNS["uno-pale"]
    faces = json.loads((DECKS / "uno.json").read_text("utf-8"))["faces"]
    images = paint_deck(spec, faces, seed=1, px_per_mm=4.0)
    codes = ["wild", "yellow-9", "wild-draw4", "yellow-skip", "blank", "red-1", "wild", "back"]
    frame, cards = enrolment_frame([images[code] for code in codes], spec.card_mm,
                                   spec.corner_radius_mm, ENROL_LIGHTS[light](), seed=5)
    found = find_laid_cards(frame, calibrate(frame, MAT))
    assert len(found.cards) == 8 and found.other_mm2 == 0
    assert all(min(math.dist(c.center_mm, card.center_mm) for c in found.cards) < 1.0
               for card in cards)
    outlines = [np.array(c.quad().corners_mm) for c in found.cards]
    assert max(outline_error_mm(outlines, card, spec.border_mm) for card in cards) < 1.6


@pytest.mark.parametrize("light", list(ENROL_LIGHTS))
def test_the_bare_mat_hand_and_clutter_are_no_cards(light: str) -> None:
    bare, _ = enrolment_frame([], (56.0, 87.0), 3.0, ENROL_LIGHTS[light](), seed=6)
    calibration = calibrate(bare, MAT)
    found = find_laid_cards(bare, calibration)
    assert found.cards == [] and found.other_mm2 == 0
    rng = np.random.default_rng(8)
    scene = Scene(render_mat(MAT, 2.0), MAT, 2.0, hand=HandPose.random(rng, MAT),
                  clutter=[Clutter.random(rng, MAT) for _ in range(2)])
    busy = render(scene, ENROL_CAMERA, ENROL_LIGHTS[light](), rng).image
    seen = find_laid_cards(busy, calibration)
    assert seen.cards == [] and seen.other_mm2 > 2000


def test_tiles_and_tall_cards_are_found_and_measured() -> None:
    remi = load_deck("remi")
    tiles = [paint_face(FaceArt.from_json(f.code, dict(f.art)), (20.0, 30.0))
             for f in remi.faces[:8]]
    tall = DESIGNS["tempus-tall"]
    faces = json.loads((DECKS / "tempus.json").read_text("utf-8"))["faces"][:8]
    painted = paint_deck(tall, faces, seed=1, px_per_mm=4.0)
    for images, card_mm in ((tiles, (20.0, 30.0)),
                            ([painted[f["code"]] for f in faces], tall.card_mm)):
        frame, _ = enrolment_frame(images, card_mm, 2.0, Lighting(), seed=9)
        found = find_laid_cards(frame, calibrate(frame, MAT))
        assert len(found.cards) == 8
        size = deck_size(found.cards)
        assert abs(size[0] - card_mm[0]) < 1.0 and abs(size[1] - card_mm[1]) < 1.0


def test_a_blurred_frame_is_told_from_a_sharp_one() -> None:
    frame = laid_frame(uno_faces(4))
    calibration = calibrate(frame, MAT)
    sharp = find_laid_cards(frame, calibration).cards
    soft = find_laid_cards(cv2.GaussianBlur(frame, (0, 0), 2.5), calibration).cards
    assert len(sharp) == len(soft) == 4
    assert not any(blurred(c, seen_px_per_mm(calibration, c)) for c in sharp)
    assert all(blurred(c, seen_px_per_mm(calibration, c)) for c in soft)


def test_a_card_of_another_deck_shows_by_its_size_or_its_border() -> None:
    faces = uno_faces(8)
    frame = laid_frame(faces, sizes={faces[5][0]: (63.0, 88.0)})
    calibration = calibrate(frame, MAT)
    cards = in_grid_order(find_laid_cards(frame, calibration).cards)
    size = deck_size(cards)
    assert [i for i, c in enumerate(cards) if off_size(c, size)] == [5]

    crops = [cut_card(frame, calibration, c, size) for i, c in enumerate(cards) if i != 5]
    framed = crops[2].copy()
    h, w = framed.shape[:2]
    cv2.rectangle(framed, (0, 0), (w - 1, h - 1), (20, 20, 20), max(2, w // 14))
    assert odd_borders(crops) == []
    assert odd_borders(crops[:2] + [framed] + crops[3:]) == [2]
    # framed like a face the table kept before: this deck's frame, not another deck's
    assert odd_borders(crops[:2] + [framed] + crops[3:], [border_colour(framed)]) == []
    assert odd_borders(crops[:2] + [framed] + crops[3:], [border_colour(crops[0])]) == [2]


def test_the_grid_the_page_draws() -> None:
    assert grid_rows(8) == [4, 4] and grid_rows(7) == [4, 3] and grid_rows(3) == [3]
    places = grid_places_mm((297.0, 210.0), 6)
    assert places[0][1] < places[4][1] and places[0][0] < places[1][0]
    assert np.mean([p[0] for p in places[:4]]) == 297.0


def test_a_still_layout_is_still_though_cards_in_a_column_swap_their_order_by_x() -> None:
    """Two cards laid in a column lie at nearly the same x: from one frame to the next
    their order by x flips on a tenth of a millimetre (recorded: an enrolment's second
    pass waited a layout too long, and cut the next layout's cards as this one's)."""
    def laid(*centres: tuple[float, float]) -> list[LaidCard]:
        return [LaidCard(c, (0.0, 1.0), (56.0, 87.0)) for c in centres]

    before = laid((136.0, 146.9), (136.1, 271.9), (240.0, 147.0))
    assert not moved(before, laid((136.1, 146.9), (136.0, 271.9), (240.1, 147.1)))
    assert moved(before, laid((136.0, 146.9), (136.1, 271.9), (243.0, 147.0)))  # 3 mm
    assert moved(before, laid((136.0, 146.9), (136.1, 271.9)))  # one taken
    assert moved(before, laid((136.0, 146.9), (136.1, 271.9), (136.0, 146.9)))  # one swapped


def phone_photo(card: np.ndarray, seed: int, shift_x: float = 0.0) -> np.ndarray:
    """A card lying on a patterned cloth, photographed from above at a slant (moved
    `shift_x` pixels to the right)."""
    rng = np.random.default_rng(seed)
    ys, xs = np.mgrid[0:640, 0:640]
    checks = (((xs // 40) + (ys // 40)) % 2).astype(np.float32)
    cloth = np.stack([90 + 60 * checks, 140 + 50 * checks, 80 + 40 * checks], axis=2)
    cloth += rng.normal(0, 6, cloth.shape)
    photo = np.clip(cloth, 0, 255).astype(np.uint8)
    h, w = card.shape[:2]
    target = np.float32([[230, 150], [420, 185], [390, 480], [185, 445]]) + np.float32([shift_x, 0])
    m = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), target)
    cv2.warpPerspective(card, m, (640, 640), dst=photo, borderMode=cv2.BORDER_TRANSPARENT)
    return np.asarray(cv2.GaussianBlur(photo, (0, 0), 0.8), np.uint8)


def test_the_card_in_a_phone_photo_is_found_and_cut_out_upright() -> None:
    code, card = uno_faces(12)[11]  # red-reverse
    photo = phone_photo(card, 5)
    cut = find_card_in_photo(photo)
    h, w = cut.shape[:2]
    assert h > w and abs(h / w - CARD_MM[1] / CARD_MM[0]) < 0.12
    art = cv2.resize(card, (w, h), interpolation=cv2.INTER_AREA)
    grey = [cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).ravel() for image in (cut, art)]
    turned = cv2.cvtColor(art[::-1, ::-1], cv2.COLOR_BGR2GRAY).ravel()
    assert max(np.corrcoef(grey[0], grey[1])[0, 1], np.corrcoef(grey[0], turned)[0, 1]) > 0.8
    # a photo already cut to the card stays as it is
    assert find_card_in_photo(card) is card


def test_a_card_running_off_its_photo_is_cut_once_the_other_photos_show_the_decks_shape(
) -> None:
    faces = uno_faces(12)
    photos = [phone_photo(card, seed) for seed, (_, card) in enumerate(faces[:4])]
    off = phone_photo(faces[11][1], 7, shift_x=250)  # its right corners beyond the photo
    alone = find_card_in_photo(off)
    *whole, cut = cards_in_photos([*photos, off])
    assert alone.shape == off.shape  # alone, no card is sure: the photo as it is
    assert [c.shape for c in whole] == [find_card_in_photo(p).shape for p in photos]
    h, w = cut.shape[:2]
    assert h > w and abs(h / w - CARD_MM[1] / CARD_MM[0]) < 0.12


def test_a_crop_s_label_is_set_smaller_to_fit_under_it_and_cut_only_past_the_smallest() -> None:
    width = 112  # a crop's width on the contact sheet
    assert _fitted("1 yellow-reverse", width) == ("1 yellow-reverse", LABEL_SCALES[0])
    text, scale = _fitted("1 1st: yellow-reverse", width)  # the first pass's, beside
    assert text == "1 1st: yellow-reverse" and scale < LABEL_SCALES[0]
    text, scale = _fitted("12 1st: " + "x" * 40, width)
    assert scale == LABEL_SCALES[-1] and text.startswith("12 1st: x") and len(text) < 48
    assert cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)[0][0] <= width
