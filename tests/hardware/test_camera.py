"""Camera sources that run anywhere: a video file through OpenCV, and session folders."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware.camera import (
    CameraError,
    Frame,
    FrameEvent,
    NameEvent,
    OpenCVCamera,
    ReplayCamera,
    SessionRecorder,
    read_session_events,
    read_session_metadata,
)
from hardware.panel import ButtonEvent


def solid_frame(index: int, t: float) -> Frame:
    image = np.full((48, 64, 3), (40 * index % 256, 100, 200), dtype=np.uint8)
    return Frame(image=image, t=t, index=index)


def record_session(session_dir: Path) -> None:
    with SessionRecorder(session_dir, {"game": "deserto", "seats": ["Ana", "Bo"]}) as recorder:
        recorder.add_frame(solid_frame(0, 0.0))
        recorder.add_frame(solid_frame(1, 0.5))
        recorder.add_button(ButtonEvent(seat=1, kind="press", t=0.7))
        recorder.add_frame(solid_frame(2, 1.0))


def test_a_recorded_session_replays_its_frames_in_order(tmp_path: Path) -> None:
    record_session(tmp_path / "session")
    with ReplayCamera(tmp_path / "session") as camera:
        frames = [camera.read() for _ in range(4)]
        assert camera.problems == []
    assert frames[3] is None
    replayed = [frame for frame in frames if frame is not None]
    assert [(frame.index, frame.t) for frame in replayed] == [(0, 0.0), (1, 0.5), (2, 1.0)]
    first = replayed[0].image
    assert first.dtype == np.uint8 and first.shape == (48, 64, 3)
    assert np.abs(first.astype(int) - solid_frame(0, 0.0).image).max() < 8  # JPEG


def test_session_events_interleave_buttons_with_frames(tmp_path: Path) -> None:
    record_session(tmp_path / "session")
    assert read_session_events(tmp_path / "session") == [
        FrameEvent(t=0.0, frame="frames/000000.jpg"),
        FrameEvent(t=0.5, frame="frames/000001.jpg"),
        ButtonEvent(seat=1, kind="press", t=0.7),
        FrameEvent(t=1.0, frame="frames/000002.jpg"),
    ]
    assert read_session_metadata(tmp_path / "session") == {
        "game": "deserto",
        "seats": ["Ana", "Bo"],
    }


def test_a_card_the_page_named_is_an_event_in_its_time(tmp_path: Path) -> None:
    session = tmp_path / "session"
    session.mkdir()
    lines = [{"t": 0.0, "frame": "frames/000000.jpg"},
             {"t": 0.6, "page": "name-card", "card": 1, "code": "yellow-0"},
             {"t": 0.5, "frame": "frames/000001.jpg"}]
    (session / "events.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert read_session_events(session) == [
        FrameEvent(t=0.0, frame="frames/000000.jpg"),
        FrameEvent(t=0.5, frame="frames/000001.jpg"),
        NameEvent(t=0.6, card=1, code="yellow-0"),
    ]


def test_a_missing_or_broken_frame_is_skipped_and_reported(tmp_path: Path) -> None:
    session = tmp_path / "session"
    record_session(session)
    (session / "frames" / "000000.jpg").unlink()
    (session / "frames" / "000001.jpg").write_bytes(b"not a jpeg")
    camera = ReplayCamera(session)
    frame = camera.read()
    assert frame is not None and frame.t == 1.0
    assert camera.read() is None
    assert camera.problems == [
        "frames/000000.jpg (t=0.0): file missing, skipped",
        "frames/000001.jpg (t=0.5): unreadable image, skipped",
    ]


@pytest.mark.parametrize(
    "bad_line",
    [
        "{not json",
        "[1, 2]",
        '{"t": "soon", "frame": "frames/000001.jpg"}',
        '{"t": 1.0, "frame": "../../etc/passwd"}',
        '{"t": 1.0, "button": 2, "kind": "tap"}',
        '{"t": 1.0, "button": -1, "kind": "press"}',
        '{"t": 1.0, "note": "hello"}',
        '{"t": 1.0, "page": "undo"}',
        '{"t": 1.0, "page": "name-card", "card": -1, "code": "red-5"}',
        '{"t": 1.0, "page": "name-card", "card": 0}',
    ],
)
def test_a_malformed_events_line_names_its_line_number(tmp_path: Path, bad_line: str) -> None:
    session = tmp_path / "session"
    session.mkdir()
    good_line = json.dumps({"t": 0.0, "frame": "frames/000000.jpg"})
    (session / "events.jsonl").write_text(f"{good_line}\n\n{bad_line}\n")
    with pytest.raises(CameraError, match=r"events.jsonl line 3: "):
        ReplayCamera(session)


def test_a_folder_without_events_is_malformed(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="session folder malformed: no events.jsonl"):
        ReplayCamera(tmp_path)
    with pytest.raises(CameraError, match="session folder not found"):
        ReplayCamera(tmp_path / "nowhere")
    with pytest.raises(CameraError, match="no session.json"):
        read_session_metadata(tmp_path)


def test_the_recorder_will_not_overwrite_a_recording(tmp_path: Path) -> None:
    record_session(tmp_path / "session")
    with pytest.raises(CameraError, match="already holds a recording"):
        SessionRecorder(tmp_path / "session", {})


def test_the_recorder_writes_each_line_as_it_goes(tmp_path: Path) -> None:
    recorder = SessionRecorder(tmp_path / "session", {})
    recorder.add_button(ButtonEvent(seat=0, kind="hold", t=2.0))
    lines = (tmp_path / "session" / "events.jsonl").read_text().splitlines()
    recorder.close()
    assert [json.loads(line) for line in lines] == [{"t": 2.0, "button": 0, "kind": "hold"}]


def test_a_video_file_plays_with_its_own_timeline_and_ends(tmp_path: Path) -> None:
    video = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (64, 48))
    for index in range(3):
        writer.write(solid_frame(index, 0.0).image)
    writer.release()
    with OpenCVCamera(str(video)) as camera:
        frames = [camera.read() for _ in range(4)]
    assert frames[3] is None
    played = [frame for frame in frames if frame is not None]
    assert [frame.index for frame in played] == [0, 1, 2]
    assert [frame.t for frame in played] == pytest.approx([0.0, 0.1, 0.2])
    assert played[0].image.shape == (48, 64, 3)


def test_a_missing_video_file_is_a_camera_error(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="video file not found"):
        OpenCVCamera(str(tmp_path / "nothing.mp4"))
    garbage = tmp_path / "garbage.mp4"
    garbage.write_bytes(b"no video here")
    with pytest.raises(CameraError, match="cannot read video file"):
        OpenCVCamera(str(garbage))


def full_image(index: int) -> np.ndarray:
    """A full frame: twice the small frame's size, another colour to tell them apart."""
    return np.full((96, 128, 3), (200, 40 * index % 256, 30), dtype=np.uint8)


