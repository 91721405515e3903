"""Stopping the table as systemd does (SIGTERM), and a video file that ends: `run` and
the demo run in a subprocess; each must exit cleanly with its SQLite log complete, and
a finished video must leave the page up (saying so) until the stop."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from firmware.commands import DEMO_SESSION
from firmware.session import replay_session
from tests.firmware.test_live import SESSION, frames_before_first_button, write_video

ROOT = Path(__file__).resolve().parents[2]


def logged(database: Path) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """The moves and the audit events of the log, read as another process would."""
    if not database.exists():
        return [], []
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        try:
            moves = connection.execute("SELECT move FROM moves ORDER BY position").fetchall()
            events = connection.execute("SELECT what FROM events ORDER BY id").fetchall()
        except sqlite3.OperationalError:  # the schema is not written yet
            return [], []
    return [json.loads(row[0]) for row in moves], [json.loads(row[0]) for row in events]


def intact(database: Path) -> bool:
    with sqlite3.connect(database) as connection:
        return connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)


@contextmanager
def started(command: list[str], **options: Any) -> Iterator[subprocess.Popen[str]]:
    """The process running `command`, killed if a check fails before it stopped (the
    page would keep it running forever)."""
    with subprocess.Popen(command, cwd=ROOT, text=True, **options) as process:
        try:
            yield process
        finally:
            if process.poll() is None:
                process.kill()


def read_line_with(stream: IO[str], text: str, process: subprocess.Popen[str]) -> str:
    """The first line of `stream` containing `text` (the process must still run)."""
    for line in stream:
        if text in line:
            return line
    raise AssertionError(f"{text!r} never printed; exit code {process.wait(timeout=10)}")


def test_sigterm_stops_the_demo_cleanly_with_every_logged_move_kept(tmp_path: Path) -> None:
    database = tmp_path / "tableref.sqlite"
    command = [sys.executable, "-m", "firmware.cli", "demo", "--port", "0", "--speed", "200",
               "--data", str(tmp_path)]
    with started(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as demo:
        assert demo.stdout is not None
        page = read_line_with(demo.stdout, "tableref page: ", demo).split()[-1]
        # A phone with the page open: its event stream waits for the next move when the
        # stop comes, and must end with it (else waitress says on stderr that a thread is
        # still running, after waiting for it).
        with urllib.request.urlopen(page + "events", timeout=30) as stream:
            assert stream.readline().startswith(b"retry: ")
            deadline = time.monotonic() + 180
            while len(logged(database)[0]) < 6:
                assert demo.poll() is None, "the demo ended before the stop"
                assert time.monotonic() < deadline, "the demo logged too few moves in time"
                time.sleep(0.05)
            os.kill(demo.pid, signal.SIGTERM)
            assert demo.wait(timeout=30) == 0
        assert demo.stderr is not None and demo.stderr.read() == ""
    assert intact(database)
    moves, _ = logged(database)
    logs = logs_of(replay_session(DEMO_SESSION).transcript)
    assert 6 <= len(moves) < len(logs[-1]), "the stop was not mid-game"
    assert moves in logs


def logs_of(transcript: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Every log of moves an uninterrupted replay held, in turn: a stop may come while
    the demo holds a flagged play on the page, before the table takes it back."""
    log: list[dict[str, Any]] = []
    logs = [list(log)]
    for event in transcript:
        if "takeback" in event:
            log.pop()
        elif "move" in event:
            log.append(event["move"])
        logs.append(list(log))
    return logs


def test_run_on_a_video_that_ends_says_so_keeps_the_page_then_stops_on_sigterm(
    tmp_path: Path,
) -> None:
    video = write_video(tmp_path / "table.avi", frames_before_first_button(SESSION)[:40])
    header = json.loads((SESSION / "session.json").read_text())["match"]
    database = tmp_path / "data" / "tableref.sqlite"
    command = [sys.executable, "-m", "firmware.cli", "run", "--game", "deserto",
               "--seats", ",".join(header["seats"]), "--camera", str(video), "--pins", "mock",
               "--host", "127.0.0.1", "--port", "0", "--data", str(tmp_path / "data")]
    with started(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as run:
        assert run.stdout is not None and run.stderr is not None
        page = read_line_with(run.stdout, "tableref page: ", run).split()[-1]
        ended = read_line_with(run.stderr, "has ended", run)
        assert ended.startswith(f"tableref: the video {video} has ended")
        assert "the page stays up" in ended
        with urllib.request.urlopen(page + "api/state", timeout=10) as response:
            state = json.load(response)
        assert run.poll() is None, "the page went away with the video"
        assert "has ended" in state["message"]
        os.kill(run.pid, signal.SIGTERM)
        assert run.wait(timeout=30) == 0
        assert "Traceback" not in run.stderr.read()
    assert intact(database)
    moves, events = logged(database)
    assert events[0]["action"] == "start" and moves  # the match stays open, to resume
