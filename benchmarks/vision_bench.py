"""Vision benchmark: how well TableReader reads rendered tables it has never seen.

Run by hand (not a test):

    .venv/bin/python benchmarks/vision_bench.py [--scenes N] [--seed-base S] [--deck deserto]

Each scene is a held-out render (seeds >= 1_000_000, which tests never use): a random
camera, light (neutral, warm lamp, daylight or dim, sometimes glare), lens blur, noise
and JPEG, the deck's cards at random places and angles (some touching, some overlapping,
a few face down, on some scenes one more card put on another as on a pile), clutter
beside the mat on some scenes and a hand over it on a few. Of a tile deck (`ROWS`: Remi)
a share of the tiles lies in rows, side by side and touching, as melds and the discard
row do (vision.render.tile_rows).
The identifier is built from the deck's own art (referee/decks/<deck>.json), like the
device does before any enrolment. Single-threaded timings: the one-off calibration (the
first read of an empty table) and then TableReader.read per frame; three untimed scenes are
read first, as the measured ones are, and every kernel numba has cached is loaded, since a
path's first read in a process loads (after an install, compiles) its numba kernels.
A reader also learns the mat model on one frame in LEARN_EVERY (4): how much longer such a
frame takes is measured on the same frame read again, and the mean time per frame over a
sequence counts it in.

A detection is scored against the card whose centre is nearest its own (within 15 mm, in
mat mm through the renderer's true homography), else the card on top where its centre
lies (and counted as misplaced); a coded detection on no card is a false accept.
Cards count as expected when fully visible in a frame without a hand.

    .venv/bin/python benchmarks/vision_bench.py --full-scale 2 [--name-small] ...

is a camera with two streams (a Pi camera's small one and its full frame): each scene is
rendered at K times the frame's size, the frame is that shrunk, cards are found on the
frame and named from the full one (--name-small: from the frame, the same renders).

    .venv/bin/python benchmarks/vision_bench.py --unseen-decks [--scenes 40] [--designs a,b]

reads decks the project never drew instead (vision.foreign_decks: UNO-like and Tempus-like
designs, pale and dark, at real-deck sizes), as a table that enrols its own deck would:
each design is enrolled from a rendered enrolment session (one random camera and light,
the bare mat, then its faces and back laid out 4x2 a frame, a few degrees askew), the card
size and rims measured from those frames as `tableref enrol` measures them
(vision.deck_measure), each face found and cut upright from its frame as `tableref
enrol` finds and cuts it (vision.enrolment: a frame with a card missed or something
else on the mat is not taken, its faces laid out again in the next pass), and a
TemplateIdentifier learnt from those crops (as every enrolled deck is named); then its
held-out scenes are read by a reader given the measured size (and whether the cards'
rim is darker than the mat, find_cards' dark_rims, and whether some faces are dark with
no light rim round them, dark_faces).
Per design: the share of fully visible cards named right, accuracy on accepted cards,
false accepts, the read time, the most confused pairs, and why the fully visible cards
not named were not: no outline found there, an outline with a corner more than
WRONG_OUTLINE_MM off, the right outline left unknown, or misnamed (for our own decks
too).
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import math
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numba
import numpy as np
from numpy.typing import NDArray

from firmware.enrol import MAX_OTHER_MM2
from vision.calibration import Calibration, calibrate
from vision.deck_art import FaceArt, paint_back, paint_face
from vision.deck_measure import measure_deck
from vision.enrolment import blurred, cut_card, find_laid_cards, in_grid_order, seen_px_per_mm
from vision.foreign_decks import DESIGNS, ForeignDesign, paint_deck
from vision.identify import CardIdentifier, Identifier
from vision.mat import MatSpec, default_mat, render_mat
from vision.render import (
    CameraPose,
    CardPlacement,
    Clutter,
    Glare,
    HandPose,
    Lighting,
    RenderResult,
    Scene,
    random_layout,
    render,
    tile_rows,
)
from vision.table_reader import LEARN_EVERY, TableReader, TableReading
from vision.template_identifier import TemplateIdentifier

ROOT = Path(__file__).resolve().parents[1]
HELD_OUT_SEEDS = 1_000_000
MAT_PX_PER_MM = 4.0
BACK = "back"
EXPECTED_VISIBLE = 0.97  # a card this visible must be read (or it counts as an abstention)
MISPLACED_MM = 15.0  # a detection this far from the card's true centre is in the wrong place
#: an outline with a corner this far from the card's own (mat mm) is the wrong outline
WRONG_OUTLINE_MM = 3.0
TARGETS = {"accuracy": 99.5, "abstention": 2.0, "false_accepts": 0.5, "ms_per_frame": 10.0}
UNSEEN_TARGETS = {"named": 97.0}  # share of the fully visible cards of an unseen deck named
UNSEEN_SCENES = 40  # held-out scenes per unseen design by default
WARM_UP_SCENES = 3  # scenes read before timing, each as a measured one (warm_up)
UNSEEN_PRINT_SEED = 1  # the print run of every unseen design
ENROL_SEEDS = 500_000  # design k of DESIGNS is enrolled with seed ENROL_SEEDS + k (no scene's)
ENROL_GRID = (4, 2)  # columns x rows of faces laid out in one enrolment frame
ENROL_PASSES = 3  # enrolment passes at most: the faces not cut are laid out again
ENROL_GAP_MM = 14.0  # between the faces of the grid
#: Decks of tiles: this share of a scene's tiles lies in rows, touching edge to edge
ROWS = {"remi": 0.6}

Image = NDArray[np.uint8]
LIGHTS = {
    "neutral": Lighting,
    "warm_lamp": Lighting.warm_lamp,
    "daylight": Lighting.daylight,
    "dim": Lighting.dim,
}


@dataclass(frozen=True)
class Deck:
    """A deck's reference images (code -> upright card image), how often each face occurs,
    and the card size."""

    name: str
    card_mm: tuple[float, float]
    images: dict[str, Image]
    weights: dict[str, float]
    corner_radius_mm: float = 3.0

    @classmethod
    def load(cls, name: str) -> Deck:
        data = json.loads((ROOT / "referee" / "decks" / f"{name}.json").read_text("utf-8"))
        card_mm = (float(data["card_mm"][0]), float(data["card_mm"][1]))
        images: dict[str, Image] = {}
        weights: dict[str, float] = {}
        for face in data["faces"]:
            images[face["code"]] = paint_face(FaceArt.from_json(face["code"], face["art"]),
                                              card_mm)
            weights[face["code"]] = float(face.get("copies", 1))
        if "back" in data:
            images[BACK] = paint_back(str(data["back"].get("colour", "#6b3f1d")), card_mm)
        return cls(name, card_mm, images, weights)


@dataclass(frozen=True)
class Optics:
    """The camera's blur (px), noise (grey levels) and JPEG quality for one scene."""

    blur_sigma: float
    noise_sigma: float
    jpeg_quality: int

    def render(self, scene: Scene, camera: CameraPose, lighting: Lighting,
               rng: np.random.Generator) -> RenderResult:
        return render(scene, camera, lighting, rng, blur_sigma=self.blur_sigma,
                      noise_sigma=self.noise_sigma, jpeg_quality=self.jpeg_quality)


