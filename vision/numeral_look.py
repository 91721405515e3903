"""A second, finer look at a tile's numeral: which of a few close faces it is, or none.

vision.identify names a tile from a grey detail at half the patch's resolution, where a
blurred 8 lies about as near a 5 as its own face, and from a colour thumbnail where dim
blue ink is about as dark as black. When its two best faces come close, this look tells
the few nearest apart on what differs between them:

- **the numeral's shape** at the patch's full resolution: how much ink each pixel of the
  middle holds (1 minus its lowest channel against the middle's own median, the tile's
  ground, so yellow ink shows as well as black), correlated with each face's mean view
  where the two faces' views differ (a blurred map of that difference), so the ground and
  the strokes they share weigh nothing;
- **the ink's colour**: the direction of the ink's absorption in blue, green and red over
  the middle (each pixel weighed by how much ink it holds), which brightness, contrast and
  blur leave alone and a colour cast barely moves once the tile's own ground is its white.

Two faces of one value differ only in colour, two of one colour only in shape; each test
is made where the faces differ. A face is chosen only if it wins a test against every
other close face and loses none, its numeral correlates with its own mean view at all
(NUMERAL_FLOOR) and its ink lies near its colour (COLOUR_FAR); otherwise no face: the
tile stays unknown.

A tile blurred more than most of the views a face's mean was learnt from (out of focus,
far from the camera) lies nearer the faces' means blurred alike: where the look is unsure
and the numeral fits the blurred means better than the sharp ones, it looks again among
those.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision import numeral_kernels

Image8 = NDArray[np.uint8]
Floats = NDArray[np.float32]

NUMERAL_BOX = (8, 22, 56, 66)  # x0, y0, x1, y1 in a 64 x 88 patch: the numeral (and the
# bar under a 6 or a 9), the same box either way up
SHIFT = 2  # pixels a numeral may lie off its face's place either way (the outline's error)
FOCUS_BLUR = 1.0  # sigma (pixels) of the map of where two faces' numerals differ
WIN = 0.6  # a test's ratio (the face's distance over the rival's) a face wins it below,
# and loses it above the inverse of
NUMERAL_FLOOR = 0.9  # correlation of a numeral with its face's mean view, at least: most
# tiles cut from a camera's full frame correlate more with their own; one seen across too
# few pixels (a 1280x720 frame), where a numeral correlates about 0.88 with every face's,
# or a patch cut across two tiles, does not
BLURRED_VIEW = 1.0  # sigma (pixels) of the faces' mean numerals blurred for a second try
# (1 px alone, or the best fitting of 0.7 and 1.2 px, or of 0.5, 0.9 and 1.3 px, named
# within two tiles of each other in 120 benchmark scenes, none wrongly)
COLOUR_FAR = 0.3  # distance of the ink's colour from its face's, at most (faces of
# different colours lie 0.45 or more apart, a face's views within 0.1 of its own)


def numerals(patches: Image8, margin: int = 0) -> tuple[Floats, Floats]:
    """Per BGR patch (n, 88, 64, 3): its numeral's ink map (NUMERAL_BOX, grown by `margin`
    pixels each side), centred and of unit length, one row each; and its ink's colour, a
    unit (blue, green, red) absorption over NUMERAL_BOX. A pixel's ink is how much light
    its darkest channel absorbs against the middle's median (the tile's ground), so yellow
    ink shows as well as black; the colour weighs each pixel's absorption by its sum over
    the channels (numeral_kernels)."""
    maps, colours = numeral_kernels.numeral_maps(np.ascontiguousarray(patches),
                                                 np.array(NUMERAL_BOX, np.int64), margin)
    colours /= np.linalg.norm(colours, axis=1, keepdims=True) + 1e-6
    return maps, colours


def _windows(grown: Floats) -> Floats:
    """The NUMERAL_BOX-sized windows of a numeral map grown by SHIFT, at every shift, each
    centred and of unit length: (shifts, values)."""
    x0, y0, x1, y1 = NUMERAL_BOX
    windows: Floats = numeral_kernels.shifted_windows(grown, y1 - y0, x1 - x0, SHIFT)
    return windows


def class_means(maps: Floats, colours: Floats, classes: NDArray[np.intp], n_classes: int
                ) -> tuple[Floats, Floats]:
    """Each class's mean numeral (centred, of unit length) and mean ink colour."""
    counts = np.maximum(np.bincount(classes, minlength=n_classes), 1).astype(np.float64)
    mean_maps = np.zeros((n_classes, maps.shape[1]))
    np.add.at(mean_maps, classes, maps)
    mean_maps -= mean_maps.mean(axis=1, keepdims=True)
    mean_maps /= np.linalg.norm(mean_maps, axis=1, keepdims=True) + 1e-12
    mean_colours = np.zeros((n_classes, 3))
    np.add.at(mean_colours, classes, colours)
    mean_colours /= counts[:, None]
    return mean_maps.astype(np.float32), mean_colours.astype(np.float32)


