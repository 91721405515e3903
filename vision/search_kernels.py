"""Compiled loops of the shape search (vision.template_search) and its finer look
(vision.template_identifier): the full comparisons the bounds leave, one (window,
template) pair at a time, and a picture's place refined to the pixel (fine_places: a few
windows by a few guides, a loop each, not numpy's dozen calls on small arrays).

What the bounds leave is a scatter of pairs, a few hundred a picture among tens of
thousands, most templates wanted at a few shifts only. A matmul of every shift any wanted
template needs by every wanted template (numpy's way) compared some 13,400 pairs a batch
of a frame's new cards on tempus-tall's tables, where best_scores compares 1,300: the
templates taken best bound first, each at its best-bounded shift first, the scores found
raise the floor that the later pairs' bounds must pass. Each pair is one pass down the
window's rows in the picture (no window copied) and the template's, its products kept per
place along the row (adding whole rows of them vectorises without reordering any sum) and
summed at the end (two windows of one template share a pass, _correlations: the same sums
in the same order, each window's adds of a row no longer waiting on its own last row's);
the finer look's correlations at FINE_SIZE (window_correlations) are made the same way,
in float64, a window's own sums once for every template compared there, and its focused
correlation (weighted_correlation) in numpy's float32 steps and pairwise sums, to the bit.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.compiled import compiled, pairwise_sum_with


@compiled
def _correlation(picture: Any, top: int, left: int, template: Any, scale: Any,
                 channel_sums: Any, width: int, height: int) -> float:  # pragma: no cover
    """A window's correlation with a template (a standardised row): the window of a
    two-channel picture (rows of interleaved channels) at (top, left), each channel
    standardised by `scale` (its scale, then its scaled mean negated) on the way."""
    lanes = np.zeros(2 * width, np.float32)
    _add_products(picture, top, left, template, width, height, lanes)
    return _standardised_sum(lanes, scale, channel_sums)


@compiled
def _correlations(picture: Any, first: int, second: int, shift_columns: int, template: Any,
                  scales: Any, channel_sums: Any, width: int, height: int
                  ) -> tuple[float, float]:  # pragma: no cover
    """_correlation() of one template with the windows at two shifts, in one pass down the
    template: each window's products summed in the same order as alone (the same values),
    the two windows' sums interleaved (a pass over one waits on its own last row)."""
    u = np.uint64
    span, columns = u(2 * width), u(picture.shape[1])
    values = picture.ravel()
    lanes = np.zeros((2, 2 * width), np.float32)
    one, other = lanes[0], lanes[1]
    at = u(first // shift_columns) * columns + u(2 * (first % shift_columns))
    beside = u(second // shift_columns) * columns + u(2 * (second % shift_columns))
    along = u(0)
    for _ in range(height):
        for j in range(span):
            weight = template[along + j]
            one[j] += values[at + j] * weight
            other[j] += values[beside + j] * weight
        at += columns
        beside += columns
        along += span
    return (_standardised_sum(one, scales[first], channel_sums),
            _standardised_sum(other, scales[second], channel_sums))


@compiled
def _add_products(picture: Any, top: int, left: int, template: Any, width: int, height: int,
                  lanes: Any) -> None:  # pragma: no cover
    """Add the products of the window at (top, left) and the template to `lanes`, one per
    place along a row, row after row. (Places counted unsigned: numba then neither wraps
    negative ones nor slices a row, which cost more than the products.)"""
    u = np.uint64
    span, columns = u(2 * width), u(picture.shape[1])
    values = picture.ravel()
    at, along = u(top) * columns + u(2 * left), u(0)
    for _ in range(height):
        for j in range(span):
            lanes[j] += values[at + j] * template[along + j]
        at += columns
        along += span


@compiled
def _standardised_sum(lanes: Any, scale: Any, channel_sums: Any) -> float:  # pragma: no cover
    """The correlation from a window's products with a template kept per place along a row
    (channels interleaved): each channel's summed, scaled, less the mean's part."""
    first, second = _channel_sums(lanes)
    return float(scale[0] * first + scale[1] * second
                 + scale[2] * channel_sums[0] + scale[3] * channel_sums[1])


@compiled
def best_scores(inks: Any, scales: Any, bounds: Any, templates: Any, channel_sums: Any,
                shapes: Any, n_shapes: int, heads: int, width: int, height: int,
                shift_columns: int, settle: float = 0.0, least: float = -np.inf
                ) -> Any:  # pragma: no cover
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
    height, width * 2); `bounds` (pictures, shifts, templates).

    Two floors more spare the comparisons a decision does not look at (_settled):
    - `settle` (a ratio of distances, 1 minus a score, 0 < settle < 1): the second best
      need be exact only where it could bring the best one's distance over its own above
      `settle`; the floor is at least 1 - (1 - best) / settle, so a second best found
      below it is no higher than the true one and no lower than what keeps that ratio
      under `settle`.
    - `least`: no score below it need be exact while the best lies below it too. A picture
      whose best found stays below `least` has every score no higher than the full one
      (its best included); one whose best reaches it is searched again without it, where
      this floor left out a pair the others would have compared."""
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
        edge = np.partition(reach, count - min(heads, count))[count - min(heads, count)]
        first = np.flatnonzero(reach >= edge)
        first = first[np.argsort(-reach[first], kind="mergesort")]
        floor = _search(inks[i], scales[i], bounds[i], templates, channel_sums, shapes,
                        out[i], reach, first, taken, settle, least, width, height,
                        shift_columns)
        if out[i].max() >= least > floor:  # (least left out pairs the others would not)
            _search(inks[i], scales[i], bounds[i], templates, channel_sums, shapes, out[i],
                    reach, first, taken, settle, -np.inf, width, height, shift_columns)
    return out


@compiled
def _search(picture: Any, scales: Any, bounds: Any, templates: Any, channel_sums: Any,
            shapes: Any, scores: Any, reach: Any, first: Any, taken: Any, settle: float,
            least: float, width: int, height: int, shift_columns: int
            ) -> float:  # pragma: no cover
    """best_scores' search of one picture, raising `scores` from what they hold: the heads
    (`first`), then the other templates. The floor of `settle` and the second best after
    (_settled's, `least` left out)."""
    count = len(reach)
    floor = _settled(scores, settle, least)
    taken[:] = False
    for k in range(len(first) + count):
        t = first[k] if k < len(first) else k - len(first)
        if reach[t] <= floor:
            if k < len(first):
                break  # (every template after it reaches no higher)
            continue
        if taken[t] or reach[t] <= scores[shapes[t]]:
            continue
        taken[t] = True
        floor = _raise_scores(picture, scales, bounds[:, t], templates[t], channel_sums[t],
                              shapes[t], scores, floor, width, height, shift_columns,
                              settle, least)
    return _settled(scores, settle, -np.inf)


@compiled
def _settled(scores: Any, settle: float, least: float) -> float:  # pragma: no cover
    """The floor a pair's bound must pass to be compared (best_scores): the second best
    score so far; where `settle` is given, 1 - (1 - best) / settle if higher; `least`,
    while the best lies below it. (The best only rises: so does the floor, but where the
    best passes `least`, which best_scores makes up for.)"""
    best, second = -np.inf, -np.inf
    for value in scores:
        if value > best:
            best, second = value, best
        elif value > second:
            second = value
    floor = second
    if settle > 0.0 and best > -np.inf:
        floor = max(floor, 1.0 - (1.0 - best) / settle)
    if best < least:
        floor = max(floor, least)
    return floor


@compiled
def _raise_scores(picture: Any, scales: Any, bound: Any, template: Any, channel_sums: Any,
                  shape: int, scores: Any, floor: float, width: int, height: int,
                  shift_columns: int, settle: float, least: float) -> float:  # pragma: no cover
    """Compare one template with the windows of a picture whose bound lies above its floor,
    raising its shape's score; the floor after (_settled). The best-bounded window first
    (it sets the floor the others must pass), the others two at a time (_correlations):
    the second of two is compared even where the first's score raised the floor above its
    bound, a comparison more that can raise no score above what the first left."""
    first = int(np.argmax(bound))
    if bound[first] > max(scores[shape], floor):
        value = _correlation(picture, first // shift_columns, first % shift_columns, template,
                             scales[first], channel_sums, width, height)
        floor = _raise(scores, shape, value, floor, settle, least)
    waiting = -1  # a window above the floor, waiting for another
    for s in range(len(bound)):
        if s == first or bound[s] <= max(scores[shape], floor):
            continue
        if waiting < 0:
            waiting = s
            continue
        one, other = _correlations(picture, waiting, s, shift_columns, template, scales,
                                   channel_sums, width, height)
        floor = _raise(scores, shape, other,
                       _raise(scores, shape, one, floor, settle, least), settle, least)
        waiting = -1
    if waiting >= 0 and bound[waiting] > max(scores[shape], floor):
        value = _correlation(picture, waiting // shift_columns, waiting % shift_columns,
                             template, scales[waiting], channel_sums, width, height)
        floor = _raise(scores, shape, value, floor, settle, least)
    return floor


@compiled
def _raise(scores: Any, shape: int, value: float, floor: float, settle: float,
           least: float) -> float:  # pragma: no cover
    """A shape's score raised to a value it reaches; the floor after (_settled)."""
    if value > scores[shape]:
        scores[shape] = value
        return _settled(scores, settle, least)
    return floor


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
        t = start + j
        waiting = -1  # a shift above the floor, waiting for another (_correlations)
        for s in range(shifts):
            if bound[s, t] <= floor:
                continue
            if waiting < 0:
                waiting = s
                continue
            one, other = _correlations(picture, waiting, s, shift_columns, templates[t],
                                       scales, channel_sums[t], width, height)
            _keep_best(best, where, j, one, waiting)
            _keep_best(best, where, j, other, s)
            waiting = -1
        if waiting >= 0:
            _keep_best(best, where, j, _correlation(
                picture, waiting // shift_columns, waiting % shift_columns, templates[t],
                scales[waiting], channel_sums[t], width, height), waiting)
    ranked = np.argsort(-best, kind="mergesort")[:count]
    out = np.empty((len(ranked), 2), np.int64)
    for k in range(len(ranked)):
        out[k, 0], out[k, 1] = start + ranked[k], where[ranked[k]]
    return out


@compiled
def _keep_best(best: Any, where: Any, j: int, value: float, shift: int) -> None:  # pragma: no cover
    """Keep a template's best correlation so far, and its shift."""
    if value > best[j]:
        best[j], where[j] = value, shift


@compiled
def window_correlations(planes: Any, places: Any, templates: Any) -> Any:  # pragma: no cover
    """The correlation of each template with the windows of a two-channel picture at its
    places, (templates, places), in float64: each channel's window standardised (its mean
    and centred length from its own sums) on the way, the template's channel sum (0 but
    rounding) kept, the two channels' correlations added. `planes` (2, height, width);
    `places` (templates, places, 2) of (row, column); `templates` (templates, 2, window
    height, window width). A window's sums are made once for every template compared at
    its place (the templates' places overlap): the same sums in the same order."""
    count, n = places.shape[0], places.shape[1]
    height, width = templates.shape[2], templates.shape[3]
    size = height * width
    out = np.zeros((count, n))
    dots = np.empty(width)
    tops, lefts = planes.shape[1] - height + 1, planes.shape[2] - width + 1
    masses, norms = np.empty((2, tops, lefts)), np.empty((2, tops, lefts))
    known = np.zeros((tops, lefts), np.bool_)
    for k in range(count):
        for m in range(n):
            top, left = places[k, m, 0], places[k, m, 1]
            if not known[top, left]:
                _sums_and_lengths(planes, top, left, height, width, masses, norms)
                known[top, left] = True
        for c in range(2):
            template = templates[k, c]
            total = template.sum()
            for m in range(n):
                top, left = places[k, m, 0], places[k, m, 1]
                dots[:] = 0.0
                for y in range(height):
                    row, along = planes[c, top + y, left : left + width], template[y]
                    for x in range(width):
                        dots[x] += row[x] * along[x]
                mass, norm = masses[c, top, left], norms[c, top, left]
                out[k, m] += (dots.sum() - mass / size * total) / (np.sqrt(2.0) * norm + 1e-6)
    return out


@compiled
def _sums_and_lengths(planes: Any, top: int, left: int, height: int, width: int,
                      masses: Any, norms: Any) -> None:  # pragma: no cover
    """Each channel's sum and centred length of the window at (top, left), kept in `masses`
    and `norms` at its place: summed per place along a row, then along it."""
    size = height * width
    sums, squares = np.empty(width), np.empty(width)
    for c in range(2):
        sums[:] = 0.0
        squares[:] = 0.0
        for y in range(height):
            row = planes[c, top + y, left : left + width]
            for x in range(width):
                sums[x] += row[x]
                squares[x] += row[x] * row[x]
        mass = sums.sum()
        masses[c, top, left] = mass
        norms[c, top, left] = np.sqrt(max(squares.sum() - mass * mass / size, 0.0))


@compiled
def weighted_correlation(picture: Any, template: Any, weight: Any) -> float:  # pragma: no cover
    """The mean over two ink channels of their correlations, each pixel weighted (the
    weights summing to 1): `picture` and `template` (height, width, 2), `weight` (height,
    width), float32. numpy's steps, to the bit: each weighted product and difference in
    float32, each sum numpy's pairwise one of a contiguous row, each channel's ratio and
    their mean in float64."""
    height, width = weight.shape
    size = height * width
    x, t, terms = np.empty(size, np.float32), np.empty(size, np.float32), np.empty(size, np.float32)
    parts, firsts = np.empty((3, 64), np.int64), np.empty(64, np.float32)
    flat = weight.ravel()
    total = 0.0
    for c in range(2):
        for y in range(height):
            for j in range(width):
                terms[y * width + j] = weight[y, j] * picture[y, j, c]
        picture_mean = pairwise_sum_with(terms, 0, size, parts, firsts)
        for y in range(height):
            for j in range(width):
                terms[y * width + j] = weight[y, j] * template[y, j, c]
        template_mean = pairwise_sum_with(terms, 0, size, parts, firsts)
        for y in range(height):
            for j in range(width):
                x[y * width + j] = picture[y, j, c] - picture_mean
                t[y * width + j] = template[y, j, c] - template_mean
        for i in range(size):
            terms[i] = flat[i] * x[i] * t[i]
        covariance = pairwise_sum_with(terms, 0, size, parts, firsts)
        for i in range(size):
            terms[i] = flat[i] * x[i] * x[i]
        spread = pairwise_sum_with(terms, 0, size, parts, firsts)
        for i in range(size):
            terms[i] = flat[i] * t[i] * t[i]
        spread = spread * pairwise_sum_with(terms, 0, size, parts, firsts)
        root = np.float32(np.sqrt(np.float64(spread)))  # (float32's own square root)
        total += np.float64(covariance) / np.float64(root + np.float32(1e-9))
    return total / 2.0


@compiled
def coarse_windows(planes: Any, n: int, height: int, width: int, window_height: int,
                   window_width: int) -> Any:  # pragma: no cover
    """Every window of each picture's coarse planes (`planes`, (n * 2 * height, width) of
    float32: a picture's two channels one under the other), each channel over its centred
    length (a hair, 1e-6, added: a flat channel divides nothing by 0; its mean is left in,
    the guides it is compared with summing to 0 in each channel), (n * rows * columns, 2 *
    window values): a row per window, rows of columns, each channel's values row by row,
    the first channel's then the second's. In float32, its sums numpy's pairwise ones; one
    pass, not numpy's copy out of a strided view, sums, squares and division in turn (the
    squares' sum not einsum's to the bit: the places found the same on 4,734 pictures)."""
    rows, columns = height - window_height + 1, width - window_width + 1
    size = window_height * window_width
    out = np.empty((n * rows * columns, 2 * size), np.float32)
    squares = np.empty(size, np.float32)
    parts, firsts = np.empty((3, 64), np.int64), np.empty(64, np.float32)
    count = np.float32(size)
    for i in range(n):
        for r in range(rows):
            for c in range(columns):
                row = out[(i * rows + r) * columns + c]
                for k in range(2):
                    plane = (2 * i + k) * height
                    values = row[k * size : (k + 1) * size]
                    for y in range(window_height):
                        source = planes[plane + r + y]
                        for x in range(window_width):
                            value = source[c + x]
                            values[y * window_width + x] = value
                            squares[y * window_width + x] = value * value
                    total = pairwise_sum_with(values, 0, size, parts, firsts)
                    spread = pairwise_sum_with(squares, 0, size, parts, firsts) \
                        - total * total / count
                    length = np.sqrt(max(spread, np.float32(0.0))) + np.float32(1e-6)
                    for j in range(size):
                        values[j] = values[j] / length
    return out


@compiled
def whole_sums(planar: Any) -> tuple[Any, Any]:  # pragma: no cover
    """The sum and the sum of squares of each whole plane of `planar` (channels, pictures,
    height, width of float32), (channels, pictures, 1) each in float64, as
    template_search._window_sums reads them from cv2.integral2 of the planes stacked, to the
    bit: every row's running sum (and of squares) added in turn to the stack's running
    total, a plane's the total after its last row less the total before its first. For
    the one window a picture has where the search looks at its place only, without the
    integral image's every pixel and its slicing."""
    c, n, h, w = planar.shape
    sums, squares = np.empty((c, n, 1)), np.empty((c, n, 1))
    total, total_squares = 0.0, 0.0
    for k in range(c):
        for i in range(n):
            before, before_squares = total, total_squares
            for y in range(h):
                row, row_squares = 0.0, 0.0
                for x in range(w):
                    value = np.float64(planar[k, i, y, x])
                    row += value
                    row_squares += value * value
                total += row
                total_squares += row_squares
            sums[k, i, 0] = total - before
            squares[k, i, 0] = total_squares - before_squares
    return sums, squares


@compiled
def fine_places(inks: Any, matches: Any, guides: Any, turns: int, shapes: int, scale: int,
                last_top: int, last_left: int) -> Any:  # pragma: no cover
    """Each picture's place to the pixel, (pictures, 2) of (row, column), from its coarse
    look (`matches`, (pictures, rows, columns, guides): each coarse window's correlation
    with each guide, a shape's `turns` guides side by side; a coarse pixel `scale` of the
    picture's): its best coarse window (the first of equals, rows of columns), and the
    windows a pixel from it toward its better coarse neighbour each way (the window
    between the two: where the picture's edge leaves one neighbour, toward the other),
    kept within last_top and last_left; of those, the one that correlates best with a
    guide of the `shapes` shapes best at that coarse window (the first of equals).
    `inks` (pictures, height, width * 2) and `guides` (guides, window height, window
    width * 2), rows of interleaved channels, each guide's channels summing to 0 (a
    window's mean then adds nothing: only each channel's centred length is taken out).
    Sums kept per place along a row (as _add_products keeps them), in float32: a place
    is chosen, no score kept."""
    n, rows, columns, count = matches.shape
    height, span = guides.shape[1], guides.shape[2]
    size = np.float32(height * (span // 2))
    out = np.empty((n, 2), np.int64)
    sums, squares = np.empty(span, np.float32), np.empty(span, np.float32)
    dots = np.empty(span, np.float32)
    surface = np.full((rows + 2, columns + 2), -np.inf, np.float32)
    by_shape = np.empty(count // turns, np.float32)
    for i in range(n):
        row, column = 0, 0
        for r in range(rows):
            for c in range(columns):
                surface[r + 1, c + 1] = matches[i, r, c].max()
                if surface[r + 1, c + 1] > surface[row + 1, column + 1]:
                    row, column = r, c
        toward_row = 1 if surface[row + 2, column + 1] > surface[row, column + 1] else -1
        toward_column = 1 if surface[row + 1, column + 2] > surface[row + 1, column] else -1
        for shape in range(count // turns):
            by_shape[shape] = matches[i, row, column, shape * turns : (shape + 1) * turns].max()
        chosen = np.argsort(-by_shape, kind="mergesort")[:shapes]
        best = -np.inf
        out[i, 0], out[i, 1] = scale * row, scale * column
        for dy in range(2):
            top = scale * row + dy * toward_row
            if top < 0 or top > last_top:
                continue
            for dx in range(2):
                left = scale * column + dx * toward_column
                if left < 0 or left > last_left:
                    continue
                sums[:] = 0.0
                squares[:] = 0.0
                _add_sums(inks[i], top, left, height, span // 2, sums, squares)
                lengths = _lengths(sums, squares, size)
                for shape in chosen:
                    for g in range(shape * turns, (shape + 1) * turns):
                        dots[:] = 0.0
                        _add_products(inks[i], top, left, guides[g].ravel(), span // 2, height,
                                      dots)
                        first, second = _channel_sums(dots)
                        score = first / lengths[0] + second / lengths[1]
                        if score > best:
                            best = score
                            out[i, 0], out[i, 1] = top, left
    return out


@compiled
def _add_sums(picture: Any, top: int, left: int, height: int, width: int, sums: Any,
              squares: Any) -> None:  # pragma: no cover
    """Add the values of the window at (top, left) and their squares to `sums` and
    `squares`, one per place along a row, row after row (_add_products' way)."""
    u = np.uint64
    span, columns = u(2 * width), u(picture.shape[1])
    values = picture.ravel()
    at = u(top) * columns + u(2 * left)
    for _ in range(height):
        for j in range(span):
            value = values[at + j]
            sums[j] += value
            squares[j] += value * value
        at += columns


@compiled
def _channel_sums(lanes: Any) -> tuple[float, float]:  # pragma: no cover
    """Each channel's sum of what is kept per place along a row (channels interleaved)."""
    first, second = 0.0, 0.0
    for j in range(0, len(lanes), 2):
        first += lanes[j]
        second += lanes[j + 1]
    return first, second


@compiled
def _lengths(sums: Any, squares: Any, size: Any) -> Any:  # pragma: no cover
    """Each channel's centred length, from its values' and squares' sums kept per place
    along a row (a hair added: a flat channel divides nothing by 0)."""
    total = _channel_sums(sums)
    square = _channel_sums(squares)
    out = np.empty(2)
    for c in range(2):
        out[c] = np.sqrt(max(square[c] - total[c] * total[c] / size, 0.0)) + 1e-6
    return out
