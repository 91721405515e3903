"""The compiled foreground loop gives bit for bit what scaling the mat model, subtracting it
and thresholding the difference with OpenCV gives."""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards import _threshold
from vision.foreground_kernels import model_foreground


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
