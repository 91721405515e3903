"""The `tableref` command: referee a log, export decks and mats, read a photo,
record, replay, run the table, and the demo.

Every error a user can cause ends in one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from firmware import commands, doctor, enrol_cli
from firmware.commands import DEMO_SPEED
from firmware.config import ConfigError, TableConfig, load_config
from firmware.deck_profile import ProfileError
from firmware.enrol import EnrolError
from firmware.enrollment import EnrollmentError
from firmware.session import SessionError
from hardware.camera import CameraError
from hardware.panel import PinsError
from referee.core import RefereeError
from referee.games import GAMES
from vision.calibration import VisionError
from webui.control import ControlError

#: What `--game` takes, for the help texts.
GAME_HELP = "the game: " + ", ".join(sorted(GAMES))

USER_ERRORS = (
    RefereeError, VisionError, CameraError, SessionError, EnrollmentError, ConfigError,
    ControlError, EnrolError, ProfileError, OSError, ValueError, PinsError,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tableref", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    referee = sub.add_parser("referee", help="referee a written match log")
    referee_sub = referee.add_subparsers(dest="action", required=True)
    check = referee_sub.add_parser("check", help="judge every move of a log (JSON Lines)")
    check.add_argument("--game", required=True, help=GAME_HELP)
    check.add_argument("log", type=Path, help="the match log (docs/notation.md)")

    deck = sub.add_parser("deck", help="our print-and-play decks")
    deck_sub = deck.add_subparsers(dest="action", required=True)
    export = deck_sub.add_parser("export", help="write card PNGs, manifest.json and a PDF")
    export.add_argument("game", help=GAME_HELP)
    export.add_argument("--out", type=Path, required=True,
                        help="folder to write the cards, manifest.json and deck.pdf into")
    enrol_cli.add_profile_parser(deck_sub)

    mat = sub.add_parser("mat", help="the printable table mat")
    mat_sub = mat.add_subparsers(dest="action", required=True)
    mat_export = mat_sub.add_parser("export", help="write mat.png, mat.pdf and mat.json")
    mat_export.add_argument("--out", type=Path, required=True,
                            help="folder to write mat.png, mat.pdf and mat.json into")
    mat_export.add_argument(
        "--paper", choices=("a2", "a4"), default="a2",
        help="a2: the mat on one sheet (default); a4: tiled on A4 sheets with alignment marks",
    )

    vision = sub.add_parser("vision", help="look at a photo of the table")
    vision_sub = vision.add_subparsers(dest="action", required=True)
    identify = vision_sub.add_parser("identify", help="list the cards found in IMAGE")
    identify.add_argument("image", type=Path, help="a photo of the mat (JPEG or PNG)")
    identify.add_argument("--game", required=True, help=GAME_HELP)
    identify.add_argument("--mat", type=Path, help="mat.json of the mat in use")
    identify.add_argument("--deck-photos", type=Path, help="photos of your own deck's faces")
    identify.add_argument("--data", type=Path, help="data folder of the deck profiles")

    replay = sub.add_parser("replay", help="run a recorded session through the pipeline")
    replay.add_argument("session", type=Path, help="a session folder (docs/sessions.md)")
    replay.add_argument("--json", action="store_true", help="one JSON object per line")

    record = sub.add_parser("record", help="record a session from a camera")
    record.add_argument("--out", type=Path, required=True,
                        help="new session folder to record into (docs/sessions.md)")
    add_table_options(record)
    record.add_argument("--seconds", type=float, default=None, help="stop after this long")
    record.add_argument("--mat", type=Path, help="mat.json of the mat in use (default A2 mat)")
    record.add_argument("--fps", type=float, default=5.0,
                        help="frames kept per second (default 5)")
    record.add_argument("--motion-fps", type=float, default=15.0,
                        help="frames kept per second while the picture changes (default 15)")
    record.add_argument("--full", action="store_true",
                        help="also keep the camera's full frames (the Pi camera's, for naming "
                             "small tiles: several times the space)")

    run = sub.add_parser(
        "run", help="referee the table live: camera, panel, page (no --game: start on the page)"
    )
    add_table_options(run, required=False)
    add_page_options(run)
    run.add_argument("--deck-photos", type=Path, help="photos of your own deck's faces")
    run.add_argument("--once", action="store_true", help="stop when a video file ends")

    enrol_cli.add_enrol_parser(sub)

    demo = sub.add_parser("demo", help="replay a bundled Deserto session and serve the page")
    add_page_options(demo)
    demo.add_argument("--speed", type=float, default=DEMO_SPEED,
                      help=f"replay speed, x real time (default {DEMO_SPEED:g}: "
                           "a pace a newcomer can follow)")
    demo.add_argument("--once", action="store_true", help="stop when the replay ends")
    demo.add_argument("--session", type=Path, default=commands.DEMO_SESSION,
                      help="replay this recorded session folder instead (docs/sessions.md)")

    check_table = sub.add_parser(
        "doctor", help="check camera, mat, LEDs, buttons, buzzer, data folder and page"
    )
    check_table.add_argument("--config", type=Path, help="TOML config (default: ./tableref.toml)")
    check_table.add_argument("--camera", help="picamera (default), a webcam number, or a video")
    check_table.add_argument("--pins", help="GPIO backend: mock, lgpio or rpigpio")
    check_table.add_argument("--data", type=Path, help="folder of the SQLite log")
    check_table.add_argument("--port", type=int, help="port of the page (default: 8000)")
    check_table.add_argument("--seats", type=int, help="buttons to check (default: all)")
    check_table.add_argument("--button-timeout", type=float, default=15.0,
                             help="seconds to wait for each button (default: 15)")
    check_table.add_argument("--game", choices=sorted(GAMES),
                             help="name a card of this game's deck (default: the enrolled one)")
    return parser


def add_page_options(parser: argparse.ArgumentParser) -> None:
    """Where the log and the page live; each overrides the config file's key."""
    parser.add_argument("--config", type=Path, help="TOML config (default: ./tableref.toml)")
    parser.add_argument("--data", type=Path, help="folder of the SQLite log (default: data)")
    parser.add_argument("--port", type=int, help="port of the page (default: 8000)")
    parser.add_argument("--host", help="address the page listens on")
    parser.add_argument("--public-url", help="the page's address for phones (QR code)")
    parser.add_argument("--admin-pin", help="set the page's admin PIN (4-8 digits) on start")


