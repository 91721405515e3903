"""`tableref run` on a video file: the live loop with the seat panel on mock pins, the
page server and the SQLite log, stopped half-way and started again; and on a live camera
that dies mid-game, which the page reports while it is opened again."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from firmware import commands
from firmware.commands import run_table
from firmware.config import TableConfig
from firmware.store import MatchStore
from hardware.camera import Camera, CameraError, Frame
from webui.server import RunningServer

SESSION = Path(__file__).resolve().parents[1] / "fixtures/deserto/four-players-dim"


def frames_before_first_button(session: Path) -> list[Path]:
    frames: list[Path] = []
    for line in (session / "events.jsonl").read_text().splitlines():
        event = json.loads(line)
        if "button" in event:
            break
        frames.append(session / event["frame"])
    return frames


def write_video(path: Path, frames: list[Path]) -> Path:
    first = cv2.imread(str(frames[0]))
    height, width = first.shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5.0, (width, height))
    for frame in frames:
        writer.write(cv2.imread(str(frame)))
    writer.release()
    return path


def test_a_live_run_logs_every_move_and_resumes_after_a_restart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    frames = frames_before_first_button(SESSION)
    half = len(frames) // 2
    first = write_video(tmp_path / "first.avi", frames[:half])
    second = write_video(tmp_path / "second.avi", frames[half:])
    header = json.loads((SESSION / "session.json").read_text())["match"]
    data = tmp_path / "data"

    config = TableConfig(data=data, host="127.0.0.1", port=0, pins="mock")
    assert run_table(header, config.but(camera=str(first)), once=True) == 0
    store = MatchStore.open(data / "tableref.sqlite")
    match = store.unfinished_match()
    assert match is not None
    logged_first = store.moves(match.id)
    store.close()

    assert run_table(header, config.but(camera=str(second)), once=True) == 0
    assert f"resuming match {match.id} after {len(logged_first)} moves" in capsys.readouterr().out
    store = MatchStore.open(data / "tableref.sqlite")
    logged = store.moves(match.id)
    store.close()

    expected = [
        json.loads(line)["move"]
        for line in (SESSION / "expected.jsonl").read_text().splitlines()
        if '"index"' in line
    ]
    assert 0 < len(logged_first) < len(logged)
    assert logged == expected[: len(logged)]


def test_a_recorded_session_replays_to_the_moves_seen_live(tmp_path: Path) -> None:
    from firmware.cli import main
    from firmware.session import replay_session

    frames = frames_before_first_button(SESSION)[:60]
    video = write_video(tmp_path / "table.avi", frames)
    session = tmp_path / "recorded"
    assert main(["record", "--out", str(session), "--game", "deserto",
                 "--seats", "Ana,Bogdan,Carmen,Dan", "--camera", str(video)]) == 0
    assert len(list((session / "frames").iterdir())) == len(frames)
    replayed = replay_session(session)
    expected = [
        json.loads(line)["move"]
        for line in (SESSION / "expected.jsonl").read_text().splitlines()
        if '"index"' in line
    ]
    moves = [ruling.move.to_json() for ruling in replayed.match.rulings]
    assert len(moves) > 0 and moves == expected[: len(moves)]


class DyingCamera(Camera):
    """A live camera that delivers `frames`, then fails as an unplugged one does."""

    def __init__(self, frames: list[Path]) -> None:
        self.frames = list(frames)
        self.index = 0

    def read(self) -> Frame | None:
        if not self.frames:
            raise CameraError("the Pi camera stopped delivering frames")
        self.index += 1
        image = np.asarray(cv2.imread(str(self.frames.pop(0))), np.uint8)
        return Frame(image, t=self.index * 0.2, index=self.index)

    def close(self) -> None:
        """Nothing to release."""


class BackCamera(Camera):
    """The camera opened again: frames of the bare table, until the test has seen enough."""

    def __init__(self, frame: Path, seen: threading.Event) -> None:
        self.image = np.asarray(cv2.imread(str(frame)), np.uint8)
        self.seen, self.index = seen, 0

    def read(self) -> Frame | None:
        self.index += 1
        if self.index > 3:
            self.seen.wait(0.05)
        return Frame(self.image, t=100.0 + self.index, index=self.index)

    def close(self) -> None:
        """Nothing to release."""


FAILURE = "the Pi camera stopped delivering frames; trying again in 1 s"


def after_failure(messages: list[str]) -> bool:
    """Has the page shown the failure and then something else (not the empty page)?"""
    failed = [i for i, m in enumerate(messages) if FAILURE in m]
    return bool(failed) and any(m and FAILURE not in m for m in messages[failed[0]:])


def test_a_camera_that_dies_mid_game_is_reported_on_the_page_and_opened_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    frames = frames_before_first_button(SESSION)
    header = json.loads((SESSION / "session.json").read_text())["match"]
    seen, stop = threading.Event(), threading.Event()
    cameras: list[Camera] = [DyingCamera(frames[:20]), BackCamera(frames[0], seen)]
    opened: list[str] = []

    def open_camera(name: str) -> Camera:
        opened.append(name)
        return cameras.pop(0)

    servers: list[RunningServer] = []

    def serve_page(service: Any, config: TableConfig) -> RunningServer:
        servers.append(commands_serve_page(service, config))
        return servers[-1]

    commands_serve_page = commands.serve_page
    monkeypatch.setattr(commands, "open_camera", open_camera)
    monkeypatch.setattr(commands, "serve_page", serve_page)
    config = TableConfig(data=tmp_path / "data", host="127.0.0.1", port=0, pins="mock",
                         camera="picamera")
    done: list[int] = []
    runner = threading.Thread(target=lambda: done.append(run_table(header, config, stop=stop)))
    runner.start()
    try:
        messages = []
        for _ in range(300):  # the page, while the camera is away and once it is back
            if servers:
                with urllib.request.urlopen(servers[0].url + "/api/state", timeout=10) as page:
                    messages.append(json.load(page).get("message") or "")
                if after_failure(messages):
                    break
            time.sleep(0.05)
        assert any(FAILURE in m for m in messages), messages
        # once frames come again the failure is no longer shown: the page says the camera
        # is back, or asks about the table it now sees (a question outranks that note)
        assert after_failure(messages), messages
        assert opened == ["picamera", "picamera"]  # opened again after the failure
    finally:
        seen.set()
        stop.set()
        runner.join(timeout=30)
    assert done == [0]
    store = MatchStore.open(tmp_path / "data" / "tableref.sqlite")
    assert store.unfinished_match() is not None  # the match goes on after the camera is back
    store.close()
