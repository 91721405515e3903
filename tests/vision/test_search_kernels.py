"""The search's compiled comparisons find the full comparison's two best shapes under any
bounds that bound, however loose, and compare fewer pairs the tighter they are; a picture's
place is refined to the window its guides correlate best with."""

from __future__ import annotations

import cv2
import numpy as np

from vision.search_kernels import (
    _correlation,
    _correlations,
    best_scores,
    coarse_windows,
    fine_places,
    weighted_correlation,
    whole_sums,
    window_correlations,
)
from vision.template_search import ShapeSearch, standardised

SIZE, MARGIN = (20, 24), (2, 3)


def search_and_pictures(seed: int) -> tuple[ShapeSearch, np.ndarray]:
    """Templates of five shapes (noisy views of five random pictures) and pictures made of
    them, shifted, plus some of nothing."""
    rng = np.random.default_rng(seed)
    (w, h), (mx, my) = SIZE, MARGIN
    bases = rng.random((5, h, w, 2)).astype(np.float32)
    views = bases[np.arange(30) % 5] + rng.normal(0, 0.3, (30, h, w, 2)).astype(np.float32)
    templates = standardised(views[:, my : h - my, mx : w - mx].reshape(30, -1))
    search = ShapeSearch.build(templates, np.arange(30) % 5, 5, SIZE, MARGIN)
    pictures = [np.roll(bases[k], (int(rng.integers(-2, 3)), int(rng.integers(-1, 2))),
                        axis=(0, 1)) + rng.normal(0, 0.2, (h, w, 2)) for k in range(5)]
    pictures += [rng.random((h, w, 2)) for _ in range(3)]
    return search, np.array(pictures, np.float32)


def scores_under(search: ShapeSearch, inks: np.ndarray, bounds: np.ndarray,
                 settle: float = 0.0, least: float = -np.inf) -> np.ndarray:
    (w, h), (mx, my) = SIZE, MARGIN
    out: np.ndarray = best_scores(
        inks.reshape(len(inks), h, 2 * w), search._bounds(inks)[1], bounds, search.templates,
        search.channel_sums, search.shapes, search.n_shapes, 7, w - 2 * mx, h - 2 * my,
        2 * mx + 1, settle, least)  # 7 heads, fewer than the templates: both passes
    return out


def test_the_two_best_shapes_are_the_full_comparisons_under_any_bounds() -> None:
    for seed in range(4):
        search, inks = search_and_pictures(seed)
        products = search.windows(inks) @ search.templates.T  # (pictures, shifts, templates)
        full = np.maximum.reduceat(products.max(axis=1), search.starts, axis=1)
        top = np.argsort(-full, axis=1)[:, :2]
        rng = np.random.default_rng(seed)
        for looseness in (1e-4, 0.05, 0.5, 3.0):
            bounds = (products + rng.uniform(1e-5, looseness, products.shape)).astype(np.float32)
            fast = scores_under(search, inks, bounds)
            assert np.allclose(np.take_along_axis(fast, top, axis=1),
                               np.take_along_axis(full, top, axis=1), atol=1e-5)
            second = np.take_along_axis(full, top[:, 1:], axis=1)
            assert (fast <= np.maximum(full, -1.0) + 1e-5).all()
            others = np.ones_like(fast, bool)
            np.put_along_axis(others, top, False, axis=1)
            assert (fast[others] <= np.broadcast_to(second, fast.shape)[others] + 1e-5).all()


def test_the_floors_a_decision_sets_keep_what_it_looks_at_under_any_bounds() -> None:
    """With `settle`, the best score is the full one and the second either the full one or
    low enough that the best one's distance over it lies under `settle` (as it truly
    does); with `least`, a picture whose best lies below it scores no higher anywhere,
    and one whose best reaches it scores as with `settle` alone. Fewer shapes scored."""
    compared = {True: 0, False: 0}
    for seed in range(4):
        search, inks = search_and_pictures(seed)
        products = search.windows(inks) @ search.templates.T
        full = np.maximum.reduceat(products.max(axis=1), search.starts, axis=1)
        best, second = np.sort(full, axis=1)[:, -1], np.sort(full, axis=1)[:, -2]
        rng = np.random.default_rng(seed)
        for looseness in (1e-4, 0.05, 0.5):
            bounds = (products + rng.uniform(1e-5, looseness, products.shape)).astype(np.float32)
            for settle, least in ((0.5, -np.inf), (0.3, 0.6), (0.5, 0.6), (0.5, 0.95)):
                fast = scores_under(search, inks, bounds, settle, least)
                assert (fast <= np.maximum(full, -1.0) + 1e-5).all()
                low = best < least
                assert (fast[low].max(axis=1) < least).all()
                top = np.sort(fast[~low], axis=1)
                assert np.allclose(top[:, -1], best[~low], atol=1e-5)
                exact = np.isclose(top[:, -2], second[~low], atol=1e-5)
                ratio = (1 - best[~low]) / (1 - second[~low])
                assert (exact | (ratio <= settle + 1e-5)).all()
                assert ((1 - top[:, -1]) / (1 - top[:, -2]) <= settle + 1e-5)[~exact].all()
                for floors in (True, False):
                    scored = fast if floors else scores_under(search, inks, bounds)
                    compared[floors] += int((scored > -1.0).sum())
    assert compared[True] < compared[False]


