"""`tableref enrol` in a terminal, and `tableref deck profile export/import`.

The terminal draws the faces to lay out next as the grid they go in on the mat, waits
for the camera to see them still and sharp, saves the crops as a contact sheet (PNG)
and asks whether they are right. Answers come from the terminal or, for a recorded
enrolment session replayed in a test, from a file (`--answers`); `--camera` takes a
recorded session folder as well as a camera. Nothing is written until every face has
been seen: a stop half-way (Ctrl-C, the answers ending, the camera ending) leaves any
earlier profile as it was.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

import cv2

from firmware.commands import load_mat
from firmware.config import TableConfig, load_config
from firmware.deck_profile import export_profile, import_profile, write_profile
from firmware.enrol import EnrolError, EnrolSession
from hardware.camera import Camera, ReplayCamera
from referee.games import get_game
from vision.enrolment import grid_rows

SHEETS_FOLDER = "enrolment"
CELL = 13  # characters per place of the grid drawn in the terminal


def add_enrol_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    enrol = sub.add_parser("enrol", help="enrol the table's own deck through its camera")
    enrol.add_argument("--game", required=True, help="the game whose deck you show the camera")
    enrol.add_argument("--camera", help="picamera (default), a webcam number, a video file, "
                       "or a recorded enrolment session folder")
    enrol.add_argument("--mat", type=Path, help="mat.json of the mat in use")
    enrol.add_argument("--config", type=Path, help="TOML config (default: ./tableref.toml)")
    enrol.add_argument("--data", type=Path, help="data folder the profile goes in (default: data)")
    enrol.add_argument("--second-pass", action="store_true",
                       help="see every face again in another place or light, and check the first")
    enrol.add_argument("--answers", type=Path, help="read the answers from this file, not the "
                       "terminal")


def add_profile_parser(deck_sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    profile = deck_sub.add_parser("profile", help="share an enrolled deck with another table")
    profile_sub = profile.add_subparsers(dest="profile_action", required=True)
    export = profile_sub.add_parser("export", help="write the deck's profile as .zip or .tar.gz")
    export.add_argument("game", help="the game whose deck profile to write")
    export.add_argument("--out", type=Path, required=True,
                        help="the archive to write (.zip or .tar.gz)")
    imported = profile_sub.add_parser("import", help="install a profile from another table")
    imported.add_argument("archive", type=Path, help="a profile archive (.zip or .tar.gz)")
    for parser in (export, imported):
        parser.add_argument("--config", type=Path, help="TOML config (default: ./tableref.toml)")
        parser.add_argument("--data", type=Path, help="data folder (default: data)")


def table_config(args: argparse.Namespace) -> TableConfig:
    return load_config(args.config).but(data=args.data, camera=getattr(args, "camera", None))


def profile_command(args: argparse.Namespace, out: TextIO) -> int:
    data = table_config(args).data
    if args.profile_action == "export":
        deck = get_game(args.game).deck.name
        print(export_profile(data, deck, args.out), file=out)
    else:
        profile = import_profile(data, args.archive)
        print(f"{profile.deck}: profile installed in {profile.folder}", file=out)
    return 0


def enrol_command(args: argparse.Namespace, out: TextIO, answers_in: TextIO,
                  open_camera: Callable[[str], Camera]) -> int:
    config = table_config(args)
    game = get_game(args.game)
    session = EnrolSession(game.deck, load_mat(args.mat), passes=2 if args.second_pass else 1)
    name = config.camera
    replay = Path(name).is_dir()
    camera = ReplayCamera(Path(name)) if replay else open_camera(name)
    answers = args.answers.open(encoding="utf-8") if args.answers else answers_in
    try:
        with camera:
            run_terminal(session, camera, answers, out, config.data / SHEETS_FOLDER,
                         live=not replay and (name == "picamera" or name.isdigit()))
    except KeyboardInterrupt:
        raise EnrolError("enrolment stopped half-way: nothing written, the earlier profile is "
                         "kept") from None
    finally:
        if args.answers:
            answers.close()
    enrolled = session.result()
    if enrolled.confusable:
        print("the camera may confuse: " + ", ".join(
            f"{a} with {b} ({share:.0%} of tries)" for a, b, share in enrolled.confusable),
            file=out)
    else:
        print("no two faces look alike to the camera", file=out)
    if enrolled.unsure:
        print("often left unknown (the table will be asked): " + ", ".join(
            f"{code} ({share:.0%} of tries)" for code, share in enrolled.unsure), file=out)
    print(rims_summary(enrolled.dark_rims), file=out)
    if enrolled.dark_faces:
        print("some faces are darker than the mat, with no light rim: looked for under a "
              "lamp's glare too", file=out)
    folder = write_profile(config.data, enrolled, name)
    print(f"deck profile written: {folder} (cards {enrolled.card_mm[0]:.1f} x "
          f"{enrolled.card_mm[1]:.1f} mm)", file=out)
    return 0


def rims_summary(dark_rims: bool) -> str:
    """What the enrolment found of the cards' rim, and how play will look for them."""
    if dark_rims:
        return "the cards have a dark rim: looked for against the dark mat"
    return "the cards' rim is lighter than the mat: looked for by their outline against it"


