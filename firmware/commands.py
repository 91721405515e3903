"""What each `tableref` subcommand does; cli.py only parses the arguments."""

from __future__ import annotations

import json
import socket
import threading
import time
from contextlib import closing
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from firmware.config import TableConfig
from firmware.enrollment import build_reader, deck_arts
from firmware.loop import drive
from firmware.service import TableService
from firmware.session import (
    SessionError,
    play_session,
    replay_session,
    session_header,
    session_mat,
)
from firmware.store import MatchStore
from hardware.camera import (
    Camera,
    OpenCVCamera,
    PiCamera,
    SessionRecorder,
    read_session_metadata,
)
from hardware.panel import DEFAULT_PIN_MAP, MAX_SEATS, SeatPanel, SimulatedPanel, make_pin_factory
from referee.core import RefereeError
from referee.games import get_game
from referee.notation import NotationError, parse_header, read_log
from referee.notation import replay as replay_log
from vision.deck_art import export_deck as write_deck
from vision.mat import MatSpec, default_mat
from vision.mat import export_mat as write_mat
from webui import create_app, serve
from webui.control import ControlError
from webui.server import RunningServer

DEMO_SESSION = Path(__file__).resolve().parents[1] / "tests/fixtures/deserto/two-players-daylight"


def referee_check(game_name: str, log: Path, out: TextIO) -> int:
    """Judge every move of a log; illegal moves are results, a bad log is an error."""
    get_game(game_name)
    try:
        lines = log.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError:
        raise RefereeError(f"{log}: not a text file") from None
    try:
        parsed = read_log(lines, expected_game=game_name)
    except NotationError as error:
        raise RefereeError(f"{log}: {error}") from None
    match = replay_log(parsed)
    for line in match.transcript():
        out.write(json.dumps(line) + "\n")
    out.write(json.dumps(match.result()) + "\n")
    return 0


def export_deck(game_name: str, out_dir: Path) -> list[Path]:
    deck = get_game(game_name).deck
    copies = {face.code: face.copies for face in deck.faces}
    return write_deck(
        deck_arts(deck), deck.card_mm, out_dir,
        back_colour=str(deck.back.get("colour", "#6b3f1d")), copies=copies,
    )


def export_mat(out_dir: Path) -> list[Path]:
    return write_mat(default_mat(), out_dir)


def identify(
    image: np.ndarray, game_name: str, mat_file: Path | None, deck_photos: Path | None = None,
    data: Path | None = None,
) -> list[dict[str, Any]]:
    """The cards in a photo: named after `deck_photos`, else the deck profile in `data`,
    else our art."""
    mat = load_mat(mat_file)
    reader = build_reader(get_game(game_name).deck, mat, deck_photos, data)
    return [card.to_json() for card in reader.read(image).cards]


def load_mat(mat_file: Path | None) -> MatSpec:
    if mat_file is None:
        return default_mat()
    try:
        return MatSpec.from_json(json.loads(mat_file.read_text(encoding="utf-8")))
    except (json.JSONDecodeError, KeyError, TypeError, ValueError, IndexError):
        raise SessionError(f"{mat_file}: not a valid mat.json") from None


def replay(session: Path, as_json: bool, out: TextIO, data: Path | None = None) -> int:
    """Replay a session; the deck profile in `data` names its cards if there is one."""
    pipeline = replay_session(session, data=data)
    for event in pipeline.transcript:
        out.write((json.dumps(event) if as_json else describe(event)) + "\n")
    result = pipeline.result()
    out.write((json.dumps(result) if as_json else f"scores {result['scores']}, "
               f"winners {result['winners']}") + "\n")
    return 0


def describe(event: dict[str, Any]) -> str:
    """A transcript event as one line a person reads."""
    if "index" in event:
        verdict = "ok" if event["ok"] else "ILLEGAL " + ",".join(event["rules"])
        return f"#{event['index']} seat {event['seat']} {event['move']['move']}: {verdict} " \
               f"- {event['message']}"
    if "takeback" in event:
        return f"take back #{event['takeback']}: {event['message']}"
    if "ask" in event:
        return f"? {event['ask']}"
    return f"! {event.get('problem', event)}"


def open_camera(name: str) -> Camera:
    if name == "picamera":
        return PiCamera()
    if name.isdigit():
        return OpenCVCamera(int(name))
    return OpenCVCamera(name)


def record(
    out_dir: Path, header: dict[str, Any], camera_name: str, pins: str, seconds: float | None
) -> int:
    """Save frames, button presses and metadata to a new session folder."""
    parsed = get_game(header["game"]).check_header(parse_header(header))
    metadata = {"match": parsed.to_json(), "mat": default_mat().to_json()}
    started = time.monotonic()
    with (
        seat_panel(len(parsed.seats), pins) as panel,
        open_camera(camera_name) as camera,
        SessionRecorder(out_dir, metadata) as recorder,
    ):
        print(f"recording to {out_dir}; Ctrl-C stops", flush=True)
        while seconds is None or time.monotonic() - started < seconds:
            frame = camera.read()
            if frame is None:
                break
            panel.poll()
            for event in panel.events():
                recorder.add_button(event)
            recorder.add_frame(frame)
    return 0


