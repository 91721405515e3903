"""Compile vision's numba kernels and learn every deck's card identifier once, at install,
so the first frame of a game does not wait 10-20 s (far longer on a Pi) for them and `run`
does not need the memory learning takes:

    NUMBA_CACHE_DIR=/var/cache/tableref/numba python -m firmware.warmup --data /var/lib/tableref

A few rendered frames of the mat with cards on it go through a TableReader of every
packaged deck, enough frames for the mat learning to run too; numba keeps what it
compiled in NUMBA_CACHE_DIR (the service reads it from there), the identifiers are saved
in the data folder (firmware.saved_identifiers).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from firmware.enrollment import build_reader, deck_arts, deck_identifier, learn_faces
from referee.games import GAMES, get_game
from vision.deck_art import paint_face
from vision.mat import MatSpec, default_mat, render_mat
from vision.render import CameraPose, CardPlacement, HandPose, Image, Lighting, Scene, render

#: Frames read per scene: the reader learns the mat model one frame in four.
FRAMES = 8
MAT_PX_PER_MM = 3.0


def scenes(mat: MatSpec, faces: list[Image], card_mm: tuple[float, float]) -> list[Scene]:
    """The kinds of view whose kernels differ: cards apart, overlapping, one lying on
    another, an offset pile, and a hand over the mat."""
    x, y = mat.center_mm
    image = render_mat(mat, MAT_PX_PER_MM)

    def card(i: int, dx: float, dy: float, angle: float) -> CardPlacement:
        return CardPlacement(faces[i % len(faces)], (x + dx, y + dy), angle, size_mm=card_mm)

    apart = [card(0, -90, 0, 0), card(1, 0, 0, 10), card(2, 90, 0, -5)]
    overlapping = [card(0, -20, 0, 0), card(1, 15, 10, 25)]
    # one card laid half over another, and over its corner: each seen as lying on it
    on_top = [card(0, -150, -40, 0), card(1, -120, -20, 0), card(2, 100, 40, 5),
              card(0, 100, 85, 5)]
    pile = [card(i, 8.0 * i, 6.0 * i, 4.0 * i) for i in range(3)]
    hand = HandPose(reach_mm=(x + 60, y - 40), angle_deg=90.0)
    return [Scene(image, mat, MAT_PX_PER_MM, cards)
            for cards in (apart, overlapping, on_top, pile)] + [
        Scene(image, mat, MAT_PX_PER_MM, apart, hand)]


def warm_up(games: list[str] | None = None, data: Path | None = None) -> float:
    """Read each scene FRAMES times with every deck's reader (its identifier saved in
    `data`), at the Pi camera's frame size and at a smaller one; returns the seconds
    taken."""
    started = time.monotonic()
    mat = default_mat()
    rng = np.random.default_rng(0)
    for name in games or sorted(GAMES):
        deck = get_game(name).deck
        faces = [paint_face(art, deck.card_mm, px_per_mm=8.0) for art in deck_arts(deck)[:3]]
        reader = build_reader(deck, mat, data=data)
        for resolution in ((1280, 720), (800, 450)):
            camera = CameraPose(resolution=resolution)
            for scene in scenes(mat, faces, deck.card_mm):
                frame = render(scene, camera, Lighting(), rng).image
                for _ in range(FRAMES):
                    reader.read(frame)
                reader.recalibrate()
        del reader
        deck_identifier.cache_clear()  # one deck's identifier held at a time, not four
        learn_faces.cache_clear()
    return time.monotonic() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, help="the data folder the identifiers are saved in")
    parser.add_argument("games", nargs="*", metavar="GAME",
                        help=f"the games to warm up: {', '.join(sorted(GAMES))} (default: all)")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.games) - set(GAMES))
    if unknown:
        parser.error(f"unknown game {unknown[0]}")
    seconds = warm_up(args.games or None, args.data)
    saved = f", identifiers saved in {args.data}" if args.data else ""
    print(f"tableref: vision kernels compiled and cached{saved} in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
