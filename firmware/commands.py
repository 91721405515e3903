"""What each `tableref` subcommand does; cli.py only parses the arguments."""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from firmware.config import TableConfig
from firmware.enrollment import build_reader, deck_arts
from firmware.exposure import LockOnMat, sees_whole_mat
from firmware.loop import drive
from firmware.network import HotspotWatch, lan_address
from firmware.recording import FrameRate
from firmware.service import TableService
from firmware.session import (
    SessionError,
    play_session,
    replay_session,
    session_header,
    session_mat,
)
from firmware.stopping import Stopped, stop_on_signals, wait_until
from firmware.store import MatchStore
from hardware.camera import (
    Camera,
    CameraError,
    OpenCVCamera,
    PiCamera,
    SessionRecorder,
    read_session_metadata,
)
from hardware.panel import DEFAULT_PIN_MAP, PinMap, SeatPanel, SimulatedPanel, make_pin_factory
from referee.core import Game, RefereeError
from referee.games import get_game
from referee.notation import NotationError, parse_header, parse_move, read_log
from referee.notation import replay as replay_log
from referee.text import catalogue, seat_name, translate
from vision.deck_art import export_deck as write_deck
from vision.mat import MatSpec, default_mat
from vision.mat import export_mat as write_mat
from webui import create_app, serve
from webui.control import ControlError
from webui.i18n import attached
from webui.joining import wifi_qr_text
from webui.server import RunningServer

#: How long a stop waits at most for the page's requests under way (the phones' event
#: streams end at once: TableService.end_streams); its worker threads do not keep the
#: process alive.
PAGE_STOP_SECONDS = 0.3
DEMO_SESSION = Path(__file__).resolve().parents[1] / "tests/fixtures/deserto/two-players-daylight"
#: The demo's default pace (x real time): about two seconds a move, for a newcomer to follow.
DEMO_SPEED = 0.5
DEMO_FOLDER = "demo"
ENGLISH = catalogue("en")
#: How long (s, wall clock) the demo holds a flagged play on the page before going on.
DEMO_FLAG_HOLD_S = 5.0


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


def export_mat(out_dir: Path, paper: str = "a2") -> list[Path]:
    return write_mat(default_mat(), out_dir, paper)


def identify(
    image: np.ndarray, game_name: str, mat_file: Path | None, deck_photos: Path | None = None,
    data: Path | None = None,
) -> list[dict[str, Any]]:
    """The cards in a photo: named after `deck_photos`, else the deck profile in `data`,
    else our art."""
    mat = load_mat(mat_file)
    reader = build_reader(get_game(game_name).deck, mat, deck_photos, data, save=False)
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
    if as_json:
        for event in pipeline.transcript:
            out.write(json.dumps(event) + "\n")
        out.write(json.dumps(pipeline.result()) + "\n")
        return 0
    game, names = pipeline.match.game, pipeline.match.header.seats
    for event in pipeline.transcript:
        out.write(describe(event, game, names) + "\n")
    out.write(describe_result(pipeline.result(), names) + "\n")
    return 0


def describe(event: dict[str, Any], game: Game[Any], names: Sequence[str]) -> str:
    """A transcript event as one line a person reads: players by name, moves from 1, each
    move said once (its verdict adds only what the move does not say: a capture, the
    rule it breaks, by name).

        #2 Bogdan puts a vizier on NE and captures 1 card
        #8 Bogdan puts a brigand on NE: illegal, Brigand by a vizier (DES-NO-BRIGAND-BY-VIZIER):
           a brigand may not go next to a vizier
    """
    def said(message: str) -> str:
        return translate(message, ENGLISH, names)

    def broken(rules: Sequence[str]) -> str:
        return ", ".join(f"{said(game.rule_name(rule))} ({rule})" for rule in rules)

    if "index" in event:
        who = seat_name(event["seat"], names)
        if "move" not in event:  # a deferred verdict on an earlier move
            return f"   so #{event['concerns'] + 1} by {who} was illegal, " \
                   f"{broken(event['rules'])}: {said(event['message'])}"
        move = parse_move(game, event["move"], len(names))
        played = f"#{event['index'] + 1} {who} {said(game.describe(move))}"
        if not event["ok"]:
            return f"{played}: illegal, {broken(event['rules'])}: {said(event['message'])}"
        if event.get("severity") == "warning":
            return f"{played}: {said(event['message'])}"
        return continued(played, said(event["message"]))
    if "takeback" in event:
        return f"#{event['takeback'] + 1} taken back: {said(event['message'])}"
    if "ask" in event:
        return f"? {said(event['ask'])}"
    return f"! {said(event.get('problem', str(event)))}"


