"""The end of an enrolment's warning of the faces play will leave unknown, against play.

Run by hand (not a test):

    .venv/bin/python benchmarks/enrol_warnings.py [--scenes 120] [--seeds 5]
        [--tries 16/16,16/128] [--designs uno-pale,...] [--share 0.45]

Each design of vision.foreign_decks is enrolled from its rendered session as
`vision_bench.py --unseen-decks` enrols it (one pass, the same seed), and its held-out
scenes are read as that benchmark reads them: per face, how many of its fully visible
cards play left unknown (--scenes 0: none read, the tries alone). Then the warning's
tries (firmware.enrol.named_tries) are made from several seeds at each setting (tries a
view / tries in all of a face the first ones leave near the line or past it): how many
faces each seed reports at the line (firmware.enrol.UNSURE_SHARE, or --share, at least)
and a little under it, and per face the share of its tries left unknown (mean, lowest
and highest over the seeds) and how often it is reported, beside play's count. The CPU
seconds the tries take for the whole deck are printed too: what the warning adds to the
end of an enrolment (of one pass; a second pass doubles the tries).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision_bench import (  # noqa: E402
    ENROL_SEEDS,
    HELD_OUT_SEEDS,
    MAT_PX_PER_MM,
    enrol,
    read_scenes,
    unseen_deck,
)

from firmware.enrol import (  # noqa: E402
    CLOSE_TRIES,
    CONFUSION_TRIES,
    LEARN_SEED,
    UNSURE_SHARE,
    named_tries,
)
from vision.foreign_decks import DESIGNS  # noqa: E402
from vision.mat import default_mat, render_mat  # noqa: E402


def play_args(scenes: int) -> argparse.Namespace:
    """vision_bench's defaults for --unseen-decks, with `scenes` held-out scenes."""
    return argparse.Namespace(scenes=scenes, seed_base=HELD_OUT_SEEDS, cards=10, piles=0.3,
                              width=1280, height=720, full_scale=1.0, name_small=False,
                              save_failures=None, verbose=False, progress=False)


def setting(text: str) -> tuple[int, int]:
    """"16/128": 16 tries a view, 128 in all of a face near the line or past it."""
    tries, _, close = text.partition("/")
    return int(tries), int(close or tries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=120, help="held-out scenes per design")
    parser.add_argument("--seeds", type=int, default=5, help="seeds of the tries per setting")
    parser.add_argument("--tries", type=lambda text: [setting(t) for t in text.split(",")],
                        default=[(16, 16), (CONFUSION_TRIES, CLOSE_TRIES)],
                        help="tries a view / in all for a face near the line, a comma list "
                             f"(default 16/16 and the warning's {CONFUSION_TRIES}/{CLOSE_TRIES})")
    parser.add_argument("--share", type=float, default=UNSURE_SHARE,
                        help="the share of a face's tries left unknown that reports it (>=)")
    parser.add_argument("--designs", type=lambda text: text.split(","), default=list(DESIGNS))
    args = parser.parse_args()
    cv2.setNumThreads(1)
    mat = default_mat()
    mat_image = render_mat(mat, MAT_PX_PER_MM)
    lines = (args.share - 0.1, args.share - 0.05, args.share)
    for name in args.designs:
        deck = unseen_deck(DESIGNS[name])
        enrolment = enrol(deck, mat, mat_image, ENROL_SEEDS + list(DESIGNS).index(name),
                          (1280, 720))
        tally = read_scenes(play_args(args.scenes), deck, enrolment.identifier,
                            enrolment.card_mm, enrolment.dark_rims, enrolment.dark_faces)
        unknown = {code: n for (code, how), n in tally.unnamed.items() if how == "unknown"}
        print(f"\n{name}: play left {sum(unknown.values())} of {tally.expected} fully visible "
              f"cards unknown ({args.scenes} scenes)")
        shares: dict[tuple[int, int], dict[str, list[float]]] = {}
        for tries in args.tries:
            seconds = []
            shares[tries] = {code: [] for code in enrolment.crops}
            for k in range(args.seeds):
                start = time.process_time()
                named = named_tries([enrolment.crops], enrolment.identifier, *tries,
                                    seed=LEARN_SEED + 1 + k)
                seconds.append(time.process_time() - start)
                for code, names in named.items():
                    shares[tries][code].append(names.count(None) / len(names))
            by_seed = list(zip(*shares[tries].values(), strict=True))
            reported = ", ".join(
                f">= {line:.2f}: {[sum(s >= line for s in seed) for seed in by_seed]}"
                for line in lines)
            print(f"  {tries[0]}/{tries[1]} tries: {np.median(seconds):.2f} s CPU for "
                  f"{len(enrolment.crops)} faces; faces reported per seed {reported}")
        watched = {code for code in enrolment.crops if unknown.get(code) or any(
            max(shares[t][code]) >= lines[0] for t in args.tries)}
        print(f"  {'face':<16}{'play unknown':>14}" + "".join(
            f"{f'{t[0]}/{t[1]}: mean (min-max) >= {args.share}':>40}" for t in args.tries))
        for code in sorted(watched, key=lambda c: -np.mean(shares[args.tries[-1]][c])):
            cells = "".join(
                f"{np.mean(s):>19.2f} ({min(s):.2f}-{max(s):.2f}) "
                f"{sum(x >= args.share for x in s)}/{len(s):<6}"
                for s in (shares[t][code] for t in args.tries))
            print(f"  {code:<16}{unknown.get(code, 0):>8}/{tally.expected_faces[code]:<5}{cells}")


if __name__ == "__main__":
    main()
