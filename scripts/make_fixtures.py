"""Render the recorded Deserto sessions under tests/fixtures/deserto/ (run by hand).

Each session is a whole game played by simulated players who know their hands: the
script deals a shuffled deck, lets each player choose a placement, renders what the
camera would see (a hand reaching in, then the settled table, then the captured piles
being picked up) and writes the session folder with the moves the table really made
and the referee's verdicts on them as `expected.jsonl`. The pipeline under test never
sees the script's knowledge: only the frames and the button presses.

    .venv/bin/python scripts/make_fixtures.py            # all sessions
    .venv/bin/python scripts/make_fixtures.py --only two-players-daylight
"""

from __future__ import annotations

import argparse
import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from firmware.enrollment import BACK, reference_images
from referee.core import Header, Match, Move
from referee.games import get_game
from referee.games.deserto import CELL_GAP_MM, CELLS, Deserto, DesertoState
from vision.mat import default_mat, render_mat
from vision.render import CameraPose, CardPlacement, Clutter, HandPose, Lighting, Scene, render

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests/fixtures/deserto"
RESOLUTION = (800, 450)
JPEG_QUALITY = 60
FRAME_STEP_S = 0.2
STABLE_FRAMES = 3
MAT = default_mat()
CELL_SIGN = {"nw": (-1, -1), "ne": (1, -1), "sw": (-1, 1), "se": (1, 1)}
#: Where each seat keeps its won pile, in mm on the mat (seat 0 bottom, clockwise).
WON_PILE_MM = [(420.0, 370.0), (75.0, 300.0), (175.0, 50.0), (520.0, 120.0)]


@dataclass
class SessionPlan:
    name: str
    seats: tuple[str, ...]
    lighting: Callable[[], Lighting]
    seed: int
    #: Place one brigand next to a vizier (flagged), then take it back.
    flagged_brigand: bool = False
    #: Keep trying seeds until the game has a double capture and four viziers.
    want_double_and_four: bool = False
    clutter: bool = False


PLANS = [
    SessionPlan("two-players-daylight", ("Ana", "Bogdan"), Lighting.daylight, 11,
                flagged_brigand=True, clutter=True),
    SessionPlan("three-players-warm-lamp", ("Ioana", "Marco", "Lucía"), Lighting.warm_lamp, 21,
                want_double_and_four=True),
    SessionPlan("four-players-dim", ("Ana", "Bogdan", "Carmen", "Dan"), Lighting.dim, 31),
]


@dataclass
class Step:
    """One thing the table does: a move, a take-back, or a captured pile leaving."""

    kind: str  # "play", "takeback"
    move: Move | None = None


@dataclass
class Table:
    """The physical table as the script knows it: cards in the cells, won piles."""

    cells: dict[str, list[tuple[str, float, float, float]]] = field(
        default_factory=lambda: {c: [] for c in CELLS}
    )
    won: list[int] = field(default_factory=list)


def simulate(plan: SessionPlan, seed: int) -> tuple[list[Step], dict[str, bool]]:
    """Play one game with simulated players; returns the steps and what happened."""
    game = Deserto()
    rng = np.random.default_rng(seed)
    header = game.check_header(Header("deserto", plan.seats))
    match = Match(game, header)
    deck = [face.code for face in game.deck.faces for _ in range(face.copies)]
    rng.shuffle(deck)
    hands = [[deck.pop() for _ in range(3)] for _ in plan.seats]
    steps: list[Step] = []
    seen = {"double": False, "four": False, "flagged": False, "stuck": False}
    while not game.is_over(match.state):
        state: DesertoState = match.state
        seat = state.turn.current
        legal = [
            Move(seat, "place", {"cell": cell, "card": card})
            for card in sorted(set(hands[seat]))
            for cell in CELLS
            if game.judge(state, Move(seat, "place", {"cell": cell, "card": card})).ok
        ]
        if plan.flagged_brigand and not seen["flagged"] and len(match.rulings) >= 6:
            flagged = _flagged_brigand(game, state, seat, hands[seat])
            if flagged is not None:
                match.play(flagged)
                steps.append(Step("play", flagged))
                match.undo()
                steps.append(Step("takeback"))
                seen["flagged"] = True
        if not legal:
            hands[seat].pop(int(rng.integers(len(hands[seat]))))  # given away
            move = Move(seat, "stuck", {})
            seen["stuck"] = True
        else:
            move = _choose(game, state, legal, rng, seen)
            hands[seat].remove(move.get("card"))
        before = match.state
        match.play(move)
        after = match.state
        if move.kind == "place":
            taken = [c for c in CELLS if before.stacks[c] and not after.stacks[c]]
            if len(before.occupied) == 4 and not any(after.stacks.values()):
                seen["four"] = True
            elif len(taken) == 2:
                seen["double"] = True
        if after.pile < before.pile:
            hands[seat].append(deck.pop())
        steps.append(Step("play", move))
    return steps, seen