@dataclass
class Conditions:
    """What made a scene hard, for the break-down of errors."""

    light: str
    glare: bool
    blur: float
    noise: float
    jpeg: int
    tilt: float
    hand: bool
    clutter: int


@dataclass
class Tally:
    """Counts over all scenes."""

    accepted: int = 0
    correct: int = 0
    unknown_on_cards: int = 0
    expected: int = 0
    expected_named: int = 0  # of the expected cards, those read as their own code
    abstained: int = 0
    partial_seen: int = 0
    partial_read: int = 0
    duplicates: int = 0
    misplaced: int = 0
    false_accepts: int = 0
    unknown_on_clutter: int = 0
    clutter_items: int = 0
    hand_frames: int = 0
    hand_flagged: int = 0
    clear_frames: int = 0
    clear_flagged: int = 0
    centre_errors_mm: list[float] = field(default_factory=list)
    read_ms: list[float] = field(default_factory=list)
    learn_extra_ms: list[float] = field(default_factory=list)  # a learning frame over another
    calibrate_ms: list[float] = field(default_factory=list)
    calibration_failures: int = 0
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)
    #: (code, how) of the expected cards not named: "not found" (no outline there), "wrong
    #: outline" (none within WRONG_OUTLINE_MM of the card's corners), "unknown" (the right
    #: outline, left unknown by the identifier) or "misnamed"
    unnamed: Counter[tuple[str, str]] = field(default_factory=Counter)
    expected_faces: Counter[str] = field(default_factory=Counter)  # the expected cards' codes
    # condition (e.g. "light=dim") -> counts of expected, abstained, accepted, wrong
    by_condition: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    notes: list[str] = field(default_factory=list)


def build_scene(seed: int, deck: Deck, mat: MatSpec, mat_image: Image, n_cards: int,
                resolution: tuple[int, int], p_pile: float = 0.0
                ) -> tuple[Scene, CameraPose, Lighting, Optics, Conditions]:
    """One held-out scene from its seed: what lies there, the camera, the light, the optics."""
    rng = np.random.default_rng(seed)
    faces = [c for c in deck.weights]
    p = np.array([deck.weights[c] for c in faces])
    labels = [faces[int(rng.choice(len(faces), p=p / p.sum()))] for _ in range(n_cards)]
    if BACK in deck.images:
        labels = [BACK if rng.random() < 0.08 else code for code in labels]
    in_rows = round(ROWS.get(deck.name, 0.0) * len(labels))
    cards = tile_rows(np.random.default_rng([seed, 3]), mat,
                      [(c, deck.images[c]) for c in labels[:in_rows]], deck.card_mm)
    cards += random_layout(rng, mat, [(c, deck.images[c]) for c in labels[in_rows:]],
                           deck.card_mm, p_touch=0.25, p_overlap=0.12, around=cards)
    cards += pile_card(np.random.default_rng([seed, 2]), deck, faces, cards, p_pile)
    cards = [dataclasses.replace(c, corner_radius_mm=deck.corner_radius_mm) for c in cards]
    clutter = [Clutter.random(rng, mat) for _ in range(int(rng.integers(1, 3)))]
    if rng.random() >= 0.4:
        clutter = []
    hand = HandPose.random(rng, mat) if rng.random() < 0.08 else None
    camera = CameraPose.random(rng, resolution)
    light_name = list(LIGHTS)[int(rng.integers(0, len(LIGHTS)))]
    lighting = jitter(LIGHTS[light_name](), rng)
    dim = light_name == "dim"
    optics = Optics(
        blur_sigma=float(rng.uniform(0.3, 1.6)),
        noise_sigma=float(rng.uniform(1.0, 3.0) + (2.0 if dim else 0.0)),
        jpeg_quality=int(rng.integers(60, 96)),
    )
    conditions = Conditions(
        light=light_name, glare=lighting.glare is not None, blur=optics.blur_sigma,
        noise=optics.noise_sigma, jpeg=optics.jpeg_quality, tilt=camera.tilt_deg,
        hand=hand is not None, clutter=len(clutter),
    )
    scene = Scene(mat_image, mat, MAT_PX_PER_MM, cards, hand, clutter)
    return scene, camera, lighting, optics, conditions


