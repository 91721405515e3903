"""Memory of the live table: peak resident size while a game is refereed and 30 phones
keep the page open, and how long a SIGTERM takes to stop it.

Run by hand (not a test):

    .venv/bin/python benchmarks/memory.py [--game deserto] [--phones 30] [--speed 2]
                                          [--breakdown]

It starts `tableref demo` in a subprocess (the bundled Deserto game, or with `--game` a
recorded session of another game, through the whole pipeline: frames, vision, tracker,
referee, SQLite log, page) on a fresh data folder and opens `--phones` pages as
benchmarks/page_load.py does. Tempus (65 faces), UNO (55) and Kanaloa (62) are the large
decks. The data folder first gets the
deck's learnt identifier, as the Pi's install saves it (python -m firmware.warmup);
`--learn-at-start` leaves it out, so the demo learns it. Once the game is over it reads
the process's peak resident size (VmHWM in /proc/PID/status: the most it ever held in
RAM), sends SIGTERM and times the exit. `--breakdown` then shows, in this process, what
each part adds to the resident size as it is loaded: the libraries, vision's compiled
kernels, the deck's learnt identifier, one frame read.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from page_load import Phone, open_page, start_demo, until_finished  # noqa: E402

TARGET_MB = 250
#: firmware.commands.DEMO_FOLDER (not imported: --breakdown measures the imports later)
DEMO_FOLDER = "demo"
FIXTURES = Path(__file__).resolve().parents[1] / "tests/fixtures"
#: The session each game is played from: two players in daylight, as the bundled demo.
SESSIONS = {
    "deserto": FIXTURES / "deserto/two-players-daylight",
    "kanaloa": FIXTURES / "kanaloa/three-players-daylight",
    "tempus": FIXTURES / "tempus/two-players-daylight",
    "uno": FIXTURES / "uno/two-players-daylight",
}


def status_mb(pid: int | str, field: str) -> float:
    """A size line of /proc/PID/status (VmRSS, VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise KeyError(field)


def sample(pid: int, peaks: dict[str, float], done: threading.Event) -> None:
    """The largest anonymous (the process's own) and file-backed (shared libraries,
    which the kernel can drop and read again) resident sizes seen, every 0.1 s."""
    while not done.wait(0.1):
        try:
            for field in ("RssAnon", "RssFile"):
                peaks[field] = max(peaks.get(field, 0.0), status_mb(pid, field))
        except (OSError, KeyError):
            return


def measure_demo(phones: int, speed: float, data: str, session: Path) -> int:
    launched = start_demo(speed, data, session)
    if launched is None:
        return 1
    demo, host, port = launched
    stop = threading.Event()
    peaks: dict[str, float] = {}
    sampler = threading.Thread(target=sample, args=(demo.pid, peaks, stop))
    sampler.start()
    pages = [Phone(n) for n in range(phones)]
    threads = [threading.Thread(target=open_page, args=(host, port, phone, stop))
               for phone in pages]
    for thread in threads:
        thread.start()
    finished = until_finished(demo)
    time.sleep(2.0)  # the last update reaches every phone
    peak, now = status_mb(demo.pid, "VmHWM"), status_mb(demo.pid, "VmRSS")
    stop.set()  # the phones' streams end with the demo: not failures
    sampler.join()
    sent = time.monotonic()
    os.kill(demo.pid, signal.SIGTERM)
    code = demo.wait(timeout=30)
    stopped = time.monotonic() - sent
    for thread in threads:
        thread.join(timeout=40)
    updates = [len(phone.versions) for phone in pages]
    errors = sum(len(phone.errors) for phone in pages)
    print(f"{phones} phones ({min(updates)}-{max(updates)} updates each, {errors} failed "
          f"requests), {finished.strip()}")
    verdict = "within" if peak <= TARGET_MB else "OVER"
    print(f"peak resident (VmHWM) {peak:.0f} MB, {verdict} the {TARGET_MB} MB target; "
          f"resident at the end {now:.0f} MB; largest seen: {peaks.get('RssAnon', 0):.0f} MB "
          f"anonymous, {peaks.get('RssFile', 0):.0f} MB file-backed (shared libraries)")
    print(f"SIGTERM to exit: {stopped * 1000:.0f} ms, exit code {code}")
    return 0 if peak <= TARGET_MB and code == 0 else 1


def breakdown(identifiers: Path, session: Path) -> None:
    """What each part adds to this process's resident size, in loading order (the deck's
    identifier loaded from `identifiers` if it was saved there, as `run` does), reading
    the frames of `session`."""
    steps: list[tuple[str, float]] = [("python", status_mb("self", "VmRSS"))]

    def step(name: str) -> None:
        steps.append((name, status_mb("self", "VmRSS")))

    import cv2  # noqa: F401
    import numpy  # noqa: F401
    step("numpy + opencv")
    import numba  # noqa: F401
    step("numba")
    import flask  # noqa: F401
    import waitress  # noqa: F401

    import firmware.commands  # noqa: F401
    step("flask, waitress and tableref's modules")
    from firmware.enrollment import build_reader
    from firmware.session import session_header, session_mat
    from hardware.camera import ReplayCamera, read_session_metadata
    from referee.games import get_game

    metadata = read_session_metadata(session)
    game = session_header(metadata, session).game
    reader = build_reader(get_game(game).deck, session_mat(metadata, session),
                          data=identifiers)
    step(f"{game}'s identifier")
    with ReplayCamera(session) as camera:
        frame = camera.read()
        assert frame is not None
        reader.read(frame.image)
    step("the first frame read (compiled kernels loaded)")
    with ReplayCamera(session) as camera:
        for _ in range(40):
            frame = camera.read()
            if frame is None:
                break
            reader.read(frame.image)
    step("40 more frames (mat model, buffers)")
    print("resident size as each part is loaded:")
    for (name, mb), (_, before) in zip(steps, [("", 0.0), *steps], strict=False):
        print(f"  {name:<48} {mb:6.0f} MB  (+{mb - before:.0f})")
    print(f"  peak (VmHWM)                                     "
          f"{status_mb('self', 'VmHWM'):6.0f} MB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(SESSIONS), default="deserto",
                        help="the game played (default deserto, the bundled demo)")
    parser.add_argument("--phones", type=int, default=30)
    parser.add_argument("--speed", type=float, default=2.0, help="replay speed of the game")
    parser.add_argument("--breakdown", action="store_true", help="where the memory goes")
    parser.add_argument("--learn-at-start", action="store_true",
                        help="no saved identifier: the demo learns the deck's at start")
    args = parser.parse_args()
    session = SESSIONS[args.game]
    with tempfile.TemporaryDirectory() as data:
        identifiers = Path(data) / DEMO_FOLDER
        if not args.learn_at_start:
            subprocess.run([sys.executable, "-m", "firmware.warmup", "--data", str(identifiers),
                            args.game], check=True, stdout=subprocess.DEVNULL)
        code = measure_demo(args.phones, args.speed, data, session)
        if args.breakdown:
            breakdown(identifiers, session)
    return code


if __name__ == "__main__":
    sys.exit(main())