def run_terminal(session: EnrolSession, camera: Camera, answers: TextIO, out: TextIO,
                 sheets: Path, live: bool) -> None:
    """Drive the session from the camera and the answers until every face is seen;
    EnrolError when it cannot end (nothing is written then)."""
    said = ""
    asked: list[str] = []
    sheet_number = 0
    while session.state != "done":
        if session.asked() != asked:
            asked = session.asked()
            out.write(draw_grid(asked, session.pass_number, session.progress()))
        frame = camera.read()
        if frame is None:
            if live:
                time.sleep(0.05)
                continue
            raise EnrolError(f"the camera ended first: {session.stop_message()}; nothing "
                             "written, the earlier profile is kept")
        message = session.on_frame(frame.image, getattr(frame, "full", None))
        if session.state == "confirm" and session.layout is not None:
            sheet_number += 1
            sheets.mkdir(parents=True, exist_ok=True)
            path = sheets / f"pass{session.pass_number}-{sheet_number:02d}.png"
            cv2.imwrite(str(path), session.layout.sheet())
            print(f"the crops: {path}", file=out, flush=True)
        if message != said:
            print(message, file=out, flush=True)
            said = message
        if session.state == "confirm":
            said = confirm(session, answers, out)


def confirm(session: EnrolSession, answers: TextIO, out: TextIO) -> str:
    """Ask until the crops shown are confirmed (or to be seen again); returns the last
    thing said."""
    while True:
        out.write("> ")
        out.flush()
        line = answers.readline()
        if not line:
            raise EnrolError("the answers ended half-way: nothing written, the earlier "
                             "profile is kept")
        try:
            message = session.answer(line)
        except EnrolError as error:
            message = f"{error}"
        print(message, file=out, flush=True)
        if session.state != "confirm":
            return message


def draw_grid(codes: list[str], pass_number: int, progress: tuple[int, int]) -> str:
    """The faces to lay out, drawn as the rows they go in on the mat (top row at the
    mat's top edge, the one with tags 0 and 1)."""
    if not codes:
        return ""
    seen, total = progress
    lines = [f"pass {pass_number}, {seen} of {total} seen. Lay these out face up, upright "
             "and apart, as drawn (top row at the mat's top edge):"]
    start = 0
    for n in grid_rows(len(codes)):
        row = codes[start:start + n]
        rule = "  +" + "+".join("-" * CELL for _ in row) + "+"
        cells = "|".join(f" {start + i + 1} {code}"[:CELL].ljust(CELL) for i, code in
                         enumerate(row))
        lines += [rule, f"  |{cells}|"]
        start += n
    lines.append(lines[-2])
    return "\n".join(lines) + "\n"