def pile_card(rng: np.random.Generator, deck: Deck, faces: list[str],
              cards: list[CardPlacement], p_pile: float) -> list[CardPlacement]:
    """With probability p_pile, one more card put on an earlier one a few mm and degrees
    off it, as on a pile (from its own random stream: the rest of the scene is unchanged)."""
    if not cards or rng.random() >= p_pile:
        return []
    base = cards[int(rng.integers(0, len(cards)))]
    code = faces[int(rng.integers(0, len(faces)))]
    dx, dy = rng.uniform(-4.0, 4.0, 2)
    centre = (base.center_mm[0] + float(dx), base.center_mm[1] + float(dy))
    angle = base.angle_deg + float(rng.uniform(-6.0, 6.0))
    return [CardPlacement(deck.images[code], centre, angle, size_mm=deck.card_mm, label=code)]


def jitter(base: Lighting, rng: np.random.Generator) -> Lighting:
    """The preset a little brighter or darker, its fall-off turned, glare on a third."""
    glare = None
    if rng.random() < 0.33:
        glare = Glare((float(rng.uniform(0.25, 0.75)), float(rng.uniform(0.25, 0.75))),
                      float(rng.uniform(0.03, 0.1)), float(rng.uniform(0.3, 0.8)))
    return dataclasses.replace(
        base,
        brightness=base.brightness * float(rng.uniform(0.85, 1.15)),
        gradient_angle_deg=float(rng.uniform(0, 360)),
        glare=glare,
        shadow_angle_deg=float(rng.uniform(0, 360)),
    )


def centre_mm(corners_px: Iterable[Iterable[float]], image_to_mat: NDArray[np.float64]
              ) -> NDArray[np.float64]:
    pts = np.asarray(list(corners_px), np.float64).reshape(-1, 1, 2)
    mm = np.asarray(cv2.perspectiveTransform(pts, image_to_mat), np.float64).reshape(-1, 2)
    centre: NDArray[np.float64] = mm.mean(axis=0)
    return centre


def match_card(point: NDArray[np.float64], cards: list[CardPlacement],
               visible: list[float] | None = None) -> int | None:
    """The card a detection centred at `point` (mat mm) is of: the nearest card centre
    within MISPLACED_MM (a partly covered card's centre may lie under another card; of a
    pile's cards, a few mm apart, the most visible one), else the uppermost card whose
    outline contains the point, else None (not on a card)."""
    distances = [float(np.hypot(*(point - card.center_mm))) for card in cards]
    near = [i for i, d in enumerate(distances) if d <= MISPLACED_MM]
    if near:
        seen = visible or [1.0] * len(cards)
        return min(near, key=lambda i: (-round(seen[i], 1), distances[i]))
    for i in range(len(cards) - 1, -1, -1):
        poly = cards[i].corners_mm()[:, :2].astype(np.float32)
        if cv2.pointPolygonTest(poly, (float(point[0]), float(point[1])), False) >= 0:
            return i
    return None


def card_context(i: int, cards: list[CardPlacement]) -> str:
    """'stacked' if it lies on or under another card a few mm and degrees off it (a pile),
    'overlap' if it shares more than a sliver with another card, 'touching' if within
    1.5 mm of one."""
    for j, other in enumerate(cards):
        turn = abs((cards[i].angle_deg - other.angle_deg + 90) % 180 - 90)
        apart = float(np.hypot(*(np.array(cards[i].center_mm) - other.center_mm)))
        if j != i and apart <= 8.0 and turn <= 10.0:
            return "stacked"
    poly = cards[i].corners_mm()[:, :2].astype(np.float32)
    grown = dataclasses.replace(cards[i], size_mm=(cards[i].size_mm[0] + 3,
                                                   cards[i].size_mm[1] + 3))
    grown_poly = grown.corners_mm()[:, :2].astype(np.float32)
    context = "alone"
    for j, other in enumerate(cards):
        if j == i:
            continue
        other_poly = other.corners_mm()[:, :2].astype(np.float32)
        if cv2.intersectConvexConvex(poly, other_poly)[0] > 40.0:
            return "overlap"
        if cv2.intersectConvexConvex(grown_poly, other_poly)[0] > 0.0:
            context = "touching"
    return context


def bucket(value: float, edges: tuple[float, ...], names: tuple[str, ...]) -> str:
    for edge, name in zip(edges, names, strict=False):
        if value < edge:
            return name
    return names[-1]


def condition_keys(c: Conditions) -> dict[str, str]:
    return {
        "light": c.light,
        "glare": "yes" if c.glare else "no",
        "blur": bucket(c.blur, (0.8, 1.2), ("<0.8", "0.8-1.2", ">=1.2")),
        "tilt": bucket(c.tilt, (10.0,), ("<10", ">=10")),
        "jpeg": bucket(c.jpeg, (75,), ("<75", ">=75")),
    }


def count(tally: Tally, keys: dict[str, str], context: str, what: str) -> None:
    for name, value in (*keys.items(), ("card", context)):
        tally.by_condition[f"{name}={value}"][what] += 1


def corner_error_mm(corners_px: Iterable[Iterable[float]], truth_px: NDArray[np.float64],
                    image_to_mat: NDArray[np.float64]) -> float:
    """How far an outline is from the card's own (mat mm, both seen through the camera):
    the largest distance of one of its corners from the nearest of the card's."""
    mm = cv2.perspectiveTransform(np.asarray(list(corners_px), np.float64).reshape(-1, 1, 2),
                                  image_to_mat).reshape(-1, 2)
    truth = cv2.perspectiveTransform(truth_px.reshape(-1, 1, 2), image_to_mat).reshape(-1, 2)
    return float(np.linalg.norm(mm[:, None] - truth[None], axis=2).min(axis=1).max())


