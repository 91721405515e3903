"""`tableref enrol` replays a recorded enrolment session: a deck that is not our art
(tests/fixtures/enrolment/uno-recoloured, 57 x 89 mm) is enrolled in two passes, and
every way it can go wrong says so and leaves the earlier profile as it was."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from firmware.cli import main
from firmware.deck_profile import load_profile

SESSION = Path(__file__).resolve().parents[1] / "fixtures/enrolment/uno-recoloured"
METADATA = json.loads((SESSION / "session.json").read_text(encoding="utf-8"))
FRAMES = [json.loads(line)["frame"] for line in
          (SESSION / "events.jsonl").read_text(encoding="utf-8").splitlines()]
LAYOUTS = len(METADATA["enrolment"]["layouts"])  # per pass; two frames each
EARLIER = b'{"an": "earlier profile"}\n'


def session_of(folder: Path, frames: list[str],
               change: Callable[[np.ndarray], np.ndarray] | None = None) -> Path:
    """A copy of the recorded session with only these frames (changed by `change`)."""
    (folder / "frames").mkdir(parents=True)
    shutil.copy(SESSION / "session.json", folder / "session.json")
    with (folder / "events.jsonl").open("w", encoding="utf-8") as events:
        for t, name in enumerate(frames):
            target = f"frames/{t:05d}.jpg"
            if change is None:
                shutil.copy(SESSION / name, folder / target)
            else:
                cv2.imwrite(str(folder / target), change(cv2.imread(str(SESSION / name))))
            events.write(json.dumps({"t": t * 0.5, "frame": target}) + "\n")
    return folder


def earlier_profile(data: Path) -> Path:
    folder = data / "decks/uno"
    folder.mkdir(parents=True)
    (folder / "profile.json").write_bytes(EARLIER)
    return folder / "profile.json"


def enrol(session: Path, data: Path, answers: str, *more: str) -> int:
    (data.parent / "answers.txt").write_text(answers, encoding="utf-8")
    return main(["enrol", "--game", "uno", "--camera", str(session), "--data", str(data),
                 "--answers", str(data.parent / "answers.txt"), *more])


def test_a_recorded_enrolment_writes_a_profile_of_every_face(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    earlier = earlier_profile(data)
    # the first layout's first two crops are named the wrong way round, then put right
    answers = "1=red-1 2=red-0\n1=red-0 2=red-1\ny\n" + "y\n" * (2 * LAYOUTS - 1)
    assert enrol(SESSION, data, answers, "--second-pass") == 0
    out = capsys.readouterr().out
    assert "deck profile written" in out and "crops: 1=red-1 2=red-0" in out
    assert "the cards' rim is lighter than the mat" in out  # its faces' white margin
    # the grey blank is named as the blank, in both passes' light: no face's confusion
    assert "blank" not in out.split("every face seen")[-1]
    profile = load_profile(earlier.parent)
    assert profile.deck == "uno" and profile.data["dark_rims"] is False
    assert set(profile.faces) == {c for layout in METADATA["enrolment"]["layouts"]
                                  for c in layout}
    assert all(len(views) == 2 for views in profile.faces.values())  # both passes
    width, height = METADATA["enrolment"]["card_mm"]
    assert abs(profile.card_mm[0] - width) <= 1.2 and abs(profile.card_mm[1] - height) <= 1.2
    assert len(profile.data["passes"]) == 2
    assert all(f"{code} ({share:.0%} of tries)" in out.split("left unknown")[-1]
               for code, share in profile.data["unsure"])
    assert sorted((data / "enrolment").iterdir())  # the contact sheets shown
    assert not [p for p in (data / "decks").iterdir() if p.name.startswith(".")]

    # the profile names this deck's cards by default, at its own size
    frame = SESSION / FRAMES[2 * LAYOUTS + 4]  # the second pass, third layout
    assert main(["vision", "identify", str(frame), "--game", "uno", "--data", str(data)]) == 0
    named = [c["code"] for c in json.loads(capsys.readouterr().out) if c["code"]]
    laid = METADATA["enrolment"]["layouts"][2]
    assert len(named) >= 6 and set(named) <= set(laid)


def test_a_missing_face_is_named_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    earlier = earlier_profile(data)
    session = session_of(tmp_path / "session", FRAMES[: 2 * (LAYOUTS - 1)])
    assert enrol(session, data, "y\n" * LAYOUTS) == 2
    error = capsys.readouterr().err
    assert "the camera ended first: 8 faces not seen: yellow-9, yellow-skip" in error
    assert "nothing written" in error and earlier.read_bytes() == EARLIER


def test_a_blurred_frame_asks_to_hold_still(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    earlier = earlier_profile(data)
    session = session_of(tmp_path / "session", FRAMES[:2],
                         lambda image: cv2.GaussianBlur(image, (0, 0), 2.0))
    assert enrol(session, data, "y\n") == 2
    captured = capsys.readouterr()
    assert "the picture is blurred: hold still" in captured.out
    assert "red-0" in captured.err and earlier.read_bytes() == EARLIER


def test_a_card_of_another_deck_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    earlier = earlier_profile(data)
    session = session_of(tmp_path / "session", METADATA["enrolment"]["extras"]["foreign"])
    assert enrol(session, data, "y\n") == 2
    out = capsys.readouterr().out
    foreign = METADATA["enrolment"]["layouts"][0].index(METADATA["enrolment"]["foreign"]) + 1
    assert f"card {foreign} is 6" in out and "a card of another deck?" in out
    assert earlier.read_bytes() == EARLIER


def test_the_first_pass_last_cards_still_lying_there_are_not_the_second_pass_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The table answers the first pass's last crops while its cards still lie on the mat:
    the frames after show them still, and the second pass waits for them to go (they were
    taken as its first layout, every crop 'looks like' what it is)."""
    last = FRAMES[2 * LAYOUTS - 2:2 * LAYOUTS]
    frames = FRAMES[:2 * LAYOUTS] + last + last + FRAMES[2 * LAYOUTS:]
    session = session_of(tmp_path / "session", frames)
    assert enrol(session, tmp_path / "data", "y\n" * (2 * LAYOUTS), "--second-pass") == 0
    out = capsys.readouterr().out
    assert "take the cards just seen away" in out.split("first pass done")[1]
    assert "looks like" not in out


