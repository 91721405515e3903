"""A power cut in the middle of a game: the demo runs in a subprocess, is killed with
SIGKILL once some moves are logged, and is started again on the same data folder. The
log and the result it ends with must be those of an uninterrupted run."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from firmware.commands import DEMO_SESSION
from firmware.session import replay_session

MOVES_BEFORE_THE_CUT = 12


def demo_command(data: Path) -> list[str]:
    return [sys.executable, "-m", "firmware.cli", "demo", "--port", "0", "--speed", "1000",
            "--once", "--data", str(data)]


def logged_moves(database: Path) -> list[dict[str, object]]:
    if not database.exists():
        return []
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        try:
            rows = connection.execute("SELECT move FROM moves ORDER BY position").fetchall()
        except sqlite3.OperationalError:  # the schema is not written yet
            return []
    return [json.loads(row[0]) for row in rows]


def test_a_demo_killed_mid_game_resumes_with_no_committed_move_lost(tmp_path: Path) -> None:
    database = tmp_path / "tableref.sqlite"
    with subprocess.Popen(demo_command(tmp_path), stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE) as first:
        deadline = time.monotonic() + 180
        while len(logged_moves(database)) < MOVES_BEFORE_THE_CUT:
            assert first.poll() is None, "the demo ended before the cut"
            assert time.monotonic() < deadline, "the demo logged too few moves in time"
            time.sleep(0.05)
        os.kill(first.pid, signal.SIGKILL)
        assert first.wait(timeout=10) == -signal.SIGKILL
    at_the_cut = len(logged_moves(database))

    second = subprocess.run(demo_command(tmp_path), capture_output=True, text=True, timeout=300)
    assert second.returncode == 0, second.stderr
    assert f"resuming match 1 after {at_the_cut} moves" in second.stdout

    uninterrupted = replay_session(DEMO_SESSION)
    resumed = logged_moves(database)
    assert MOVES_BEFORE_THE_CUT <= at_the_cut < len(resumed), "the cut was not mid-game"
    assert resumed == [ruling.move.to_json() for ruling in uninterrupted.match.rulings]
    with sqlite3.connect(database) as connection:
        [(finished, result)] = connection.execute("SELECT finished, result FROM matches")
    assert finished == 1 and json.loads(result) == uninterrupted.result()