def score(reading: TableReading, scene: Scene, visible: list[float],
          image_to_mat: NDArray[np.float64], conditions: Conditions, tally: Tally,
          seed: int, truth_px: list[NDArray[np.float64]]) -> bool:
    """Add one frame's reading to the tally; True if it had any error worth looking at."""
    cards = scene.cards
    keys = condition_keys(conditions)
    bad = False
    read_as: dict[int, list[str | None]] = defaultdict(list)
    outline_mm: dict[int, float] = {}  # a card's best outline: its corner error
    for seen in reading.cards:
        centre = centre_mm(seen.corners_px, image_to_mat)
        top = match_card(centre, cards, visible)
        if top is not None:
            error = corner_error_mm(seen.corners_px, truth_px[top], image_to_mat)
            outline_mm[top] = min(error, outline_mm.get(top, math.inf))
        if top is None:
            if seen.code is not None:
                tally.false_accepts += 1
                tally.notes.append(f"seed {seed}: {seen.code!r} ({seen.confidence:.2f}) on no "
                                   f"card at ({centre[0]:.0f}, {centre[1]:.0f}) mm")
                bad = True
            else:
                tally.unknown_on_clutter += 1
            continue
        read_as[top].append(seen.code)
        if seen.code is None:
            tally.unknown_on_cards += 1
            continue
        tally.accepted += 1
        truth = cards[top].label
        error_mm = float(np.hypot(*(centre - cards[top].center_mm)))
        tally.centre_errors_mm.append(error_mm)
        if error_mm > MISPLACED_MM:
            tally.misplaced += 1
            bad = True
            tally.notes.append(f"seed {seed}: card {top} {truth!r} read as {seen.code!r} "
                               f"{error_mm:.0f} mm off its centre")
        context = card_context(top, cards)
        count(tally, keys, context, "accepted")
        if seen.code == truth:
            tally.correct += 1
        else:
            bad = True
            tally.confusions[(truth, seen.code)] += 1
            count(tally, keys, context, "wrong")
            tally.notes.append(f"seed {seed}: card {top} {truth!r} read as {seen.code!r} "
                               f"({seen.confidence:.2f}, {context}, visible "
                               f"{visible[top]:.2f}, {keys['light']}, {keys['glare']})")
    for i, card in enumerate(cards):
        context = card_context(i, cards)
        codes = read_as.get(i, [])
        if sum(c is not None for c in codes) > 1:
            tally.duplicates += 1
        if conditions.hand:
            continue
        if visible[i] >= EXPECTED_VISIBLE:
            tally.expected += 1
            tally.expected_faces[card.label] += 1
            tally.expected_named += card.label in codes
            count(tally, keys, context, "expected")
            if card.label in codes:
                count(tally, keys, context, "named")
            if card.label not in codes:
                how = ("not found" if not codes else "misnamed" if any(codes)
                       else "wrong outline" if outline_mm[i] > WRONG_OUTLINE_MM else "unknown")
                tally.unnamed[(card.label, how)] += 1
            if all(c is None for c in codes):
                tally.abstained += 1
                bad = True
                count(tally, keys, context, "abstained")
                off = f", {outline_mm[i]:.1f} mm off" if codes else ""
                tally.notes.append(f"seed {seed}: card {i} {card.label!r} {how}{off} "
                                   f"({context}, {keys['light']}, {keys['glare']}, "
                                   f"{keys['blur']})")
        elif visible[i] >= 0.3:
            tally.partial_seen += 1
            tally.partial_read += any(c == card.label for c in codes)
    return bad


def warm_up(deck: Deck, mat: MatSpec, mat_image: NDArray[np.uint8],
            identifier: Identifier, args: argparse.Namespace,
            resolution: tuple[int, int], card_mm: tuple[float, float],
            dark_rims: bool = False, dark_faces: bool = False) -> None:
    """Read WARM_UP_SCENES scenes before timing, each as a measured scene is read (the bare
    mat that calibrates, the cards, then the reads until the mat model learns): the first
    read of a process that takes a path loads (or, after an install, compiles) its numba
    kernels, a one-off like the calibration, not a frame's cost. One scene read once left
    the mat model's learning (in the first scene's learning cost) and a rarer path of the
    fit (a calibration's) to the measured scenes. Their seeds lie below the measured ones.

    Then what the process holds so far (the deck, the identifier, numba's kernels) is
    frozen out of Python's cycle collector: a full pass over it took about 25 ms with the
    Remi reader loaded, and the benchmark's own churn (a scene rendered, a reader made for
    each) set one off in about one timed read in 20, counted to that read."""
    for n in range(1, WARM_UP_SCENES + 1):
        taken = take_scene(args.seed_base - n, deck, mat, mat_image, args, resolution)
        reader = TableReader(mat, identifier, card_mm, dark_rims=dark_rims,
                             dark_faces=dark_faces)
        for frame, full in (taken.bare, taken.shot):
            reader.read(frame, full=full)
        learning_cost(reader, *taken.shot)
    load_cached_kernels()
    gc.collect()
    gc.freeze()


def load_cached_kernels() -> None:
    """Load every signature numba's disk cache holds of every compiled kernel of vision not
    loaded yet: a path no warm-up scene took (the fit of a piece left in a blob, which one
    calibration in 60 took) loads its kernel on its first call, some ms counted to that
    frame. (numba's cache index is not public: where it moved, nothing is loaded here.)"""
    for module in [m for name, m in sys.modules.items() if name.startswith("vision.")]:
        for kernel in vars(module).values():
            cache = getattr(kernel, "_cache", None)
            if not isinstance(kernel, numba.core.dispatcher.Dispatcher) or cache is None:
                continue
            index = getattr(getattr(cache, "_cache_file", None), "_load_index", None)
            # (each key: the signature, the machine, the source's stamp)
            for signature, *_ in (index() if index is not None else {}):
                if signature not in kernel.overloads:
                    kernel.compile(signature)


@dataclass(frozen=True)
class TakenScene:
    """A held-out scene as its camera took it: the bare mat first (the frame that
    calibrates), then with the scene's cards, each as `shot` gives it (frame, full)."""

    scene: Scene
    conditions: Conditions
    result: RenderResult  # the render with the cards (where they lie in the image)
    bare: tuple[Image, Image | None]
    shot: tuple[Image, Image | None]


