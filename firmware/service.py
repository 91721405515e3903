"""The table service: what the live loop and the phone page share.

One object per table. The loop feeds it frames and button presses; the page reads its
snapshot and asks it to start a match, undo, accept, name a card, and so on
(`webui.control.TableControl`). One lock orders the two, so a request from the page
never lands in the middle of a frame. Everything that must survive a power cut is
in the store before a call returns.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import re
import secrets
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from firmware.enrol_page import PageEnrolment, refused
from firmware.enrol_words import Said
from firmware.enrollment import build_reader, deck_arts
from firmware.pipeline import PanelLike, PipelineError, RefereePipeline, rule_texts
from firmware.store import MatchStore, StoredMatch
from firmware.tracker import Tracker, TrackerSettings
from referee.core import Header, Match, RefereeError
from referee.games import GAMES, get_game
from referee.notation import parse_header, parse_move
from referee.table import PressKind
from referee.text import LANGUAGES, in_every_language
from vision.calibration import VisionError
from vision.deck_art import paint_face
from vision.mat import MatSpec
from webui.control import ControlError
from webui.feed import WAITING_SNAPSHOT, InMemoryFeed

PIN_PATTERN = re.compile(r"[0-9]{4,8}")
PIN_ROUNDS = 200_000
MAX_NAME_LENGTH = 24
CARD_IMAGE_WIDTH_PX = 160
PRESS_KINDS: tuple[PressKind, ...] = ("press", "hold", "double")


class TableService:
    """The match in progress (or none), its store, its snapshot, and the page's requests.

    `buttons` is how many seats have a physical button (seats 0 to buttons-1); the page
    offers a button to the others.
    """

    def __init__(
        self,
        store: MatchStore,
        panel: PanelLike,
        mat: MatSpec,
        buttons: int,
        deck_photos: Path | None = None,
        tracker_settings: TrackerSettings | None = None,
        data: Path | None = None,
    ) -> None:
        """`data`: the data folder, where the deck profiles are (`tableref enrol`)."""
        self._store = store
        self._data = data
        self._enrolment: PageEnrolment | None = None
        self._panel = panel
        self._mat = mat
        self._buttons = buttons
        self._deck_photos = deck_photos
        self._tracker_settings = tracker_settings
        self._feed = InMemoryFeed()
        self._lock = threading.RLock()
        self._pipeline: RefereePipeline | None = None
        self._waiting_message = ""
        self._show_waiting()

    @property
    def pipeline(self) -> RefereePipeline | None:
        """The match being refereed, if any (for the CLI's transcript and tests)."""
        return self._pipeline

    # -- the live feed ------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        return self._feed.snapshot()

    def wait_for_change(self, version: int, timeout: float) -> int:
        return self._feed.wait_for_change(version, timeout)

    def publish(self, snapshot: Mapping[str, Any]) -> object:
        """Where the pipeline publishes its snapshots (it sees the service as its feed).

        `published_at` (Unix time) lets a page, or the load benchmark, tell how long
        an update took to arrive."""
        return self._feed.publish({**snapshot, "published_at": time.time()})

    def end_streams(self) -> None:
        """On a stop, once the page's connections are closed: every page's event stream
        ends now rather than at its next keep-alive (`RunningServer.stop`'s `wake`)."""
        self._feed.close()

    # -- the live loop ------------------------------------------------------------

    def on_frame(self, frame: np.ndarray | None, label: str = "", t: float | None = None,
                 full: np.ndarray | None = None) -> None:
        with self._lock:
            if self._enrolment is not None:  # the camera enrols; the match waits
                self._enrolment.on_frame(frame, full)
            elif self._pipeline is not None:
                self._pipeline.on_frame(frame, label, t, full)

    def on_press(self, seat: int, kind: PressKind, t: float | None = None) -> None:
        with self._lock:
            if self._pipeline is not None:
                self._pipeline.on_press(seat, kind, t)

    def note_problem(self, message: str) -> None:
        with self._lock:
            if self._pipeline is not None:
                self._pipeline.note_problem(message)
            else:
                self._waiting_message = message
                self._show_waiting()

    # -- enrolment (firmware.enrol_page) -------------------------------------------

    def enrolment(self) -> dict[str, Any] | None:
        with self._lock:
            return None if self._enrolment is None else self._enrolment.status()

    def start_enrolment(self, game: str, second_pass: bool) -> None:
        with self._lock:
            self._enrolment = PageEnrolment(game, self._mat, self._data, second_pass)

    def answer_enrolment(self, names: dict[int, str], keep: bool = False) -> None:
        with self._lock:
            if self._enrolment is None:
                raise refused(Said("enrol.error.none"))
            self._enrolment.answer(names, keep)

    def look_again_enrolment(self) -> None:
        with self._lock:
            if self._enrolment is None:
                raise refused(Said("enrol.error.none"))
            self._enrolment.look_again()

    def stop_enrolment(self) -> None:
        with self._lock:
            self._enrolment = None

    def enrolment_crop(self, number: int) -> bytes | None:
        with self._lock:
            return None if self._enrolment is None else self._enrolment.crop(number)

    # -- matches ------------------------------------------------------------------

    def resume(self, header: Mapping[str, Any] | None = None) -> StoredMatch | None:
        """Pick up the match in progress after a restart: the latest unfinished one, if
        `header` is None or equal to its header. Returns it, or None."""
        wanted = None if header is None else self._checked(header).to_json()
        with self._lock:
            stored = self._store.unfinished_match()
            if stored is None or (wanted is not None and wanted != stored.header):
                return None
            try:
                self._open(stored.id, stored.header)
            except RefereeError as error:
                raise ControlError(
                    f"match {stored.id} cannot be resumed, its log is damaged: {error}"
                ) from None
            return stored

    def last_move_time(self) -> float | None:
        """When the resumed match's last move was seen, on the camera's clock."""
        with self._lock:
            pipeline = self._pipeline
            if pipeline is None or pipeline.match_id is None:
                return None
            return self._store.last_move_time(pipeline.match_id)

    def start_match(self, header: dict[str, Any]) -> None:
        checked = self._checked(header)
        if any(not name.strip() or len(name) > MAX_NAME_LENGTH for name in checked.seats):
            raise ControlError(f"each seat needs a name of 1 to {MAX_NAME_LENGTH} characters")
        if len(checked.seats) != len(set(checked.seats)):
            raise ControlError("two seats have the same name: give each player their own")
        with self._lock:
            self._end_current()
            match_id = self._store.start_match(checked.to_json())
            self._store.log_event(match_id, {"action": "start"})
            try:
                self._open(match_id, checked.to_json())
            except Exception as error:
                # The table must not be left half-started: the match ends at once, with
                # the reason in its audit log, and the page says why.
                self._store.finish_match(match_id, {"final": False, "scores": {},
                                                    "winners": []})
                self._store.log_event(match_id, {"action": "failed", "error": str(error)})
                self._show_waiting()
                raise ControlError(f"the match could not start: {error}") from None

    def end_match(self) -> None:
        with self._lock:
            if self._pipeline is None:
                raise ControlError("no match is being played")
            self._end_current()
            self._show_waiting()

    def undo(self) -> None:
        with self._lock:
            pipeline = self._current()
            if not pipeline.match.rulings:
                raise ControlError("there is no move to take back")
            index = len(pipeline.match.rulings) - 1
            pipeline.undo()
            self._log({"action": "undo", "index": index})

    def accept(self, index: int) -> None:
        with self._lock:
            pipeline = self._current()
            try:
                pipeline.accept(index)
            except PipelineError as error:
                raise ControlError(str(error)) from None
            self._log({"action": "accept", "index": index})

    def correct_card(self, card: int, code: str) -> None:
        with self._lock:
            pipeline = self._current()
            try:
                pipeline.name_card(card, code)
            except PipelineError as error:
                raise ControlError(str(error)) from None
            self._log({"action": "name-card", "card": card, "code": code})

    def page_move(self, seat: int, kind: str, fields: dict[str, Any]) -> None:
        with self._lock:
            pipeline = self._current()
            game = pipeline.match.game
            offered = next(
                (m for m in game.page_moves(pipeline.match.state) if m.kind == kind), None
            )
            if offered is None:
                raise ControlError(f"the table is not waiting for a {kind!r} move now")
            if seat not in offered.seats:
                raise ControlError(f"seat {seat} cannot make this move now")
            expected = {item.name for item in offered.fields}
            if set(fields) != expected:
                raise ControlError(f"answer exactly: {', '.join(sorted(expected)) or 'nothing'}")
            for item in offered.fields:
                value = fields[item.name]
                if item.choices and value not in item.choices:
                    raise ControlError(f"{item.name}: choose one of the choices shown")
                if not item.choices and (
                    not isinstance(value, int) or not item.minimum <= value <= item.maximum
                ):
                    raise ControlError(
                        f"{item.name}: a whole number from {item.minimum} to {item.maximum}"
                    )
            try:
                ruling = pipeline.enter_move(seat, kind, {**offered.fixed, **fields})
            except PipelineError as error:
                raise ControlError(str(error)) from None
            self._log({"action": "page-move", "index": ruling.index, "move": kind})

    def press(self, seat: int, kind: str) -> None:
        if kind not in PRESS_KINDS:
            raise ControlError(f"a button is pressed, held or double-pressed, not {kind!r}")
        with self._lock:
            pipeline = self._current()
            if not 0 <= seat < len(pipeline.match.header.seats):
                raise ControlError(f"this match has no seat {seat}")
            pipeline.on_press(seat, PRESS_KINDS[PRESS_KINDS.index(kind)])

    def games(self) -> list[dict[str, Any]]:
        out = []
        for name in sorted(GAMES):
            game = get_game(name)
            out.append({
                "name": game.name,
                "title": game.title,
                "min_seats": game.min_seats,
                "max_seats": game.max_seats,
                "options": [
                    {"name": o.name, "default": o.default, "choices": list(o.choices),
                     "doc": o.doc}
                    for o in game.options
                ],
            })
        return out

    # -- history ------------------------------------------------------------------

    def history(self) -> list[dict[str, Any]]:
        ended = [m for m in self._store.matches() if m.finished and m.result is not None]
        return [self._summary(stored) for stored in reversed(ended)]

    def match_record(self, match_id: int) -> dict[str, Any]:
        stored = self._store.match(match_id)
        if stored is None:
            raise ControlError(f"there is no match {match_id}")
        try:
            game = get_game(stored.header["game"])
            match = Match(game, parse_header(stored.header))
        except RefereeError as error:
            raise ControlError(f"match {match_id} cannot be shown: {error}") from None
        photos = self._store.photo_positions(match_id)
        names = match.header.seats
        moves: list[dict[str, Any]] = []
        for logged in self._store.logged_moves(match_id):
            try:
                move = parse_move(game, logged.move, len(match.header.seats))
            except RefereeError as error:
                raise ControlError(
                    f"match {match_id} cannot be shown past move {len(moves)}: {error}"
                ) from None
            ruling = match.play(move)
            said = game.describe(move)
            moves.append({
                **ruling.to_json(),
                "move": logged.move,
                "description": str(said),
                "description_texts": in_every_language(said, names),
                "texts": in_every_language(ruling.verdict.message, names),
                "rule_texts": rule_texts(game, ruling.verdict.rules),
                "accepted": logged.accepted,
                "photo": f"m{match_id}-{ruling.index}" if ruling.index in photos else None,
                "deferred": [
                    {**proof.to_json(),
                     "texts": in_every_language(proof.verdict.message, names),
                     "rule_texts": rule_texts(game, proof.verdict.rules)}
                    for proof in ruling.deferred
                ],
                "scores": {str(s): p for s, p in sorted(game.scores(match.state).items())},
            })
        return {
            **self._summary(stored),
            "result": stored.result or match.result(),
            "events": self._store.events(match_id),
            "moves": moves,
            "languages": list(LANGUAGES),
        }

    def tally(self) -> list[dict[str, Any]]:
        """Per game, since points of different games do not add up; a match ended
        before any move (abandoned) counts for nobody."""
        games: dict[str, dict[str, Any]] = {}
        for stored in self._store.matches():
            if not stored.finished or stored.result is None:
                continue
            if self._store.move_count(stored.id) == 0:
                continue
            name = str(stored.header.get("game", ""))
            group = games.setdefault(name, {
                "game": name, "title": get_game(name).title if name in GAMES else name,
                "players": {}, "lowest": [],
            })
            scores = {int(s): int(p) for s, p in stored.result.get("scores", {}).items()}
            winners = stored.result.get("winners", [])
            group["lowest"].append(lowest_won(scores, winners))
            for seat, player in enumerate(stored.header.get("seats", [])):
                row = group["players"].setdefault(
                    player, {"name": player, "matches": 0, "wins": 0, "points": 0})
                row["matches"] += 1
                row["wins"] += seat in winners
                row["points"] += scores.get(seat, 0)
        out = []
        for group in sorted(games.values(), key=lambda g: g["title"]):
            # What the results show: winners below the others (UNO's house scoring).
            lowest = True in group["lowest"] and False not in group["lowest"]
            sign = 1 if lowest else -1
            out.append({
                "game": group["game"], "title": group["title"], "lowest_wins": lowest,
                "players": sorted(group["players"].values(),
                                  key=lambda r: (-r["wins"], sign * r["points"], r["name"])),
            })
        return out

    # -- pictures -----------------------------------------------------------------

    def card_image(self, game: str, code: str) -> bytes | None:
        return _card_png(game, code)

    def photo(self, key: str) -> bytes | None:
        found = re.fullmatch(r"m(\d+)-(\d+)", key)
        if found:
            return self._store.photo(int(found[1]), int(found[2]))
        found = re.fullmatch(r"unknown-(\d+)", key)
        with self._lock:
            if found and self._pipeline is not None:
                return self._pipeline.photo_of_unknown(int(found[1]))
        return None

    # -- the admin PIN ------------------------------------------------------------

    def pin_is_set(self) -> bool:
        return self._store.setting("admin_pin") is not None

    def set_pin(self, pin: str) -> None:
        if not PIN_PATTERN.fullmatch(pin):
            raise ControlError("the PIN is 4 to 8 digits")
        salt = secrets.token_bytes(16)
        digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, PIN_ROUNDS)
        self._store.set_setting("admin_pin", f"{PIN_ROUNDS}${salt.hex()}${digest.hex()}")
        self._log({"action": "set-pin"})

    def check_pin(self, pin: str) -> bool:
        stored = self._store.setting("admin_pin")
        if stored is None or not PIN_PATTERN.fullmatch(pin):
            return False
        rounds, salt, digest = stored.split("$")
        attempt = hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt), int(rounds))
        return hmac.compare_digest(attempt.hex(), digest)

    def secret_key(self) -> bytes:
        key = self._store.setting("secret_key")
        if key is None:
            key = secrets.token_hex(32)
            self._store.set_setting("secret_key", key)
        return bytes.fromhex(key)

    # -- inside -------------------------------------------------------------------

    def _open(self, match_id: int, header: dict[str, Any]) -> None:
        """Referee match `match_id`: its logged moves are replayed first."""
        parsed = parse_header(header)
        game = get_game(parsed.game)
        match = Match(game, parsed)
        logged = self._store.logged_moves(match_id)
        for stored in logged:
            match.play(parse_move(game, stored.move, len(parsed.seats)))
        reader = build_reader(game.deck, self._mat, self._deck_photos, self._data)
        tracker = Tracker(self._mat.center_mm, self._tracker_settings)
        self._pipeline = RefereePipeline(
            match, reader, tracker, self._panel, VisionError, self, self._store, match_id,
            buttons=self._buttons,
            accepted=[i for i, stored in enumerate(logged) if stored.accepted],
            card_mm=reader.card_mm,
        )

    def _end_current(self) -> None:
        pipeline, self._pipeline = self._pipeline, None
        if pipeline is None or pipeline.match_id is None:
            return
        stored = self._store.match(pipeline.match_id)
        if stored is not None and not stored.finished:
            self._store.finish_match(pipeline.match_id, pipeline.result())
            self._store.log_event(pipeline.match_id, {"action": "end"})
        self._panel.show_turn(None)

    @staticmethod
    def _checked(header: Mapping[str, Any]) -> Header:
        """A match header with its game's defaults filled in; ControlError if wrong."""
        try:
            parsed = parse_header(dict(header))
            return get_game(parsed.game).check_header(parsed)
        except RefereeError as error:
            raise ControlError(str(error)) from None

    def _current(self) -> RefereePipeline:
        pipeline = self._pipeline
        if pipeline is None:
            raise ControlError("no match is being played: start one first")
        return pipeline

    def _log(self, what: dict[str, Any]) -> None:
        match_id = self._pipeline.match_id if self._pipeline is not None else None
        self._store.log_event(match_id, what)

    def _show_waiting(self) -> None:
        self.publish({
            **WAITING_SNAPSHOT,
            "match_id": None,
            "message": self._waiting_message or WAITING_SNAPSHOT["message"],
            "message_texts": in_every_language(
                self._waiting_message or WAITING_SNAPSHOT["message"]
            ),
            "flagged": None,
            "unknown": [],
            "codes": [],
            "page_moves": [],
            "languages": list(LANGUAGES),
        })

    def _summary(self, stored: StoredMatch) -> dict[str, Any]:
        name = str(stored.header.get("game", ""))
        title = get_game(name).title if name in GAMES else name
        result = stored.result or {}
        return {
            "id": stored.id,
            "game": name,
            "title": title,
            "seats": list(stored.header.get("seats", [])),
            "scores": result.get("scores", {}),
            "winners": result.get("winners", []),
            "final": bool(result.get("final", False)),
            "started": stored.started,
            "ended": stored.ended,
            "moves": self._store.move_count(stored.id),
        }


def lowest_won(scores: Mapping[int, int], winners: Sequence[int]) -> bool | None:
    """Did the winners have the fewest points (True), the most (False)? None when the
    scores do not tell (no winner, or everyone level)."""
    if not winners or len(set(scores.values())) < 2:
        return None
    won = [scores.get(seat, 0) for seat in winners]
    if max(won) <= min(scores.values()):
        return True
    if min(won) >= max(scores.values()):
        return False
    return None


@functools.lru_cache(maxsize=256)
def _card_png(game_name: str, code: str) -> bytes | None:
    """A card face from our deck art, small enough for a phone."""
    try:
        deck = get_game(game_name).deck
    except RefereeError:
        return None
    art = next((art for art in deck_arts(deck) if art.code == code), None)
    if art is None:
        return None
    image = paint_face(art, deck.card_mm, px_per_mm=CARD_IMAGE_WIDTH_PX / deck.card_mm[0])
    ok, encoded = cv2.imencode(".png", image)
    return encoded.tobytes() if ok else None

