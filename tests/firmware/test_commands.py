"""The exporting commands, the demo and replay's lines, run as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from firmware.cli import main
from firmware.commands import continued, describe
from firmware.session import replay_session
from hardware.camera import Frame, ReplayCamera
from referee.notation import read_log, replay

LOGS = Path(__file__).parents[1] / "fixtures" / "referee"


def test_deck_export_writes_every_face_a_manifest_and_a_printable_sheet(tmp_path: Path) -> None:
    assert main(["deck", "export", "deserto", "--out", str(tmp_path)]) == 0
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["card_mm"] == [63.0, 88.0]
    assert sorted(manifest["faces"]) == ["brigand", "oasis", "treasure", "vizier"]
    for name in manifest["faces"].values():
        with Image.open(tmp_path / name) as face:
            assert face.size[0] > 100
    pdf = (tmp_path / "sheet.pdf").read_bytes()
    # 51 cards at nine a page, then a page of backs.
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") >= 7


def test_mat_export_writes_png_pdf_and_its_size(tmp_path: Path) -> None:
    assert main(["mat", "export", "--out", str(tmp_path)]) == 0
    mat = json.loads((tmp_path / "mat.json").read_text())
    assert (mat["width_mm"], mat["height_mm"]) == (594.0, 420.0)
    assert [tag["id"] for tag in mat["tags"]] == [0, 1, 2, 3]
    assert (tmp_path / "mat.png").stat().st_size > 0 and (tmp_path / "mat.pdf").is_file()


def replayed_lines(game: str, log: str) -> list[str]:
    """`tableref replay`'s lines for an example log, each move with its verdict."""
    match = replay(read_log((LOGS / game / log).read_text(encoding="utf-8").splitlines()))
    return [
        describe(line, match.game, match.header.seats)
        for ruling in match.rulings
        for line in ({**ruling.to_json(), "move": ruling.move.to_json()},
                     *(proof.to_json() for proof in ruling.deferred))
    ]


def test_a_remi_move_is_said_once_with_what_it_did() -> None:
    lines = replayed_lines("remi", "round.jsonl")
    assert lines[:3] == [
        "#1 Ana deals the tiles, the atu red 7 turned up and keeps 15 tiles, to discard first",
        "#2 Ana discards blue 3; Bogdan to play",
        "#3 Bogdan draws from the wall and holds 15 tiles",
    ]
    assert "#7 Ana lays out red 10, red 11, red 12; blue 9, joker, black 9 and opens with " \
           "45 points, holding 9 tiles" in lines
    assert "#12 Ana takes red 5 from the row at 2: use it in a meld this turn" in lines
    assert "   so #12 by Ana was illegal, The row's last tile, used at once (REMI-RUPERE-LAST): " \
           "Ana ended their turn without using red 5, taken from the row at move 12, " \
           "in a meld" in lines
    assert "#19 Ana shows their rack: red 5, red 8, blue 7, black 11, yellow 1, joker, " \
           "black 13; 7 tiles, 110 points against them" in lines
    # the last rack shown ends the round: what it counts against its seat is said too
    assert lines[-1] == "#20 Bogdan shows an empty rack: 0 points against them; round 1: " \
        "Ana -60, Bogdan +190; Bogdan starts the next"


def test_a_kanaloa_trick_names_the_winning_card_only_when_another_played_it() -> None:
    lines = replayed_lines("kanaloa", "race.jsonl")
    assert "#3 Ana plays yellow 5, announcing blue as trump and leads" in lines
    assert "#4 Bogdan plays octopus and removes a free ocean card" in lines
    assert "#30 Ana plays yellow 4 showing no red and wins the trick (trump yellow): their " \
           "boat sails to ocean 7a; round 1 ends: Ana removes a free ocean card and deals" in lines
    assert "#41 Bogdan plays red 1 and Chiara wins the trick with red 10 (trump red): their " \
           "boat sails to ocean 6b; Chiara leads, the trump is red" in lines
    assert "#55 Ana takes the dolphin's step to ocean 3b and leads; the trump is blue" in lines


def test_a_verdict_s_news_goes_on_the_move_s_sentence() -> None:
    assert continued("Ana discards red 13", "; Bogdan to play") == \
        "Ana discards red 13; Bogdan to play"
    assert continued("Ana shows an empty rack", ": 0 points against them") == \
        "Ana shows an empty rack: 0 points against them"
    assert continued("Ana puts a vizier on NW", "and captures 1 card") == \
        "Ana puts a vizier on NW and captures 1 card"
    assert continued("Ana draws 1", "") == "Ana draws 1"