@functools.cache  # (asked for a few dozen times a frame, of a deck's few dozen codes)
def colour_and_value(code: str) -> tuple[str | None, str]:
    """A tile's colour and value from its code (`red-8`); a face with no number (a joly, the
    back) has no colour of its own and is its own value."""
    colour, _, value = code.partition("-")
    return (colour, value) if value.isdigit() else (None, code)


@dataclass(frozen=True)
class Focus:
    """Where two faces' mean numerals differ (`weights`: focus_map), and what a weighed
    correlation with each face's numeral takes from the face alone (`faces`, the face's
    then the rival's: its numeral less its weighed mean, and the weighed sum of that
    squared): worked out once per pair, not per tile looked at."""

    weights: Floats
    faces: tuple[tuple[Floats, np.float32], tuple[Floats, np.float32]]

    @classmethod
    def of(cls, face_map: Floats, rival_map: Floats) -> Focus:
        weights = focus_map(face_map, rival_map)
        return cls(weights, (_centred(face_map, weights), _centred(rival_map, weights)))

    def swapped(self) -> Focus:
        """The same focus with the rival as the face (focus_map is the same either way)."""
        return Focus(self.weights, (self.faces[1], self.faces[0]))


def _centred(face: Floats, weight: Floats) -> tuple[Floats, np.float32]:
    """A face's numeral less its weighed mean, and the weighed sum of that squared."""
    t = face - np.dot(weight, face)
    return t, np.dot(weight * t, t)


def _focused_correlation(numeral: Floats, face: tuple[Floats, np.float32],
                         weight: Floats) -> float:
    """Correlation of a map (flat) with a face's (`_centred`), each pixel weighed (the
    weights summing to 1); its weighed sums are dot products, which cost a third of
    numpy's sums of products."""
    x = numeral - weight.dot(numeral)
    t, weighed_tt = face
    weighed_x = weight * x
    return float(weighed_x.dot(t)) / float(np.sqrt(weighed_x.dot(x) * weighed_tt) + 1e-12)


def _length(vector: Floats) -> float:
    """np.linalg.norm of a flat vector, by its own steps (the vector's dot product with
    itself, then its square root), without the checks that cost it a few microseconds."""
    return float(np.sqrt(vector.dot(vector)))


def focus_map(face_map: Floats, rival_map: Floats) -> Floats:
    """Where two faces' mean numerals differ (flat): their difference blurred by
    FOCUS_BLUR, as weights that sum to 1."""
    x0, y0, x1, y1 = NUMERAL_BOX
    differ = np.abs(face_map - rival_map).reshape(y1 - y0, x1 - x0)
    focus = np.asarray(cv2.GaussianBlur(differ, (0, 0), FOCUS_BLUR), np.float32).ravel()
    focus /= float(focus.sum()) + 1e-12
    return focus


@dataclass(frozen=True)
class CloseFaces:
    """The few faces a tile's numeral is looked at among: their mean numerals and ink
    colours (a row each, as `class_means` gives them) and their codes."""

    numerals: Floats
    colours: Floats
    codes: Sequence[str]

    @classmethod
    def of(cls, faces: Sequence[tuple[Floats, Floats, str]]) -> CloseFaces:
        """The faces given each as (mean numeral, mean colour, code)."""
        return cls(np.stack([face[0] for face in faces]), np.stack([face[1] for face in faces]),
                   [face[2] for face in faces])


def _distances(numeral: Floats, rival_numeral: Floats, colour: Floats,
               colours: tuple[Floats, Floats], parts: tuple[tuple[str | None, str],
                                                            tuple[str | None, str]],
               focus: Callable[[], Focus]) -> list[tuple[float, float]]:
    """The tests that tell a face from a rival (their mean ink `colours` and their
    `parts`, colour_and_value), each as (the face's distance, the rival's): the shape
    where they differ (`focus()`, if their values differ; the numeral where it lines up
    with each), the colour (if theirs do). Swapped, the same tests tell the rival from
    the face."""
    (colour_a, value_a), (colour_b, value_b) = parts
    out = []
    if value_a != value_b:
        where = focus()
        out.append((1.0 - _focused_correlation(numeral, where.faces[0], where.weights),
                    1.0 - _focused_correlation(rival_numeral, where.faces[1], where.weights)))
    if colour_a is not None and colour_b is not None and colour_a != colour_b:
        out.append((_length(colour - colours[0]), _length(colour - colours[1])))
    return out


