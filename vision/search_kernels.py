"""Compiled loops of the shape search (vision.template_search) and its finer look
(vision.template_identifier): the full comparisons the bounds leave, one (window,
template) pair at a time.

What the bounds leave is a scatter of pairs, a few hundred a picture among tens of
thousands, most templates wanted at a few shifts only. A matmul of every shift any wanted
template needs by every wanted template (numpy's way) compared some 13,400 pairs a batch
of a frame's new cards on tempus-tall's tables, where best_scores compares 1,300: the
templates taken best bound first, each at its best-bounded shift first, the scores found
raise the floor that the later pairs' bounds must pass. Each pair is one pass down the
window's rows in the picture (no window copied) and the template's, its products kept per
place along the row (adding whole rows of them vectorises without reordering any sum) and
summed at the end; the finer look's correlations at FINE_SIZE (window_correlations) are
made the same way, in float64.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.compiled import compiled


@compiled
def _correlation(picture: Any, top: int, left: int, template: Any, scale: Any,
                 channel_sums: Any, width: int, height: int) -> float:  # pragma: no cover
    """A window's correlation with a template (a standardised row): the window of a
    two-channel picture (rows of interleaved channels) at (top, left), each channel
    standardised by `scale` (its scale, then its scaled mean negated) on the way."""
    span = 2 * width
    lanes = np.zeros(span, np.float32)
    for y in range(height):
        row = picture[top + y, 2 * left : 2 * left + span]
        along = template[y * span : (y + 1) * span]
        for j in range(span):
            lanes[j] += row[j] * along[j]
    first, second = 0.0, 0.0
    for j in range(0, span, 2):
        first += lanes[j]
        second += lanes[j + 1]
    return float(scale[0] * first + scale[1] * second
                 + scale[2] * channel_sums[0] + scale[3] * channel_sums[1])


@compiled
def _second_best(scores: Any) -> float:  # pragma: no cover
    """The second highest of the scores (-inf for fewer than two)."""
    best, second = -np.inf, -np.inf
    for value in scores:
        if value > best:
            best, second = value, best
        elif value > second:
            second = value
    return second


@compiled
def best_scores(inks: Any, scales: Any, bounds: Any, templates: Any, channel_sums: Any,
                shapes: Any, n_shapes: int, heads: int, width: int, height: int,
                shift_columns: int) -> Any:  # pragma: no cover
    """Each picture's score for each shape, (pictures, shapes): its two best shapes' the
    best correlation of any window with any of their templates, every other shape's the
    best among the pairs compared (-1 where none was), no higher than the second best.

    A pair is compared only where its bound lies above its template's floor (its own
    shape's score so far, or the second best so far, whichever is higher): a pair left out
    could raise neither the second best score nor its own shape's above the floor, which
    only rises. The templates are taken in the order of their reach (their highest bound)
    among the `heads` best-reaching of each picture, best first (a template reaching no
    higher than the second best so far ends the search: so does every one after it), then
    the others in turn; each template at its best-bounded shift first. `inks` (pictures,
    height, width * 2); `bounds` (pictures, shifts, templates)."""
    n, shifts, count = bounds.shape
    out = np.full((n, n_shapes), -1.0, np.float32)
    taken = np.zeros(count, np.bool_)
    reach = np.empty(count, np.float32)
    for i in range(n):
        reach[:] = bounds[i, 0]
        for s in range(1, shifts):
            row = bounds[i, s]
            for t in range(count):
                if row[t] > reach[t]:
                    reach[t] = row[t]
        # the heads: every template reaching as high as the heads-th, best first
        least = np.partition(reach, count - min(heads, count))[count - min(heads, count)]
        first = np.flatnonzero(reach >= least)
        first = first[np.argsort(-reach[first], kind="mergesort")]
        scores = out[i]
        second = _second_best(scores)
        taken[:] = False
        for k in range(len(first) + count):
            t = first[k] if k < len(first) else k - len(first)
            if reach[t] <= second:
                if k < len(first):
                    break  # (every template after it reaches no higher)
                continue
            if taken[t] or reach[t] <= scores[shapes[t]]:
                continue
            taken[t] = True
            second = _raise_scores(inks[i], scales[i], bounds[i, :, t], templates[t],
                                   channel_sums[t], shapes[t], scores, second, width,
                                   height, shift_columns)
    return out


@compiled
def _raise_scores(picture: Any, scales: Any, bound: Any, template: Any, channel_sums: Any,
                  shape: int, scores: Any, second: float, width: int, height: int,
                  shift_columns: int) -> float:  # pragma: no cover
    """Compare one template with the windows of a picture whose bound lies above its floor,
    raising its shape's score; the second best score after."""
    first = int(np.argmax(bound))
    for k in range(-1, len(bound)):
        s = first if k < 0 else k
        if (k >= 0 and s == first) or bound[s] <= max(scores[shape], second):
            continue
        value = _correlation(picture, s // shift_columns, s % shift_columns, template,
                             scales[s], channel_sums, width, height)
        if value > scores[shape]:
            scores[shape] = value
            second = _second_best(scores)
    return second


