"""Card identification: which face is this upright card patch, or "unknown".

The identifier learns each face from reference images only (our exported deck
PNGs, or photos of a table's own deck). It augments each reference with what a
camera does to a card (blur, noise, colour casts, brightness, glare, small shifts)
and keeps a small normalised vector per augmented view and per way up. A patch is
matched by one matrix product; the answer is the nearest face if it is both close
enough and clearly closer than any other face, else None: an explicit unknown.

    >>> ident = CardIdentifier.from_references({"vizier": vizier_png, "back": back_png},
    ...                                        rng=np.random.default_rng(0))  # doctest: +SKIP
    >>> ident.identify(patch)                                                 # doctest: +SKIP
    ('vizier', 0.93)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

Image8 = NDArray[np.uint8]
Vectors = NDArray[np.float32]

PATCH_SIZE = (64, 88)  # (width, height) references are learnt at
VECTOR_SIZE = (12, 16)  # (width, height) of the colour thumbnail a patch is compared by
MIN_CONTRAST = 0.06  # grey std / mean below this is a blank surface, not a card
SIMILARITY_FLOOR = 0.6  # cosine similarity at which confidence starts above 0
SIMILARITY_FULL = 0.9  # cosine similarity that alone gives full confidence
MARGIN_FULL = 0.15  # best minus second-best similarity that gives full confidence


def describe(patches: Sequence[Image8]) -> Vectors:
    """Unit vectors (one row per BGR patch) that ignore colour cast, brightness and contrast.

    Grey-world white balance (each channel divided by its mean) removes a colour cast
    and the brightness; subtracting the mean and scaling to unit length removes an
    overall offset and the contrast. The colour differences inside the card remain.
    """
    rows = np.empty((len(patches), VECTOR_SIZE[0] * VECTOR_SIZE[1] * 3), np.float32)
    for i, patch in enumerate(patches):
        small = cv2.resize(patch, VECTOR_SIZE, interpolation=cv2.INTER_AREA).astype(np.float32)
        small /= small.reshape(-1, 3).mean(axis=0) + 1.0
        v = small.ravel()
        v -= v.mean()
        rows[i] = v / (np.linalg.norm(v) + 1e-6)
    return rows


def contrast(patch: Image8) -> float:
    """Grey-level spread relative to brightness: near 0 for a blank surface."""
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY) if patch.ndim == 3 else patch
    mean, std = cv2.meanStdDev(grey)
    return float(std[0, 0] / (mean[0, 0] + 1.0))


@dataclass(frozen=True, eq=False)
class CardIdentifier:
    """Nearest-reference matching of card patches to face codes, with a confidence."""

    codes: tuple[str, ...]
    vectors: Vectors  # one row per augmented view, both ways up
    labels: NDArray[np.intp]  # index into codes, per row, ascending
    threshold: float

    @classmethod
    def from_references(cls, refs: Mapping[str, Image8], rng: np.random.Generator,
                        threshold: float = 0.5, views: int = 64) -> CardIdentifier:
        """Learn each face (code -> upright BGR image of the card) from `views` augmentations.

        A "back" reference makes face-down cards come out as the code "back".
        """
        if not refs:
            raise ValueError("no reference images to learn from")
        codes = tuple(refs)
        patches: list[Image8] = []
        labels: list[int] = []
        for label, code in enumerate(codes):
            base = np.asarray(cv2.resize(_bgr(refs[code]), PATCH_SIZE,
                                         interpolation=cv2.INTER_AREA), np.uint8)
            for view in [base] + [augment(base, rng) for _ in range(views)]:
                patches.extend([view, view[::-1, ::-1]])
                labels.extend([label, label])
        return cls(codes=codes, vectors=describe(patches),
                   labels=np.array(labels, np.intp), threshold=threshold)

    def identify(self, patch: Image8) -> tuple[str | None, float]:
        """(code, confidence) for an upright card patch; (None, confidence) when unsure."""
        return self.identify_many([patch])[0]

    def identify_many(self, patches: Sequence[Image8]) -> list[tuple[str | None, float]]:
        """identify() for several patches with one matrix product."""
        if not patches:
            return []
        bgr = [_bgr(p) for p in patches]
        # einsum's own loop, not BLAS: a product this small gains nothing from BLAS threads,
        # which only fight the camera loop for the cores
        sims = np.einsum("pd,rd->pr", describe(bgr), self.vectors)
        # rows are grouped by code, so the best view per code is a segmented max
        starts = np.searchsorted(self.labels, np.arange(len(self.codes)))
        per_code = np.maximum.reduceat(sims, starts, axis=1)
        results: list[tuple[str | None, float]] = []
        for i, patch in enumerate(bgr):
            order = np.argsort(per_code[i])[::-1]
            best = float(per_code[i, order[0]])
            second = float(per_code[i, order[1]]) if len(order) > 1 else -1.0
            conf = confidence(best, second) if contrast(patch) >= MIN_CONTRAST else 0.0
            code = self.codes[order[0]] if conf >= self.threshold else None
            results.append((code, round(conf, 3)))
        return results

    def is_card_like(self, patch: Image8) -> bool:
        """True if the patch looks like one of the learnt faces at all (not a phone, a coin...)."""
        return self.identify(patch)[0] is not None


def confidence(best: float, second: float) -> float:
    """0..1 from the best similarity and its margin over the second-best face."""
    level = (best - SIMILARITY_FLOOR) / (SIMILARITY_FULL - SIMILARITY_FLOOR)
    margin = (best - second) / MARGIN_FULL
    return float(np.clip(min(level, margin), 0.0, 1.0))


def augment(card: Image8, rng: np.random.Generator) -> Image8:
    """One camera-like view of an upright card patch: shifted, blurred, cast, glared, noisy."""
    h, w = card.shape[:2]
    angle = rng.uniform(-2.5, 2.5)
    scale = rng.uniform(0.95, 1.05)
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, scale)
    m[:, 2] += rng.uniform(-0.04, 0.04, 2) * np.array([w, h])
    surround = tuple(float(c) for c in rng.uniform(30, 110, 3))
    view = np.asarray(cv2.warpAffine(card, m, (w, h), borderMode=cv2.BORDER_CONSTANT,
                                     borderValue=surround), np.uint8)
    img = view.astype(np.float32) / 255.0
    sigma = rng.uniform(0.0, 2.0)
    if sigma > 0.3:
        img = np.asarray(cv2.GaussianBlur(img, (0, 0), sigma), np.float32)
    if rng.random() < 0.4:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        radius = rng.uniform(0.08, 0.25) * w
        ys, xs = np.mgrid[0:h, 0:w]
        glare = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * radius**2))
        img += rng.uniform(0.3, 0.8) * glare[:, :, None].astype(np.float32)
    img = np.clip(img, 0, 1) ** rng.uniform(0.75, 1.35)
    img = img * rng.uniform(0.75, 1.25, 3).astype(np.float32) * rng.uniform(0.45, 1.3)
    img += rng.uniform(0.0, 0.12)
    img += rng.normal(0.0, rng.uniform(0.0, 0.04), img.shape).astype(np.float32)
    out: Image8 = np.clip(img * 255.0, 0, 255).astype(np.uint8)
    return out


def _bgr(image: Image8) -> Image8:
    if image.ndim == 2:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), np.uint8)
    return image
