"""Two versions of vision read the same held-out scenes in turn: run by hand (not a test).

    .venv/bin/python benchmarks/paired_read.py --base main [--deck remi | --design NAME]
                                               [--scenes 40] [--reps 5] [--seed-base S]

`--base` is a git revision: its vision/ is exported into a folder beside the system's
temporary files as the package `vision_base` (its imports renamed; kept per commit, so numba
compiles its kernels once), and both versions run in this one process. Each scene is
rendered once, as vision_bench.py renders it (`remi`: 24 tiles named from the full frame
x1.8; an own deck: profile_read's case; `--design`, a design of vision.foreign_decks
enrolled as `vision_bench.py --unseen-decks` enrols it, each version's TemplateIdentifier
learnt from the same crops; each version's reader is told dark_faces too where the enrolment
measured them and its TableReader takes them: a base before them cannot be told), then read
by a fresh reader of each version that calibrates on the bare mat first, `--reps` times,
which version reads first alternating (an enrolled deck's identifier forgetting the patches
it named: every card new, as vision_bench times it). Every reading is compared (each card's
code, confidence and corners, whether the mat is obstructed, the clutter, the thumbnail) and
the scenes read differently are listed: an optimisation that must not change a read shows
here that it does not. The CPU time of each read (time.process_time, the least of its reps)
is compared scene by scene: on a shared machine, paired CPU times are the figures that
compare (a wall-clock run against another is not). Run it with no other benchmark running
when its times matter.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import inspect
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from profile_read import CASES, Case  # noqa: E402  (beside this file)
from vision_bench import (  # noqa: E402
    ENROL_SEEDS,
    HELD_OUT_SEEDS,
    MAT_PX_PER_MM,
    ROOT,
    Deck,
    enrol,
    held_out_seed,
    take_scene,
    unseen_deck,
)

from vision.foreign_decks import DESIGNS  # noqa: E402
from vision.identify import CardIdentifier  # noqa: E402
from vision.mat import default_mat, render_mat  # noqa: E402
from vision.table_reader import TableReader  # noqa: E402

#: how the package's own imports are written: `from vision.x import`, `from vision import`
_IMPORTS = re.compile(r"^(\s*)(from|import) vision\b", re.MULTILINE)


def exported(revision: str) -> Path:
    """The folder that holds `revision`'s vision/ as the package vision_base (made once per
    commit)."""
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify",
                             f"{revision}^{{commit}}"], check=True, capture_output=True,
                            text=True).stdout.strip()
    folder = Path(tempfile.gettempdir()) / f"tableref-vision-{commit[:12]}"
    package = folder / "vision_base"
    if not package.is_dir():
        folder.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "vision"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
        for source in (folder / "vision").glob("*.py"):
            source.write_text(_IMPORTS.sub(r"\1\2 vision_base", source.read_text("utf-8")),
                              "utf-8")
        (folder / "vision").rename(package)
    return folder


def reading_key(reading: Any) -> tuple[Any, ...]:
    """All a reading says, comparable with ==."""
    return ([(c.code, c.confidence, c.corners_px, c.table_mm) for c in reading.cards],
            reading.obstructed, [(c.area_mm2, c.at_edge) for c in reading.clutter],
            reading.thumbnail.tobytes())


def differences(base: tuple[Any, ...], new: tuple[Any, ...]) -> list[str]:
    """How two readings (reading_key) differ, a line each."""
    lines = [f"  card {i}: {a[:2]} -> {b[:2]}" for i, (a, b) in
             enumerate(zip(base[0], new[0], strict=False)) if a != b]
    if len(base[0]) != len(new[0]):
        lines.append(f"  {len(base[0])} cards -> {len(new[0])}")
    lines.extend(f"  {what} differs" for what, a, b in zip(
        ("obstructed", "clutter", "thumbnail"), base[1:], new[1:], strict=True) if a != b)
    return lines


def forgetting(identifier: Any) -> Any:
    """The identifier with no patches remembered (an enrolled deck's remembers those it
    named lately and names them again without comparing: RecentPatches)."""
    recent = getattr(identifier, "recent", None)
    return identifier if recent is None else dataclasses.replace(identifier,
                                                                 recent=type(recent)())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the git revision to compare with")
    parser.add_argument("--deck", default="remi")
    parser.add_argument("--design", choices=list(DESIGNS), default=None,
                        help="an unseen design, enrolled, instead of --deck")
    parser.add_argument("--scenes", type=int, default=40)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--seed-base", type=held_out_seed, default=HELD_OUT_SEEDS)
    args = parser.parse_args()
    sys.path.insert(0, str(exported(args.base)))
    from vision_base.identify import CardIdentifier as BaseIdentifier
    from vision_base.table_reader import TableReader as BaseReader
    from vision_base.template_identifier import TemplateIdentifier as BaseTemplateIdentifier

    cv2.setNumThreads(1)
    mat = default_mat()
    mat_image = render_mat(mat, MAT_PX_PER_MM)
    versions: dict[str, tuple[Any, Any]] = {}
    # what only this tree's reader is told (a base revision's may not know it)
    told: dict[str, dict[str, Any]] = {"base": {}, "this": {}}
    if args.design is None:
        deck = Deck.load(args.deck)
        case = CASES.get(args.deck, Case(args.deck))
        card_mm, dark_rims = deck.card_mm, False
        for name, identifier, reader in (("base", BaseIdentifier, BaseReader),
                                         ("this", CardIdentifier, TableReader)):
            versions[name] = (identifier.from_references(
                deck.images, np.random.default_rng(0), card_mm=deck.card_mm), reader)
    else:
        deck, case = unseen_deck(DESIGNS[args.design]), Case(args.design)
        enrolment = enrol(deck, mat, mat_image, ENROL_SEEDS + list(DESIGNS).index(args.design),
                          (1280, 720))
        card_mm, dark_rims = enrolment.card_mm, enrolment.dark_rims
        versions["base"] = (BaseTemplateIdentifier.from_references(enrolment.crops), BaseReader)
        versions["this"] = (enrolment.identifier, TableReader)
        if enrolment.dark_faces:
            told["this"] = {"dark_faces": True}
            if "dark_faces" in inspect.signature(BaseReader).parameters:
                told["base"] = {"dark_faces": True}
    bench = argparse.Namespace(width=1280, height=720, full_scale=case.full_scale,
                               name_small=False, cards=case.cards, piles=case.piles)
    resolution = (round(1280 * case.full_scale), round(720 * case.full_scale))
    warm = take_scene(args.seed_base - 1, deck, mat, mat_image, bench, resolution)
    for name, (identifier, reader) in versions.items():  # numba loaded, as vision_bench
        first = reader(mat, forgetting(identifier), card_mm, dark_rims=dark_rims, **told[name])
        for frame, full in (warm.bare, warm.shot):
            first.read(frame, full=full)
    gc.collect()
    gc.freeze()  # (vision_bench.warm_up: no pass of the collector counted to a read)

    cpu: dict[str, list[float]] = {name: [] for name in versions}
    differing = 0
    for n in range(args.scenes):
        seed = args.seed_base + n
        taken = take_scene(seed, deck, mat, mat_image, bench, resolution)
        (bare, bare_full), (frame, full) = taken.bare, taken.shot
        least = {name: float("inf") for name in versions}
        said: dict[str, tuple[Any, ...]] = {}
        for rep in range(args.reps):
            for name in (list(versions) if rep % 2 == 0 else list(versions)[::-1]):
                identifier, reader_class = versions[name]
                reader = reader_class(mat, forgetting(identifier), card_mm, dark_rims=dark_rims,
                                      **told[name])
                reader.read(bare, full=bare_full)
                start = time.process_time()
                reading = reader.read(frame, full=full)
                least[name] = min(least[name], time.process_time() - start)
                said[name] = reading_key(reading)
        for name in versions:
            cpu[name].append(1000 * least[name])
        if said["base"] != said["this"]:
            differing += 1
            print(f"seed {seed}: read differently", *differences(said["base"], said["this"]),
                  sep="\n")
    base, this = np.array(cpu["base"]), np.array(cpu["this"])
    saved = base - this
    print(f"\n{args.design or args.deck}: {args.scenes} scenes, {differing} read differently by "
          f"{args.base} and this tree\nCPU a read, least of {args.reps} (ms): "
          f"{args.base} median {np.median(base):.2f}, this tree {np.median(this):.2f}; "
          f"paired, this tree faster by median {np.median(saved):.2f} "
          f"(mean {saved.mean():.2f}), on {100 * float((saved > 0).mean()):.0f} % of scenes")


if __name__ == "__main__":
    main()
