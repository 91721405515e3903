"""The referee pipeline of DESIGN.md, the same for live play and for replay.

Frames go through vision (a reading of the table), the tracker (a stable view) and the
game's table interpreter (moves); moves go to the referee (verdicts), the store (the
log), the panel (turn LED, buzzer) and the live page. Bad frames are noted and skipped:
the loop never stops for them. The page adds what the camera cannot know: a name for
a card it could not read, a move it cannot see, an override, a take-back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import numpy as np

from firmware.page_board import board_json
from firmware.photos import crop_jpeg
from firmware.store import MatchStore
from firmware.tracker import ReadingLike, Tracker
from referee.core import Game, Match, RefereeError, Ruling, Verdict
from referee.table import (
    Action,
    AskTable,
    Play,
    Press,
    PressKind,
    TableInterpreter,
    TableView,
    TakeBack,
    ViewCard,
)
from referee.text import LANGUAGES, in_every_language, t

#: How far (mm) a card may lie from where the page named it and still be that card.
CORRECTION_REACH_MM = 15.0
#: How many times one view is read again after it led to a take-back (each take-back is
#: of one flagged move; a view shows at most a few gone at once).
REREADS_AFTER_TAKE_BACK = 3


class TableReaderLike(Protocol):
    def read(self, frame: np.ndarray, *, full: np.ndarray | None = None) -> ReadingLike: ...


class PanelLike(Protocol):
    def show_turn(self, seat: int | None) -> None: ...
    def alarm(self) -> None: ...
    def status_ok(self) -> None: ...


class FeedLike(Protocol):
    def publish(self, snapshot: Mapping[str, Any]) -> object: ...


#: Raised by the reader for a frame it cannot use (vision.calibration.VisionError).
FrameProblem = type[Exception]


class PipelineError(Exception):
    """A request from the page that does not fit the table now; the message says why."""


@dataclass(frozen=True)
class _SeenView:
    """A stable view, with the frame and reading it settled on and the time."""

    view: TableView
    seen: tuple[np.ndarray, ReadingLike]
    t: float | None


@dataclass(frozen=True)
class _HeldPress:
    """A seat's button, pressed while the table was asked to name a card."""

    seat: int
    kind: PressKind
    t: float | None


@dataclass
class _Waiting:
    """A view with cards the camera could not name that the game asked about, and what
    the table did since (views and presses, in order), held until the table names them:
    a card put on one of them, or anywhere, is judged only once the card under it is
    known, and given to a seat only once the moves before it are made."""

    asked: _SeenView
    before: TableView | None
    unread: tuple[ViewCard, ...]
    moves: list[int]
    arrived: list[ViewCard]
    later: list[_SeenView | _HeldPress] = field(default_factory=list)


