"""A card in an ordinary photo: found on the table it lies on, cut out upright."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from vision.card_photo import cut_card, find_card, find_cards, seen
from vision.foreign_decks import DESIGNS, paint_deck
from vision.template_identifier import TemplateIdentifier

CARD = (112, 174)  # a card's size in the photo, px (UNO's 56 x 87 mm at 2 px/mm)
DECKS = Path(__file__).resolve().parents[2] / "referee" / "decks"


def card_face() -> np.ndarray:
    """A white-margined card with a red field and a white oval, like a commercial deck."""
    w, h = CARD
    face = np.full((h, w, 3), 245, np.uint8)
    cv2.rectangle(face, (7, 7), (w - 8, h - 8), (40, 40, 200), -1)
    cv2.ellipse(face, (w // 2, h // 2), (40, 62), 30, 0, 360, (245, 245, 245), -1)
    cv2.putText(face, "7", (w // 2 - 18, h // 2 + 20), cv2.FONT_HERSHEY_SIMPLEX, 1.8,
                (40, 40, 200), 5)
    return face


def check_cloth(square: int = 40) -> np.ndarray:
    """A green and white gingham: light squares, mid-green bands, dark-green crossings."""
    ys, xs = np.mgrid[0:480, 0:480]
    bands = ((ys // square) % 2) + ((xs // square) % 2)
    colours = np.array([(235, 240, 238), (90, 170, 110), (50, 120, 60)], np.float32)
    return colours[bands]


def photo_of(face: np.ndarray, table: tuple[int, int, int] | np.ndarray,
             corners: np.ndarray) -> np.ndarray:
    rng = np.random.default_rng(4)
    photo = np.clip(np.asarray(table, np.float32) + rng.normal(0, 5, (480, 480, 3)), 0, 255)
    photo = photo.astype(np.uint8)
    h, w = face.shape[:2]
    m = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), corners)
    cv2.warpPerspective(face, m, (480, 480), dst=photo, borderMode=cv2.BORDER_TRANSPARENT)
    return np.asarray(cv2.GaussianBlur(photo, (0, 0), 0.8), np.uint8)


def test_a_card_on_a_wooden_or_dark_table_is_found_to_its_outline() -> None:
    truth = np.float32([[180, 140], [295, 150], [282, 322], [166, 312]])
    for table in ((120, 170, 200), (40, 38, 35)):  # light wood, dark cloth
        corners = find_card(photo_of(card_face(), table, truth))
        assert corners is not None, table
        assert np.abs(corners - truth).max() < 4.0, (table, corners)


def test_a_card_on_a_check_cloth_is_cut_to_its_own_outline_not_the_clothes() -> None:
    truth = np.float32([[176, 150], [290, 144], [299, 318], [185, 324]])
    corners = find_card(photo_of(card_face(), check_cloth(), truth))
    assert corners is not None
    assert np.abs(corners - truth).max() < 4.0, corners


def test_a_white_margined_card_on_white_paper_is_cut_at_its_margin() -> None:
    truth = np.float32([[180, 140], [295, 150], [282, 322], [166, 312]])
    face = card_face()
    shade = np.full(face.shape[:2], 0, np.uint8)  # a card's edge on paper: a faint shadow
    cv2.rectangle(shade, (0, 0), (face.shape[1] - 1, face.shape[0] - 1), 255, 2)
    face[shade > 0] = (205, 205, 205)
    corners = find_card(photo_of(face, (228, 230, 232), truth))
    assert corners is not None
    assert np.abs(corners - truth).max() < 4.0, corners


def test_the_cut_is_upright_and_the_card_itself() -> None:
    truth = np.float32([[180, 140], [295, 150], [282, 322], [166, 312]])
    photo = photo_of(card_face(), (120, 170, 200), truth)
    corners = find_card(photo)
    assert corners is not None
    cut = cut_card(photo, corners, CARD)
    assert cut.shape == (CARD[1], CARD[0], 3)
    grey = [cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32).ravel()
            for image in (cut, card_face())]
    assert np.corrcoef(grey[0], grey[1])[0, 1] > 0.9


def test_a_table_without_a_card_has_none() -> None:
    rng = np.random.default_rng(1)
    table = np.clip(rng.normal(120, 6, (480, 480, 3)), 0, 255).astype(np.uint8)
    assert find_card(table) is None
    assert find_card(np.zeros((10, 10, 3), np.uint8)) is None


def test_an_empty_check_cloth_has_no_card() -> None:
    rng = np.random.default_rng(2)
    cloth = np.clip(check_cloth(44) + rng.normal(0, 5, (480, 480, 3)), 0, 255)
    assert find_card(cloth.astype(np.uint8)) is None


def test_a_card_cut_off_by_the_photo_edge_is_not_guessed() -> None:
    truth = np.float32([[180, 330], [295, 340], [282, 512], [166, 502]])
    assert find_card(photo_of(card_face(), (120, 170, 200), truth)) is None


ASPECT = CARD[0] / CARD[1]


def placed(x: float, y: float, degrees: float) -> np.ndarray:
    """A card's corners (clockwise from its top-left) at (x, y), turned by `degrees`."""
    w, h = CARD
    turn = np.deg2rad(degrees)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) @ rotation.T
    return (corners + np.array([x, y])).astype(np.float32)


