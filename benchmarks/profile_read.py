"""Where a frame's read time goes, stage by stage: run by hand (not a test).

    .venv/bin/python benchmarks/profile_read.py [--scenes 16] [--cases tempus,uno-classic,remi]
                                                [--seed-base S] [--cprofile]

Each case is a deck read as vision_bench.py reads it, on the same held-out scenes: an own
deck by name (`tempus`: named by the CardIdentifier built from its art, 10 cards a scene at
1280x720), a design of vision.foreign_decks (`uno-classic`: enrolled from its rendered
enrolment session as `vision_bench.py --unseen-decks` enrols it, named by the
TemplateIdentifier), or `remi` (24 tiles a scene, 60 % in rows, named from a Pi camera's
full frame: `--full-scale 1.8`). Per scene a fresh reader calibrates on the empty table,
then reads the scene's frame once, as vision_bench.py times it: every card in it new (a
second read of the same frame would find an enrolled deck's cards in the identifier's
memory of recent patches and not compare them), the mat model not learnt on it.

Each stage's CPU time (time.process_time, one thread) is its own: a stage inside another
(the foreground mask inside find_cards) counts only for itself. Per stage: the median over
the samples (ms) and its share of all the reads' CPU time. "other" is what the read does
outside the stages named (calibration check on the tags, corners, overlaps, the
thumbnail). The wall time is printed beside it, with the load average: on a shared
machine the CPU time is the figure that compares.

`--cprofile` profiles the same reads with cProfile instead and prints the functions that
spent the most time of their own (slower under the profiler; for where to look, not figures).
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import os
import pstats
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision_bench import (  # noqa: E402  (beside this file)
    ENROL_SEEDS,
    HELD_OUT_SEEDS,
    MAT_PX_PER_MM,
    ROOT,
    Deck,
    enrol,
    held_out_seed,
    take_scene,
    unseen_deck,
    warm_up,
)

from vision import cards, table_reader, tile_rows  # noqa: E402
from vision.foreign_decks import DESIGNS  # noqa: E402
from vision.identify import CardIdentifier, Identifier  # noqa: E402
from vision.mat import default_mat, render_mat  # noqa: E402
from vision.table_reader import TableReader, TopDownWarp  # noqa: E402

STAGES = ("warp", "foreground mask", "find_cards: blobs", "find_cards: outline fitting",
          "find_cards: faint cards", "find_cards: tile seams", "cut (small frame)",
          "cut (full frame)", "naming (identifier)", "other")


@dataclass(frozen=True)
class Case:
    """One deck to profile and how vision_bench reads it."""

    name: str
    cards: int = 10
    piles: float = 0.3
    full_scale: float = 1.0


CASES = {"tempus": Case("tempus"), "remi": Case("remi", cards=24, piles=0.0, full_scale=1.8)}


@dataclass
class Stages:
    """CPU time of each stage, its own (without the stages called inside it)."""

    spent: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    _inner: list[float] = field(default_factory=list)  # per open stage: its inner stages' time

    def timed(self, stage: Callable[..., str], fn: Callable[..., Any]) -> Callable[..., Any]:
        """fn, its time counted to the stage `stage(*args)` names."""

        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            start = time.process_time()
            self._inner.append(0.0)
            try:
                return fn(*args, **kwargs)
            finally:
                took = time.process_time() - start
                self.spent[stage(*args, **kwargs)] += took - self._inner.pop()
                if self._inner:
                    self._inner[-1] += took

        return run

    def take(self) -> dict[str, float]:
        """The times so far (ms), and start again."""
        taken = {name: 1000 * s for name, s in self.spent.items()}
        self.spent.clear()
        return taken


def named(stage: str) -> Callable[..., str]:
    return lambda *args, **kwargs: stage


def cut_stage(reader: TableReader, source: table_reader.NamingSource, *rest: Any) -> str:
    return "cut (small frame)" if source.full is None else "cut (full frame)"


@contextmanager
def staged(stages: Stages) -> Iterator[None]:
    """The reader's stages timed while inside."""
    patches = [
        (TopDownWarp, "warp", named("warp")),
        (cards, "foreground_mask", named("foreground mask")),
        (table_reader, "find_cards", named("find_cards: blobs")),
        # (a blob's fit made and its candidates weighed, then those of the pieces left in it)
        (cards, "_fit_cards", named("find_cards: outline fitting")),
        (cards, "_blob_fit", named("find_cards: outline fitting")),
        (cards._Fit, "solve", named("find_cards: outline fitting")),
        (cards._Fit, "lying_on", named("find_cards: outline fitting")),
        (cards._Finding, "_faint_cards", named("find_cards: faint cards")),
        (tile_rows, "on_seams", named("find_cards: tile seams")),
        (TableReader, "_cut", cut_stage),
        (TableReader, "read", named("other")),
    ]
    with ExitStack() as stack:
        for owner, attribute, stage in patches:
            stack.enter_context(mock.patch.object(
                owner, attribute, stages.timed(stage, getattr(owner, attribute))))
        yield


