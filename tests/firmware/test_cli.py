"""The `tableref` command as a user meets it: results on stdout, one-line errors, exit 2."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.cli import build_parser, main, table_header
from referee.games import GAMES

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
    assert lines[0] == {"index": 0, "seat": 0, "ok": True, "rules": [], "message": ""}
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


# -- help, seats counted from 1, plain messages --------------------------------------------

SESSION = Path(__file__).parents[1] / "fixtures/deserto/two-players-daylight"


def _options(parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.Action]]:
    """(command, option) for every option and argument of every subcommand."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                for where, option in _options(sub):
                    yield f"{name} {where}".strip(), option
        elif not isinstance(action, argparse._HelpAction):
            yield "", action


def test_every_option_has_a_help_text() -> None:
    options = list(_options(build_parser()))
    assert len(options) > 30
    assert [f"{where}: {action.dest}" for where, action in options if not action.help] == []
    helps = {(where, action.dest): str(action.help) for where, action in options}
    assert ", ".join(sorted(GAMES)) in helps[("run", "game")]
    assert "counted from 1" in helps[("record", "first")]
    assert "e.g. --option" in helps[("run", "option")]
    assert "folder" in helps[("deck export", "out")]


def test_first_counts_from_1_and_the_log_from_0(tmp_path: Path) -> None:
    args = build_parser().parse_args(
        ["record", "--out", str(tmp_path), "--game", "deserto", "--seats", "Ana,Bogdan",
         "--first", "2"])
    assert table_header(args)["first"] == 1
    args.first = 0
    with pytest.raises(ValueError, match="--first 0: give a seat from 1 to 2"):
        table_header(args)


def test_a_missing_file_is_named_plainly(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["referee", "check", "--game", "deserto", "/nonexistent.jsonl"]) == 2
    assert capsys.readouterr().err == "tableref: error: no such file: /nonexistent.jsonl\n"


def test_a_missing_session_folder_is_named_plainly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(tmp_path / "X")]) == 2
    assert capsys.readouterr().err == f"tableref: error: no such session folder: {tmp_path}/X\n"
    assert main(["replay", str(tmp_path)]) == 2
    assert "is not a session folder: it has no session.json" in capsys.readouterr().err


def test_replay_tells_the_moves_in_words_and_the_result_by_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["replay", str(SESSION)]) == 0
    lines = capsys.readouterr().out.splitlines()
    # each move said once: the verdict adds what the move does not say
    assert lines[0] == "#1 Ana puts a brigand on SE"
    assert lines[1] == "#2 Bogdan puts a vizier on NE and captures 1 card"
    assert "#8 Bogdan puts a brigand on NE: illegal, No brigand next to a vizier " \
           "(DES-NO-BRIGAND-BY-VIZIER): a brigand may not go next to a vizier" in lines
    assert "#8 taken back: Bogdan took the flagged card back" in lines
    assert lines[-1] == "Bogdan wins; scores Ana 22, Bogdan 28"
    assert not [line for line in lines if "seat" in line or "{" in line or "(s)" in line]


def test_output_into_head_ends_quietly(tmp_path: Path) -> None:
    """`tableref ... | head -1`: the reader closes the pipe early (the output is more
    than a pipe holds); no "Broken pipe", no traceback."""
    moves = [{"seat": i % 2, "move": "place", "cell": "nw", "card": "oasis"}
             for i in range(6000)]
    log = write_log(tmp_path / "long.jsonl", [LEGAL_AND_ILLEGAL[0], *moves])
    result = subprocess.run(
        f"{sys.executable} -m firmware.cli referee check --game deserto {log} | head -n 1",
        shell=True, capture_output=True, text=True, check=False,
    )
    assert json.loads(result.stdout)["index"] == 0
    assert result.stderr == ""