def take_scene(seed: int, deck: Deck, mat: MatSpec, mat_image: Image, args: argparse.Namespace,
               resolution: tuple[int, int]) -> TakenScene:
    """The scene of `seed` (args.cards cards, args.piles piles) rendered by its camera."""
    scene, camera, lighting, optics, conditions = build_scene(
        seed, deck, mat, mat_image, args.cards, resolution, args.piles)
    rng = np.random.default_rng([seed, 1])
    bare = optics.render(dataclasses.replace(scene, cards=[], hand=None), camera, lighting, rng)
    result = optics.render(scene, camera, lighting, rng)
    return TakenScene(scene=scene, conditions=conditions, result=result,
                      bare=shot(bare.image, args), shot=shot(result.image, args))


def shot(image: Image, args: argparse.Namespace) -> tuple[Image, Image | None]:
    """A camera's frame and, with --full-scale K, its full-resolution twin: the scene is
    rendered K times larger and the frame is that shrunk (as a sensor's binned stream);
    --name-small then names from the frame alone, for comparison."""
    if args.full_scale == 1:
        return image, None
    small = np.asarray(cv2.resize(image, (args.width, args.height), interpolation=cv2.INTER_AREA),
                       np.uint8)
    return small, None if args.name_small else image


def frame_to_full(args: argparse.Namespace) -> NDArray[np.float64]:
    """The frame's pixels as the rendered (full) image's pixels: pixel centres at whole
    numbers in both."""
    k = float(args.full_scale)
    return np.array([[k, 0.0, (k - 1) / 2], [0.0, k, (k - 1) / 2], [0.0, 0.0, 1.0]])


def learning_cost(reader: TableReader, frame: Image, full: Image | None = None) -> float:
    """How much longer a frame that also learns the mat model takes than one that does not
    (ms), the same frame read again by the same reader: it learns on every LEARN_EVERY-th
    frame it reads (the calibrating one first, the measured one second). The same frame
    read again is read in full (reuse_still off), not given its reading again."""
    reader.reuse_still = False
    times = []
    for _ in range(3, LEARN_EVERY + 1):
        start = time.perf_counter()
        reader.read(frame, full=full)
        times.append(1000 * (time.perf_counter() - start))
    return times[-1] - times[-2]


def run(args: argparse.Namespace) -> Tally:
    cv2.setNumThreads(1)
    deck = Deck.load(args.deck)
    identifier = CardIdentifier.from_references(deck.images, np.random.default_rng(0),
                                                card_mm=deck.card_mm)
    return read_scenes(args, deck, identifier, deck.card_mm)


def read_scenes(args: argparse.Namespace, deck: Deck, identifier: Identifier,
                card_mm: tuple[float, float], dark_rims: bool = False,
                dark_faces: bool = False) -> Tally:
    """Read args.scenes held-out scenes of the deck with a reader told the card is card_mm
    (and whether its rim is darker than the mat)."""
    mat = default_mat()
    mat_image = render_mat(mat, MAT_PX_PER_MM)
    tally = Tally()
    resolution = (round(args.width * args.full_scale), round(args.height * args.full_scale))
    warm_up(deck, mat, mat_image, identifier, args, resolution, card_mm, dark_rims, dark_faces)
    for n in range(args.scenes):
        seed = args.seed_base + n
        taken = take_scene(seed, deck, mat, mat_image, args, resolution)
        scene, conditions, result = taken.scene, taken.conditions, taken.result
        (empty_frame, empty_full), (frame, full) = taken.bare, taken.shot
        reader = TableReader(mat, identifier, card_mm, dark_rims=dark_rims,
                             dark_faces=dark_faces)
        start = time.perf_counter()
        try:
            reader.read(empty_frame, full=empty_full)
        except Exception as exc:  # the benchmark reports every failure and goes on
            tally.calibration_failures += 1
            tally.notes.append(f"seed {seed}: calibration failed: {exc}")
            continue
        tally.calibrate_ms.append(1000 * (time.perf_counter() - start))
        start = time.perf_counter()
        reading = reader.read(frame, full=full)
        tally.read_ms.append(1000 * (time.perf_counter() - start))
        tally.learn_extra_ms.append(learning_cost(reader, frame, full))
        image_to_mat = np.linalg.inv(result.homography_mat_to_image) @ frame_to_full(args)
        corners = [((np.asarray(c) + 0.5) / args.full_scale - 0.5) for c in result.card_corners_px]
        bad = score(reading, scene, result.visible_fraction, image_to_mat, conditions, tally,
                    seed, corners)
        if conditions.hand:
            tally.hand_frames += 1
            tally.hand_flagged += reading.obstructed
        else:
            tally.clear_frames += 1
            tally.clear_flagged += reading.obstructed
        if reading.obstructed != conditions.hand:
            keys = condition_keys(conditions)
            tally.notes.append(f"seed {seed}: obstructed={reading.obstructed} with hand="
                               f"{conditions.hand}, clutter {conditions.clutter}, light "
                               f"{keys['light']}, glare {keys['glare']}")
        tally.clutter_items += conditions.clutter
        if bad and args.save_failures is not None:
            args.save_failures.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(args.save_failures / f"{seed}.png"),
                        annotate(frame, reading, scene, corners))
        if args.progress and (n + 1) % 50 == 0:
            print(f"... {n + 1} scenes", flush=True)
    return tally


# --- decks the project never drew -------------------------------------------------------


@dataclass
class Enrolment:
    """What an enrolment session learnt: the identifier, the card size it measured, and
    how it went (frames shown, faces cut, faces it could not cut)."""

    identifier: Identifier
    card_mm: tuple[float, float]
    frames: int
    crops: dict[str, Image]
    missing: list[str]
    dark_rims: bool = False  # the cards' rim is darker than the mat (find_cards)
    dark_faces: bool = False  # some faces dark with no light rim round them (find_cards)