def seat_panel(seats: int, pins: str) -> SeatPanel:
    """The seat panel on the default pin map; `pins` names the GPIO backend."""
    return SeatPanel(
        DEFAULT_PIN_MAP.seats[:seats], DEFAULT_PIN_MAP.status_led, DEFAULT_PIN_MAP.buzzer,
        pin_factory=make_pin_factory(pins),
    )


def run_table(header: dict[str, Any] | None, config: TableConfig) -> int:
    """Referee the table live. With a header, resume that match after a restart or start
    it; without, resume the match in progress, else wait for the page to start one."""
    parsed = None
    if header is not None:
        parsed = get_game(header["game"]).check_header(parse_header(header)).to_json()
    # A video file ends; a camera is retried when it stops delivering.
    live = config.camera == "picamera" or config.camera.isdigit()
    with (
        open_camera(config.camera) as camera,
        seat_panel(MAX_SEATS, config.pins) as panel,
        closing(MatchStore.open(config.data / "tableref.sqlite")) as store,
    ):
        service = TableService(store, panel, default_mat(), panel.seats, config.deck_photos,
                               data=config.data)
        if config.admin_pin is not None:
            service.set_pin(config.admin_pin)
        start_or_resume(service, parsed)
        server = serve_page(service, config)

        def presses(_t: float) -> list[Any]:
            panel.poll()
            return panel.events()

        try:
            drive(service, camera, presses, live=live)
        finally:
            server.stop()
    return 0


def serve_page(service: TableService, config: TableConfig) -> RunningServer:
    """Serve the page and print where phones find it (the QR code on the page says it too)."""
    app = create_app(service)
    server = serve(app, config.host, config.port)
    local = config.host in ("127.0.0.1", "localhost", "::1")
    public = config.public_url or (
        f"{server.url}/" if local else f"http://{lan_address()}:{server.port}/"
    )
    app.config["PUBLIC_URL"] = public
    print(f"tableref page: {public}" + ("" if public == f"{server.url}/" else
                                        f" (serving on {server.url}/)"), flush=True)
    return server


def start_or_resume(service: TableService, header: dict[str, Any] | None) -> None:
    """Resume the match in progress (if it is `header`'s), else start `header`'s."""
    try:
        resumed = service.resume(header)
    except ControlError as error:
        # A damaged log stays as it is for a person to look at; the table goes on.
        print(f"tableref: {error}", flush=True)
        service.note_problem(str(error))
        return
    if resumed is not None:
        print(f"resuming match {resumed.id} after {len(service.pipeline.match.rulings)} moves"
              if service.pipeline else f"resuming match {resumed.id}", flush=True)
    elif header is not None:
        service.start_match(header)
    else:
        print("no match in progress: start one on the page", flush=True)


def lan_address() -> str:
    """This machine's address on the local network, for phones to reach the page."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return "127.0.0.1"
    addresses = [str(info[4][0]) for info in infos]
    return next((a for a in addresses if not a.startswith("127.")), "127.0.0.1")


def demo(config: TableConfig, speed: float, once: bool) -> int:
    """Replay the bundled session at `speed` x real time while serving the page; after
    a crash, the demo match resumes after its last logged move."""
    if not DEMO_SESSION.is_dir():
        raise SessionError(f"the demo session is missing: {DEMO_SESSION}")
    metadata = read_session_metadata(DEMO_SESSION)
    header = session_header(metadata, DEMO_SESSION).to_json()
    panel = SimulatedPanel(len(header["seats"]))
    with closing(MatchStore.open(config.data / "tableref.sqlite")) as store:
        service = TableService(store, panel, session_mat(metadata, DEMO_SESSION), panel.seats)
        if config.admin_pin is not None:
            service.set_pin(config.admin_pin)
        start_or_resume(service, header)
        print("tableref demo (Ctrl-C stops)", flush=True)
        server = serve_page(service, config)
        clock: dict[str, float] = {}
        start_after = service.last_move_time()

        def pace(t: float) -> None:
            start = clock.setdefault("wall", time.monotonic() - t / speed)
            delay = start + t / speed - time.monotonic()
            if delay > 0:
                time.sleep(delay)

        try:
            play_session(service, DEMO_SESSION, panel, pace, start_after)
            result = service.pipeline.result() if service.pipeline else {}
            print(f"replay finished: scores {result.get('scores')}, "
                  f"winners {result.get('winners')}", flush=True)
            if not once:
                threading.Event().wait()
        finally:
            server.stop()
    return 0
