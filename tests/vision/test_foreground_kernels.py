"""The compiled foreground loops give bit for bit what scaling the mat model, subtracting it
and thresholding the difference with OpenCV, and numpy's median of the exposure ratios, give."""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards import _threshold
from vision.foreground_kernels import exposure_gain, model_foreground


def test_model_foreground_is_scale_subtract_threshold() -> None:
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
        for use_valid in (valid, None):
            expected = _threshold(diff, use_valid, 32, 24)
            got = model_foreground(view, model, gain, use_valid, 32, 72)
            assert np.array_equal(got, expected)


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
