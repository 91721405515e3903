"""Real cards: how well the camera names photos of a real UNO deck after enrolling it.

Run by hand (not a test); the photos are other people's, kept beside the project for
measurement only (../shared/real-photos/README.md), never copied into it:

    .venv/bin/python benchmarks/real_photos.py [--photos ../shared/real-photos/uno]

Each face of the deck has three or four phone photos (one card on a table). For every k,
the deck is enrolled from photo k of each face (cut out of the photo by
`vision.card_photo.find_cards`: a card touching or running off its photo's edge is found
once the deck's proportions are known from the others, the part beyond the edge drawn out
from it), and every other photo's card is named. A card is named at the
scale the table's camera gives it: the small frame (1.1 px/mm, a 1280x720 frame over
the A2 mat) and full resolution (up to 4 px/mm, a Pi camera 3; no more than the photo
has). What must stay unknown: card-sized crops of the table beside each card and of the
photos with no card at all.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.card_photo import cut_card, find_card, find_cards
from vision.template_identifier import TemplateIdentifier

ROOT = Path(__file__).resolve().parents[1]
PHOTOS = ROOT.parent / "shared" / "real-photos" / "uno"
CARD_MM = (56.0, 87.0)  # a commercial UNO card
SCALES = {"small": 1.1, "full": 4.0}  # px/mm at which the table's camera sees a card
ENROL_PX_PER_MM = 4.0
TARGETS = {"named": 97.0, "wrong": 0.5, "yellow": 95.0}

Image = NDArray[np.uint8]


@dataclass
class Photo:
    code: str
    k: int
    image: Image
    corners: NDArray[np.float32] | None
    by_shape: bool = False  # found only once the deck's proportions were known


@dataclass
class Tally:
    right: int = 0
    wrong: int = 0
    unknown: int = 0
    yellow_right: int = 0
    yellow: int = 0
    not_cut: int = 0  # cards the cutter did not find in their photo (counted unknown)
    negatives: int = 0
    false_accepts: int = 0
    confused: Counter[tuple[str, str]] = field(default_factory=Counter)
    failed: Counter[str] = field(default_factory=Counter)

    @property
    def cards(self) -> int:
        return self.right + self.wrong + self.unknown


def card_size(px_per_mm: float) -> tuple[int, int]:
    return round(CARD_MM[0] * px_per_mm), round(CARD_MM[1] * px_per_mm)


def load(folder: Path) -> tuple[list[Photo], list[Image]]:
    """The card photos, each with its card's corners, and the photos with no card. A card
    that touches or runs off its photo's edge is looked for again once the deck's
    proportions are known from the cards found whole (`find_cards`)."""
    cards = []
    for path in sorted((folder / "cards").glob("*.jpg")):
        code, k = path.stem.split("__")
        image = np.asarray(cv2.imread(str(path), cv2.IMREAD_COLOR), np.uint8)
        cards.append(Photo(code, int(k), image, None))
    whole = [find_card(photo.image) for photo in cards]
    for photo, corners, first in zip(cards, find_cards([p.image for p in cards], whole),
                                     whole, strict=True):
        photo.corners = corners
        photo.by_shape = corners is not None and first is None
    empty = [np.asarray(cv2.imread(str(p), cv2.IMREAD_COLOR), np.uint8)
             for p in sorted((folder / "no-card").glob("*")) if p.suffix in (".jpg", ".png")]
    return cards, [e for e in empty if e.ndim == 3]


def native_px_per_mm(photo: Photo) -> float:
    assert photo.corners is not None
    c = photo.corners
    return float(np.linalg.norm(c[2] - c[1])) / CARD_MM[1]


def at_scale(photo: Photo, px_per_mm: float) -> Image:
    """The photo's card as the table's camera would cut it at this scale (never sharper
    than the photo)."""
    assert photo.corners is not None
    return cut_card(photo.image, photo.corners, card_size(min(px_per_mm, native_px_per_mm(photo))))


def table_crops(photos: list[Photo], empty: list[Image], px_per_mm: float,
                rng: np.random.Generator) -> list[Image]:
    """Card-sized crops of the table beside each card, and of photos with no card."""
    out = []
    for photo in photos:
        if photo.corners is None:
            continue
        c = photo.corners
        w, h = np.linalg.norm(c[1] - c[0]), np.linalg.norm(c[2] - c[1])
        for dx in (-1.15 * w, 1.15 * w):  # the card's box moved sideways, where it fits
            moved = c + np.array([dx, 0.0], np.float32)
            if (moved.min() >= 0 and moved[:, 0].max() < photo.image.shape[1]
                    and moved[:, 1].max() < photo.image.shape[0]):
                out.append(cut_card(photo.image, moved, card_size(px_per_mm)))
    for image in empty:
        ih, iw = image.shape[:2]
        for _ in range(6):
            h = rng.uniform(0.3, 0.9) * ih
            w = h * CARD_MM[0] / CARD_MM[1]
            x, y = rng.uniform(0, iw - w), rng.uniform(0, ih - h)
            box = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)
            out.append(cut_card(image, box, card_size(px_per_mm)))
    return out


def run(photos: list[Photo], empty: list[Image], scale: str, seed: int) -> tuple[Tally, float]:
    found = [p for p in photos if p.corners is not None]
    faces = sorted({p.code for p in photos})
    tally = Tally()
    learn_s = 0.0
    rng = np.random.default_rng(seed)
    negatives = table_crops(found, empty, SCALES[scale], rng)
    for k in sorted({p.k for p in photos}):
        refs: dict[str, Image] = {}
        enrolled: set[int] = set()
        for code in faces:
            mine = [p for p in found if p.code == code]
            pick = next((p for p in mine if p.k == k), mine[-1] if mine else None)
            if pick is not None:
                refs[code] = at_scale(pick, ENROL_PX_PER_MM)
                enrolled.add(id(pick))
        start = time.perf_counter()
        ident = TemplateIdentifier.from_references(refs)
        learn_s += time.perf_counter() - start
        tests = [p for p in photos if id(p) not in enrolled and p.k != k]
        results = ident.identify_many([at_scale(p, SCALES[scale]) for p in tests
                                     if p.corners is not None])
        answers = iter(results)
        for photo in tests:
            named = next(answers)[0] if photo.corners is not None else None
            yellow = photo.code.startswith("yellow-")
            tally.yellow += yellow
            if named == photo.code:
                tally.right += 1
                tally.yellow_right += yellow
            elif named is None:
                tally.unknown += 1
                tally.failed[photo.code] += 1
                tally.not_cut += photo.corners is None
            else:
                tally.wrong += 1
                tally.confused[(photo.code, named)] += 1
        for seen, _ in ident.identify_many(negatives):
            tally.negatives += 1
            tally.false_accepts += seen is not None
    return tally, learn_s


def pct(part: int, whole: int) -> str:
    return f"{100.0 * part / max(whole, 1):.1f} % ({part}/{whole})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--photos", type=Path, default=PHOTOS)
    parser.add_argument("--scale", choices=[*SCALES, "both"], default="both")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if not (args.photos / "cards").is_dir():
        print(f"real_photos: no photos at {args.photos} (they live in ../shared/real-photos, "
              "beside the project, and are never copied into it)", file=sys.stderr)
        raise SystemExit(2)
    photos, empty = load(args.photos)
    lost = [f"{p.code}__{p.k}" for p in photos if p.corners is None]
    by_shape = [f"{p.code}__{p.k}" for p in photos if p.by_shape]
    print(f"{len(photos)} card photos, {len(empty)} without a card; card found in "
          f"{len(photos) - len(lost)}, {len(by_shape)} of them only from the deck's "
          f"proportions (touching or running off the photo's edge)"
          f"{': ' + ', '.join(by_shape) if by_shape else ''}; not found in {len(lost)}"
          f"{': ' + ', '.join(lost) if lost else ''}")
    for scale in SCALES if args.scale == "both" else [args.scale]:
        tally, learn_s = run(photos, empty, scale, args.seed)
        print(f"\n{scale} ({SCALES[scale]} px/mm), enrolled from photo k of each face, every k:")
        print(f"  named right {pct(tally.right, tally.cards)}   target >= {TARGETS['named']} %")
        print(f"  named wrong {pct(tally.wrong, tally.cards)}   target <= {TARGETS['wrong']} %")
        print(f"  unknown     {pct(tally.unknown, tally.cards)}, of which not cut out of "
              f"their photo {tally.not_cut}")
        print(f"  of the cards cut out: named right "
              f"{pct(tally.right, tally.cards - tally.not_cut)}, wrong "
              f"{pct(tally.wrong, tally.cards - tally.not_cut)}")
        print(f"  yellow right {pct(tally.yellow_right, tally.yellow)}   "
              f"target >= {TARGETS['yellow']} %")
        print(f"  table crops named {pct(tally.false_accepts, tally.negatives)}   target 0")
        print(f"  learning {learn_s / 4:.1f} s per enrolment")
        if tally.confused:
            print("  confused: " + ", ".join(f"{a}->{b} x{n}"
                                             for (a, b), n in tally.confused.most_common(12)))
        if tally.failed:
            print("  most often unknown: " + ", ".join(f"{c} x{n}"
                                                      for c, n in tally.failed.most_common(12)))


if __name__ == "__main__":
    main()