@compiled
def best_templates(picture: Any, scales: Any, bound: Any, templates: Any, channel_sums: Any,
                   start: int, end: int, count: int, width: int, height: int,
                   shift_columns: int) -> Any:  # pragma: no cover
    """The `count` templates of start:end that correlate best with some window of one
    picture, best first (ties to the lower template), and the shift where each does best:
    (count, 2). The `count` best-reaching templates (their highest bound; ties to the lower
    template), each compared at its best-bounded shift, give a floor that the count-th
    best reaches; every pair of a template whose bound lies above it is compared, and no
    other pair could be among the best. `bound` (shifts, templates) of this picture."""
    shifts = bound.shape[0]
    reach = np.empty(end - start)
    for t in range(start, end):
        reach[t - start] = bound[:, t].max()
    first = np.argsort(-reach, kind="mergesort")[:count]
    floor = np.inf
    for j in first:
        s = int(np.argmax(bound[:, start + j]))
        floor = min(floor, _correlation(picture, s // shift_columns, s % shift_columns,
                                        templates[start + j], scales[s],
                                        channel_sums[start + j], width, height))
    best = np.full(end - start, -np.inf)
    where = np.zeros(end - start, np.int64)
    for j in range(end - start):
        if reach[j] <= floor:
            continue
        for s in range(shifts):
            if bound[s, start + j] > floor:
                value = _correlation(picture, s // shift_columns, s % shift_columns,
                                     templates[start + j], scales[s],
                                     channel_sums[start + j], width, height)
                if value > best[j]:
                    best[j], where[j] = value, s
    ranked = np.argsort(-best, kind="mergesort")[:count]
    out = np.empty((len(ranked), 2), np.int64)
    for k in range(len(ranked)):
        out[k, 0], out[k, 1] = start + ranked[k], where[ranked[k]]
    return out


@compiled
def window_correlations(planes: Any, places: Any, templates: Any) -> Any:  # pragma: no cover
    """The correlation of each template with the windows of a two-channel picture at its
    places, (templates, places), in float64: each channel's window standardised (its mean
    and centred length from its own sums) on the way, the template's channel sum (0 but
    rounding) kept, the two channels' correlations added. `planes` (2, height, width);
    `places` (templates, places, 2) of (row, column); `templates` (templates, 2, window
    height, window width)."""
    count, n = places.shape[0], places.shape[1]
    height, width = templates.shape[2], templates.shape[3]
    size = height * width
    out = np.zeros((count, n))
    dots, sums, squares = np.empty(width), np.empty(width), np.empty(width)
    for k in range(count):
        for c in range(2):
            template = templates[k, c]
            total = template.sum()
            for m in range(n):
                top, left = places[k, m, 0], places[k, m, 1]
                dots[:] = 0.0
                sums[:] = 0.0
                squares[:] = 0.0
                for y in range(height):
                    row, along = planes[c, top + y, left : left + width], template[y]
                    for x in range(width):
                        dots[x] += row[x] * along[x]
                        sums[x] += row[x]
                        squares[x] += row[x] * row[x]
                mass = sums.sum()
                norm = np.sqrt(max(squares.sum() - mass * mass / size, 0.0))
                out[k, m] += (dots.sum() - mass / size * total) / (np.sqrt(2.0) * norm + 1e-6)
    return out
