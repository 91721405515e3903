"""Compile vision's numba kernels once, at install, so the first frame of a game does
not wait 10-20 s (far longer on a Pi) for them:

    NUMBA_CACHE_DIR=/var/cache/tableref/numba python -m firmware.warmup

A few rendered frames of the mat with cards on it go through a TableReader of every
packaged deck, enough frames for the mat learning to run too; numba keeps what it
compiled in NUMBA_CACHE_DIR (the service reads it from there).
"""

from __future__ import annotations

import sys
import time

import numpy as np

from firmware.enrollment import build_reader, deck_arts
from referee.games import GAMES, get_game
from vision.deck_art import paint_face
from vision.mat import default_mat, render_mat
from vision.render import CameraPose, CardPlacement, Lighting, Scene, render

#: Frames read per deck: the reader learns the mat model one frame in four.
FRAMES = 8
MAT_PX_PER_MM = 3.0


def warm_up(games: list[str] | None = None) -> float:
    """Read FRAMES rendered frames with every deck's reader; returns the seconds taken."""
    started = time.monotonic()
    mat = default_mat()
    mat_image = render_mat(mat, MAT_PX_PER_MM)
    rng = np.random.default_rng(0)
    for name in games or sorted(GAMES):
        deck = get_game(name).deck
        faces = [paint_face(art, deck.card_mm, px_per_mm=8.0) for art in deck_arts(deck)[:3]]
        x, y = mat.center_mm
        cards = [CardPlacement(face, (x - 80.0 + 80.0 * i, y), 10.0 * i, size_mm=deck.card_mm)
                 for i, face in enumerate(faces)]
        frame = render(Scene(mat_image, mat, MAT_PX_PER_MM, cards), CameraPose(), Lighting(),
                       rng).image
        reader = build_reader(deck, mat)
        for _ in range(FRAMES):
            reader.read(frame)
    return time.monotonic() - started


def main() -> int:
    seconds = warm_up(sys.argv[1:] or None)
    print(f"tableref: vision kernels compiled and cached in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