def unseen_deck(design: ForeignDesign) -> Deck:
    """The design's deck painted with the codes and copies of the deck it stands for."""
    data = json.loads((ROOT / "referee" / "decks" / f"{design.deck}.json").read_text("utf-8"))
    images = paint_deck(design, data["faces"], seed=UNSEEN_PRINT_SEED)
    weights = {f["code"]: float(f.get("copies", 1)) for f in data["faces"]}
    return Deck(design.name, design.card_mm, images, weights, design.corner_radius_mm)


def enrolment_batches(deck: Deck, codes: list[str], mat: MatSpec, rng: np.random.Generator
                      ) -> list[list[CardPlacement]]:
    """The faces laid out a grid at a time in the middle of the mat, as an enrolment page
    asks: upright, a few mm and degrees off their places as hands lay them."""
    cols, rows = ENROL_GRID
    w, h = deck.card_mm
    cx, cy = mat.center_mm
    cells = [(cx + (c - (cols - 1) / 2) * (w + ENROL_GAP_MM),
              cy + (r - (rows - 1) / 2) * (h + ENROL_GAP_MM)) for r in range(rows)
             for c in range(cols)]
    batches = []
    for start in range(0, len(codes), len(cells)):
        batches.append([
            CardPlacement(deck.images[code], (x + float(rng.uniform(-3, 3)),
                                              y + float(rng.uniform(-3, 3))),
                          float(rng.uniform(-4, 4)), size_mm=deck.card_mm, label=code,
                          corner_radius_mm=deck.corner_radius_mm)
            for code, (x, y) in zip(codes[start:start + len(cells)], cells, strict=False)])
    return batches


def cut_faces(cal: Calibration, frame: Image, batch: list[CardPlacement],
              card_mm: tuple[float, float]) -> dict[str, Image]:
    """Each face of one enrolment frame, cut as `tableref enrol` cuts it (firmware/enrol.py):
    the cards found laid out (vision.enrolment.find_laid_cards, no card size given), the
    frame taken only if it shows as many cards as were laid, nothing else on the mat
    (MAX_OTHER_MM2) and at most half of them blurred; the cards given to the faces in
    grid order and cut upright at the measured size (vision.enrolment.cut_card). A frame
    not taken gives no crop: its faces are laid out again."""
    found = find_laid_cards(frame, cal)
    if found.other_mm2 > MAX_OTHER_MM2 or len(found.cards) != len(batch):
        return {}
    cards = in_grid_order(found.cards, ENROL_GRID[0])
    if sum(blurred(card, seen_px_per_mm(cal, card)) for card in cards) > len(cards) // 2:
        return {}
    return {placed.label: cut_card(frame, cal, card, card_mm)
            for placed, card in zip(batch, cards, strict=True)}


def enrol(deck: Deck, mat: MatSpec, mat_image: Image, seed: int,
          resolution: tuple[int, int]) -> Enrolment:
    """A rendered enrolment session: one camera, the bare mat first, then the faces (and
    the back) a grid at a time; the card size measured from the first pass, each face cut
    and learnt. Faces it could not cut are laid out again, in the next light (a table asked
    for more light), up to ENROL_PASSES passes in all."""
    rng = np.random.default_rng(seed)
    camera = CameraPose.random(rng, resolution)
    optics = Optics(blur_sigma=float(rng.uniform(0.3, 1.2)),
                    noise_sigma=float(rng.uniform(1.0, 3.0)),
                    jpeg_quality=int(rng.integers(75, 96)))
    bare_scene = Scene(mat_image, mat, MAT_PX_PER_MM)
    crops: dict[str, Image] = {}
    card_mm: tuple[float, float] | None = None
    dark_rims = dark_faces = False
    frames = 0
    for _ in range(ENROL_PASSES):
        todo = [code for code in deck.images if code not in crops]
        if not todo:
            break
        lighting = jitter(LIGHTS[list(LIGHTS)[int(rng.integers(0, len(LIGHTS)))]](), rng)
        bare = optics.render(bare_scene, camera, lighting, rng).image
        cal = calibrate(bare, mat)
        batches = enrolment_batches(deck, todo, mat, rng)
        shots = [optics.render(dataclasses.replace(bare_scene, cards=batch), camera, lighting,
                               rng).image for batch in batches]
        frames += len(shots)
        if card_mm is None:  # as `tableref enrol` measures it, against the bare mat seen
            measured = measure_deck(cal, shots, bare)
            card_mm, dark_rims = measured.card_mm, measured.dark_rims
            dark_faces = measured.dark_faces
        for batch, shot in zip(batches, shots, strict=True):
            crops.update(cut_faces(cal, shot, batch, card_mm))
    assert card_mm is not None
    identifier = TemplateIdentifier.from_references(crops)
    return Enrolment(identifier, card_mm, frames, crops,
                     [code for code in deck.images if code not in crops], dark_rims,
                     dark_faces)


def run_unseen(args: argparse.Namespace) -> list[tuple[ForeignDesign, Enrolment, Tally]]:
    """Enrol each unseen design from its rendered session, then read its held-out scenes."""
    cv2.setNumThreads(1)
    mat = default_mat()
    mat_image = render_mat(mat, MAT_PX_PER_MM)
    results = []
    for name in args.designs:
        design = DESIGNS[name]
        deck = unseen_deck(design)
        seed = ENROL_SEEDS + list(DESIGNS).index(name)  # a design's session, however chosen
        enrolment = enrol(deck, mat, mat_image, seed, (args.width, args.height))
        own = argparse.Namespace(**vars(args))
        if args.save_failures is not None:  # each design's frames and crops in its folder
            own.save_failures = args.save_failures / name
            crops = own.save_failures / "enrolment"
            crops.mkdir(parents=True, exist_ok=True)
            for code, crop in enrolment.crops.items():
                cv2.imwrite(str(crops / f"{code}.png"), crop)
        tally = read_scenes(own, deck, enrolment.identifier, enrolment.card_mm,
                            enrolment.dark_rims, enrolment.dark_faces)
        results.append((design, enrolment, tally))
        if args.progress:
            print(f"... {name} done", flush=True)
    return results