def two_stream_frame(index: int, t: float) -> Frame:
    return Frame(image=solid_frame(index, t).image, t=t, index=index, full=full_image(index))


def test_a_full_frame_is_recorded_and_replayed_with_its_frame(tmp_path: Path) -> None:
    session = tmp_path / "session"
    with SessionRecorder(session, {}, full_frames=True) as recorder:
        recorder.add_frame(two_stream_frame(0, 0.0))
        recorder.add_frame(solid_frame(1, 0.5))  # a camera with one stream: no full frame
    assert read_session_events(session) == [
        FrameEvent(t=0.0, frame="frames/000000.jpg", full="full/000000.jpg"),
        FrameEvent(t=0.5, frame="frames/000001.jpg"),
    ]
    with ReplayCamera(session) as camera:
        first, second = camera.read(), camera.read()
    assert first is not None and first.full is not None and first.full.shape == (96, 128, 3)
    assert np.abs(first.full.astype(int) - full_image(0)).max() < 8
    assert np.abs(first.image.astype(int) - solid_frame(0, 0.0).image).max() < 8
    assert second is not None and second.full is None


def test_the_recorder_keeps_no_full_frame_unless_asked(tmp_path: Path) -> None:
    with SessionRecorder(tmp_path / "session", {}) as recorder:
        recorder.add_frame(two_stream_frame(0, 0.0))
    assert read_session_events(tmp_path / "session") == [
        FrameEvent(t=0.0, frame="frames/000000.jpg")]
    assert not (tmp_path / "session" / "full").exists()


def test_a_missing_or_broken_full_frame_skips_its_frame_and_is_reported(tmp_path: Path) -> None:
    session = tmp_path / "session"
    with SessionRecorder(session, {}, full_frames=True) as recorder:
        for index in range(3):
            recorder.add_frame(two_stream_frame(index, index * 0.5))
    (session / "full" / "000000.jpg").unlink()
    (session / "full" / "000001.jpg").write_bytes(b"not a jpeg")
    camera = ReplayCamera(session)
    frame = camera.read()
    assert frame is not None and frame.t == 1.0 and frame.full is not None
    assert camera.read() is None
    assert camera.problems == [
        "full/000000.jpg (t=0.0): full frame file missing, skipped",
        "full/000001.jpg (t=0.5): unreadable full frame image, skipped",
    ]


@pytest.mark.parametrize("full", ['"../full/000001.jpg"', "3", '""'])
def test_a_full_frame_outside_the_session_names_its_line(tmp_path: Path, full: str) -> None:
    session = tmp_path / "session"
    session.mkdir()
    (session / "events.jsonl").write_text(
        f'{{"t": 0.0, "frame": "frames/000000.jpg", "full": {full}}}\n')
    with pytest.raises(CameraError, match=r'events.jsonl line 1: "full" must be a relative path'):
        ReplayCamera(session)
