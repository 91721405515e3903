"""The referee pipeline of DESIGN.md, the same for live play and for replay.

Frames go through vision (a reading of the table), the tracker (a stable view) and the
game's table interpreter (moves); moves go to the referee (verdicts), the store (the
log), the panel (turn LED, buzzer) and the live page. Bad frames are noted and skipped:
the loop never stops for them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import numpy as np

from firmware.store import MatchStore
from firmware.tracker import ReadingLike, Tracker
from referee.core import Match, Ruling
from referee.table import Action, AskTable, Play, Press, PressKind, TableInterpreter, TakeBack


class TableReaderLike(Protocol):
    def read(self, frame: np.ndarray) -> ReadingLike: ...


class PanelLike(Protocol):
    def show_turn(self, seat: int | None) -> None: ...
    def alarm(self) -> None: ...
    def status_ok(self) -> None: ...


class FeedLike(Protocol):
    def publish(self, snapshot: Mapping[str, Any]) -> object: ...


#: Raised by the reader for a frame it cannot use (vision.calibration.VisionError).
FrameProblem = type[Exception]


class RefereePipeline:
    """Turns frames and button presses into a refereed match.

    `transcript` collects what happened, in order: every ruling (as `referee check`
    prints it, plus the move), take-backs, questions for the table and frame problems.
    """

    def __init__(
        self,
        match: Match[Any],
        reader: TableReaderLike,
        tracker: Tracker,
        panel: PanelLike,
        frame_problem: FrameProblem,
        feed: FeedLike | None = None,
        store: MatchStore | None = None,
        match_id: int | None = None,
    ) -> None:
        self.match = match
        self.interpreter: TableInterpreter[Any] = match.game.interpreter(match.header)
        self._reader = reader
        self._tracker = tracker
        self._panel = panel
        self._frame_problem = frame_problem
        self._feed = feed
        self._store = store
        self._match_id = match_id
        self.transcript: list[dict[str, Any]] = []
        self._last_problem: str | None = None
        self._frame_trouble: str | None = None
        self._last_question: str | None = None
        self._show()

    # -- inputs -------------------------------------------------------------------

    def on_frame(self, frame: np.ndarray | None, label: str = "") -> None:
        """One camera frame; a frame that cannot be read is noted once and skipped."""
        try:
            if frame is None or frame.size == 0:
                raise self._frame_problem("the frame is empty")
            reading = self._reader.read(frame)
        except self._frame_problem as problem:
            # The same trouble frame after frame (a hand over a tag) is said once.
            if str(problem) != self._frame_trouble:
                self._frame_trouble = str(problem)
                self.note_problem(f"{label or 'frame'}: {problem}")
            return
        if self._frame_trouble is not None:
            self._frame_trouble = self._last_problem = None
        view = self._tracker.update(reading)
        if view is not None:
            self._act(self.interpreter.on_view(self.match.state, view, self._last_ruling()))

    def on_press(self, seat: int, kind: PressKind) -> None:
        """A seat's button; presses for seats the match does not have are ignored."""
        if not 0 <= seat < len(self.match.header.seats):
            self.note_problem(f"button of seat {seat}, but the match has no such seat")
            return
        press = Press(seat, kind)
        self._act(self.interpreter.on_press(self.match.state, press, self._last_ruling()))

    # -- effects ------------------------------------------------------------------

    def _act(self, actions: list[Action]) -> None:
        for action in actions:
            if isinstance(action, Play):
                self._play(action)
            elif isinstance(action, TakeBack):
                self._take_back(action)
            elif isinstance(action, AskTable):
                self._ask(action.message)
        if actions:
            self._show()

    def _play(self, action: Play) -> None:
        ruling = self.match.play(action.move)
        self._last_question = None
        if self._store is not None and self._match_id is not None:
            self._store.append_move(self._match_id, action.move.to_json())
            if self.match.game.is_over(self.match.state):
                self._store.finish_match(self._match_id, self.match.result())
        self.transcript.append({**ruling.to_json(), "move": action.move.to_json()})
        self.transcript += [proof.to_json() for proof in ruling.deferred]
        if not ruling.verdict.ok or ruling.deferred:
            self._panel.alarm()

    def _take_back(self, action: TakeBack) -> None:
        if not self.match.rulings:
            return
        dropped = self.match.undo()
        if self._store is not None and self._match_id is not None:
            self._store.drop_last_move(self._match_id)
        self.transcript.append({"takeback": dropped.index, "message": action.reason})

    def _ask(self, message: str) -> None:
        if message != self._last_question:
            self._last_question = message
            self.transcript.append({"ask": message})

    def note_problem(self, message: str) -> None:
        """Tell the table about a problem (a bad frame, a camera that stopped)."""
        if message != self._last_problem:
            self._last_problem = message
            self.transcript.append({"problem": message})
            self._show()

    def _last_ruling(self) -> Ruling | None:
        return self.match.rulings[-1] if self.match.rulings else None

    def _show(self) -> None:
        self._panel.show_turn(self.match.to_play())
        if self._feed is not None:
            self._feed.publish(self.snapshot())

    # -- outputs ------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """What the live page shows: seats, scores, the table, the latest verdicts."""
        game, state, header = self.match.game, self.match.state, self.match.header
        scores = game.scores(state)
        to_play = game.to_play(state)
        public = game.public_view(state)
        hands = public.get("hands", [])
        over = game.is_over(state)
        return {
            "game": game.name,
            "title": game.title,
            "seats": [
                {
                    "seat": seat,
                    "name": name,
                    "score": scores.get(seat, 0),
                    "to_play": seat == to_play,
                    "cards_in_hand": hands[seat] if seat < len(hands) else None,
                }
                for seat, name in enumerate(header.seats)
            ],
            "table": public.get("zones", []),
            "verdicts": [ruling.to_json() for ruling in self.match.rulings[-8:]],
            "status": "finished" if over else "playing",
            "message": self._last_question or self._last_problem or "",
            "winners": game.winners(state),
        }

    def result(self) -> dict[str, Any]:
        return self.match.result()
