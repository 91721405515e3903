"""The `tableref` command as a user meets it: results on stdout, one-line errors, exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.cli import main

LEGAL_AND_ILLEGAL = [
    {"game": "deserto", "seats": ["Ana", "Bogdan"]},
    {"seat": 0, "move": "place", "cell": "nw", "card": "vizier"},
    {"seat": 1, "move": "place", "cell": "ne", "card": "brigand"},
]


def write_log(path: Path, lines: list[dict[str, object]] | list[str]) -> Path:
    path.write_text(
        "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n"
    )
    return path


def test_referee_check_prints_a_verdict_per_move_and_the_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = write_log(tmp_path / "m.jsonl", LEGAL_AND_ILLEGAL)
    assert main(["referee", "check", "--game", "deserto", str(log)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0] == {"index": 0, "seat": 0, "ok": True, "rules": [], "message": "vizier on nw"}
    assert lines[1]["ok"] is False and lines[1]["rules"] == ["DES-NO-BRIGAND-BY-VIZIER"]
    assert lines[2] == {"final": False, "scores": {"0": 0, "1": 0}, "winners": []}


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (['{"game": "deserto", "seats": ["A", "B"]}', "{not json"], "line 2: not valid JSON"),
        (['{"game": "deserto", "seats": ["A", "B"]}', '{"seat": 0, "move": "fly"}'],
         "line 2: unknown move 'fly'"),
        (['{"game": "uno", "seats": ["A", "B"]}'], "line 1:"),
        ([], "the log is empty"),
    ],
    ids=["bad-json", "unknown-move", "other-game", "empty"],
)
def test_a_malformed_log_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[str], expected: str
) -> None:
    log = write_log(tmp_path / "bad.jsonl", lines)
    assert main(["referee", "check", "--game", "deserto", str(log)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    [message] = captured.err.splitlines()
    assert message.startswith("tableref: error: ") and expected in message


def test_an_unknown_game_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = write_log(tmp_path / "m.jsonl", LEGAL_AND_ILLEGAL)
    assert main(["referee", "check", "--game", "chess", str(log)]) == 2
    assert "unknown game 'chess'; tableref knows: deserto" in capsys.readouterr().err


def test_a_missing_log_file_is_a_user_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["referee", "check", "--game", "deserto", str(tmp_path / "nope.jsonl")]) == 2
    assert "nope.jsonl" in capsys.readouterr().err


def test_an_unreadable_image_is_a_user_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    garbage = tmp_path / "garbage.jpg"
    garbage.write_bytes(b"\xff\xd8 this is not a jpeg")
    for image in (empty, garbage, tmp_path / "missing.jpg"):
        assert main(["vision", "identify", str(image), "--game", "deserto"]) == 2
        [message] = capsys.readouterr().err.splitlines()
        assert message.startswith("tableref: error: ") and image.name in message


def test_a_frame_without_the_mat_tags_is_a_user_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import cv2
    import numpy as np

    photo = tmp_path / "table.jpg"
    cv2.imwrite(str(photo), np.full((360, 640, 3), 90, np.uint8))
    assert main(["vision", "identify", str(photo), "--game", "deserto"]) == 2
    [message] = capsys.readouterr().err.splitlines()
    assert "tags" in message


def test_a_malformed_session_folder_is_a_user_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(tmp_path / "nowhere")]) == 2
    session = tmp_path / "s"
    (session / "frames").mkdir(parents=True)
    (session / "session.json").write_text('{"match": {"game": "deserto", "seats": ["A"]}}')
    (session / "events.jsonl").write_text("")
    assert main(["replay", str(session)]) == 2
    errors = capsys.readouterr().err.splitlines()
    assert len(errors) == 2 and "nowhere" in errors[0] and "2 to 4 players" in errors[1]


def test_the_console_script_runs_without_a_traceback(tmp_path: Path) -> None:
    log = write_log(tmp_path / "bad.jsonl", ['{"game": "deserto"}'])
    result = subprocess.run(
        [sys.executable, "-m", "firmware.cli", "referee", "check", "--game", "deserto",
         str(log)],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.strip() == (
        f'tableref: error: {log}: line 1: the header needs "seats", a list of player names'
    )
