"""The exporting commands and the demo, run as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from PIL import Image

from firmware.cli import main
from firmware.session import replay_session


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


def test_a_demo_of_a_folder_that_is_not_there_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--session", str(tmp_path / "nowhere"), "--data", str(tmp_path)]) == 2
    [message] = capsys.readouterr().err.splitlines()
    assert message == f"tableref: error: no session folder at {tmp_path / 'nowhere'}"