def second_look(grown: Floats, colour: Floats, faces: CloseFaces,
                blurred: Floats | None = None, sure: float = 0.0,
                focus: Callable[[int, int, bool], Focus] | None = None
                ) -> tuple[int, float] | None:
    """Which of the close faces the patch's numeral (its map grown by SHIFT:
    `numerals(..., SHIFT)`) and ink colour are: (its index, its worst ratio against a
    rival), or None. The numeral is compared with each face where it lines up with it
    best. The face must win a test against every rival and lose none, correlate with its
    own mean view (NUMERAL_FLOOR) and, a coloured face, lie near its colour (COLOUR_FAR).
    Given the faces' means blurred (`blurred`, a row each: `blurred_means`), a face that
    wins with a worst ratio above `sure` (or none) is looked for again among those, if the
    numeral fits them better. `focus(i, j, blurred)` gives the Focus of faces i and j (of
    their blurred means if `blurred`), for a caller that keeps them (they depend on the
    faces alone); without it they are worked out."""
    sharp = faces.numerals
    if focus is None:
        def focus(i: int, j: int, of_blurred: bool) -> Focus:
            means = sharp if blurred is None or not of_blurred else blurred
            return Focus.of(means[i], means[j])

    windows = _windows(grown)
    scores = windows @ sharp.T  # (shifts, faces)
    parts = [colour_and_value(code) for code in faces.codes]
    # whichever face wins must pass these; when none can, no test need be made
    fits = [score >= NUMERAL_FLOOR for score in scores.max(axis=0).tolist()]  # (in float64)
    if not any(fit and (part[0] is None or _length(colour - face_colour) <= COLOUR_FAR)
               for fit, part, face_colour in zip(fits, parts, faces.colours, strict=True)):
        return None
    best = _winner(windows, scores, colour, faces.colours, parts,
                   lambda i, j: focus(i, j, False))
    if blurred is not None and (best is None or best[1] > sure):
        blurred_scores = windows @ blurred.T
        if float(blurred_scores.max()) > float(scores.max()):
            best = _winner(windows, blurred_scores, colour, faces.colours, parts,
                           lambda i, j: focus(i, j, True))
    if best is None or not fits[best[0]]:
        return None
    if parts[best[0]][0] is not None and _length(colour - faces.colours[best[0]]) > COLOUR_FAR:
        return None
    return best


def blurred_means(means: Floats) -> Floats:
    """Mean numerals (rows, as `class_means` gives them) blurred by BLURRED_VIEW, each
    centred again and of unit length: for the second try of `second_look`."""
    x0, y0, x1, y1 = NUMERAL_BOX
    out = np.stack([cv2.GaussianBlur(view.reshape(y1 - y0, x1 - x0), (0, 0), BLURRED_VIEW)
                    for view in means]).reshape(len(means), -1)
    out -= out.mean(axis=1, keepdims=True)
    out /= np.linalg.norm(out, axis=1, keepdims=True) + 1e-12
    return out.astype(np.float32)


def _winner(windows: Floats, scores: Floats, colour: Floats, colours: Floats,
            parts: list[tuple[str | None, str]], focus: Callable[[int, int], Focus]
            ) -> tuple[int, float] | None:
    """The face (index) that wins a test against every other and loses none, with its
    worst ratio; the numeral lined up with each face where `scores` (shifts, faces) are
    highest; the faces' ink `colours` and `parts` (colour_and_value); `focus(i, j)` where
    faces i and j differ."""
    lined_up = [windows[k] for k in scores.argmax(axis=0).tolist()]
    pairs: dict[tuple[int, int], list[tuple[float, float]]] = {}

    def ratios(i: int, j: int) -> list[float]:
        """Face i's tests against face j, each its distance over j's (each pair of faces
        tested once, when first asked for)."""
        a, b = min(i, j), max(i, j)
        if (a, b) not in pairs:
            pairs[a, b] = _distances(lined_up[a], lined_up[b], colour,
                                     (colours[a], colours[b]), (parts[a], parts[b]),
                                     lambda: focus(a, b))
        tested = pairs[a, b] if i == a else [(d_j, d_i) for d_i, d_j in pairs[a, b]]
        return [d_i / max(d_j, 1e-6) for d_i, d_j in tested]

    best: tuple[int, float] | None = None
    for i in range(len(parts)):
        worst = 0.0  # face i's worst test won so far: it is dropped once it cannot be best
        for j in range(len(parts)):
            if j == i:
                continue
            tests = ratios(i, j)
            if not tests or max(tests) > 1.0 / WIN:
                break
            worst = max(worst, min(tests))
            if worst >= 1.0 or (best is not None and worst >= best[1]):
                break
        else:
            best = (i, worst)
    return best