def test_the_demo_serves_the_page_while_it_replays(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "firmware.cli", "demo", "--port", "0", "--speed", "20",
               "--data", str(tmp_path)]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True) as demo:
        try:
            assert demo.stdout is not None
            lines = iter(demo.stdout.readline, "")
            line = next(line for line in lines if line.startswith("tableref page: "))
            url = line.split()[2]
            assert url.startswith("http://127.0.0.1:")
            deadline = time.monotonic() + 120
            moves = 0
            while time.monotonic() < deadline and moves == 0:
                with urllib.request.urlopen(url + "api/state", timeout=5) as response:
                    state = json.load(response)
                moves = len(state.get("verdicts", []))
                time.sleep(0.2)
            assert moves > 0
            assert [seat["name"] for seat in state["seats"]] == ["Ana", "Bogdan"]
            with urllib.request.urlopen(url, timeout=5) as response:
                assert "Bogdan" in response.read().decode()
        finally:
            demo.terminate()
            demo.wait(timeout=10)


def test_the_demo_replays_another_recorded_session_with_its_players(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = Path(__file__).resolve().parents[1] / "fixtures/deserto/three-players-warm-lamp"
    assert main(["demo", "--session", str(session), "--once", "--speed", "1000", "--port", "0",
                 "--data", str(tmp_path)]) == 0
    finished = [line for line in capsys.readouterr().out.splitlines()
                if line.startswith("replay finished")]
    assert finished and "'2':" in finished[0]  # three seats scored
    stored = replay_session(session).result()
    assert finished == [f"replay finished: scores {stored['scores']}, "
                        f"winners {stored['winners']}"]


def test_the_demo_gives_the_page_the_tiles_the_recording_named_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A recorded Remi round whose table named 7 tiles on the page demos to the round's
    scores, as its replay does: the page's answers reach the demo's page too."""
    session = Path(__file__).resolve().parents[1] / "fixtures/remi/three-players-warm-lamp"
    assert main(["demo", "--session", str(session), "--once", "--speed", "1000", "--port", "0",
                 "--data", str(tmp_path)]) == 0
    finished = [line for line in capsys.readouterr().out.splitlines()
                if line.startswith("replay finished")]
    stored = replay_session(session).result()
    assert any(stored["scores"].values())
    assert finished == [f"replay finished: scores {stored['scores']}, "
                        f"winners {stored['winners']}"]


def test_a_demo_of_a_folder_that_is_not_there_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--session", str(tmp_path / "nowhere"), "--data", str(tmp_path)]) == 2
    [message] = capsys.readouterr().err.splitlines()
    assert message == f"tableref: error: no session folder at {tmp_path / 'nowhere'}"


class TwoStreamCamera:
    """A camera with a full frame beside each small one (as the Pi camera's), for 3 frames."""

    def __init__(self) -> None:
        self.index = 0

    def read(self) -> Frame | None:
        if self.index == 3:
            return None
        self.index += 1
        small = np.full((36, 64, 3), 40 * self.index, np.uint8)
        return Frame(small, t=self.index * 0.5, index=self.index,
                     full=np.full((72, 128, 3), 90, np.uint8))

    def __enter__(self) -> TwoStreamCamera:
        return self

    def __exit__(self, *_: object) -> None:
        """Nothing to release."""


@pytest.mark.parametrize("full", [True, False])
def test_record_keeps_the_full_frames_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, full: bool
) -> None:
    from firmware import commands

    monkeypatch.setattr(commands, "open_camera", lambda _name: TwoStreamCamera())
    session = tmp_path / "session"
    args = ["record", "--out", str(session), "--game", "deserto", "--seats", "Ana,Bogdan",
            "--camera", "pi", *(["--full"] if full else [])]
    assert main(args) == 0
    camera = json.loads((session / "session.json").read_text())["camera"]
    assert camera["resolution"] == [64, 36]
    assert camera.get("full_resolution") == ([128, 72] if full else None)
    with ReplayCamera(session) as replay:
        frames = [replay.read() for _ in range(3)]
    assert all(frame is not None and (frame.full is not None) == full for frame in frames)