class TimedIdentifier:
    """An identifier whose batches count to the naming stage."""

    def __init__(self, identifier: Identifier, stages: Stages) -> None:
        self._identifier = identifier
        self.identify_batch = stages.timed(named("naming (identifier)"),
                                           identifier.identify_batch)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._identifier, name)


def deck_of(name: str) -> tuple[Deck, Case, Identifier, tuple[float, float], bool]:
    """The deck, how it is read, its identifier, the card size the reader is told, and
    whether its rims are dark."""
    if name in DESIGNS:
        deck = unseen_deck(DESIGNS[name])
        seed = ENROL_SEEDS + list(DESIGNS).index(name)
        enrolment = enrol(deck, default_mat(), render_mat(default_mat(), MAT_PX_PER_MM), seed,
                          (1280, 720))
        return deck, Case(name), enrolment.identifier, enrolment.card_mm, enrolment.dark_rims
    deck = Deck.load(name)
    identifier = CardIdentifier.from_references(deck.images, np.random.default_rng(0),
                                                card_mm=deck.card_mm)
    return deck, CASES.get(name, Case(name)), identifier, deck.card_mm, False


def profile(name: str, args: argparse.Namespace) -> None:
    deck, case, identifier, card_mm, dark_rims = deck_of(name)
    bench = argparse.Namespace(width=1280, height=720, full_scale=case.full_scale,
                               name_small=False, seed_base=args.seed_base, cards=case.cards,
                               piles=case.piles)
    mat = default_mat()
    mat_image = render_mat(mat, MAT_PX_PER_MM)
    resolution = (round(1280 * case.full_scale), round(720 * case.full_scale))
    warm_up(deck, mat, mat_image, identifier, bench, resolution, card_mm, dark_rims)
    stages = Stages()
    timed_identifier: Any = TimedIdentifier(identifier, stages)
    samples: list[dict[str, float]] = []
    wall: list[float] = []
    profiler = cProfile.Profile() if args.cprofile else None
    load = os.getloadavg()[0]
    for n in range(args.scenes):
        taken = take_scene(args.seed_base + n, deck, mat, mat_image, bench, resolution)
        (empty_frame, empty_full), (frame, full) = taken.bare, taken.shot
        reader = TableReader(mat, timed_identifier, card_mm, dark_rims=dark_rims)
        reader.read(empty_frame, full=empty_full)
        if profiler is not None:
            profiler.runcall(reader.read, frame, full=full)
            continue
        stages.take()
        start = time.perf_counter()
        with staged(stages):
            reader.read(frame, full=full)
        wall.append(1000 * (time.perf_counter() - start))
        samples.append(stages.take())
    load = max(load, os.getloadavg()[0])
    scale = f", named from the full frame x{case.full_scale:g}" if case.full_scale != 1 else ""
    print(f"\n{name}: {args.scenes} scenes, {case.cards} cards a "
          f"scene{scale}, load average up to {load:.1f}")
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return
    total = sum(sum(s.values()) for s in samples)
    for stage in STAGES:
        each = [s.get(stage, 0.0) for s in samples]
        if not any(each):
            continue
        share = 100 * sum(each) / total if total else 0.0
        print(f"  {stage:<30}{float(np.median(each)):>8.2f} ms{share:>7.1f} %")
    print(f"  {'read, CPU':<30}{float(np.median([sum(s.values()) for s in samples])):>8.2f} ms"
          f"\n  {'read, wall':<30}{float(np.median(wall)):>8.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=16)
    parser.add_argument("--cases", type=lambda text: text.split(","),
                        default=["tempus", "uno-classic", "remi"],
                        help=f"own decks (referee/decks/<deck>.json) or designs of "
                             f"{', '.join(DESIGNS)}")
    parser.add_argument("--seed-base", type=held_out_seed, default=HELD_OUT_SEEDS)
    parser.add_argument("--cprofile", action="store_true",
                        help="the functions that take longest (cProfile) instead of stages")
    args = parser.parse_args()
    decks = {p.stem for p in (ROOT / "referee" / "decks").glob("*.json")}
    unknown = [name for name in args.cases if name not in DESIGNS and name not in decks]
    if unknown:
        parser.error(f"unknown case {unknown[0]!r}: a deck of {', '.join(sorted(decks))} "
                     f"or a design of {', '.join(DESIGNS)}")
    cv2.setNumThreads(1)
    for name in args.cases:
        profile(name, args)


if __name__ == "__main__":
    main()
