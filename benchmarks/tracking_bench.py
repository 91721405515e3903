"""Tracking benchmark: does live play from the camera ever invent a move?

Run by hand (not a test):

    .venv/bin/python benchmarks/tracking_bench.py [--game deserto] [--sessions N] [--moves M]

Each session is a game of simulated players (the fixture scripts' simulations, seeds
>= 1_000_000 that the tests never use), its first M steps rendered at 800x450 and 5
frames a second as the recorded sessions are, with the conditions of issue 11: hands that
reach in from each seat's side over several frames (mostly in long black, dark green or
navy sleeves, some bare; a hand lingers on the table), 10-20 degree crooked cards on one
in three, a random camera, mostly dim light; a flagged card (Deserto DES-NO-BRIGAND-BY-
VIZIER, Tempus TEMPUS-ORDER, UNO UNO-MATCH), swapped for the seat's next card in one reach
where that goes on the same place. Each is replayed through the whole pipeline
(`firmware.session.replay_session`) and its transcript compared with what the table did:

- false flags: flagged moves the table did not make (the worst bug: zero expected);
- missed moves: moves the table made that the transcript lacks;
- false questions: questions for the table that the camera's doubt caused (not those a
  game asks by design, as Tempus's "which set?" after a press);
- false take-backs: take-backs the table did not make.

Each is given per 100 moves made by the table.

Then the reader's own CPU time per frame over the sessions' frames (single-threaded), each
frame read twice in turn: by a reader that reads every frame in full, as before a still
table was read once, and by one that reads as play does (vision.still: a frame within the
camera's noise of the last one read in full gets its reading again): median, 90th
percentile, and the share of frames whose reading was repeated. The sessions' frames are
mostly hands moving (about 8 frames a move, each settle 5 frames whose cards the renderer
bends anew); `--pause N` adds N frames of the table at rest after each settle (N / 5
seconds, only the sensor's noise new: SessionWriter.pause_frames), as a real table lies
still between moves.

`--design NAME` plays UNO or Tempus with a deck the project never drew (a design of
`vision.foreign_decks`, at its own size) instead of our art, as a table with its own
deck does, seen as the Pi camera's two streams (1280x720 frames, cards named from the
2304x1296 full frame beside each, as `vision_bench.py --unseen-decks`). The design's
faces are first laid out for `tableref enrol` (a rendered enrolment session, two
passes), every crop kept as right (whatever a warning says: the crops are right; the
warnings are counted), and the profile it writes names the sessions' cards, in
their replay and in the reader's time. The table names no card on the page: a card the
camera cannot name is a question it asks (a false question) and holds the moves after
it until the next frames name it.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision_bench import HELD_OUT_SEEDS, held_out_seed  # noqa: E402  (beside this file)

from firmware.enrollment import build_reader  # noqa: E402
from firmware.session import replay_session, session_mat  # noqa: E402
from hardware.camera import ReplayCamera, read_session_metadata  # noqa: E402
from referee.games import get_game  # noqa: E402
from scripts.fixtures import camera, deserto, tempus, uno  # noqa: E402
from scripts.fixtures.camera import CardArt  # noqa: E402
from scripts.fixtures.enrolment import enrol_recorded, record_enrolment  # noqa: E402
from scripts.fixtures.foreign import printed  # noqa: E402
from vision.calibration import VisionError  # noqa: E402
from vision.foreign_decks import DESIGNS  # noqa: E402
from vision.render import Lighting  # noqa: E402

SEATS = {"deserto": (2, 4), "tempus": (2, 5), "uno": (2, 6)}
#: Questions a game asks by design, whatever the camera sees.
BY_DESIGN = ("fed a set",)
#: The decks the project never drew that a table plays with (`--design`): the rendered
#: tables lay them out at their cards' size (UNO's revealed hands:
#: scripts.fixtures.uno.layout; Tempus' sets: scripts.fixtures.tempus.places)
OWN_DECKS = sorted(DESIGNS)
PRINT_SEED = 1  # the printing of a design (as benchmarks/vision_bench.py's unseen decks)
ENROL_SEED = 700_000  # the rendered enrolment session's
#: Frames of each layout held still in the enrolment (2 s): the flow takes a layout from
#: two alike frames in a row, and with two a layout one frame of which the camera could
#: not use was taken from the next layout's frames and named as this one's
STILL_FRAMES = 4
LIGHTS: tuple[Callable[[], Lighting], ...] = (Lighting.dim, Lighting.dim, Lighting.warm_lamp,
                                              Lighting.daylight)


@dataclass
class Tally:
    sessions: int = 0
    exact: int = 0
    moves: int = 0
    false_flags: int = 0
    missed: int = 0
    false_questions: int = 0
    false_take_backs: int = 0
    frames: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    #: the reader's CPU ms per frame: every frame read in full, and read as play reads
    full_ms: list[float] = field(default_factory=list)
    play_ms: list[float] = field(default_factory=list)
    repeated: int = 0


@dataclass(frozen=True)
class OwnDeck:
    """A table's own deck: how its cards are printed, and the data folder whose deck
    profile `tableref enrol` wrote from them."""

    art: CardArt
    data: Path


def enrol_design(name: str, folder: Path) -> OwnDeck:
    """The design `name` printed, its enrolment session rendered into `folder` and
    enrolled through `tableref enrol --second-pass`, every crop confirmed."""
    design = DESIGNS[name]
    art = printed(design, PRINT_SEED)
    enrolment, data = folder / "enrolment", folder / "data"
    record_enrolment(enrolment, dict(art.faces), art.card_mm, ENROL_SEED,
                     f"vision.foreign_decks {name}", corner_radius_mm=art.corner_radius_mm,
                     rendered_by="benchmarks/tracking_bench.py", game=design.deck,
                     still_frames=STILL_FRAMES)
    said = io.StringIO()
    with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
        # the crops are right: kept whatever a warning says
        code = enrol_recorded(enrolment, data, design.deck, answer="y!")
    if code != 0:
        raise SystemExit(f"{name}: tableref enrol failed ({code}): {said.getvalue()[-600:]}")
    crops = [line for line in said.getvalue().splitlines() if line.startswith("the crops:")]
    warned = [line.split(". crops:")[0] for line in said.getvalue().splitlines()
              if "(y! to keep them" in line]
    print(f"  {name}: enrolled, {said.getvalue().strip().splitlines()[-1]}; the crops of "
          f"{len(warned)} of {len(crops)} layouts (all right) warned of: {warned}",
          file=sys.stderr)
    return OwnDeck(art, data)


def _render(game: str, seed: int, moves: int, folder: Path, pause: int = 0,
            own: OwnDeck | None = None) -> Path | None:
    """Render one session of `game` (with the cards of `own`, if given) into `folder`; None
    when the simulation gives none."""
    rng = np.random.default_rng(seed)
    low, high = SEATS[game]
    names = tuple(f"P{i}" for i in range(int(rng.integers(low, high + 1))))
    light = LIGHTS[int(rng.integers(len(LIGHTS)))]
    if game == "deserto":
        plan = deserto.SessionPlan("bench", names, light, seed, flagged_brigand=True,
                                   reaches=True, pause_frames=pause)
        steps, _ = deserto.simulate(plan, seed)
        deserto.render_session(plan, steps[:moves], seed, folder)
        return folder / "bench"
    module = tempus if game == "tempus" else uno
    # a flagged card, swapped for the seat's next one in one reach where it can be
    wanted = ("TEMPUS-ORDER",) if game == "tempus" else ("UNO-MATCH", "swap")
    shared = camera.SessionPlan("bench", names, light, seed, wanted, reaches=True,
                                pause_frames=pause)
    # (a hand laid out at the round's end must fit the mat at the deck's own size)
    result = (uno.simulate(shared, seed, own.art.card_mm) if own and module is uno
              else module.simulate(shared, seed))  # type: ignore[attr-defined]
    if result is None:
        return None
    module.render_session(shared, result[0][:moves], seed, folder,  # type: ignore[attr-defined]
                          art=own.art if own else None,
                          streams=camera.TWO_STREAMS if own else None)
    return folder / "bench"


def _key(event: dict[str, Any]) -> str:
    return json.dumps([event["move"], event["ok"], event["rules"]], sort_keys=True)


def score(session: Path, tally: Tally, data: Path | None = None) -> None:
    expected = [json.loads(line) for line in (session / "expected.jsonl").read_text().splitlines()]
    started = time.perf_counter()
    pipeline = replay_session(session, data=data)
    tally.seconds += time.perf_counter() - started
    tally.frames += len(list((session / "frames").iterdir()))
    made = [e for e in expected if "index" in e]
    got = [e for e in pipeline.transcript if "index" in e]
    wanted, seen = Counter(map(_key, made)), Counter(map(_key, got))
    extra, lacking = seen - wanted, wanted - seen
    tally.sessions += 1
    tally.moves += len(made)
    tally.false_flags += sum(n for key, n in extra.items() if json.loads(key)[1] is False)
    tally.missed += sum(lacking.values())
    asks = [e["ask"] for e in pipeline.transcript
            if "ask" in e and not any(text in e["ask"] for text in BY_DESIGN)]
    tally.false_questions += len(asks)
    take_backs = sum("takeback" in e for e in pipeline.transcript)
    tally.false_take_backs += max(0, take_backs - sum("takeback" in e for e in expected))
    outcome = [{"takeback": e["takeback"]} if "takeback" in e else e
               for e in pipeline.transcript if "ask" not in e and "problem" not in e]
    if outcome == expected[:-1]:
        tally.exact += 1
    else:
        tally.notes.append(f"{session.name}: {len(lacking)} missing, {len(extra)} extra, "
                           f"asks {asks[:3]}")


def time_reader(session: Path, tally: Tally, data: Path | None = None) -> None:
    """Read the session's frames with a reader that reads every frame in full and with one
    that reads as play does, in turn frame by frame, and keep each read's CPU time (the
    deck profile in the data folder `data` names the cards, if there is one)."""
    metadata = read_session_metadata(session)
    deck = get_game(metadata["match"]["game"]).deck
    mat = session_mat(metadata, session)
    in_full, in_play = (build_reader(deck, mat, data=data, save=False),
                        build_reader(deck, mat, data=data, save=False))
    in_full.reuse_still = False
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        with ReplayCamera(session) as frames:
            while (frame := frames.read()) is not None:
                for reader, times in ((in_full, tally.full_ms), (in_play, tally.play_ms)):
                    start = time.process_time()
                    try:
                        reading = reader.read(frame.image, full=frame.full)
                    except VisionError:  # a frame the pipeline notes and skips: timed too
                        reading = None
                    times.append(1000 * (time.process_time() - start))
                tally.repeated += reading is not None and reading.repeated
    finally:
        cv2.setNumThreads(threads)


def run(game: str, sessions: int, moves: int, seed_base: int, pause: int = 0,
        design: str | None = None) -> Tally:
    tally = Tally()
    seed = seed_base
    with tempfile.TemporaryDirectory() as tmp:
        own = enrol_design(design, Path(tmp) / "deck") if design else None
        data = own.data if own else None
        while tally.sessions < sessions:
            seed += 1
            folder = Path(tmp) / f"s{seed}"
            session = _render(game, seed, moves, folder, pause, own)
            if session is None:
                continue
            score(session, tally, data)
            time_reader(session, tally, data)
            if tally.notes and not tally.notes[-1].startswith("seed"):
                tally.notes[-1] = f"seed {seed}, {tally.notes[-1]}"
            print(f"  {game} seed {seed}: {tally.sessions}/{sessions} sessions, "
                  f"{tally.false_flags} false flags so far", file=sys.stderr)
    return tally


def per_100(count: int, moves: int) -> str:
    return f"{100 * count / max(moves, 1):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(SEATS), action="append")
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--moves", type=int, default=16, help="steps of each game rendered")
    parser.add_argument("--seed-base", type=held_out_seed, default=HELD_OUT_SEEDS)
    parser.add_argument("--pause", type=int, default=0,
                        help="frames of the table at rest after each settle (5 a second)")
    parser.add_argument("--design", choices=OWN_DECKS,
                        help="play the design's game with this enrolled deck the project "
                             "never drew")
    args = parser.parse_args()
    games = args.game or sorted(SEATS)
    if args.design:
        game = DESIGNS[args.design].deck
        if args.game and args.game != [game]:
            parser.error(f"{args.design} is a deck of {game}: leave --game out or give "
                         f"--game {game}")
        games = [game]
    print("| game | sessions (exact) | moves | false flags | missed moves | false questions "
          "| false take-backs | per 100 moves: flags / missed / questions |")
    print("|---|---|---|---|---|---|---|---|")
    for game in games:
        t = run(game, args.sessions, args.moves, args.seed_base, args.pause, args.design)
        label = f"{game}, {args.design}" if args.design else game
        print(f"| {label} | {t.sessions} ({t.exact}) | {t.moves} | {t.false_flags} | {t.missed} "
              f"| {t.false_questions} | {t.false_take_backs} | {per_100(t.false_flags, t.moves)}"
              f" / {per_100(t.missed, t.moves)} / {per_100(t.false_questions, t.moves)} |")
        for note in t.notes:
            print(f"    {note}", file=sys.stderr)
        print(f"    replay {1000 * t.seconds / max(t.frames, 1):.1f} ms per frame "
              f"({t.frames} frames)", file=sys.stderr)
        full, play = np.array(t.full_ms), np.array(t.play_ms)
        print(f"    {game} reader CPU ms per frame ({len(full)} frames, pause {args.pause}): "
              f"every frame in full median {np.median(full):.1f}, 90th percentile "
              f"{np.percentile(full, 90):.1f}; a still table read once median "
              f"{np.median(play):.1f}, 90th percentile {np.percentile(play, 90):.1f}, "
              f"{100 * t.repeated / max(len(play), 1):.0f} % of frames repeated")


if __name__ == "__main__":
    main()