def continued(played: str, news: str) -> str:
    """The move's words, then what its verdict adds: one sentence (news that starts with
    a mark goes on without a space, as on the page: "discards red 13; Bogdan to play")."""
    if not news:
        return played
    return f"{played}{news}" if attached(news) else f"{played} {news}"


def describe_result(result: dict[str, Any], names: Sequence[str]) -> str:
    """The result line: the winners and everyone's score, by name."""
    scores = ", ".join(
        f"{seat_name(int(seat), names)} {points}" for seat, points in result["scores"].items()
    )
    winners = [seat_name(seat, names) for seat in result["winners"]]
    if not result["final"]:
        return f"not over: scores {scores}"
    if len(winners) == 1:
        return f"{winners[0]} wins; scores {scores}"
    return f"{' and '.join(winners)} share the win; scores {scores}"


def open_camera(name: str) -> Camera:
    """The camera `name` says; the Pi camera's exposure is fixed once it sees the mat."""
    if name == "picamera":
        return LockOnMat(PiCamera(), sees_whole_mat(default_mat()))
    if name.isdigit():
        return OpenCVCamera(int(name))
    return OpenCVCamera(name)


def record(
    out_dir: Path, header: dict[str, Any], camera_name: str, pins: str, seconds: float | None,
    mat_file: Path | None = None, fps: float = 5.0, motion_fps: float = 15.0,
    full: bool = False,
) -> int:
    """Save frames (at most `fps` a second, up to `motion_fps` while the picture changes),
    button presses and metadata (the match, the mat, the camera's resolution) to a new
    session folder; with `full`, each frame's full frame too where the camera has one."""
    parsed = get_game(header["game"]).check_header(parse_header(header))
    metadata: dict[str, Any] = {"match": parsed.to_json(), "mat": load_mat(mat_file).to_json()}
    rate = FrameRate(fps, motion_fps)
    started = time.monotonic()
    with (
        seat_panel(DEFAULT_PIN_MAP, pins, len(parsed.seats)) as panel,
        open_camera(camera_name) as camera,
    ):
        frame = camera.read()
        if frame is None:
            raise CameraError(f"camera {camera_name!r} gave no frame")
        height, width = frame.image.shape[:2]
        metadata["camera"] = {"resolution": [width, height], "fps": fps, "motion_fps": motion_fps}
        if full and frame.full is not None:
            metadata["camera"]["full_resolution"] = [frame.full.shape[1], frame.full.shape[0]]
        with SessionRecorder(out_dir, metadata, full_frames=full) as recorder:
            print(f"recording to {out_dir}; Ctrl-C stops", flush=True)
            while frame is not None:
                panel.poll()
                for event in panel.events():
                    recorder.add_button(event)
                if rate.keep(frame.image, frame.t):
                    recorder.add_frame(frame)
                if seconds is not None and time.monotonic() - started >= seconds:
                    break
                frame = camera.read()
    return 0


def seat_panel(pin_map: PinMap, pins: str, seats: int | None = None) -> SeatPanel:
    """The seat panel on `pin_map` (its first `seats` seats, or all); `pins` names the
    GPIO backend, chosen here once for the whole run."""
    return SeatPanel(
        pin_map.seats[:seats], pin_map.status_led, pin_map.buzzer,
        pin_factory=make_pin_factory(pins),
    )