def test_tight_bounds_leave_shapes_unscored() -> None:
    search, inks = search_and_pictures(9)
    products = search.windows(inks) @ search.templates.T
    fast = scores_under(search, inks, products + np.float32(1e-5))
    assert (fast[:5] == -1.0).sum(axis=1).min() >= 3  # a clear card's far shapes: no pair


def test_two_windows_at_once_are_each_compared_alone() -> None:
    """One pass down a template for two windows keeps each window's sums in the order of
    a pass for it alone: the same values to the bit, and the standardised windows'
    correlations."""
    search, inks = search_and_pictures(3)
    (w, h), (mx, my) = SIZE, MARGIN
    pictures = inks.reshape(len(inks), h, 2 * w)
    scales = search._bounds(inks)[1]
    products = search.windows(inks) @ search.templates.T
    columns, size = 2 * mx + 1, (w - 2 * mx, h - 2 * my)
    for i in range(len(inks)):
        for t in (0, 7, 29):
            for first, second in ((0, 1), (5, 20), (34, 2), (9, 9)):
                both = _correlations(pictures[i], first, second, columns, search.templates[t],
                                     scales[i], search.channel_sums[t], *size)
                alone = tuple(_correlation(pictures[i], s // columns, s % columns,
                                           search.templates[t], scales[i, s],
                                           search.channel_sums[t], *size)
                              for s in (first, second))
                assert both == alone
                assert np.allclose(both, products[i, [first, second], t], atol=1e-5)


def numpy_weighted_correlation(picture: np.ndarray, template: np.ndarray,
                               weight: np.ndarray) -> float:
    """The weighted correlation as numpy computes it, step by step."""
    total = 0.0
    for c in range(2):
        x = picture[..., c] - float((weight * picture[..., c]).sum())
        t = template[..., c] - float((weight * template[..., c]).sum())
        total += float((weight * x * t).sum()) / float(
            np.sqrt((weight * x * x).sum() * (weight * t * t).sum()) + 1e-9)
    return total / 2.0


def test_the_weighted_correlation_is_numpys_to_the_bit() -> None:
    rng = np.random.default_rng(5)
    for height, width in ((80, 52), (80, 52), (7, 5), (33, 130)):
        whole = rng.random((height + 16, width + 12, 2)).astype(np.float32) * 2.5
        picture = whole[8 : 8 + height, 6 : 6 + width]  # (a view, as the finer look cuts it)
        template = rng.normal(0.0, 0.01, (height, width, 2)).astype(np.float32)
        weight = cv2.GaussianBlur(np.abs(rng.normal(size=(height, width))).astype(np.float32),
                                  (0, 0), 2.0)
        weight /= float(weight.sum()) + 1e-9
        assert (weighted_correlation(picture, template, weight)
                == numpy_weighted_correlation(picture, template, weight))


def test_templates_sharing_places_are_each_compared_as_alone() -> None:
    rng = np.random.default_rng(6)
    planes = rng.random((2, 30, 24))
    templates = rng.normal(0.0, 0.1, (3, 2, 20, 16))
    places = np.array([[(0, 0), (4, 3), (10, 8)], [(4, 3), (0, 0), (2, 2)],
                       [(10, 8), (10, 8), (4, 3)]], np.intp)
    together = window_correlations(planes, places, templates)
    for k in range(3):
        alone = window_correlations(planes, places[k : k + 1], templates[k : k + 1])
        assert np.array_equal(together[k], alone[0])
    windows = np.array([[planes[:, y : y + 20, x : x + 16] for y, x in row] for row in places])
    centred = windows - windows.mean(axis=(3, 4), keepdims=True)
    lengths = np.sqrt(2.0) * np.sqrt((centred ** 2).sum(axis=(3, 4)))
    direct = ((centred * templates[:, None]).sum(axis=(3, 4)) / lengths).sum(axis=2)
    assert np.allclose(together, direct, atol=1e-6)


