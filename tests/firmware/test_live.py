"""`tableref run` on a video file: the live loop with the seat panel on mock pins, the
page server and the SQLite log, stopped half-way and started again."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from firmware.commands import run_table
from firmware.config import TableConfig
from firmware.store import MatchStore

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
