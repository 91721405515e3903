"""Camera sources: the Pi camera, a USB webcam or video file, and a recorded session.

Every source hands out :class:`Frame` objects through the same small :class:`Camera`
interface, so the pipeline cannot tell live play from a replay:

    with ReplayCamera(Path("sessions/2024-05-01-deserto")) as camera:
        frame = camera.read()
        print(frame.index, frame.t, frame.image.shape)

A session folder is described in docs/sessions.md; :class:`SessionRecorder` writes one.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Protocol, TextIO

import cv2
import numpy as np
import numpy.typing as npt

from hardware.closing import Closing
from hardware.panel import BUTTON_KINDS, ButtonEvent

Image = npt.NDArray[np.uint8]
Clock = Callable[[], float]


class CameraError(Exception):
    """A camera problem the user can fix; the message is one line saying what is wrong."""


@dataclass(frozen=True, eq=False)
class Frame:
    """One picture of the table: a BGR uint8 image, when it was taken (s) and its number.

    `full`, where the camera has one, is the same instant at the sensor's higher
    resolution (BGR too), for naming cards; `image` is the small frame for detection
    and motion."""

    image: Image
    t: float
    index: int
    full: Image | None = None


class Camera(Closing, Protocol):
    """What the pipeline reads frames from; use it as a context manager to close it."""

    def read(self) -> Frame | None:
        """The next frame, or None when there is none now or the source has ended."""
        ...

    def close(self) -> None:
        """Release the device or file; reading afterwards is a bug."""
        ...


class PiCamera(Camera):
    """The Raspberry Pi camera module (CSI ribbon), through picamera2.

    Two streams of one sensor: a small one (`resolution`) for detection and motion,
    and the larger main one (`full_resolution`) for naming cards, both from the same
    request, so both show the same instant. Exposure and white balance run on auto until
    :meth:`lock_exposure` fixes them at their current values (once the mat is seen, so
    the mat model and the enrolled deck's colours hold). Only works on a Pi with
    ``python3-picamera2`` installed from the OS:

        with PiCamera(resolution=(1280, 720)) as camera:
            frame = camera.read()
            camera.lock_exposure()
    """

    def __init__(
        self,
        resolution: tuple[int, int] = (1280, 720),
        full_resolution: tuple[int, int] | None = (2304, 1296),
        clock: Clock = time.monotonic,
        camera_number: int = 0,
    ) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as error:
            raise CameraError(
                "picamera2 is not installed: on the Pi run 'sudo apt install python3-picamera2'"
                " and make the venv with --system-site-packages"
            ) from error
        if len(Picamera2.global_camera_info()) <= camera_number:
            raise CameraError("no Pi camera found: check the ribbon cable, then reboot")
        self._full = full_resolution is not None
        try:
            self._camera = Picamera2(camera_number)
        except Exception as error:  # libcamera's own errors (RuntimeError, OSError)
            raise CameraError(f"the Pi camera cannot be opened: {_one_line(error)}; is "
                              "another program using it?") from None
        try:
            # libcamera's "RGB888" lays pixels out as B, G, R bytes: already OpenCV's order.
            # The small stream is YUV420, the one format a Pi 4's second stream offers.
            streams: dict[str, Any] = (
                {"main": {"size": tuple(full_resolution), "format": "RGB888"},
                 "lores": {"size": tuple(resolution), "format": "YUV420"}}
                if full_resolution is not None
                else {"main": {"size": tuple(resolution), "format": "RGB888"}}
            )
            # Four buffers, not six: each full frame is about 9 MB of the Pi's memory.
            config = self._camera.create_video_configuration(**streams, buffer_count=4)
            self._camera.configure(config)
            self._camera.start()
        except Exception as error:
            self._camera.close()
            raise CameraError(f"the Pi camera cannot start: {_one_line(error)}") from None
        self._clock = clock
        self._index = 0
        self._closed = False
        self.locked: dict[str, Any] | None = None

    def read(self) -> Frame | None:
        names = ["main", "lores"] if self._full else ["main"]
        try:
            arrays, _metadata = self._camera.capture_arrays(names)
        except Exception as error:
            raise CameraError(f"the Pi camera stopped: {_one_line(error)}") from None
        t = self._clock()
        if self._full:
            full = np.ascontiguousarray(arrays[0], dtype=np.uint8)
            image = np.asarray(cv2.cvtColor(arrays[1], cv2.COLOR_YUV2BGR_I420), dtype=np.uint8)
        else:
            full, image = None, np.ascontiguousarray(arrays[0], dtype=np.uint8)
        frame = Frame(image=image, t=t, index=self._index, full=full)
        self._index += 1
        return frame

    def lock_exposure(self) -> dict[str, Any]:
        """Fix exposure time, gain and white balance at what auto chose for the latest
        frame; returns the controls set."""
        try:
            metadata = self._camera.capture_metadata()
            controls = {
                "AeEnable": False,
                "AwbEnable": False,
                "ExposureTime": int(metadata["ExposureTime"]),
                "AnalogueGain": float(metadata["AnalogueGain"]),
                "ColourGains": tuple(float(gain) for gain in metadata["ColourGains"]),
            }
            self._camera.set_controls(controls)
        except KeyError as error:
            raise CameraError(f"the Pi camera does not report {error}: cannot fix its "
                              "exposure") from None
        except Exception as error:
            raise CameraError(f"the Pi camera refused fixed exposure: {_one_line(error)}") \
                from None
        self.locked = controls
        return controls

    def unlock_exposure(self) -> None:
        """Back to auto exposure and white balance (e.g. to calibrate again)."""
        try:
            self._camera.set_controls({"AeEnable": True, "AwbEnable": True})
        except Exception as error:
            raise CameraError(f"the Pi camera refused auto exposure: {_one_line(error)}") \
                from None
        self.locked = None

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self._camera.stop()
        finally:
            self._camera.close()


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


class OpenCVCamera(Camera):
    """A USB webcam (given by its device number) or a video file (given by its path).

    A file ends with ``read() -> None``; a webcam that stops delivering raises
    :class:`CameraError`. File frames are timed by their position in the video,
    webcam frames by the clock:

        with OpenCVCamera(0, resolution=(1280, 720)) as camera:
            frame = camera.read()
    """

    def __init__(
        self,
        source: int | str,
        resolution: tuple[int, int] | None = None,
        clock: Clock = time.monotonic,
        max_missed_frames: int = 30,
    ) -> None:
        self._live = isinstance(source, int)
        if isinstance(source, str) and not Path(source).is_file():
            raise CameraError(f"video file not found: {source}")
        self._capture = cv2.VideoCapture(source)
        if not self._capture.isOpened():
            self._capture.release()
            if self._live:
                raise CameraError(f"camera {source} not found: is the webcam plugged in?")
            raise CameraError(f"cannot read video file {source}: not a video OpenCV can decode")
        if resolution is not None:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, resolution[0])
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, resolution[1])
        self._clock = clock
        self._max_missed_frames = max_missed_frames
        self._missed_in_a_row = 0
        self._index = 0

    def read(self) -> Frame | None:
        ok, image = self._capture.read()
        if not ok or image is None:
            if not self._live:
                return None
            self._missed_in_a_row += 1
            if self._missed_in_a_row >= self._max_missed_frames:
                raise CameraError("camera stopped delivering frames")
            return None
        self._missed_in_a_row = 0
        t = self._clock() if self._live else self._capture.get(cv2.CAP_PROP_POS_MSEC) / 1000.0
        frame = Frame(image=np.asarray(image, dtype=np.uint8), t=t, index=self._index)
        self._index += 1
        return frame

    def close(self) -> None:
        self._capture.release()


@dataclass(frozen=True)
class FrameEvent:
    """A line of events.jsonl naming a frame file (relative to the session folder) and,
    from a camera with two streams, the file of its full frame (`full`, Frame.full)."""

    t: float
    frame: str
    full: str | None = None


@dataclass(frozen=True)
class NameEvent:
    """A line of events.jsonl: the page named unknown card `card` (its number in the
    page's list of cards the camera could not name) as `code` (docs/sessions.md)."""

    t: float
    card: int
    code: str


SessionEvent = FrameEvent | ButtonEvent | NameEvent

EVENTS_FILE = "events.jsonl"
METADATA_FILE = "session.json"
FRAMES_FOLDER = "frames"
FULL_FOLDER = "full"


def read_session_events(session_dir: Path) -> list[SessionEvent]:
    """Every frame, button and page event of a recorded session, in time order.

    Raises CameraError naming the line number of a malformed line.
    """
    events_path = Path(session_dir) / EVENTS_FILE
    if not Path(session_dir).is_dir():
        raise CameraError(f"session folder not found: {session_dir}")
    if not events_path.is_file():
        raise CameraError(f"session folder malformed: no {EVENTS_FILE} in {session_dir}")
    events: list[SessionEvent] = []
    with events_path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                events.append(_parse_event(line))
            except ValueError as error:
                raise CameraError(f"{events_path} line {number}: {error}") from None
    # Stable: a recorder may append a button line a moment after a later frame.
    return sorted(events, key=lambda event: event.t)


def _parse_event(line: str) -> SessionEvent:
    try:
        data = json.loads(line)
    except json.JSONDecodeError:
        raise ValueError("not valid JSON") from None
    if not isinstance(data, dict):
        raise ValueError("expected a JSON object")
    t = data.get("t")
    if isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t):
        raise ValueError('"t" must be a number of seconds')
    if "frame" in data:
        frame = data["frame"]
        if not isinstance(frame, str) or not _is_inside_session(frame):
            raise ValueError('"frame" must be a relative path such as "frames/000012.jpg"')
        full = data.get("full")
        if full is not None and (not isinstance(full, str) or not _is_inside_session(full)):
            raise ValueError('"full" must be a relative path such as "full/000012.jpg"')
        return FrameEvent(t=float(t), frame=frame, full=full)
    if "button" in data:
        seat, kind = data["button"], data.get("kind")
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
            raise ValueError('"button" must be a seat number (0, 1, ...)')
        if kind not in BUTTON_KINDS:
            raise ValueError(f'"kind" must be one of {", ".join(BUTTON_KINDS)}')
        return ButtonEvent(seat=seat, kind=kind, t=float(t))
    if "page" in data:
        card, code = data.get("card"), data.get("code")
        if data["page"] != "name-card":
            raise ValueError('"page" must be "name-card"')
        if isinstance(card, bool) or not isinstance(card, int) or card < 0:
            raise ValueError('"card" must be the number of an unknown card (0, 1, ...)')
        if not isinstance(code, str) or not code:
            raise ValueError('"code" must be a card code such as "red-5"')
        return NameEvent(t=float(t), card=card, code=code)
    raise ValueError('expected a "frame", a "button" or a "page" event')


def _is_inside_session(relative_path: str) -> bool:
    path = PurePosixPath(relative_path)
    return not path.is_absolute() and ".." not in path.parts and relative_path != ""


def read_session_metadata(session_dir: Path) -> dict[str, Any]:
    """The session.json of a recorded session (game, seats, options, ...)."""
    metadata_path = Path(session_dir) / METADATA_FILE
    if not Path(session_dir).is_dir():
        raise CameraError(f"no such session folder: {session_dir}")
    try:
        metadata = json.loads(metadata_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CameraError(
            f"{session_dir} is not a session folder: it has no {METADATA_FILE}"
        ) from None
    except json.JSONDecodeError as error:
        raise CameraError(f"{metadata_path} is not valid JSON: {error}") from None
    if not isinstance(metadata, dict):
        raise CameraError(f"{metadata_path} must hold a JSON object")
    return metadata


class ReplayCamera(Camera):
    """A recorded session folder played back as a camera, frame by frame.

    Frames come as fast as they are read, with their recorded times, each with its full
    frame where the session has one (Frame.full); a missing or unreadable frame file, or
    full frame file, skips the frame and is noted in ``problems`` (named from the small
    frame alone, a frame would read otherwise than the camera saw it):

        with ReplayCamera(Path("sessions/2024-05-01-deserto")) as camera:
            while (frame := camera.read()) is not None:
                ...
            print(camera.problems)
    """

    def __init__(self, session_dir: Path, start_after: float | None = None) -> None:
        """`start_after`: skip the frames up to that time (s), e.g. to resume a replay."""
        self._session_dir = Path(session_dir)
        self._frames: Iterator[tuple[int, FrameEvent]] = (
            (index, event)
            for index, event in enumerate(
                event
                for event in read_session_events(self._session_dir)
                if isinstance(event, FrameEvent)
            )
            if start_after is None or event.t > start_after
        )
        self.problems: list[str] = []

    def read(self) -> Frame | None:
        for index, event in self._frames:
            image = self._image(event.frame, event.t, "")
            if image is None:
                continue
            full = None
            if event.full is not None:
                full = self._image(event.full, event.t, "full frame ")
                if full is None:
                    continue
            return Frame(image=image, t=event.t, index=index, full=full)
        return None

    def _image(self, name: str, t: float, what: str) -> Image | None:
        """The JPEG `name` of the session, or None with the problem noted."""
        path = self._session_dir / name
        if not path.is_file():
            self.problems.append(f"{name} (t={t}): {what}file missing, skipped")
            return None
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            self.problems.append(f"{name} (t={t}): unreadable {what}image, skipped")
            return None
        return np.asarray(image, dtype=np.uint8)

    def close(self) -> None:
        self._frames = iter(())


class SessionRecorder(Closing):
    """Writes a session folder that :class:`ReplayCamera` can play back.

        with SessionRecorder(Path("sessions/today"), {"game": "deserto"}) as recorder:
            recorder.add_frame(frame)
            recorder.add_button(ButtonEvent(seat=1, kind="press", t=3.2))

    Each event line is flushed as it is written, so a power cut loses at most one.
    """

    def __init__(
        self, session_dir: Path, metadata: Mapping[str, Any], jpeg_quality: int = 90,
        full_frames: bool = False,
    ) -> None:
        """`full_frames`: also keep each frame's full frame, where the camera has one
        (several times the space of the small frame)."""
        self._session_dir = Path(session_dir)
        if (self._session_dir / EVENTS_FILE).exists():
            raise CameraError(f"{session_dir} already holds a recording: choose a new folder")
        (self._session_dir / FRAMES_FOLDER).mkdir(parents=True, exist_ok=True)
        (self._session_dir / METADATA_FILE).write_text(
            json.dumps(dict(metadata), indent=2) + "\n", encoding="utf-8"
        )
        self._events: TextIO = (self._session_dir / EVENTS_FILE).open("a", encoding="utf-8")
        self._jpeg_quality = jpeg_quality
        self._full_frames = full_frames
        if full_frames:
            (self._session_dir / FULL_FOLDER).mkdir(exist_ok=True)
        self._frames_written = 0

    def add_frame(self, frame: Frame) -> None:
        line: dict[str, Any] = {"t": frame.t,
                                "frame": self._write_jpeg(frame.image, FRAMES_FOLDER, frame)}
        if self._full_frames and frame.full is not None:
            line["full"] = self._write_jpeg(frame.full, FULL_FOLDER, frame)
        self._frames_written += 1
        self._write_line(line)

    def _write_jpeg(self, image: Image, folder: str, frame: Frame) -> str:
        ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, self._jpeg_quality])
        if not ok:
            raise ValueError(f"frame {frame.index} could not be encoded as JPEG")
        name = f"{folder}/{self._frames_written:06d}.jpg"
        (self._session_dir / name).write_bytes(jpeg.tobytes())
        return name

    def add_button(self, event: ButtonEvent) -> None:
        self._write_line({"t": event.t, "button": event.seat, "kind": event.kind})

    def _write_line(self, data: dict[str, Any]) -> None:
        self._events.write(json.dumps(data) + "\n")
        self._events.flush()

    def close(self) -> None:
        self._events.close()