def run_table(
    header: dict[str, Any] | None,
    config: TableConfig,
    once: bool = False,
    stop: threading.Event | None = None,
) -> int:
    """Referee the table live. With a header, resume that match after a restart or start
    it; without, resume the match in progress, else wait for the page to start one.

    A live camera that fails is reported on the page and opened again; a video file that
    ends is said on stderr and on the page, which stays up until SIGTERM or Ctrl-C (or,
    with `once`, the run ends there). A stop lands between frames, never inside a move.
    """
    parsed = None
    if header is not None:
        parsed = get_game(header["game"]).check_header(parse_header(header)).to_json()
    live = config.camera == "picamera" or config.camera.isdigit()
    with (
        stop_on_signals(stop) as stop,
        seat_panel(config.pin_map, config.pins) as panel,
        closing(MatchStore.open(config.data / "tableref.sqlite")) as store,
    ):
        camera = open_camera(config.camera)
        try:
            service = TableService(store, panel, default_mat(), panel.seats,
                                   config.deck_photos, data=config.data)
            if config.admin_pin is not None:
                service.set_pin(config.admin_pin)
            start_or_resume(service, parsed)
            server = serve_page(service, config)

            def presses(_t: float) -> list[Any]:
                panel.poll()
                return panel.events()

            try:
                camera = drive(service, camera, presses, stop=stop, live=live,
                               reopen=lambda: open_camera(config.camera))
                if not stop.is_set() and not live:
                    ended = f"the video {config.camera} has ended: no more frames to referee"
                    service.note_problem(ended)  # on the page first, then said
                    print(f"tableref: {ended}" + ("" if once else
                          "; the page stays up until tableref is stopped"), file=sys.stderr,
                          flush=True)
                    if not once:
                        wait_until(stop)
            finally:
                server.stop(PAGE_STOP_SECONDS, wake=service.end_streams)
        finally:
            camera.close()
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
    hotspot = HotspotWatch(config.hotspot_ssid, config.hotspot_password)
    app.config["HOTSPOT"] = hotspot
    joining = hotspot()
    if joining is not None:
        ssid, password = joining
        print(f"tableref hotspot: phones join the Wi-Fi {ssid!r} (password {password!r}; "
              f"the page's first QR code: {wifi_qr_text(ssid, password)}), then open the page",
              flush=True)
    print(f"tableref page: {public}" + ("" if public == f"{server.url}/" else
                                        f" (serving on {server.url}/)"), flush=True)
    if local and config.public_url is None:
        print("  (this machine only: for phones on the same Wi-Fi, add --host 0.0.0.0)",
              flush=True)
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


def demo(
    config: TableConfig, speed: float, once: bool, stop: threading.Event | None = None,
    session: Path = DEMO_SESSION,
) -> int:
    """Replay the bundled session (or another recorded one) at `speed` x real time while
    serving the page; after a crash, the demo match resumes after its last logged move.
    SIGTERM or Ctrl-C stop it between two frames."""
    if not session.is_dir():
        raise SessionError(f"no session folder at {session}")
    metadata = read_session_metadata(session)
    header = session_header(metadata, session).to_json()
    panel = SimulatedPanel(len(header["seats"]))
    with (
        stop_on_signals(stop) as stop,
        closing(MatchStore.open(config.data / "tableref.sqlite")) as store,
    ):
        # The demo's learnt identifier is saved in a folder of its own, where no deck
        # profile of the table's own cards is: it reads our art.
        service = TableService(store, panel, session_mat(metadata, session), panel.seats,
                               data=config.data / DEMO_FOLDER)
        if config.admin_pin is not None:
            service.set_pin(config.admin_pin)
        start_or_resume(service, header)
        print("tableref demo (Ctrl-C stops)", flush=True)
        server = serve_page(service, config)
        clock: dict[str, float] = {}
        held: set[int] = set()
        start_after = service.last_move_time()

        def pace(t: float) -> None:
            start = clock.setdefault("wall", time.monotonic() - t / speed)
            flagged = service.snapshot().get("flagged")
            if flagged and flagged["index"] not in held:
                # A flag is what a newcomer came to see: hold it before the table's
                # take-back (recorded a moment later) clears it.
                held.add(flagged["index"])
                if stop.wait(DEMO_FLAG_HOLD_S):
                    raise Stopped
                start = clock["wall"] = start + DEMO_FLAG_HOLD_S
            delay = start + t / speed - time.monotonic()
            if (delay > 0 and stop.wait(delay)) or stop.is_set():
                raise Stopped

        try:
            play_session(service, session, panel, pace, start_after,
                         name_card=service.correct_card)
            result = service.pipeline.result() if service.pipeline else {}
            print(f"replay finished: scores {result.get('scores')}, "
                  f"winners {result.get('winners')}", flush=True)
            if not once:
                wait_until(stop)
        except Stopped:
            pass
        finally:
            server.stop(PAGE_STOP_SECONDS, wake=service.end_streams)
    return 0