def test_a_place_is_refined_to_the_window_its_best_shapes_guides_match_best() -> None:
    """Of the best coarse window and the windows a pixel toward its better neighbours (as
    numpy correlates them with both guides of each of the two shapes best there), the best:
    where a guide lies at such a window, there; elsewhere, still one of those four."""
    rng = np.random.default_rng(5)
    (w, h), (mx, my) = SIZE, MARGIN
    tw, th = w - 2 * mx, h - 2 * my
    guides = standardised(rng.random((8, th * tw * 2)).astype(np.float32)).reshape(8, th, tw, 2)
    matches = np.zeros((1, my + 1, mx + 1, 8), np.float32)  # coarse windows, 2 pixels apart
    matches[0, 1, 1] = [0.1, 0.2, 0.9, 0.3, 0.1, 0.8, 0.0, 0.0]  # shapes 1 and 2 best
    matches[0, 2, 1, 0] = 0.5  # below it: better than above (0)
    matches[0, 1, 0, 0] = 0.4  # to its left: better than to its right (0)
    four = [(2, 2), (2, 1), (3, 2), (3, 1)]
    for (y, x), guide in [((3, 1), 5), ((2, 1), 2), ((1, 2), 3), ((3, 2), 0)]:
        picture = rng.normal(0.0, 0.05, (h, w, 2)).astype(np.float32)
        picture[y : y + th, x : x + tw] += guides[guide]
        placed = fine_places(picture.reshape(1, h, 2 * w), matches,
                             guides.reshape(8, th, 2 * tw), 2, 2, 2, 2 * my, 2 * mx)
        scores = {}
        for top, left in four:
            window = picture[top : top + th, left : left + tw].reshape(-1, 2)
            window = window - window.mean(axis=0)
            scores[(top, left)] = max(
                float(((window * guides[g].reshape(-1, 2)).sum(axis=0)
                       / np.linalg.norm(window, axis=0)).sum()) for g in (2, 3, 4, 5))
        assert tuple(placed[0]) == max(scores, key=lambda place: scores[place])
        assert tuple(placed[0]) in four
        if guide in (2, 3, 4, 5) and (y, x) in four:
            assert tuple(placed[0]) == (y, x)


def test_a_pictures_sums_are_its_planes_stacked_integral_images_to_the_bit() -> None:
    """whole_sums gives what cv2.integral2 of the planes stacked gives for a window the size
    of a plane (template_search._window_sums, one shift): each plane's total less the total
    before it, of the values and of their squares."""
    rng = np.random.default_rng(6)
    planar = rng.normal(0.3, 0.2, (2, 5, 40, 26)).astype(np.float32)
    sums, squares = whole_sums(planar)
    total, squared = cv2.integral2(planar.reshape(-1, 26), sdepth=cv2.CV_64F,
                                   sqdepth=cv2.CV_64F)
    ends = np.arange(1, 11) * 40
    assert np.array_equal(sums.ravel(), total[ends, 26] - total[ends - 40, 26])
    assert np.array_equal(squares.ravel(), squared[ends, 26] - squared[ends - 40, 26])


def test_coarse_windows_are_each_channel_of_every_window_over_its_centred_length() -> None:
    """A row per window of each picture's planes (rows of columns), each channel over its
    centred length (its mean left in), the first channel's values before the second's."""
    rng = np.random.default_rng(7)
    n, height, width, wh, ww = 3, 12, 9, 8, 6
    planes = rng.random((n * 2 * height, width)).astype(np.float32)
    planes[2 * height : 3 * height] = 0.5  # a flat channel: finite, no division by 0
    out = coarse_windows(planes, n, height, width, wh, ww)
    pictures = planes.reshape(n, 2, height, width)
    expected = []
    for i in range(n):
        for r in range(height - wh + 1):
            for c in range(width - ww + 1):
                window = pictures[i, :, r : r + wh, c : c + ww].reshape(2, -1).astype(np.float64)
                centred = window - window.mean(axis=1, keepdims=True)
                expected.append((window / (np.linalg.norm(centred, axis=1, keepdims=True)
                                           + 1e-6)).ravel())
    assert out.shape == (n * (height - wh + 1) * (width - ww + 1), 2 * wh * ww)
    assert np.allclose(out, np.array(expected), atol=1e-4)
    assert np.isfinite(out).all()
    windows = out.reshape(len(out), 2, -1)
    lengths = np.linalg.norm(windows - windows.mean(axis=2, keepdims=True), axis=2)
    flat = np.arange(len(out)) // 20 == 1  # the second picture's windows (20 a picture)
    assert np.allclose(lengths[~flat], 1.0, atol=1e-4) and np.allclose(lengths[flat, 1], 1.0)
