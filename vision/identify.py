"""Card identification: which face is this upright card patch, or "unknown".

The identifier learns each face from reference images only (our exported deck
PNGs, or photos of a table's own deck). It augments each reference with what a
camera does to a card (blur, noise, colour casts, brightness, glare, small shifts,
JPEG) and describes every view, both ways up, by a normalised vector: a coarse
colour thumbnail of the whole card and a finer grey picture of its middle, where a
value or a symbol is printed. From these views alone it learns a discriminant
projection (the directions along which the faces differ most relative to how much
one face varies from view to view), so that faces alike but for one digit still
lie apart. A card as small as a Remi tile (given `card_mm`) is named from a few dozen
camera pixels, where its faces' views spread wider than 64 of them can tell: their
within-face spread is learnt with a stronger ridge, and every face through the same
cameras. A patch is matched by one small matrix product; the answer is the
nearest face if it is close to that face, clearly closer than to any other face,
and resembles that face's views at all, else None: an explicit unknown.

    >>> ident = CardIdentifier.from_references({"vizier": vizier_png, "back": back_png},
    ...                                        rng=np.random.default_rng(0))  # doctest: +SKIP
    >>> ident.identify(patch)                                                 # doctest: +SKIP
    ('vizier', 0.93)
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.identify_kernels import description_rows, edge_profiles, project, resize_area
from vision.numeral_look import (
    SHIFT,
    CloseFaces,
    Focus,
    blurred_means,
    class_means,
    colour_and_value,
    numerals,
    second_look,
)

Image8 = NDArray[np.uint8]
Vectors = NDArray[np.float32]

PATCH_SIZE = (64, 88)  # (width, height) references are learnt at and patches compared at
VECTOR_SIZE = (12, 16)  # (width, height) of the colour thumbnail of the whole card
DETAIL_BOX = (4, 12, 60, 76)  # x0, y0, x1, y1 in a PATCH_SIZE patch: the middle, where a
# value or symbol is printed; the same region of the card either way up
DETAIL_SIZE = (28, 32)  # (width, height) of the grey picture of that region
DETAIL_SURROUND = 0.0  # sigma (detail pixels) of the local mean taken from the detail
DETAIL_WEIGHT = 0.6  # share (of the squared length) of the detail part in a description
CHROMA_SIZE = (6, 8)  # (width, height) of the hue map
CHROMA_WEIGHT = 0.2  # share of the hue map (the rest is the colour thumbnail's)
CHROMA_DARK = 8.0  # added to each channel before its log: dark noise does not become hue
CHROMA_FLOOR = 1.0  # added to the hue map's length: a grey patch keeps a short hue part
SHRINKAGE = 0.02  # ridge added to the within-face covariance, relative to its mean variance
SMALL_CARD_MM = 30.0  # a card narrower than this (a Remi tile, 20 mm) is learnt with
SMALL_SHRINKAGE = 0.4  # this ridge instead
SMALL_MIN_CONTRAST = 0.03  # MIN_CONTRAST of such a card: a tile's numeral covers a few per
# cent of it, and a faint one (yellow, dim light) spreads its grey by 3.5 % of its mean; a
# tile below MIN_CONTRAST is named only if a second look at its numeral names it
CLOSE_FACES = 3  # a small card's nearest faces its numeral is looked at again among, when
MAX_CLOSE_FACES = 4  # the two nearest come close (vision.numeral_look): this many more where
# they lie within the distance OUTSIDE_RATIO allows
OUTSIDE_RATIO = 0.7  # a face chosen there: its squared distance over that of the next face
# after those, at most (that face, not looked at, may be the tile)
FINE_FULL = 0.45  # the look's worst ratio against a rival (vision.numeral_look): full
FINE_NONE = 0.85  # confidence up to the first, none from the second on
FOCUS_MAPS_KEPT = 2048  # pairs of classes whose focus maps an identifier keeps (8 KB each;
# a game of Remi meets a few hundred)
MAX_SHIFT = 7  # pixels a patch is moved at most to line its edges up with the faces
MIN_CONTRAST = 0.06  # grey std / mean below this is a blank surface, not a card
SIMILARITY_FLOOR = 0.0  # cosine similarity to a face's mean view at which confidence starts
SIMILARITY_FULL = 0.3  # cosine similarity that alone gives full confidence
DISTANCE_FULL = 25.0  # squared distance to a face per discriminant dimension (in view
DISTANCE_NONE = 65.0  # spreads): full confidence up to the first, none from the second on
ALIKE_FLOOR = 0.5  # a patch this similar to a face's mean view, or more, may be far from
ALIKE_FULL = 0.7  # it in the discriminant space (a blurred, low-resolution camera)
RATIO_FULL = 0.4  # squared distance to the nearest face over that to the next face:
RATIO_NONE = 0.8  # full confidence up to the first, none from the second on


def _prepare(patch: Image8) -> Image8:
    bgr = _bgr(patch)
    if (bgr.shape[1], bgr.shape[0]) != PATCH_SIZE:
        bgr = np.asarray(cv2.resize(bgr, PATCH_SIZE, interpolation=cv2.INTER_AREA), np.uint8)
    return bgr


def batch(patches: Sequence[Image8]) -> Image8:
    """The patches as one (n, height, width, 3) BGR array at PATCH_SIZE, which OpenCV converts
    and resizes in one call each."""
    w, h = PATCH_SIZE
    out = np.empty((len(patches), h, w, 3), np.uint8)
    for i, patch in enumerate(patches):
        out[i] = _prepare(patch)
    return out


def grey(patches: Image8) -> Image8:
    """The grey levels of a batch of BGR patches, (n, height, width)."""
    n, h, w = patches.shape[:3]
    flat = cv2.cvtColor(patches.reshape(n * h, w, 3), cv2.COLOR_BGR2GRAY)
    return np.asarray(flat, np.uint8).reshape(n, h, w)


def _resize_each(patches: NDArray[Any], size: tuple[int, int]) -> NDArray[Any]:
    """Each patch of a batch resized (INTER_AREA) to (width, height), in one call on the
    patches stacked one above another: a patch is a whole number of resized rows high, so
    no resized row mixes two patches (the same values as one patch at a time)."""
    n, h, w = patches.shape[:3]
    (new_w, new_h), rest = size, patches.shape[3:]
    stack = np.ascontiguousarray(patches).reshape((n * h, w) + rest)
    out = cv2.resize(stack, (new_w, n * new_h), interpolation=cv2.INTER_AREA)
    return np.asarray(out).reshape((n, new_h, new_w) + rest)


def describe(patches: Sequence[Image8]) -> Vectors:
    """Vectors (one row per BGR patch) that ignore colour cast, brightness and contrast.

    Three parts, each centred and scaled to a fixed share of the length (the hue part
    shorter when a patch has little hue, so a row's length is at most 1):
    - a colour thumbnail of the whole card, white-balanced grey-world style (each
      channel divided by its mean), which removes a colour cast and the brightness;
    - a coarse hue map, the log ratios of blue and green to red: a colour cast only
      adds a constant to it, which the centring takes away, so red stays apart from
      violet under a warm lamp;
    - the grey middle of the card at about half the patch resolution: the strokes of a
      value or a symbol.
    A patch is first resized to PATCH_SIZE.
    """
    bgr = batch(patches)
    return _describe(bgr, grey(bgr))


def _describe(patches: Image8, greys: Image8) -> Vectors:
    """describe() of a batch of BGR patches at PATCH_SIZE, and their grey levels."""
    x0, y0, x1, y1 = DETAIL_BOX
    small = resize_area(patches, VECTOR_SIZE).astype(np.float32)  # _resize_each's, compiled
    logs = np.log(_resize_each(small, CHROMA_SIZE) + CHROMA_DARK)
    hue = logs[..., :2] - logs[..., 2:]
    detail = _resize_each(greys[:, y0:y1, x0:x1], DETAIL_SIZE).astype(np.float32)
    weights = np.sqrt([max(1.0 - CHROMA_WEIGHT - DETAIL_WEIGHT, 0.0), CHROMA_WEIGHT,
                       DETAIL_WEIGHT])
    rows: Vectors = description_rows(small, hue, detail, weights,
                                     np.array([1e-6, CHROMA_FLOOR, 1e-6]))
    return rows


def contrasts(greys: Image8) -> list[float]:
    """Per grey patch its grey-level spread relative to brightness: near 0 for a blank
    surface."""
    out = []
    for patch in greys:
        mean, std = cv2.meanStdDev(patch)
        out.append(float(std[0, 0] / (mean[0, 0] + 1.0)))
    return out


def profiles(greys: Image8) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """Where grey patches have edges: per patch, the column and the row profile of its
    gradients, each centred and of unit length (a card's outline and field edges are
    their peaks). Returns two arrays, one row per patch."""
    cols, rows = edge_profiles(np.ascontiguousarray(greys))
    return cols, rows


def shifted(template: NDArray[np.float32]) -> NDArray[np.float32]:
    """The template profile moved by -MAX_SHIFT..MAX_SHIFT (one row per shift, zeros
    shifted in): a profile's best shift is the argmax of this matrix times it."""
    n = len(template)
    out = np.zeros((2 * MAX_SHIFT + 1, n), np.float32)
    for j, lag in enumerate(range(-MAX_SHIFT, MAX_SHIFT + 1)):
        if lag >= 0:
            out[j, lag:] = template[: n - lag]
        else:
            out[j, :lag] = template[-lag:]
    return out


Layout = tuple[NDArray[np.float32], NDArray[np.float32]]
"""The faces' mean column and row edge profiles, each as `shifted` rows."""


def align(patches: Sequence[Image8], layout: Layout) -> list[Image8]:
    """The patches moved so that their edges fall where the learnt faces have theirs:
    undoes a card outline found a few millimetres off the card."""
    bgr = batch(patches)
    return list(_aligned(bgr, grey(bgr), layout)[0])


def _aligned(patches: Image8, greys: Image8, layout: Layout) -> tuple[Image8, Image8]:
    """align() of a batch of BGR patches at PATCH_SIZE and of their grey levels alike."""
    cols, rows = profiles(greys)
    dxs = (cols @ layout[0].T).argmax(axis=1) - MAX_SHIFT
    dys = (rows @ layout[1].T).argmax(axis=1) - MAX_SHIFT
    return _shift(patches, dxs, dys), _shift(greys, dxs, dys)


def _shift(patches: Image8, dxs: NDArray[np.intp], dys: NDArray[np.intp]) -> Image8:
    """Each patch of a batch moved so that its pixel (x + dx, y + dy) comes to (x, y), its
    edge pixels repeated where it runs out (|dx|, |dy| <= MAX_SHIFT)."""
    out = patches.copy()
    m, (w, h) = MAX_SHIFT, PATCH_SIZE
    for i in np.flatnonzero((dxs != 0) | (dys != 0)).tolist():
        dx, dy = int(dxs[i]), int(dys[i])
        padded = cv2.copyMakeBorder(patches[i], m, m, m, m, cv2.BORDER_REPLICATE)
        out[i] = padded[m + dy : m + dy + h, m + dx : m + dx + w]
    return out


class Identifier(Protocol):
    """What names card patches: this module's CardIdentifier for our own art, or
    vision.template_identifier's for a deck the table enrolled."""

    @property
    def codes(self) -> tuple[str, ...]: ...

    @property
    def reads_light(self) -> bool:
        """Whether identify_batch uses the light on each card (TableReader measures it on
        the mat only for an identifier that does)."""
        ...

    @property
    def reads_covered(self) -> bool:
        """Whether a card left unknown is worth naming again with the part other outlines
        cover filled with its own field (TableReader asks only an identifier that is)."""
        ...

    def identify(self, patch: Image8) -> tuple[str | None, float]: ...

    def identify_many(self, patches: Sequence[Image8]) -> list[tuple[str | None, float]]: ...

    def identify_batch(self, patches: Image8, lights: NDArray[np.float32] | None = None
                       ) -> list[tuple[str | None, float]]: ...


@dataclass(frozen=True, eq=False)
class CardIdentifier:
    """Matching of card patches to face codes in a learnt discriminant space, with a confidence.

    Each face is learnt as two classes, upright and turned a half turn (`class_codes`
    maps a class to its code). `projection` takes a description into the discriminant
    space, where every class has a mean (`centres`) and its views spread about 1 along
    each axis; `templates` are the unit mean descriptions of the classes. A small card (a
    tile) also has its classes' mean numerals and ink colours (`numerals`, `inks`:
    vision.numeral_look), for a second look when its two nearest faces come close; a card
    deck has none (no rows), and no second look. The views learnt from are not kept:
    naming needs only these (and a deck of 60 faces has about 50 MB of views).
    """

    codes: tuple[str, ...]
    threshold: float
    projection: Vectors  # description -> discriminant space
    centres: Vectors  # class mean per row, in the discriminant space
    templates: Vectors  # class mean description (unit length) per row
    class_codes: NDArray[np.intp]  # index into codes, per class
    layout: Layout  # where the faces have their edges
    numerals: Vectors = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    inks: Vectors = field(default_factory=lambda: np.zeros((0, 3), np.float32))
    blurred_numerals: Vectors = field(init=False, repr=False)  # `numerals` blurred, for
    # the second look's second try (numeral_look.blurred_means)
    centre_norms: Vectors = field(init=False, repr=False)
    parts: tuple[tuple[str | None, str], ...] = field(init=False, repr=False)  # per code:
    # its colour and value (numeral_look.colour_and_value)
    focus_maps: dict[tuple[int, int, bool], Focus] = field(
        init=False, repr=False, default_factory=dict)  # the second look's Focus of two
    # classes (lower first; of their blurred numerals if the flag), kept once worked out

    def __post_init__(self) -> None:
        object.__setattr__(self, "blurred_numerals", blurred_means(self.numerals)
                           if len(self.numerals) else self.numerals)
        object.__setattr__(self, "centre_norms", (self.centres * self.centres).sum(axis=1))
        object.__setattr__(self, "parts", tuple(colour_and_value(code) for code in self.codes))

    @classmethod
    def from_references(cls, refs: Mapping[str, Image8 | Sequence[Image8]],
                        rng: np.random.Generator, threshold: float = 0.5,
                        views: int = 64, card_mm: tuple[float, float] | None = None
                        ) -> CardIdentifier:
        """Learn each face (code -> an upright BGR image of the card, or several: views of
        it in other light or places) from `views` augmentations per face, shared among its
        images. A card narrower than SMALL_CARD_MM (`card_mm`, width first) is learnt with
        SMALL_SHRINKAGE, the n-th view of every face through the same camera.

        A "back" reference makes face-down cards come out as the code "back".
        """
        if not refs:
            raise ValueError("no reference images to learn from")
        codes = tuple(refs)
        faces = [_images(refs[code]) for code in codes]
        if any(not images for images in faces):
            raise ValueError("a face without a reference image")
        bases = [(label, np.asarray(cv2.resize(_bgr(image), PATCH_SIZE,
                                               interpolation=cv2.INTER_AREA), np.uint8))
                 for label, images in enumerate(faces) for image in images]
        cols, rows = profiles(grey(batch([base for _, base in bases])))
        col_mean = (cols + cols[:, ::-1]).sum(axis=0)  # both ways up
        row_mean = (rows + rows[:, ::-1]).sum(axis=0)
        layout = (shifted(col_mean / np.linalg.norm(col_mean)),
                  shifted(row_mean / np.linalg.norm(row_mean)))
        patches: list[Image8] = []
        labels: list[int] = []
        turned: list[int] = []
        shares = np.bincount([label for label, _ in bases], minlength=len(codes))
        small = card_mm is not None and card_mm[0] < SMALL_CARD_MM
        # the same cameras for every face of a small card: no face's mean lies nearer a
        # blurred look than another's by the luck of its own draws, to win all such patches
        cameras = rng.integers(0, 2**63, views) if small else None
        for label, base in bases:
            count = -(-views // int(shares[label]))  # the face's views, shared out
            if cameras is None:
                seen = [augment(base, rng) for _ in range(count)]
            else:
                seen = [augment(base, np.random.default_rng(int(c))) for c in cameras[:count]]
            for view in [base] + align(seen, layout):
                patches.extend([view, view[::-1, ::-1]])
                labels.extend([label, label])
                turned.extend([0, 1])
        vectors = describe(patches)
        label_arr = np.array(labels, np.intp)
        classes = 2 * label_arr + np.array(turned, np.intp)
        projection, centres, templates = _discriminant(
            vectors, classes, 2 * len(codes), SMALL_SHRINKAGE if small else SHRINKAGE)
        class_codes = np.repeat(np.arange(len(codes), dtype=np.intp), 2)
        looks: dict[str, Vectors] = {}
        if small:
            looks["numerals"], looks["inks"] = _numeral_means(patches, classes, 2 * len(codes))
        return cls(codes=codes, threshold=threshold, projection=projection, centres=centres,
                   templates=templates, class_codes=class_codes, layout=layout, **looks)

    @property
    def reads_light(self) -> bool:
        """No: the discriminant was taught our own art across lights."""
        return False

    @property
    def reads_covered(self) -> bool:
        """No: the discriminant was taught whole cards of our own art, and names them as
        it was measured (vision_bench.py)."""
        return False

    def identify(self, patch: Image8) -> tuple[str | None, float]:
        """(code, confidence) for an upright card patch; (None, confidence) when unsure."""
        return self.identify_many([patch])[0]

    def identify_many(self, patches: Sequence[Image8]) -> list[tuple[str | None, float]]:
        """identify() for several patches with one matrix product."""
        return self.identify_batch(batch(patches))

    def identify_batch(self, patches: Image8, lights: NDArray[np.float32] | None = None
                       ) -> list[tuple[str | None, float]]:
        """identify_many() of a batch of BGR patches at PATCH_SIZE, (n, height, width, 3).
        The light on each card (`lights`) is not used (reads_light)."""
        if not len(patches):
            return []
        greys = grey(patches)
        aligned, aligned_greys = _aligned(patches, greys, self.layout)
        desc = _describe(aligned, aligned_greys)
        z = project(desc, self.projection)  # compiled: no BLAS threads fighting the camera loop
        d2 = (np.einsum("pk,pk->p", z, z)[:, None] - 2.0 * np.einsum("pk,ck->pc", z, self.centres)
              + self.centre_norms[None, :])
        n, n_codes = len(patches), len(self.codes)
        by_way = d2.reshape(n, n_codes, 2)  # classes: each code upright, then turned
        per_code = np.minimum(by_way[..., 0], by_way[..., 1])  # (min over 2 is slower)
        rows = np.arange(n)
        best = per_code.argmin(axis=1)
        best_d2 = per_code[rows, best]
        if n_codes > 1:
            second = np.partition(per_code, 1, axis=1)[:, 1]
        else:
            second = np.full(n, np.inf, np.float32)
        best_class = 2 * best + by_way[rows, best].argmin(axis=1)
        similarity = np.einsum("pd,pd->p", desc, self.templates[best_class])
        ratio = best_d2 / np.maximum(second, 1e-6)
        conf = confidences(similarity, best_d2 / max(self.centres.shape[1], 1), ratio)
        spreads = np.array(contrasts(greys))
        faint = spreads < MIN_CONTRAST
        blank = spreads < SMALL_MIN_CONTRAST if len(self.numerals) else faint
        conf[faint] = 0.0  # a faint tile is named only by the second look
        if len(self.numerals) and n_codes > MAX_CLOSE_FACES:
            base = confidences(similarity, best_d2 / max(self.centres.shape[1], 1),
                               np.zeros(n))
            close = np.flatnonzero(~blank & (base >= self.threshold)
                                   & ((ratio > RATIO_FULL) | faint))
            if len(close):
                self._look_again(aligned[close], desc[close], by_way[close], close, conf, best)
        results: list[tuple[str | None, float]] = []
        for i in range(n):
            c = float(conf[i])
            code = self.codes[int(best[i])] if c >= self.threshold else None
            results.append((code, round(c, 3)))
        return results

    def _look_again(self, patches: Image8, desc: Vectors, by_way: Vectors,
                    rows: NDArray[np.intp], conf: NDArray[np.float64],
                    best: NDArray[np.intp]) -> None:
        """Name again the close calls `rows` (their aligned patches, descriptions and
        squared distances to each code's two classes) by a finer look at their numerals
        among their nearest faces (CLOSE_FACES, or up to MAX_CLOSE_FACES as near as a face
        chosen may be; vision.numeral_look), in `conf` and `best`. A face chosen there must
        also be near in the discriminant space, and the next face after those clearly
        farther. A look unsure of its face (its worst ratio above FINE_FULL) tries again
        among the faces' means blurred, for a tile more blurred than most views learnt.
        Where the look finds no face, or another than the nearest, its answer alone
        counts; else the better of the two."""
        maps, colours = numerals(patches, SHIFT)
        dims = max(self.centres.shape[1], 1)
        # every row's codes ranked, and how many are close, at once (a row at a time,
        # these small numpy calls cost more than their work)
        per_codes = by_way.min(axis=2)
        rankings = np.argsort(per_codes, axis=1, kind="stable")
        nearest = np.take_along_axis(per_codes, rankings[:, : MAX_CLOSE_FACES + 1], axis=1)
        within = (nearest * OUTSIDE_RATIO <= nearest[:, :1]).sum(axis=1)
        counts = np.minimum(np.maximum(within, CLOSE_FACES), MAX_CLOSE_FACES).tolist()
        for k, i in enumerate(rows.tolist()):
            per_code, ranked, count = per_codes[k], rankings[k], counts[k]
            near, after = self._rivals_added(ranked[:count].tolist(), ranked), ranked[count]
            classes = 2 * near + by_way[k, near].argmin(axis=1)
            faces = CloseFaces(self.numerals[classes], self.inks[classes],
                               [self.codes[code] for code in near.tolist()])
            looked = second_look(maps[k], colours[k], faces, self.blurred_numerals[classes],
                                 FINE_FULL, functools.partial(self._focus, classes.tolist()))
            found = 0.0
            if looked is not None:
                j, worst = looked
                c, code = int(classes[j]), int(near[j])
                d2 = float(per_code[code])
                if d2 <= OUTSIDE_RATIO * float(per_code[after]):
                    fine = (FINE_NONE - worst) / (FINE_NONE - FINE_FULL)
                    found = min(confidence(float(desc[k] @ self.templates[c]), d2 / dims, 0.0),
                                min(max(fine, 0.0), 1.0))  # (np.clip, on a float)
            if looked is None or int(near[looked[0]]) != int(best[i]):
                conf[i] = found
                if looked is not None:
                    best[i] = near[looked[0]]
            else:
                conf[i] = max(float(conf[i]), found)

    def _focus(self, classes: list[int], i: int, j: int, blurred: bool) -> Focus:
        """Where the numerals of classes[i] and classes[j] differ (numeral_look.Focus, the
        same either way round), worked out once while FOCUS_MAPS_KEPT others are kept."""
        first, second = classes[i], classes[j]
        a, b = (first, second) if first <= second else (second, first)
        key = (a, b, blurred)
        if key not in self.focus_maps:
            if len(self.focus_maps) >= FOCUS_MAPS_KEPT:
                self.focus_maps.clear()
            means = self.blurred_numerals if blurred else self.numerals
            self.focus_maps[key] = Focus.of(means[a], means[b])
        kept = self.focus_maps[key]
        return kept if first == a else kept.swapped()

    def _rivals_added(self, near: list[int], ranked: NDArray[np.intp]) -> NDArray[np.intp]:
        """The close faces, and the nearest face (`ranked`: the codes nearest first) of
        another value and of another colour where all of them share one: the look then
        tests what they share too."""
        parts = [self.parts[code] for code in near]
        out = list(near)
        for kind in (1, 0):
            shared = parts[0][kind]
            if shared is not None and all(part[kind] == shared for part in parts):
                nearest = (code for code in ranked.tolist()
                           if self.parts[code][kind] != shared and code not in out)
                found = next(nearest, None)
                if found is not None:
                    out.append(found)
        return np.array(out, np.intp)

    def is_card_like(self, patch: Image8) -> bool:
        """True if the patch looks like one of the learnt faces at all (not a phone, a coin...)."""
        return self.identify(patch)[0] is not None


def confidences(similarity: NDArray[np.floating[Any]], distance: NDArray[np.floating[Any]],
                ratio: NDArray[np.floating[Any]]) -> NDArray[np.float64]:
    """0..1 per patch from its cosine similarity to the nearest face's mean view, its
    squared distance to that face per discriminant dimension (in view spreads), and the
    ratio of that squared distance to the one to the next face. The similarity and the
    ratio must be good, and either the distance or a high similarity."""
    level = (similarity - SIMILARITY_FLOOR) / (SIMILARITY_FULL - SIMILARITY_FLOOR)
    near = (DISTANCE_NONE - distance) / (DISTANCE_NONE - DISTANCE_FULL)
    alike = (similarity - ALIKE_FLOOR) / (ALIKE_FULL - ALIKE_FLOOR)
    lead = (RATIO_NONE - ratio) / (RATIO_NONE - RATIO_FULL)
    out = np.clip(np.minimum(np.minimum(level, np.maximum(near, alike)), lead), 0.0, 1.0)
    return np.asarray(out, np.float64)


def confidence(similarity: float, distance: float, ratio: float) -> float:
    """confidences() for one patch: the same steps on Python floats (numpy's on arrays of
    one cost about 15 us a call)."""
    level = (similarity - SIMILARITY_FLOOR) / (SIMILARITY_FULL - SIMILARITY_FLOOR)
    near = (DISTANCE_NONE - distance) / (DISTANCE_NONE - DISTANCE_FULL)
    alike = (similarity - ALIKE_FLOOR) / (ALIKE_FULL - ALIKE_FLOOR)
    lead = (RATIO_NONE - ratio) / (RATIO_NONE - RATIO_FULL)
    return min(max(min(level, max(near, alike), lead), 0.0), 1.0)


def _discriminant(vectors: Vectors, classes: NDArray[np.intp], n_classes: int,
                  shrinkage: float) -> tuple[Vectors, Vectors, Vectors]:
    """Fisher's discriminant of labelled descriptions: (projection, class centres, templates).

    The within-class covariance (plus a ridge: `shrinkage` times its mean variance) is
    whitened; the class means are
    then spread along at most n_classes - 1 axes, which make the projection. Along
    each axis the views of a class spread about 1.
    """
    x = vectors.astype(np.float64)
    dim = x.shape[1]
    counts = np.bincount(classes, minlength=n_classes).astype(np.float64)
    means = np.zeros((n_classes, dim))
    np.add.at(means, classes, x)
    means /= np.maximum(counts, 1.0)[:, None]
    within = x - means[classes]
    cov = within.T @ within / max(len(x) - n_classes, 1)
    cov += shrinkage * float(np.trace(cov)) / dim * np.eye(dim)
    lower = np.linalg.cholesky(cov)
    grand = means.mean(axis=0)
    # whitened class means: (means - grand) @ inv(lower).T
    white = np.linalg.solve(lower, (means - grand).T).T
    _, spread, axes = np.linalg.svd(white, full_matrices=False)
    keep = int((spread > 1e-6 * spread[0]).sum()) if spread.size else 0
    axes = axes[: max(keep, 1)]
    # projection = inv(lower).T @ axes.T: whiten, then onto the discriminant axes
    projection = np.linalg.solve(lower.T, axes.T)
    centres = means @ projection
    templates = means / (np.linalg.norm(means, axis=1, keepdims=True) + 1e-12)
    return (projection.astype(np.float32), centres.astype(np.float32),
            templates.astype(np.float32))


@dataclass(frozen=True)
class ViewRanges:
    """How far a camera-like view of a card patch strays from it (camera_view): each a
    (least, most) drawn uniformly, unless said otherwise."""

    turn: float  # degrees each way
    scale: tuple[float, float]
    shift: float  # share of the sides each way
    surround: tuple[float, float]  # the levels (each channel) shown beyond a moved card
    blur: float  # sigma (px) at most; under 0.3 none
    glare: tuple[float, tuple[float, float], tuple[float, float]]  # share of views under
    # one, its radius (share of the width), its brightness (of the white)
    gamma: tuple[float, float]
    cast: tuple[float, float]  # a gain each channel
    brightness: tuple[float, float]  # a gain of all three
    fog: float  # a level added to all at most (0: none drawn)
    noise: float  # sigma at most (of the white)
    jpeg: int  # the least JPEG quality, half the views compressed


#: the views an identifier of our own art is taught on: harsher than play, so that what it
#: learns holds in every light (identify_many's views, CardIdentifier)
TRAINING_VIEWS = ViewRanges(turn=2.5, scale=(0.95, 1.05), shift=0.04, surround=(30, 110),
                            blur=2.0, glare=(0.4, (0.08, 0.25), (0.3, 0.8)),
                            gamma=(0.75, 1.35), cast=(0.75, 1.25), brightness=(0.45, 1.3),
                            fog=0.12, noise=0.04, jpeg=55)


def augment(card: Image8, rng: np.random.Generator) -> Image8:
    """One camera-like view of an upright card patch as an identifier is taught on it
    (TRAINING_VIEWS)."""
    return camera_view(card, rng, TRAINING_VIEWS)


def camera_view(card: Image8, rng: np.random.Generator, ranges: ViewRanges) -> Image8:
    """One camera-like view of an upright card patch within `ranges`: shifted, blurred,
    glared now and then, cast, noisy, JPEG-compressed."""
    h, w = card.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(-ranges.turn, ranges.turn),
                                rng.uniform(*ranges.scale))
    m[:, 2] += rng.uniform(-ranges.shift, ranges.shift, 2) * np.array([w, h])
    surround = tuple(float(c) for c in rng.uniform(*ranges.surround, 3))
    view = np.asarray(cv2.warpAffine(card, m, (w, h), borderMode=cv2.BORDER_CONSTANT,
                                     borderValue=surround), np.uint8)
    img = view.astype(np.float32) / 255.0
    sigma = rng.uniform(0.0, ranges.blur)
    if sigma > 0.3:
        img = np.asarray(cv2.GaussianBlur(img, (0, 0), sigma), np.float32)
    share, radii, strength = ranges.glare
    if rng.random() < share:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        radius = rng.uniform(*radii) * w
        ys, xs = np.mgrid[0:h, 0:w]
        glare = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * radius**2))
        img += rng.uniform(*strength) * glare[:, :, None].astype(np.float32)
    img = np.clip(img, 0, 1) ** rng.uniform(*ranges.gamma)
    img = img * rng.uniform(*ranges.cast, 3).astype(np.float32) * rng.uniform(*ranges.brightness)
    if ranges.fog:
        img += rng.uniform(0.0, ranges.fog)
    img += rng.normal(0.0, rng.uniform(0.0, ranges.noise), img.shape).astype(np.float32)
    out: Image8 = np.clip(img * 255.0, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        quality = int(rng.integers(ranges.jpeg, 96))
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if ok:
            out = np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)
    return out


def _numeral_means(patches: Sequence[Image8], classes: NDArray[np.intp], n_classes: int
                   ) -> tuple[Vectors, Vectors]:
    """The classes' mean numerals and ink colours (vision.numeral_look) over their views,
    taken a few hundred views at a time (all at once would hold another copy of them)."""
    parts = [numerals(batch(patches[k : k + 512])) for k in range(0, len(patches), 512)]
    return class_means(np.concatenate([p[0] for p in parts]),
                       np.concatenate([p[1] for p in parts]), classes, n_classes)


def _images(refs: Image8 | Sequence[Image8]) -> list[Image8]:
    """A face's reference images: one array, or a sequence of them."""
    if isinstance(refs, np.ndarray):
        return [refs]
    return list(refs)


def _bgr(image: Image8) -> Image8:
    if image.ndim == 2:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), np.uint8)
    return image
