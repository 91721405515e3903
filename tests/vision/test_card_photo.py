"""A card in an ordinary photo: found on the table it lies on, cut out upright."""

from __future__ import annotations

import cv2
import numpy as np

from vision.card_photo import cut_card, find_card

CARD = (112, 174)  # a card's size in the photo, px (UNO's 56 x 87 mm at 2 px/mm)


def card_face() -> np.ndarray:
    """A white-margined card with a red field and a white oval, like a commercial deck."""
    w, h = CARD
    face = np.full((h, w, 3), 245, np.uint8)
    cv2.rectangle(face, (7, 7), (w - 8, h - 8), (40, 40, 200), -1)
    cv2.ellipse(face, (w // 2, h // 2), (40, 62), 30, 0, 360, (245, 245, 245), -1)
    cv2.putText(face, "7", (w // 2 - 18, h // 2 + 20), cv2.FONT_HERSHEY_SIMPLEX, 1.8,
                (40, 40, 200), 5)
    return face


def photo_of(face: np.ndarray, table: tuple[int, int, int], corners: np.ndarray) -> np.ndarray:
    rng = np.random.default_rng(4)
    photo = np.clip(np.array(table, np.float32) + rng.normal(0, 5, (480, 480, 3)), 0, 255)
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