def _choose(
    game: Deserto, state: DesertoState, legal: list[Move], rng: np.random.Generator,
    seen: dict[str, bool],
) -> Move:
    """Mostly random, but a player never misses four viziers or a double capture."""
    def gain(move: Move) -> int:
        after = game.apply(state, move)
        return after.won[move.seat] - state.won[move.seat]
    best = max(legal, key=gain)
    if gain(best) > 0 and rng.random() < 0.7:
        return best
    return legal[int(rng.integers(len(legal)))]


def _flagged_brigand(
    game: Deserto, state: DesertoState, seat: int, hand: list[str]
) -> Move | None:
    if "brigand" not in hand:
        return None
    for cell in CELLS:
        move = Move(seat, "place", {"cell": cell, "card": "brigand"})
        verdict = game.judge(state, move)
        captures = game.apply(state, move).won != state.won
        if verdict.rules == ("DES-NO-BRIGAND-BY-VIZIER",) and not captures:
            return move
    return None


class Renderer:
    """Draws the frames of one session and writes them with their events."""

    def __init__(self, plan: SessionPlan, folder: Path, seed: int) -> None:
        self.folder = folder
        self.rng = np.random.default_rng(seed)
        self.camera = CameraPose.random(self.rng, RESOLUTION)
        self.lighting = plan.lighting()
        self.mat_px_per_mm = 2.0
        self.mat_image = render_mat(MAT, self.mat_px_per_mm)
        deck = get_game("deserto").deck
        self.faces = reference_images(deck)
        self.card_mm = deck.card_mm
        self.clutter = (
            [Clutter("phone", (MAT.width_mm + 60.0, 150.0), 20.0),
             Clutter("mug", (-70.0, 330.0))] if plan.clutter else []
        )
        self.events: list[dict[str, Any]] = []
        self.t = 0.0
        self.frame_count = 0
        (folder / "frames").mkdir(parents=True)

    def cell_centre(self, cell: str) -> tuple[float, float]:
        cx, cy = MAT.center_mm
        sx, sy = CELL_SIGN[cell]
        return (cx + sx * (self.card_mm[0] + CELL_GAP_MM) / 2,
                cy + sy * (self.card_mm[1] + CELL_GAP_MM) / 2)

    def placements(self, table: Table) -> list[CardPlacement]:
        cards = [
            CardPlacement(self.faces[BACK], WON_PILE_MM[seat], 90.0 if seat % 2 else 0.0,
                          size_mm=self.card_mm, label=BACK)
            for seat, count in enumerate(table.won) if count
        ]
        for cell in CELLS:
            x, y = self.cell_centre(cell)
            for code, dx, dy, angle in table.cells[cell]:
                cards.append(CardPlacement(self.faces[code], (x + dx, y + dy), angle,
                                           size_mm=self.card_mm, label=code))
        return cards

    def frame(self, table: Table, hand_at: tuple[float, float] | None = None,
              held: str | None = None) -> None:
        cards = self.placements(table)
        hand = None
        if hand_at is not None:
            side = [0.0, 90.0, 180.0, -90.0][int(self.rng.integers(4))]
            hand = HandPose(hand_at, side + float(self.rng.uniform(-20, 20)),
                            height_mm=float(self.rng.uniform(40, 90)))
            if held is not None:
                cards.append(CardPlacement(self.faces[held], hand_at,
                                           float(self.rng.uniform(-30, 30)), lift_mm=40.0,
                                           size_mm=self.card_mm, label=held))
        scene = Scene(self.mat_image, MAT, self.mat_px_per_mm, cards, hand, self.clutter)
        result = render(scene, self.camera, self.lighting, self.rng, jpeg_quality=None)
        name = f"frames/{self.frame_count:05d}.jpg"
        ok, jpeg = cv2.imencode(".jpg", result.image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        assert ok
        (self.folder / name).write_bytes(jpeg.tobytes())
        self.events.append({"t": round(self.t, 3), "frame": name})
        self.frame_count += 1
        self.t += FRAME_STEP_S

    def settle(self, table: Table) -> None:
        for _ in range(STABLE_FRAMES):
            self.frame(table)

    def button(self, seat: int, kind: str) -> None:
        self.events.append({"t": round(self.t - FRAME_STEP_S / 2, 3), "button": seat,
                            "kind": kind})


def render_session(plan: SessionPlan, steps: list[Step], seed: int) -> list[dict[str, Any]]:
    """Render the frames and events of a session; returns the expected transcript."""
    folder = OUT / plan.name
    if folder.exists():
        shutil.rmtree(folder)
    game = Deserto()
    header = game.check_header(Header("deserto", plan.seats))
    match = Match(game, header)
    renderer = Renderer(plan, folder, seed)
    table = Table(won=[0] * len(plan.seats))
    expected: list[dict[str, Any]] = []
    renderer.settle(table)
    for step in steps:
        if step.kind == "takeback":
            dropped = match.undo()
            cell = dropped.move.get("cell")
            table.cells[cell].pop()
            renderer.frame(table, hand_at=renderer.cell_centre(cell))
            renderer.settle(table)
            expected.append({"takeback": dropped.index})
            continue
        assert step.move is not None
        move = step.move
        before: DesertoState = match.state
        ruling = match.play(move)
        after: DesertoState = match.state
        expected.append({**ruling.to_json(), "move": move.to_json()})
        if move.kind == "stuck":
            renderer.button(move.seat, "hold")
            table.won[before.turn.before(move.seat)] += 1
            renderer.settle(table)
            continue
        cell, card = move.get("cell"), move.get("card")
        target = renderer.cell_centre(cell)
        renderer.frame(table, hand_at=target, held=card)
        jitter = renderer.rng.uniform(-2.5, 2.5, size=2)
        table.cells[cell].append((card, float(jitter[0]), float(jitter[1]),
                                  float(renderer.rng.uniform(-4, 4))))
        renderer.settle(table)
        taken = [c for c in CELLS if table.cells[c] and not after.stacks[c]]
        if taken:
            for c in taken:
                renderer.frame(table, hand_at=renderer.cell_centre(c))
                table.cells[c] = []
            table.won[move.seat] += 1
            renderer.settle(table)
    expected.append(match.result())
    with (folder / "events.jsonl").open("w", encoding="utf-8") as out:
        for event in sorted(renderer.events, key=lambda e: e["t"]):
            out.write(json.dumps(event) + "\n")
    metadata = {"match": header.to_json(), "mat": MAT.to_json(),
                "camera": {"resolution": list(RESOLUTION)},
                "rendered_by": "scripts/make_fixtures.py", "seed": seed}
    (folder / "session.json").write_text(json.dumps(metadata, indent=2) + "\n")
    with (folder / "expected.jsonl").open("w", encoding="utf-8") as out:
        for line in expected:
            out.write(json.dumps(line) + "\n")
    return expected


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", help="render just this session")
    args = parser.parse_args()
    for plan in PLANS:
        if args.only and plan.name != args.only:
            continue
        seed = plan.seed
        while True:
            steps, seen = simulate(plan, seed)
            enough = len(steps) >= 30
            if plan.want_double_and_four:
                enough = enough and seen["double"] and seen["four"]
            if plan.flagged_brigand:
                enough = enough and seen["flagged"]
            if enough:
                break
            seed += 1
        expected = render_session(plan, steps, seed)
        moves = sum(1 for line in expected if "index" in line)
        size = sum(p.stat().st_size for p in (OUT / plan.name).rglob("*"))
        print(f"{plan.name}: seed {seed}, {moves} moves, {seen}, {size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