def report_unseen(results: list[tuple[ForeignDesign, Enrolment, Tally]],
                  args: argparse.Namespace) -> None:
    if args.verbose:
        for design, _, tally in results:
            for note in tally.notes:
                print(f"{design.name}: {note}")
    print(f"\nUnseen decks: each enrolled from a rendered session ({ENROL_GRID[0]}x"
          f"{ENROL_GRID[1]} faces a frame), then {args.scenes} held-out scenes from seed "
          f"{args.seed_base}, {args.cards} cards, {args.width}x{args.height}, 1 thread")
    print(f"\n{'design':<15}{'card mm (measured, rim, faces)':<36}{'cut in frames':>14}"
          f"{'named':>18}{'accuracy':>18}{'false acc.':>12}{'read ms':>9}")
    for design, enrolment, tally in results:
        read = np.array(tally.read_ms or [0.0])
        size = (f"{design.card_mm[0]:g}x{design.card_mm[1]:g} "
                f"({enrolment.card_mm[0]:g}x{enrolment.card_mm[1]:g}, "
                f"{'dark' if enrolment.dark_rims else 'light'}, "
                f"{'dark' if enrolment.dark_faces else 'light'})")
        cut = (f"{len(enrolment.crops)}/{len(enrolment.crops) + len(enrolment.missing)} "
               f"in {enrolment.frames}")
        named = (f"{pct(tally.expected_named, tally.expected):.1f} % "
                 f"({tally.expected_named}/{tally.expected})")
        accuracy = f"{pct(tally.correct, tally.accepted):.2f} % ({tally.accepted})"
        false = pct(tally.false_accepts, tally.accepted + tally.false_accepts)
        print(f"{design.name:<15}{size:<36}{cut:>14}{named:>18}{accuracy:>18}"
              f"{false:>10.2f} %{float(np.median(read)):>9.1f}")
    print(f"targets: named >= {UNSEEN_TARGETS['named']} %, accuracy >= "
          f"{TARGETS['accuracy']} %, false accepts <= {TARGETS['false_accepts']} %, "
          f"read median <= {TARGETS['ms_per_frame']} ms")
    for design, enrolment, tally in results:
        if enrolment.missing:
            print(f"  {design.name}: not cut in enrolment: {', '.join(enrolment.missing)}")
        if tally.confusions:
            pairs = ", ".join(f"{t}->{r} x{n}" for (t, r), n in tally.confusions.most_common(5))
            print(f"  {design.name} most confused (truth->read): {pairs}")
        if tally.unnamed:
            print(f"  {design.name} not named: {unnamed_summary(tally)}")
    if args.verbose:  # where each design's misses lie: its fully visible cards named by condition
        for design, _, tally in results:
            print(f"  {design.name} named by condition: " + ", ".join(
                f"{key} {c['named']}/{c['expected']}"
                f" ({pct(c['named'], c['expected']):.1f} %)"
                for key, c in sorted(tally.by_condition.items()) if c["expected"]))


def unnamed_summary(tally: Tally) -> str:
    """Why the fully visible cards not named were not: how many of each, the faces most
    often."""
    hows = Counter[str]()
    for (_, how), n in tally.unnamed.items():
        hows[how] += n
    faces = ", ".join(f"{code} {how} x{n}" for (code, how), n in tally.unnamed.most_common(6))
    return (f"{hows['not found']} not found, {hows['wrong outline']} wrong outline, "
            f"{hows['unknown']} found and unknown, {hows['misnamed']} misnamed; most often "
            f"{faces}")


def annotate(image: Image, reading: TableReading, scene: Scene,
             truth_px: list[NDArray[np.float64]]) -> Image:
    """The frame with the truth (thin green, label) and the reading (red, code)."""
    out = image.copy()
    for card, quad in zip(scene.cards, truth_px, strict=True):
        pts = np.round(quad).astype(np.int32)
        cv2.polylines(out, [pts], True, (0, 255, 0), 1, cv2.LINE_AA)
        cv2.putText(out, card.label, tuple(int(v) for v in pts[0]), cv2.FONT_HERSHEY_SIMPLEX,
                    0.4, (0, 255, 0), 1, cv2.LINE_AA)
    for seen in reading.cards:
        pts = np.round(np.array(seen.corners_px)).astype(np.int32)
        cv2.polylines(out, [pts], True, (0, 0, 255), 2, cv2.LINE_AA)
        centre = pts.mean(axis=0).astype(int)
        cv2.putText(out, f"{seen.code} {seen.confidence:.2f}", (int(centre[0]), int(centre[1])),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 255), 1, cv2.LINE_AA)
    if reading.obstructed:
        cv2.putText(out, "OBSTRUCTED", (10, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 255), 2)
    return out


def pct(part: float, whole: float) -> float:
    return 100.0 * part / whole if whole else 0.0