def add_table_options(parser: argparse.ArgumentParser, required: bool = True) -> None:
    """The match (game, seats, options) and the devices; `run` may leave the match to
    the page."""
    parser.add_argument("--game", required=required, help=GAME_HELP)
    parser.add_argument("--seats", required=required,
                        help="player names in seat order, comma separated: Ana,Bogdan")
    parser.add_argument("--first", type=int, default=1, metavar="N",
                        help="who starts, counted from 1 in --seats order (default 1)")
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE",
        help="a house option, VALUE in JSON, e.g. --option stacking=false or "
             "--option zero='\"swap_one\"'; repeat for several (docs/notation.md lists them)",
    )
    parser.add_argument("--camera", help="picamera (default), a webcam number, or a video file")
    parser.add_argument("--pins", help="GPIO backend: mock (default), lgpio or rpigpio")


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return dispatch(args)
    except BrokenPipeError:
        return reader_went_away()
    except USER_ERRORS as error:
        print(f"tableref: error: {plain(error)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def plain(error: Exception) -> str:
    """The error in a user's words: a missing file is named, without errno."""
    if isinstance(error, OSError) and error.filename is not None:
        if isinstance(error, FileNotFoundError):
            return f"no such file: {error.filename}"
        if isinstance(error, IsADirectoryError):
            return f"{error.filename} is a folder, not a file"
        return f"{error.filename}: {error.strerror or error}"
    return str(error)


def reader_went_away() -> int:
    """The reader of our output closed it (`tableref replay ... | head`): stop quietly.

    stdout is pointed at /dev/null so that the interpreter's last flush does not fail
    again; 141 is what a shell reports for a command ended by SIGPIPE.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 141


def dispatch(args: argparse.Namespace) -> int:
    if args.command == "referee":
        return commands.referee_check(args.game, args.log, sys.stdout)
    if args.command == "enrol":
        return enrol_cli.enrol_command(args, sys.stdout, sys.stdin, commands.open_camera)
    if args.command == "deck" and args.action == "profile":
        return enrol_cli.profile_command(args, sys.stdout)
    if args.command == "deck":
        for path in commands.export_deck(args.game, args.out):
            print(path)
        return 0
    if args.command == "mat":
        for path in commands.export_mat(args.out, args.paper):
            print(path)
        return 0
    if args.command == "vision":
        image = read_image(args.image)
        data = args.data or load_config(None).data
        cards = commands.identify(image, args.game, args.mat, args.deck_photos, data)
        print(json.dumps(cards))
        return 0
    if args.command == "replay":
        return commands.replay(args.session, args.json, sys.stdout, load_config(None).data)
    if args.command == "record":
        return commands.record(
            args.out, table_header(args), args.camera or "picamera", args.pins or "mock",
            args.seconds, args.mat, args.fps, args.motion_fps, args.full,
        )
    if args.command == "run":
        if (args.game is None) != (args.seats is None):
            raise ValueError("give --game and --seats together, or neither (start on the page)")
        header = table_header(args) if args.game is not None else None
        config = page_config(args).but(
            camera=args.camera, pins=args.pins, deck_photos=args.deck_photos
        )
        return commands.run_table(header, config, once=args.once)
    if args.command == "demo":
        # The demo listens on this machine only unless --host says otherwise.
        config = page_config(args).but(host=args.host or "127.0.0.1")
        return commands.demo(config, args.speed, args.once, session=args.session)
    if args.command == "doctor":
        config = load_config(args.config).but(
            camera=args.camera, pins=args.pins, data=args.data, port=args.port
        )
        return doctor.doctor(config, args.seats, args.button_timeout, sys.stdout, args.game)
    raise AssertionError(args.command)


def page_config(args: argparse.Namespace) -> TableConfig:
    return load_config(args.config).but(
        data=args.data, port=args.port, host=args.host, public_url=args.public_url,
        admin_pin=args.admin_pin,
    )


def table_header(args: argparse.Namespace) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--option {item!r}: write NAME=VALUE, e.g. direction=\"clockwise\"")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError:
            options[name] = value
    seats = [name.strip() for name in args.seats.split(",") if name.strip()]
    if not 1 <= args.first <= len(seats):
        raise ValueError(f"--first {args.first}: give a seat from 1 to {len(seats)}, "
                         "counted in --seats order")
    # The log counts seats from 0; people count from 1.
    return {"game": args.game, "seats": seats, "first": args.first - 1, "options": options}


def read_image(path: Path) -> np.ndarray:
    if not path.is_file():
        raise VisionError(f"{path}: no such image file", "not_image")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise VisionError(f"{path}: not a readable image (empty or corrupt)", "not_image")
    return np.asarray(image, dtype=np.uint8)


if __name__ == "__main__":
    sys.exit(main())