def test_a_swapped_pair_is_caught_by_the_second_pass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    earlier = earlier_profile(data)
    frames = FRAMES[: 2 * LAYOUTS] + METADATA["enrolment"]["extras"]["swapped"]
    session = session_of(tmp_path / "session", frames)
    # a plain yes is refused while the pair looks swapped; then the answers end
    assert enrol(session, data, "y\n" * LAYOUTS + "y\n", "--second-pass") == 2
    captured = capsys.readouterr()
    a, b = METADATA["enrolment"]["swapped"]
    assert f"{a} and {b} look swapped" in captured.out
    assert "the answers ended half-way: nothing written" in captured.err
    assert earlier.read_bytes() == EARLIER


def test_a_stop_half_way_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    earlier = earlier_profile(data)
    session = session_of(tmp_path / "session", FRAMES[:6])
    assert enrol(session, data, "y\ny\n") == 2
    assert "the answers ended half-way" in capsys.readouterr().err

    class CtrlC:
        def readline(self) -> str:
            raise KeyboardInterrupt

    monkeypatch.setattr("sys.stdin", CtrlC())
    assert main(["enrol", "--game", "uno", "--camera", str(session), "--data", str(data)]) == 2
    assert "enrolment stopped half-way: nothing written" in capsys.readouterr().err
    assert earlier.read_bytes() == EARLIER


def test_a_wrong_answer_is_explained_and_asked_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = session_of(tmp_path / "session", FRAMES[:2])
    assert enrol(session, tmp_path / "data", "9=red-1\n3=purple-7\n1=red-1\n") == 2
    out = capsys.readouterr().out
    assert "'9=red-1': answer y, or N=CODE to rename crop N (1 to 8)" in out
    assert "'purple-7' is not a face of uno" in out
    assert "two crops would be red-1: rename the other one too" in out
