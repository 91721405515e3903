"""Recorded sessions: replaying one through the live pipeline, and recording one.

A session folder (docs/sessions.md) holds `session.json` (the match header under
"match", the mat under "mat"), the frames, and `events.jsonl`. Replay feeds it to the
very same pipeline as live play, with a simulated panel in place of the GPIO one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from firmware.enrollment import build_reader
from firmware.loop import Pipeline, drive
from firmware.pipeline import FeedLike, PipelineError, RefereePipeline
from firmware.store import MatchStore
from firmware.tracker import Tracker, TrackerSettings
from hardware.camera import NameEvent, ReplayCamera, read_session_events, read_session_metadata
from hardware.panel import ButtonEvent, Panel, SimulatedPanel
from referee.core import Header, Match, RefereeError
from referee.games import get_game
from referee.notation import parse_header, parse_move
from vision.calibration import VisionError
from vision.mat import MatSpec, default_mat
from webui.control import ControlError


class SessionError(Exception):
    """A session folder that cannot be replayed; the message says why."""


def session_header(metadata: dict[str, Any], where: Path) -> Header:
    match = metadata.get("match")
    if not isinstance(match, dict):
        raise SessionError(f"{where}/session.json has no \"match\" header")
    try:
        header = parse_header(match)
        return get_game(header.game).check_header(header)
    except RefereeError as error:
        raise SessionError(f"{where}/session.json: {error}") from None


def session_mat(metadata: dict[str, Any], where: Path) -> MatSpec:
    if "mat" not in metadata:
        return default_mat()
    try:
        return MatSpec.from_json(metadata["mat"])
    except (KeyError, TypeError, ValueError, IndexError):
        raise SessionError(f"{where}/session.json: \"mat\" is not a valid mat.json") from None


def build_pipeline(
    header: Header,
    mat: MatSpec,
    panel: Panel,
    feed: FeedLike | None = None,
    store: MatchStore | None = None,
    match_id: int | None = None,
    moves: Iterable[dict[str, Any]] = (),
    tracker_settings: TrackerSettings | None = None,
    deck_photos: Path | None = None,
    data: Path | None = None,
) -> RefereePipeline:
    """The pipeline for one match; `moves` (from the store) are replayed first. Cards are
    named after `deck_photos`, else the deck profile in the data folder `data`, else our
    art."""
    game = get_game(header.game)
    match = Match(game, header)
    for logged in moves:
        match.play(parse_move(game, logged, len(header.seats)))
    reader = build_reader(game.deck, mat, deck_photos, data, save=False)  # only reads
    tracker = Tracker(mat.center_mm, tracker_settings)
    return RefereePipeline(match, reader, tracker, panel, VisionError, feed, store, match_id,
                           card_mm=reader.card_mm)


def replay_outcome(pipeline: RefereePipeline) -> list[dict[str, Any]]:
    """What a replay made of a session as a fixture's expected.jsonl holds it: the moves
    with their verdicts, the take-backs by index, the result; not the lines that only
    inform the table (questions, problems)."""
    return [{"takeback": event["takeback"]} if "takeback" in event else event
            for event in [*pipeline.transcript, pipeline.result()]
            if "ask" not in event and "problem" not in event]


def replay_session(
    session_dir: Path,
    feed: FeedLike | None = None,
    panel: SimulatedPanel | None = None,
    pace: Callable[[float], None] | None = None,
    data: Path | None = None,
) -> RefereePipeline:
    """Run a recorded session through the pipeline; returns it with its transcript (the
    deck profile in the data folder `data` names its cards, if there is one)."""
    metadata = read_session_metadata(session_dir)
    header = session_header(metadata, session_dir)
    mat = session_mat(metadata, session_dir)
    panel = panel or SimulatedPanel(len(header.seats))
    pipeline = build_pipeline(header, mat, panel, feed, data=data)
    play_session(pipeline, session_dir, panel, pace, name_card=pipeline.name_card)
    return pipeline


def play_session(
    target: Pipeline,
    session_dir: Path,
    panel: SimulatedPanel,
    pace: Callable[[float], None] | None = None,
    start_after: float | None = None,
    name_card: Callable[[int, str], None] | None = None,
) -> None:
    """Feed a session's frames and button presses to `target` (a pipeline, or the table
    service), through the same loop as live play, and the cards the page named to
    `name_card`. `start_after` skips what happened up to that time (s), to resume after
    the last move the store logged."""
    recorded = [
        e for e in read_session_events(session_dir)
        if isinstance(e, ButtonEvent | NameEvent) and (start_after is None or e.t > start_after)
    ]

    def presses(t: float) -> list[ButtonEvent]:
        while recorded and recorded[0].t <= t:
            event = recorded.pop(0)
            if isinstance(event, NameEvent):
                named(event)
            elif event.seat < panel.seats:
                panel.inject(event)
            else:
                target.note_problem(f"t={event.t}: button of seat {event.seat}, no such seat")
        panel.poll()
        return panel.events()

    def named(event: NameEvent) -> None:
        # The presses recorded before it go first (the loop reads the panel after).
        for press in panel.events():
            target.on_press(press.seat, press.kind, t=press.t)
        if name_card is None:
            target.note_problem(f"t={event.t}: the page named a card, but nothing takes names")
            return
        try:
            name_card(event.card, event.code)
        except (PipelineError, ControlError) as error:
            target.note_problem(f"t={event.t}: the page named a card: {error}")

    camera = ReplayCamera(session_dir, start_after)
    drive(target, camera, presses, pace=pace)
    for problem in camera.problems:
        target.note_problem(problem)
