"""The compiled foreground loops give bit for bit what scaling the mat model, subtracting it
and thresholding the difference with OpenCV, numpy's median of the exposure ratios, and
OpenCV's masked accumulateWeighted when the mat is learnt, give."""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.cards import _threshold
from vision.foreground_kernels import _learn, expected_view, exposure_gain, learn, view_foreground

Mask = NDArray[np.uint8]


def test_the_view_foreground_is_scale_subtract_threshold() -> None:
    rng = np.random.default_rng(7)
    for trial in range(30):
        h, w = (int(v) for v in rng.integers(1, 90, 2))
        model = rng.uniform(-5.0, 300.0, (h, w, 3)).astype(np.float32)
        if trial % 3 == 0:
            model = np.round(model) + np.float32(0.5)  # halves: rounding ties
        view = np.clip(model + rng.normal(0, 40, model.shape), 0, 255).astype(np.uint8)
        gain = rng.uniform(0.25, 4.0, 3).astype(np.float32)
        valid = np.where(rng.random((h, w)) < 0.8, 255, 0).astype(np.uint8)
        scaled = np.multiply(model, gain)
        scaled += np.float32(0.5)
        np.clip(scaled, 0, 255, out=scaled)
        diff = np.asarray(cv2.subtract(view, scaled.astype(np.uint8), dtype=cv2.CV_16S))
        grey = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY)
        limit = rng.integers(0, 120, (h, w)).astype(np.uint8)
        mat = expected_view(model, gain)
        assert np.array_equal(mat, scaled.astype(np.uint8))
        for use_valid in (valid, None):
            expected = _threshold(diff, use_valid, 32, 24)
            got = view_foreground(view, mat, use_valid, 32, 72)
            assert np.array_equal(got, expected)
            # and the pixels at or below a limit of darkness, in the same pass
            dark = cv2.compare(grey, limit, cv2.CMP_LE)
            if use_valid is not None:
                dark = cv2.bitwise_and(dark, use_valid)
            got = view_foreground(view, mat, use_valid, 32, 72, (grey, limit))
            assert np.array_equal(got, cv2.bitwise_or(expected, dark))


def test_exposure_gain_is_numpys_median_ratio() -> None:
    rng = np.random.default_rng(8)
    for trial in range(100):
        h, w = (int(v) for v in rng.integers(8, 200, 2))
        view = rng.integers(0, 256, (h, w, 3)).astype(np.uint8)
        model = rng.uniform(0, 255, (h, w, 3)).astype(np.float32)
        if trial % 2:
            model = np.round(model)  # equal ratios: ties in the middle
        sample = rng.random(((h + 7) // 8, (w + 7) // 8)) < rng.uniform(0, 1)
        now, then = view[::8, ::8][sample].astype(np.float32), model[::8, ::8][sample]
        expected = np.ones(3, np.float32) if len(now) == 0 else np.asarray(
            np.clip(np.median((now + 1.0) / (then + 1.0), axis=0), 0.25, 4.0), np.float32)
        got = exposure_gain(view[::8, ::8], np.ascontiguousarray(model[::8, ::8]), sample)
        assert got.tobytes() == expected.tobytes()


def _learn_with_opencv(view: Mask, model: NDArray[np.float32], valid: Mask, moved: Mask,
                       cards: Mask, rate: float, background: Mask, colour: Mask,
                       heal_rate: float, level: int) -> None:
    """What TableReader learnt with OpenCV's masks and accumulateWeighted."""
    keep = cv2.bitwise_and(valid, cv2.bitwise_not(cv2.bitwise_or(moved, cards)))
    cv2.accumulateWeighted(view.astype(np.float32), model, rate, keep)
    b, g, r = cv2.split(cv2.absdiff(view, background))
    local = cv2.max(cv2.max(b, g), r)
    b, g, r = cv2.split(cv2.absdiff(view, np.full_like(view, colour)))
    local = cv2.max(local, cv2.max(cv2.max(b, g), r))
    bare = cv2.threshold(local, level, 255, cv2.THRESH_BINARY_INV)[1]
    bare = cv2.bitwise_and(cv2.bitwise_and(bare, valid), cv2.bitwise_not(cards))
    cv2.accumulateWeighted(view.astype(np.float32), model, heal_rate, bare)


def test_learning_is_opencvs_accumulate_weighted_with_the_same_masks() -> None:
    rng = np.random.default_rng(9)
    for _ in range(30):
        h, w = (int(v) for v in rng.integers(1, 90, 2))
        mat = rng.uniform(20.0, 230.0, 3)  # a mat colour, the model about it
        model = np.clip(mat + rng.normal(0, 12, (h, w, 3)), 0, 255).astype(np.float32)
        view = np.clip(model + rng.normal(0, 15, model.shape), 0, 255).astype(np.uint8)
        valid, moved, cards = (np.where(rng.random((h, w)) < p, 255, 0).astype(np.uint8)
                               for p in (0.8, 0.3, 0.2))
        background = np.clip(model + rng.normal(0, 15, model.shape), 0, 255).astype(np.uint8)
        colour = np.round(mat).astype(np.uint8)
        rate, heal_rate = float(rng.uniform(0.05, 0.5)), float(rng.uniform(0.3, 0.7))
        expected = model.copy()
        _learn_with_opencv(view, expected, valid, moved, cards, rate, background, colour,
                           heal_rate, 22)
        got = model.copy()
        learn(view, got, valid, moved, cards, rate, (background, colour, heal_rate, 22))
        assert got.tobytes() == expected.tobytes()
        plain, learnt = model.copy(), model.copy()
        keep = cv2.bitwise_and(valid, cv2.bitwise_not(cv2.bitwise_or(moved, cards)))
        cv2.accumulateWeighted(view.astype(np.float32), plain, rate, keep)
        learn(view, learnt, valid, moved, cards, rate)  # no healing
        assert learnt.tobytes() == plain.tobytes()
    # both kinds of learn are one compiled kernel (a second is loaded on a frame mid-game)
    assert len(_learn.signatures) == 1