def report(tally: Tally, args: argparse.Namespace) -> None:
    read = np.array(tally.read_ms or [0.0])
    learn = np.array(tally.learn_extra_ms or [0.0])
    sequence = float(read.mean() + learn.mean() / LEARN_EVERY)
    cal = np.array(tally.calibrate_ms or [0.0])
    accuracy = pct(tally.correct, tally.accepted)
    abstention = pct(tally.abstained, tally.expected)
    false_rate = pct(tally.false_accepts, tally.accepted + tally.false_accepts)
    if args.verbose:
        for note in tally.notes:
            print(note)
    print(f"\nVision benchmark: deck {args.deck}, {args.scenes} scenes from seed "
          f"{args.seed_base}, {args.cards} cards (+1 on a pile in {args.piles:.0%} of scenes), "
          f"{args.width}x{args.height}, 1 thread")
    print(f"\n{'condition':<20}{'expected':>9}{'abstained':>16}{'accepted':>10}{'wrong':>7}")
    for key in sorted(tally.by_condition):
        c = tally.by_condition[key]
        abstained = f"{c['abstained']} ({pct(c['abstained'], c['expected']):.1f} %)"
        print(f"{key:<20}{c['expected']:>9}{abstained:>16}{c['accepted']:>10}{c['wrong']:>7}")
    if tally.confusions:
        pairs = ", ".join(f"{t}->{s} x{n}" for (t, s), n in tally.confusions.most_common(6))
        print(f"  most confused (truth->read): {pairs}")
    if tally.unnamed:
        print(f"  not named: {unnamed_summary(tally)}")
    rows = [
        ("accuracy on accepted cards", f"{accuracy:.2f} %",
         f"{tally.correct}/{tally.accepted}", f">= {TARGETS['accuracy']} %",
         accuracy >= TARGETS["accuracy"]),
        ("abstention (visible cards)", f"{abstention:.2f} %",
         f"{tally.abstained}/{tally.expected}", f"<= {TARGETS['abstention']} %",
         abstention <= TARGETS["abstention"]),
        ("false accepts (non-card)", f"{false_rate:.2f} %",
         f"{tally.false_accepts}/{tally.accepted + tally.false_accepts}",
         f"<= {TARGETS['false_accepts']} %", false_rate <= TARGETS["false_accepts"]),
        ("read ms/frame (mean)", f"{read.mean():.1f}",
         f"median {np.median(read):.1f}, p95 {np.percentile(read, 95):.1f}",
         f"<= {TARGETS['ms_per_frame']}", float(read.mean()) <= TARGETS["ms_per_frame"]),
        (f"learning frame (1 in {LEARN_EVERY}) extra", f"{learn.mean():.1f}",
         f"median {np.median(learn):.1f}, p95 {np.percentile(learn, 95):.1f}", "", True),
        ("ms/frame over a sequence", f"{sequence:.1f}",
         f"read mean + learning extra / {LEARN_EVERY}", f"<= {TARGETS['ms_per_frame']}",
         sequence <= TARGETS["ms_per_frame"]),
        ("calibration ms (one-off)", f"{cal.mean():.1f}",
         f"max {cal.max():.1f}, failed {tally.calibration_failures}", "", True),
        ("obstructed with a hand", f"{pct(tally.hand_flagged, tally.hand_frames):.1f} %",
         f"{tally.hand_flagged}/{tally.hand_frames}", "", True),
        ("obstructed without one", f"{pct(tally.clear_flagged, tally.clear_frames):.1f} %",
         f"{tally.clear_flagged}/{tally.clear_frames}", "", True),
        ("partly covered cards read", f"{pct(tally.partial_read, tally.partial_seen):.1f} %",
         f"{tally.partial_read}/{tally.partial_seen}", "", True),
        ("unknowns on cards / clutter", f"{tally.unknown_on_cards}",
         f"{tally.unknown_on_clutter} on clutter ({tally.clutter_items} items)", "", True),
        ("duplicate reads of a card", f"{tally.duplicates}", "", "", True),
        (f"misplaced (> {MISPLACED_MM:.0f} mm off)", f"{tally.misplaced}", "", "", True),
        ("centre error mm (mean/max)",
         f"{np.mean(tally.centre_errors_mm or [0]):.1f}",
         f"max {np.max(tally.centre_errors_mm or [0]):.1f}", "", True),
    ]
    print()
    print(f"{'figure':<29}{'value':>10}  {'count':<34}{'target':<11}")
    for name, value, count, target, ok in rows:
        mark = "" if not target else ("ok" if ok else "MISS")
        print(f"{name:<29}{value:>10}  {count:<34}{target:<11}{mark}")


def held_out_seed(text: str) -> int:
    """--seed-base of a benchmark (this one, tracking_bench.py): a seed the tests never use,
    so that no figure is measured on what the code was tuned on."""
    seed = int(text)
    if seed < HELD_OUT_SEEDS:
        raise argparse.ArgumentTypeError(
            f"held-out seeds start at {HELD_OUT_SEEDS}; tests use the ones below")
    return seed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=None,
                        help="held-out scenes (default 200, or 40 per design of --unseen-decks)")
    parser.add_argument("--seed-base", type=held_out_seed, default=HELD_OUT_SEEDS)
    parser.add_argument("--deck", default="deserto", help="referee/decks/<deck>.json")
    parser.add_argument("--cards", type=int, default=10)
    parser.add_argument("--piles", type=float, default=0.3,
                        help="share of scenes with one more card put on a card as on a pile")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=720)
    parser.add_argument("--full-scale", type=float, default=1.0,
                        help="a camera with a full frame K times the frame's size (a Pi "
                             "camera's 2304x1296 over 1280x720: 1.8): cards are found on the "
                             "frame and named from the full frame")
    parser.add_argument("--name-small", action="store_true",
                        help="with --full-scale, name from the frame alone (to compare)")
    parser.add_argument("--save-failures", type=Path, default=None,
                        help="write annotated frames with any error into this folder (with "
                             "--unseen-decks, a folder per design, its enrolment crops too)")
    parser.add_argument("--verbose", action="store_true", help="list every error")
    parser.add_argument("--progress", action="store_true")
    parser.add_argument("--unseen-decks", action="store_true",
                        help="decks the project never drew, each enrolled from a rendered "
                             "enrolment session (vision.foreign_decks)")
    parser.add_argument("--designs", type=lambda text: text.split(","), default=list(DESIGNS),
                        help=f"with --unseen-decks, a comma list of {', '.join(DESIGNS)}")
    args = parser.parse_args()
    unknown = [name for name in args.designs if name not in DESIGNS]
    if unknown:
        parser.error(f"unknown design {unknown[0]!r}; the designs are {', '.join(DESIGNS)}")
    if args.unseen_decks:
        args.scenes = UNSEEN_SCENES if args.scenes is None else args.scenes
        report_unseen(run_unseen(args), args)
        return
    args.scenes = 200 if args.scenes is None else args.scenes
    report(run(args), args)


if __name__ == "__main__":
    main()