def test_a_card_running_off_the_photo_is_found_from_its_three_sides_and_the_decks_shape() -> None:
    truth = placed(180, 320, 5)  # 11 % off the photo
    for table in ((120, 170, 200), (40, 38, 35)):
        photo = photo_of(card_face(), table, truth)
        corners = find_card(photo, ASPECT)
        assert corners is not None, table
        assert np.abs(corners - truth).max() < 5.0, (table, corners)


def test_the_part_of_a_card_beyond_the_photos_edge_is_marked_unseen() -> None:
    truth = placed(180, 320, 5)
    photo = photo_of(card_face(), (120, 170, 200), truth)
    corners = find_card(photo, ASPECT)
    assert corners is not None
    mask = seen(photo.shape, corners, CARD)
    assert mask.shape == (CARD[1], CARD[0])
    rows = (mask > 0).mean(axis=1)
    assert rows[:140].min() == 1.0 and rows[-10:].max() == 0.0  # its foot lies off the photo
    assert 0.8 < (mask > 0).mean() < 0.95


def test_a_card_touching_the_photos_edge_is_cut_whole() -> None:
    truth = np.float32([[200, 0], [312, 0], [312, 174], [200, 174]])
    for table in ((120, 170, 200), (40, 38, 35)):
        corners = find_card(photo_of(card_face(), table, truth), ASPECT)
        assert corners is not None, table
        assert np.abs(corners - truth).max() < 5.0, (table, corners)


def test_a_card_mostly_off_the_photo_is_not_guessed() -> None:
    truth = placed(180, 390, 5)  # 50 % off
    assert find_card(photo_of(card_face(), (120, 170, 200), truth), ASPECT) is None


def test_a_table_with_the_decks_shape_known_still_has_no_card() -> None:
    rng = np.random.default_rng(1)
    table = np.clip(rng.normal(120, 6, (480, 480, 3)), 0, 255).astype(np.uint8)
    cloth = np.clip(check_cloth(44) + rng.normal(0, 5, (480, 480, 3)), 0, 255).astype(np.uint8)
    for photo in (table, cloth):
        assert find_card(photo, ASPECT) is None


def test_of_two_cards_touching_side_by_side_the_cut_is_never_both_once_the_shape_is_known(
        ) -> None:
    left = np.float32([[120, 150], [232, 150], [232, 324], [120, 324]])
    right = left + np.float32([112, 0])
    photo = photo_of(card_face(), (40, 38, 35), left)
    on_right = photo_of(card_face(), (40, 38, 35), right)
    photo[:, 232:] = on_right[:, 232:]
    corners = find_card(photo, ASPECT)
    assert corners is None or np.linalg.norm(corners[1] - corners[0]) < 1.1 * CARD[0], corners


def test_a_decks_photos_teach_its_shape_to_find_the_card_running_off_one() -> None:
    whole = [photo_of(card_face(), table, placed(180, 140, 4))
             for table in ((120, 170, 200), (40, 38, 35))]
    running_off = photo_of(card_face(), (40, 38, 35), placed(200, 320, -3))
    assert find_card(running_off) is None
    found = find_cards([*whole, running_off])
    assert all(corners is not None for corners in found)
    assert np.abs(found[2] - placed(200, 320, -3)).max() < 5.0, found[2]


def test_a_card_running_off_its_photo_is_named_from_what_shows() -> None:
    design = DESIGNS["uno-classic"]
    codes = ["red-7", "blue-7", "red-1", "green-6", "green-9", "yellow-3", "yellow-8"]
    faces = {f["code"]: f for f in json.loads((DECKS / "uno.json").read_text("utf-8"))["faces"]}
    painted = paint_deck(design, [faces[c] for c in codes], seed=2, px_per_mm=2.0)
    identifier = TemplateIdentifier.from_references({c: painted[c] for c in codes})
    aspect = design.card_mm[0] / design.card_mm[1]
    size = (round(design.card_mm[0] * 4), round(design.card_mm[1] * 4))
    for code in codes:
        w, h = painted[code].shape[1], painted[code].shape[0]
        truth = np.float32([[170, 330], [170 + w, 333], [167 + w, 333 + h], [167, 330 + h]])
        photo = photo_of(painted[code], (120, 170, 200), truth)  # ~ a tenth off the photo
        corners = find_card(photo, aspect)
        assert corners is not None, code
        assert identifier.identify(cut_card(photo, corners, size))[0] == code