class RefereePipeline:
    """Turns frames and button presses into a refereed match.

    `transcript` collects what happened, in order: every ruling (as `referee check`
    prints it, plus the move), take-backs, questions for the table and frame problems.
    `card_mm` is the size of the table's cards, where not the game's own deck's (a deck
    profile's: Game.interpreter).
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
        buttons: int | None = None,
        accepted: Iterable[int] = (),
        card_mm: tuple[float, float] | None = None,
    ) -> None:
        self.match = match
        # (the places of a game laid out by its cards' size follow the table's own deck's)
        self.interpreter: TableInterpreter[Any] = match.game.interpreter(match.header, card_mm)
        self._reader = reader
        self._tracker = tracker
        self._panel = panel
        self._frame_problem = frame_problem
        self._feed = feed
        self._store = store
        self.match_id = match_id
        self._buttons = len(match.header.seats) if buttons is None else buttons
        self.accepted: set[int] = set(accepted)
        self._photos = (
            store.photo_positions(match_id) if store is not None and match_id is not None
            else set()
        )
        self.transcript: list[dict[str, Any]] = []
        self._last_problem: str | None = None
        self._frame_trouble: str | None = None
        self._last_question: str | None = None
        self._now: float | None = None
        # The last stable view, the frame and reading it settled on, and the cards
        # the page named in it; the moves that view led to (undone if a name changes them).
        self._view: TableView | None = None
        self._seen: tuple[np.ndarray, ReadingLike] | None = None
        self._named: list[ViewCard] = []
        self._view_moves: list[int] = []
        self._evidence: list[Sequence[Sequence[float]]] = []
        # A move taken back on the page or by a button while its card still lies on the
        # table: until the view shows it lifted, that card is no new play (nor, with
        # another card, "2 cards changed at once").
        self._arrived: list[ViewCard] = []  # the cards new in the last view
        self._laid: dict[int, tuple[int, list[ViewCard]]] = {}  # move: its seat, cards
        self._dropped: tuple[int, list[ViewCard]] | None = None  # of the last take-back
        self._lifting: tuple[int, list[ViewCard]] | None = None
        self._waiting: _Waiting | None = None
        self._previous: TableView | None = None  # the stable view before the last one
        self._show()

    # -- inputs -------------------------------------------------------------------

    def on_frame(self, frame: np.ndarray | None, label: str = "", t: float | None = None,
                 full: np.ndarray | None = None) -> None:
        """One camera frame (`t`: seconds on the camera's clock; `full`: the same instant at
        the camera's full resolution, where cards are cut for naming); a frame that cannot
        be read is noted once and skipped."""
        if frame is None or frame.size == 0:
            self._unreadable("the frame is empty", label)
            return
        try:
            reading = self._reader.read(frame, full=full)
        except self._frame_problem as problem:
            self._unreadable(str(problem), label)
            return
        self._now = t if t is not None else self._now
        if self._frame_trouble is not None:
            self._frame_trouble = self._last_problem = None
        view = self._tracker.update(reading)
        if view is None:
            return
        self._settled(_SeenView(view, (frame, reading), self._now))

    def _unreadable(self, problem: str, label: str) -> None:
        """A frame that cannot be read: the same trouble frame after frame (a hand over a
        tag) is said once."""
        if problem != self._frame_trouble:
            self._frame_trouble = problem
            self.note_problem(f"{label or 'frame'}: {problem}")

    def _settled(self, seen: _SeenView) -> None:
        """A new stable view: read it, or hold it while the table is asked to name a card
        of an earlier one."""
        previous, self._view, self._seen = self._view, seen.view, seen.seen
        self._now = seen.t if seen.t is not None else self._now
        if self._waiting is not None:
            self._hold(seen)
            return
        self._named = [card for card in self._named if _near(card, self._unread(seen.view))]
        self._previous = previous
        self._arrived = _new_cards(previous, seen.view)
        self._evidence = self._outlines(self._arrived, seen.seen[1])
        self._interpret()

    def _hold(self, seen: _SeenView) -> None:
        """While the table is asked to name a card: a view back to the one before that
        card came (it was lifted again) ends the question; any other view waits."""
        waiting = self._waiting
        assert waiting is not None
        lifted = (waiting.before is not None
                  and len(seen.view.cards) == len(waiting.before.cards)
                  and not _new_cards(waiting.before, seen.view))
        if lifted and not waiting.later:
            self._waiting = None
            if waiting.moves and waiting.moves[-1] == len(self.match.rulings) - 1:
                for _ in waiting.moves:
                    self.take_back("the card the camera could not read was lifted again")
            self._named, self._arrived, self._evidence = [], [], []
            self._interpret()
            return
        waiting.later.append(seen)
        self._ask(t("name on the page the card the camera could not read: what the table "
                    "did after it waits until then"))
        self._show()

    def on_press(self, seat: int, kind: PressKind, t: float | None = None) -> None:
        """A seat's button; presses for seats the match does not have are ignored."""
        if not 0 <= seat < len(self.match.header.seats):
            self.note_problem(f"button of seat {seat}, but the match has no such seat")
            return
        self._now = t if t is not None else self._now
        if self._waiting is not None:
            # After the card it cannot name: made in its order once the table names it.
            self._waiting.later.append(_HeldPress(seat, kind, t))
            return
        self._evidence = []
        press = Press(seat, kind)
        self._dropped, self._arrived = None, []
        actions = self.interpreter.on_press(self.match.state, press, self._last_for_table())
        self._act(actions)
        if any(isinstance(action, TakeBack) for action in actions):
            self._lift_after_take_back()

    # -- the page -----------------------------------------------------------------

    def unknown_cards(self) -> list[ViewCard]:
        """Cards in the last stable view that the camera could not name (nor the page);
        while the table is asked to name some (perhaps covered since), those."""
        if self._waiting is not None:
            unread = self._waiting.unread
            return [card for card in self._unread(self._named_view(self._waiting.asked.view))
                    if _near(card, unread)]
        return [] if self._view is None else self._unread(self._named_view(self._view))

    def name_card(self, number: int, code: str) -> None:
        """The page names unknown card `number`: the view is read again with that name,
        and moves made from it without the name are taken back and made again; then
        what the table did after it, held until now, in its order."""
        unknown = self.unknown_cards()
        if not 0 <= number < len(unknown):
            raise PipelineError(f"there is no unknown card {number} on the table now")
        if code not in self.match.game.deck.codes:
            raise PipelineError(f"{code!r} is not a card of the {self.match.game.title} deck")
        card = unknown[number]
        self._named.append(ViewCard(code, card.x_mm, card.y_mm))
        waiting = self._waiting
        if waiting is None:
            self._read_named(self._view_moves)
            return
        if len(unknown) > 1:
            return  # the others are still to be named
        self._waiting = None
        self._view, self._seen = waiting.asked.view, waiting.asked.seen
        self._now = waiting.asked.t if waiting.asked.t is not None else self._now
        self._arrived = waiting.arrived
        self._read_named(waiting.moves)
        # then what came after, in order (the last view is the table as it lies now)
        for later in waiting.later:
            if isinstance(later, _HeldPress):
                self.on_press(later.seat, later.kind, later.t)
            else:
                self._settled(later)

    def _read_named(self, moves: list[int]) -> None:
        """Read the view again with a name the page gave, taking back the `moves` made
        from it without that name (when they are the last ones)."""
        if moves and moves[-1] == len(self.match.rulings) - 1:
            for _ in moves:
                self.take_back("the page named a card the camera could not read")
        self._evidence = []
        self._interpret()

    def enter_move(self, seat: int, kind: str, fields: Mapping[str, Any]) -> Ruling:
        """A move the page enters (one of the game's page moves) for `seat`."""
        try:
            move = self.match.game.parse_move(seat, kind, dict(fields))
        except RefereeError as error:
            raise PipelineError(str(error)) from None
        self._evidence, self._arrived = [], []  # entered, not laid: nothing to lift later
        self._act([Play(move)])
        ruling = self.match.rulings[-1]
        # What lies on the table may mean something only now (a hand laid out for a
        # challenge entered on the page): read the last view again.
        self._interpret()
        return ruling

    def accept(self, index: int) -> None:
        """The table accepts flagged move `index`: it stays, and is no longer shown big."""
        if not 0 <= index < len(self.match.rulings):
            raise PipelineError(f"there is no move #{index}")
        ruling = self.match.rulings[index]
        if ruling.verdict.ok and not ruling.deferred:
            raise PipelineError(f"move #{index} was not flagged")
        if self._store is not None and self.match_id is not None:
            self._store.accept_move(self.match_id, index)
        self.accepted.add(index)
        self._show()

    def take_back(self, reason: str) -> None:
        """Drop the last move (the table took it back)."""
        self._act([TakeBack(reason)])

    def undo(self) -> None:
        """The page's Undo: drop the last move; the table is asked to lift its card, and
        the view is read as a play again only once it has."""
        self._dropped = None
        self.take_back("taken back on the page")
        self._lift_after_take_back()

    def _lift_after_take_back(self) -> None:
        if self._dropped is not None and self._dropped[1]:
            self._lifting, self._dropped = self._dropped, None
            self._interpret()

    # -- effects ------------------------------------------------------------------

    def _interpret(self) -> None:
        if self._view is None or self._waiting is not None:
            return  # while the table is asked to name a card, what came after it waits
        before = len(self.match.rulings)
        view = self._named_view(self._view)
        if self._still_down(view):
            return
        unread: list[ViewCard] = []
        for _ in range(REREADS_AFTER_TAKE_BACK + 1):
            actions = self.interpreter.on_view(self.match.state, view, self._last_for_table())
            self._act(actions)
            unread += [card for action in actions if isinstance(action, AskTable)
                       for card in action.unread if _near(card, self._unread(view))]
            # A card taken back and another put down in the same reach (a flagged card
            # swapped for the right one) settle as one view: once the take-back is made,
            # the same view is read again for the move that follows it.
            if not any(isinstance(action, TakeBack) for action in actions):
                break
        self._view_moves = list(range(min(before, len(self.match.rulings)),
                                      len(self.match.rulings)))
        if unread and self._seen is not None:
            # The game asks which card that is: what the table does next waits for it.
            self._waiting = _Waiting(_SeenView(self._view, self._seen, self._now),
                                     self._previous, tuple(unread), self._view_moves,
                                     self._arrived)

    def _still_down(self, view: TableView) -> bool:
        """Does `view` still show a card of the move taken back, where it was put? Then
        the table is asked to lift it and nothing else is read: that card is no new play,
        and with the next card no "2 cards changed at once"."""
        if self._lifting is None:
            return False
        seat, cards = self._lifting
        if not any(card.code == seen.code and _close(card, seen)
                   for card in cards for seen in view.cards):
            self._lifting = None
            return False
        self._ask(t("seat {seat}'s move was taken back: lift its card off the table", seat=seat))
        self._show()
        return True

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
        self._laid[ruling.index] = (action.move.seat, self._arrived)
        self._last_question = None
        self._view_moves = []
        flagged = not ruling.verdict.ok or bool(ruling.deferred)
        if self._store is not None and self.match_id is not None:
            self._store.append_move(self.match_id, action.move.to_json(), self._now)
            photo = crop_jpeg(self._seen[0], self._evidence) if flagged and self._seen else None
            if photo is not None:
                self._store.save_photo(self.match_id, ruling.index, photo)
                self._photos.add(ruling.index)
            if self.match.game.is_over(self.match.state):
                self._store.finish_match(self.match_id, self.match.result())
        self.transcript.append({**ruling.to_json(), "move": action.move.to_json()})
        self.transcript += [proof.to_json() for proof in ruling.deferred]
        if flagged:
            self._panel.alarm()

    def _take_back(self, action: TakeBack) -> None:
        if not self.match.rulings:
            return
        was_over = self.match.game.is_over(self.match.state)
        dropped = self.match.undo()
        self._dropped = self._laid.pop(dropped.index, None)
        self.accepted.discard(dropped.index)
        self._photos.discard(dropped.index)
        if self._store is not None and self.match_id is not None:
            self._store.drop_last_move(self.match_id)
            if was_over:
                self._store.reopen_match(self.match_id)
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

    def _last_for_table(self) -> Ruling | None:
        """The last ruling as the game's interpreter should take it: a flagged move the
        table accepted stays, so the camera must not read the next card on it as the
        flagged card taken back or swapped."""
        last = self._last_ruling()
        if last is not None and last.index in self.accepted and not last.verdict.ok:
            return replace(last, verdict=Verdict.legal(last.verdict.message))
        return last

    def turn_shown(self) -> int | None:
        """The seat the table waits for: after a flagged play, its seat (to take the card
        back, or for the table to accept it), else the seat to play."""
        last = self._last_ruling()
        if last is not None and not last.verdict.ok and last.index not in self.accepted:
            return last.move.seat
        return self.match.to_play()

    def _show(self) -> None:
        self._panel.show_turn(self.turn_shown())
        if self._feed is not None:
            self._feed.publish(self.snapshot())

    # -- what the camera saw ------------------------------------------------------

    def _named_view(self, view: TableView) -> TableView:
        """`view` with the names the page gave to cards the camera could not read (each
        lying as the camera sees it: Remi's row starts at its crosswise tile)."""
        return TableView(tuple(
            next((replace(named, turn_deg=card.turn_deg) for named in self._named
                  if _close(named, card)), card)
            if card.code is None else card
            for card in view.cards
        ))

    @staticmethod
    def _unread(view: TableView) -> list[ViewCard]:
        return [card for card in view.cards if card.code is None]

    def _outlines(
        self, cards: Iterable[ViewCard], reading: ReadingLike
    ) -> list[Sequence[Sequence[float]]]:
        """The image outlines of `cards` (for a photo crop), where the reading has them."""
        centre = self._tracker.centre_mm
        outlines = []
        for card in cards:
            for seen in reading.cards:
                corners = getattr(seen, "corners_px", None)
                if seen.table_mm is None or corners is None or seen.code != card.code:
                    continue
                shifted = ViewCard(card.code, seen.table_mm[0] - centre[0],
                                   seen.table_mm[1] - centre[1])
                if _close(shifted, card):
                    outlines.append(corners)
                    break
        return outlines

    def photo_of_unknown(self, number: int) -> bytes | None:
        """A crop of unknown card `number` from the frame the view settled on (while the
        table is asked to name it, the frame it was asked about)."""
        unknown = self.unknown_cards()
        seen = self._seen if self._waiting is None else self._waiting.asked.seen
        if seen is None or not 0 <= number < len(unknown):
            return None
        frame, reading = seen
        outlines = self._outlines([unknown[number]], reading)
        return crop_jpeg(frame, outlines) if outlines else None

    # -- outputs ------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """What the live page shows (the shape is documented in webui/control.py)."""
        game, state, header = self.match.game, self.match.state, self.match.header
        scores = game.scores(state)
        to_play = self.turn_shown()
        public = game.public_view(state)
        hands = public.get("hands", [])
        over = game.is_over(state)
        verdicts = [self._verdict(ruling) for ruling in self.match.rulings[-8:]]
        last = verdicts[-1] if verdicts else None
        flagged = last if last and last["flagged"] and not last["accepted"] else None
        message = self._last_question or self._last_problem or ""
        names = header.seats
        return {
            "match_id": self.match_id,
            "game": game.name,
            "title": game.title,
            "seats": [
                {
                    "seat": seat,
                    "name": name,
                    "score": scores.get(seat, 0),
                    "to_play": seat == to_play,
                    "cards_in_hand": hands[seat] if seat < len(hands) else None,
                    "button": seat < self._buttons,
                }
                for seat, name in enumerate(header.seats)
            ],
            "table": [
                {**zone, "zone_texts": in_every_language(zone.get("zone", ""), names)}
                for zone in public.get("zones", [])
            ],
            "verdicts": verdicts,
            "flagged": flagged,
            "status": "finished" if over else "playing",
            "message": message,
            "message_texts": in_every_language(message, names),
            "unknown": [
                {"card": number, "x_mm": round(card.x_mm, 1), "y_mm": round(card.y_mm, 1),
                 "photo": f"unknown-{number}" if self._seen is not None else None}
                for number, card in enumerate(self.unknown_cards())
            ],
            "codes": list(game.deck.codes),
            "page_moves": [
                {
                    **offered.to_json(),
                    "title_texts": in_every_language(offered.title, names),
                    "fields": [
                        {
                            **item.to_json(),
                            "label_texts": in_every_language(item.label, names),
                            "choice_texts": [
                                in_every_language(str(c), names) for c in item.choices
                            ],
                        }
                        for item in offered.fields
                    ],
                }
                for offered in game.page_moves(state)
            ],
            "board": board_json(game.board(state), names),
            "winners": game.winners(state),
            # who deals, while the game is dealing (UNO's deal and turn-up), else None
            "dealing": public.get("dealer") if public.get("phase") in ("deal", "turn-up")
            else None,
            "languages": list(LANGUAGES),
        }

    def _verdict(self, ruling: Ruling) -> dict[str, Any]:
        """A ruling for the page: the move in words and its verdict, in every language, with
        the deferred ones."""
        photo = f"m{self.match_id}-{ruling.index}" if ruling.index in self._photos else None
        said = self.match.game.describe(ruling.move)
        names = self.match.header.seats
        return {
            **ruling.to_json(),
            "move": ruling.move.to_json(),
            "description": str(said),
            "description_texts": in_every_language(said, names),
            "texts": in_every_language(ruling.verdict.message, names),
            "rule_texts": rule_texts(self.match.game, ruling.verdict.rules),
            "flagged": not ruling.verdict.ok or bool(ruling.deferred),
            "accepted": ruling.index in self.accepted,
            "photo": photo,
            "deferred": [
                {**proof.to_json(), "texts": in_every_language(proof.verdict.message, names),
                 "rule_texts": rule_texts(self.match.game, proof.verdict.rules)}
                for proof in ruling.deferred
            ],
        }

    def result(self) -> dict[str, Any]:
        return self.match.result()


def rule_texts(game: Game[Any], rules: Sequence[str]) -> list[dict[str, str]]:
    """Each rule's name in every language, for the page to show beside its id."""
    return [in_every_language(game.rule_name(rule)) for rule in rules]


def _close(a: ViewCard, b: ViewCard) -> bool:
    return (a.x_mm - b.x_mm) ** 2 + (a.y_mm - b.y_mm) ** 2 <= CORRECTION_REACH_MM**2


def _near(card: ViewCard, others: Iterable[ViewCard]) -> bool:
    return any(_close(card, other) for other in others)


def _new_cards(before: TableView | None, after: TableView) -> list[ViewCard]:
    """Cards of `after` that were not in `before` (by code and place): what changed."""
    old = list(before.cards) if before is not None else []
    new = []
    for card in after.cards:
        same = next((o for o in old if o.code == card.code and _close(o, card)), None)
        if same is None:
            new.append(card)
        else:
            old.remove(same)
    return new
