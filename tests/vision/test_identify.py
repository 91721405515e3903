"""Identification: every face under camera-like changes, and an explicit unknown otherwise."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from vision.identify import CardIdentifier, augment, confidence, describe


@pytest.fixture(scope="module")
def identifier(faces: Any) -> CardIdentifier:
    return CardIdentifier.from_references(faces, np.random.default_rng(0))


def camera_view(face: np.ndarray, gains: tuple[float, float, float] = (1, 1, 1),
                brightness: float = 1.0, blur: float = 0.0, turned: bool = False) -> np.ndarray:
    patch = cv2.resize(face, (64, 88), interpolation=cv2.INTER_AREA).astype(np.float32)
    patch = patch * np.array(gains, np.float32) * brightness
    if blur:
        patch = cv2.GaussianBlur(patch, (0, 0), blur)
    out = np.clip(patch, 0, 255).astype(np.uint8)
    return out[::-1, ::-1].copy() if turned else out


CONDITIONS = {
    "plain": {},
    "turned": {"turned": True},
    "warm": {"gains": (0.7, 0.95, 1.25)},
    "cool": {"gains": (1.25, 1.0, 0.8)},
    "dark": {"brightness": 0.4},
    "bright": {"brightness": 1.3},
    "blurred": {"blur": 2.0},
    "turned, warm, dark, blurred": {"turned": True, "gains": (0.75, 0.95, 1.2),
                                    "brightness": 0.5, "blur": 1.5},
}


@pytest.mark.parametrize("condition", list(CONDITIONS))
def test_each_face_is_recognised(identifier: CardIdentifier, faces: Any, condition: str) -> None:
    for code, face in faces.items():
        got, conf = identifier.identify(camera_view(face, **CONDITIONS[condition]))
        assert got == code, (condition, code, got, conf)
        assert conf >= identifier.threshold


def test_blank_and_random_patches_are_unknown(identifier: CardIdentifier) -> None:
    rng = np.random.default_rng(7)
    assert identifier.identify(np.full((88, 64, 3), 250, np.uint8)) == (None, 0.0)
    for _ in range(200):
        noise = rng.integers(0, 256, (88, 64, 3), dtype=np.uint8)
        shapes = np.full((88, 64, 3), rng.integers(0, 256, 3), np.uint8)
        for _ in range(4):
            cv2.circle(shapes, (int(rng.integers(0, 64)), int(rng.integers(0, 88))),
                       int(rng.integers(4, 30)), rng.integers(0, 256, 3).tolist(), -1)
        for patch in (noise, shapes):
            code, conf = identifier.identify(patch)
            assert code is None
            assert not identifier.is_card_like(patch)
            assert 0.0 <= conf < identifier.threshold


def test_grey_patches_and_batches(identifier: CardIdentifier, faces: Any) -> None:
    views = [camera_view(f) for f in faces.values()]
    assert [c for c, _ in identifier.identify_many(views)] == list(faces)
    assert identifier.identify_many([]) == []
    grey = cv2.cvtColor(views[0], cv2.COLOR_BGR2GRAY)
    assert identifier.identify(grey)[1] >= 0.0  # a grey patch is accepted, not an error


def test_learning_is_deterministic_for_a_seed(faces: Any) -> None:
    a = CardIdentifier.from_references(faces, np.random.default_rng(3), views=4)
    b = CardIdentifier.from_references(faces, np.random.default_rng(3), views=4)
    assert np.array_equal(a.vectors, b.vectors)
    assert a.vectors.shape == (5 * 2 * 5, 576)
    with pytest.raises(ValueError):
        CardIdentifier.from_references({}, np.random.default_rng(0))


def test_description_ignores_a_colour_cast_and_brightness(faces: Any) -> None:
    base = camera_view(faces["oasis"])
    cast = camera_view(faces["oasis"], gains=(0.7, 1.0, 1.3), brightness=0.6)
    assert float(describe([base])[0] @ describe([cast])[0]) > 0.97


def test_confidence_needs_both_similarity_and_margin() -> None:
    assert confidence(0.95, 0.5) == 1.0
    assert confidence(0.95, 0.94) < 0.1
    assert confidence(0.5, 0.0) == 0.0


def test_augment_keeps_the_shape(faces: Any) -> None:
    patch = camera_view(faces["vizier"])
    out = augment(patch, np.random.default_rng(1))
    assert out.shape == patch.shape and out.dtype == np.uint8
