"""The shared compiled helpers give what the numpy code they replace does."""

from __future__ import annotations

import numpy as np

from vision.compiled import (
    NARROWED_MEDIAN,
    box_means,
    dot2,
    grid_medians,
    median_of,
    pairwise_sum,
    select,
)


def test_box_means_are_the_means_of_the_slices() -> None:
    rng = np.random.default_rng(3)
    for channels in (1, 3, 4):
        shape = (37, 52) if channels == 1 else (37, 52, channels)
        image = rng.integers(0, 256, shape).astype(np.uint8)
        boxes = rng.integers(-5, 60, (200, 4))
        got = box_means(image, boxes)
        for (x0, y0, x1, y1), mean in zip(boxes.tolist(), got.tolist(), strict=True):
            x0, x1, _ = slice(max(x0, 0), max(x1, 0)).indices(shape[1])
            y0, y1, _ = slice(max(y0, 0), max(y1, 0)).indices(shape[0])
            part = image[y0:y1, x0:x1]
            assert mean == (float(part.mean()) if part.size else 0.0)


def test_a_long_median_is_numpys_narrowed_or_not() -> None:
    """median_of narrows many values down by a sample first: the same median, whether the
    sample's middle holds it (spread, sorted, tied values) or not (the sample's values all
    lie at one end, a NaN among them: then it selects from all, as before)."""
    rng = np.random.default_rng(12)
    for count in (NARROWED_MEDIAN, NARROWED_MEDIAN + 1, 3633, 20000):
        spread = rng.normal(1, 0.2, count)
        tied = np.round(spread * 20) / 20
        skewed = rng.uniform(5, 6, count)
        skewed[:: count // 128] = rng.uniform(0, 1, len(skewed[:: count // 128]))
        for values in (spread, tied, np.sort(spread), np.sort(tied)[::-1], np.ones(count),
                       skewed, -skewed):
            for dtype in (np.float32, np.float64):
                typed = values.astype(dtype)
                assert median_of(typed.copy(), count) == float(np.median(typed))
                longer = np.concatenate([typed, typed[:7]])  # only the first `count` count
                assert median_of(longer, count) == float(np.median(typed))
    with_nan = rng.normal(0, 1, 4000).astype(np.float32)
    with_nan[1234] = np.nan
    as_before = with_nan.copy()
    select(as_before, 4000, 2000)
    expected = (as_before[:2000].max() + as_before[2000]) / 2
    assert median_of(with_nan, 4000) == float(expected)


def test_grid_medians_are_numpys_medians_of_the_grids() -> None:
    rng = np.random.default_rng(6)
    for k in (1, 2, 10, 11):  # an even count of samples: the mean of the middle two
        image = rng.uniform(0, 255, (40, 50, 3)).astype(np.float32)
        image[::3] = np.round(image[::3])  # ties
        ys, xs = rng.integers(0, 40, (9, k)), rng.integers(0, 50, (9, k))
        grid = image[ys[:, :, None], xs[:, None, :]].reshape(9, k * k, 3)
        assert grid_medians(image, ys, xs).tobytes() == np.median(grid, axis=1).tobytes()


def test_dot2_is_numpys_dot_product() -> None:
    rng = np.random.default_rng(4)
    for _ in range(5000):
        a, b = rng.normal(0, 40, 2), rng.normal(0, 40, 2)
        assert dot2(*a.tolist(), *b.tolist()) == float(a @ b) == float(a.dot(b))
        assert dot2(*a.tolist(), *a.tolist()) == float(a.dot(a))


def test_pairwise_sum_is_numpys_sum_of_a_row() -> None:
    rng = np.random.default_rng(5)
    for dtype in (np.float32, np.float64):
        for count in (0, 1, 7, 8, 9, 96, 127, 128, 129, 255, 300, 1000, 4099):
            row = (rng.normal(0, 1, count) * rng.choice([1e-3, 1.0, 1e4], count)).astype(dtype)
            total = pairwise_sum(row, 0, count)
            assert total == row.sum()  # in the values' precision: a float64 sum would differ
            if count > 20:  # a part of a longer row
                assert pairwise_sum(row, 5, count - 10) == row[5:-5].sum()
