"""The compiled numeral loops against the numpy steps they stand for, bit for bit: each
numpy step written out here as numeral_look once made it."""

from __future__ import annotations

import numpy as np

from vision.numeral_kernels import _channel_median, numeral_maps, shifted_windows
from vision.numeral_look import NUMERAL_BOX, SHIFT


def numpy_maps(patches: np.ndarray, margin: int) -> tuple[np.ndarray, np.ndarray]:
    """The ink maps (centred, of unit length) and the colours before scaling, in numpy."""
    x0, y0, x1, y1 = NUMERAL_BOX
    m, n = margin, len(patches)
    planes = np.moveaxis(patches[:, y0 - m : y1 + m, x0 - m : x1 + m], 3, 1)
    grown = planes.astype(np.float32) + np.float32(4.0)
    middle = patches[:, y0:y1, x0:x1].reshape(n, -1, 3).astype(np.float32)
    ground = np.median(middle, axis=1) + np.float32(4.0)
    absorbed = 1.0 - grown / ground[:, :, None, None]
    darkest = np.maximum(np.maximum(absorbed[:, 0], absorbed[:, 1]), absorbed[:, 2])
    maps = np.maximum(darkest, 0.0).reshape(n, -1)
    maps -= maps.mean(axis=1, keepdims=True)
    maps /= np.linalg.norm(maps, axis=1, keepdims=True) + 1e-6
    ink = np.maximum(absorbed[:, :, m : absorbed.shape[2] - m, m : absorbed.shape[3] - m], 0.0)
    weighed = (ink * (ink[:, 0] + ink[:, 1] + ink[:, 2])[:, None]).reshape(n, 3, -1)
    return maps, np.cumsum(weighed, axis=2)[:, :, -1]


def tile_like(rng: np.random.Generator, n: int) -> np.ndarray:
    """Patches with a light ground and dark strokes, as tiles give them."""
    patches = rng.integers(150, 256, (n, 88, 64, 3)).astype(np.uint8)
    strokes = rng.random((n, 88, 64)) < 0.15
    patches[strokes] = rng.integers(0, 120, (int(strokes.sum()), 3)).astype(np.uint8)
    return patches


def test_the_numeral_maps_and_colours_are_the_numpy_steps() -> None:
    rng = np.random.default_rng(11)
    box = np.array(NUMERAL_BOX, np.int64)
    for n, margin in ((1, 0), (7, SHIFT), (40, SHIFT), (3, 0)):
        patches = tile_like(rng, n)
        patches[0, 30:40] = 255  # a bright ground and a saturated band: no ink at all
        maps, colours = numeral_maps(patches, box, margin)
        expected_maps, expected_colours = numpy_maps(patches, margin)
        assert maps.dtype == np.float32 and colours.dtype == np.float32
        assert np.array_equal(maps, expected_maps)
        assert np.array_equal(colours, expected_colours)


def test_the_ground_is_numpys_median_of_each_channel() -> None:
    """Odd and even counts, ties, the extremes."""
    rng = np.random.default_rng(7)
    for width in (1, 2, 5, 44):
        pixels = rng.integers(0, 256, (3, width, 3)).astype(np.uint8)
        extremes = rng.choice(np.array([0, 255], np.uint8), (3, width, 3))
        for patch in (pixels, extremes):
            box = np.array([0, 0, width, 3], np.int64)
            for channel in range(3):
                assert _channel_median(patch, box, channel) == np.median(
                    patch[..., channel].astype(np.float32))


def test_the_windows_are_numpys_at_every_shift() -> None:
    rng = np.random.default_rng(5)
    x0, y0, x1, y1 = NUMERAL_BOX
    h, w, s = y1 - y0, x1 - x0, SHIFT
    grown = rng.random((h + 2 * s) * (w + 2 * s)).astype(np.float32)
    cuts = np.lib.stride_tricks.sliding_window_view(grown.reshape(h + 2 * s, w + 2 * s),
                                                    (h, w)).reshape(-1, h * w)
    cuts -= cuts.mean(axis=1, keepdims=True)
    cuts /= np.linalg.norm(cuts, axis=1, keepdims=True) + 1e-6
    assert np.array_equal(shifted_windows(grown, h, w, s), cuts)
