"""The pipeline with a scripted camera reading and the seat panel on mock pins:
a view change or a button press becomes a move, the next seat's LED lights, and the
buzzer sounds on an illegal play."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from firmware.pipeline import PipelineError, RefereePipeline
from firmware.store import MatchStore
from firmware.tracker import Tracker, TrackerSettings
from hardware.panel import SeatPanel
from referee.core import Header, Match, Move
from referee.games import get_game
from referee.games.uno import UnoTable
from referee.text import in_every_language
from tests.firmware.readings import CENTRE, Card, Reading

#: Cell centres of the square, in mm on the mat (63x88 cards, 6 mm gap).
CELL_MM = {"nw": (262.5, 163.0), "ne": (331.5, 163.0), "sw": (262.5, 257.0),
           "se": (331.5, 257.0), "beside": (392.0, 210.0)}
SEAT_PINS = [(4, 17), (27, 22)]
STATUS_LED, BUZZER = 16, 18


class UnreadableFrame(Exception):
    pass


class ScriptedReader:
    """Reads 'frames' that are really lists of (code, cell) pairs."""

    def read(self, frame: np.ndarray, *, full: np.ndarray | None = None) -> Reading:
        if frame.ndim != 1:
            raise UnreadableFrame("saw 1 of the 4 mat tags")
        return Reading([Card(code, CELL_MM[cell]) for code, cell in frame.tolist()])


def frame(*cards: tuple[str, str]) -> np.ndarray:
    out = np.empty(len(cards), dtype=object)
    out[:] = list(cards)
    return out


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    yield MockFactory()


def make(factory: MockFactory, clock: Clock, store: MatchStore | None = None
         ) -> tuple[RefereePipeline, SeatPanel]:
    panel = SeatPanel(SEAT_PINS, STATUS_LED, BUZZER, pin_factory=factory, clock=clock)
    game = get_game("deserto")
    match = Match(game, Header("deserto", ("Ana", "Bogdan")))
    match_id = store.start_match(match.header.to_json()) if store else None
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=2))
    pipeline = RefereePipeline(match, ScriptedReader(), tracker, panel, UnreadableFrame,
                               store=store, match_id=match_id)
    return pipeline, panel


def show(pipeline: RefereePipeline, *cards: tuple[str, str]) -> None:
    for _ in range(2):
        pipeline.on_frame(frame(*cards))


def led(factory: MockFactory, seat: int) -> bool:
    return bool(factory.pin(SEAT_PINS[seat][1]).state)


def test_a_card_seen_on_the_square_is_a_move_and_the_next_seat_lights(
    factory: MockFactory,
) -> None:
    pipeline, panel = make(factory, Clock())
    assert led(factory, 0) and not led(factory, 1)
    show(pipeline, ("oasis", "nw"))
    assert [r.move.to_json() for r in pipeline.match.rulings] == [
        {"seat": 0, "move": "place", "cell": "nw", "card": "oasis"}
    ]
    assert led(factory, 1) and not led(factory, 0)
    panel.close()


def test_an_illegal_play_sounds_the_buzzer_and_taking_it_back_undoes_it(
    factory: MockFactory,
) -> None:
    pipeline, panel = make(factory, Clock())
    show(pipeline, ("vizier", "nw"))
    assert factory.pin(BUZZER).state == 0
    show(pipeline, ("vizier", "nw"), ("brigand", "ne"))
    [_, flagged] = pipeline.match.rulings
    assert flagged.verdict.rules == ("DES-NO-BRIGAND-BY-VIZIER",)
    beeps = [state for _, state in factory.pin(BUZZER).states]
    assert True in beeps or 1 in beeps
    show(pipeline, ("vizier", "nw"))
    assert len(pipeline.match.rulings) == 1
    assert pipeline.transcript[-1]["takeback"] == 1
    assert led(factory, 1)
    panel.close()


def test_after_the_page_s_undo_the_card_still_down_is_no_play_until_lifted(
    factory: MockFactory,
) -> None:
    """Undo on the page leaves the card on the table: the camera must not read it as the
    same move again, nor with the next card as "2 cards changed at once"."""
    pipeline, panel = make(factory, Clock())
    show(pipeline, ("oasis", "nw"))
    show(pipeline, ("oasis", "nw"), ("treasure", "ne"))
    assert len(pipeline.match.rulings) == 2
    pipeline.undo()
    assert len(pipeline.match.rulings) == 1
    asked = pipeline.transcript[-1]["ask"]
    assert asked == "seat 1's move was taken back: lift its card off the table"
    assert in_every_language(asked, ("Ana", "Bogdan"))["ro"] == (
        "mutarea lui Bogdan a fost retrasă: luați-i cartea de pe masă")
    # Ana's next card beside the one still down: asked again, nothing played
    show(pipeline, ("oasis", "nw"), ("treasure", "ne"), ("vizier", "se"))
    assert len(pipeline.match.rulings) == 1
    assert not [event for event in pipeline.transcript if "changed at once" in
                str(event.get("ask", ""))]
    # lifted: the square is the referee's again, and the next card is a play
    show(pipeline, ("oasis", "nw"))
    show(pipeline, ("oasis", "nw"), ("brigand", "sw"))
    assert [r.move.to_json() for r in pipeline.match.rulings][-1] == {
        "seat": 1, "move": "place", "cell": "sw", "card": "brigand"}
    panel.close()


def test_after_an_undo_a_card_lifted_and_another_put_down_in_one_reach_is_that_play(
    factory: MockFactory,
) -> None:
    pipeline, panel = make(factory, Clock())
    show(pipeline, ("oasis", "nw"))
    show(pipeline, ("oasis", "nw"), ("treasure", "ne"))
    pipeline.undo()
    show(pipeline, ("oasis", "nw"), ("vizier", "ne"))
    assert pipeline.match.rulings[-1].move.to_json() == {
        "seat": 1, "move": "place", "cell": "ne", "card": "vizier"}
    panel.close()


def test_a_seat_s_double_press_take_back_waits_for_its_card_to_be_lifted(
    factory: MockFactory,
) -> None:
    pipeline, panel = make(factory, Clock())
    show(pipeline, ("oasis", "nw"))
    pipeline.on_press(0, "double")
    assert pipeline.match.rulings == []
    assert pipeline.transcript[-1] == {
        "ask": "seat 0's move was taken back: lift its card off the table"}
    show(pipeline, ("oasis", "nw"), ("vizier", "ne"))
    assert pipeline.match.rulings == []
    show(pipeline)
    show(pipeline, ("vizier", "ne"))
    assert [r.move.to_json() for r in pipeline.match.rulings] == [
        {"seat": 0, "move": "place", "cell": "ne", "card": "vizier"}]


def test_a_flagged_card_the_table_accepted_stays_when_the_next_card_goes_on_it(
    factory: MockFactory,
) -> None:
    pipeline, panel = make(factory, Clock())
    show(pipeline, ("vizier", "nw"))
    show(pipeline, ("vizier", "nw"), ("brigand", "ne"))
    pipeline.accept(1)
    show(pipeline, ("vizier", "nw"), ("oasis", "ne"))  # on the accepted brigand
    assert [r.move.get("card") for r in pipeline.match.rulings] == ["vizier", "brigand", "oasis"]
    assert not any("takeback" in event for event in pipeline.transcript)
    panel.close()


def test_a_flagged_card_swapped_for_another_in_one_reach_is_a_take_back_and_a_move(
    factory: MockFactory,
) -> None:
    pipeline, panel = make(factory, Clock())
    show(pipeline, ("vizier", "nw"))
    show(pipeline, ("vizier", "nw"), ("brigand", "ne"))
    assert not pipeline.match.rulings[-1].verdict.ok
    # the brigand picked up and a treasure put on sw before the table settled
    show(pipeline, ("vizier", "nw"), ("treasure", "sw"))
    assert [e.get("takeback") for e in pipeline.transcript if "takeback" in e] == [1]
    assert [r.move.to_json() for r in pipeline.match.rulings] == [
        {"seat": 0, "move": "place", "cell": "nw", "card": "vizier"},
        {"seat": 1, "move": "place", "cell": "sw", "card": "treasure"},
    ]
    assert pipeline.match.rulings[-1].verdict.ok
    panel.close()


def test_a_flagged_card_swapped_on_its_own_cell_is_a_take_back_and_the_new_card(
    factory: MockFactory,
) -> None:
    pipeline, panel = make(factory, Clock())
    show(pipeline, ("vizier", "nw"))
    show(pipeline, ("vizier", "nw"), ("brigand", "ne"))
    show(pipeline, ("vizier", "nw"), ("oasis", "ne"))
    assert [e.get("takeback") for e in pipeline.transcript if "takeback" in e] == [1]
    assert [r.move.to_json() for r in pipeline.match.rulings][-1] == {
        "seat": 1, "move": "place", "cell": "ne", "card": "oasis"}
    assert all(r.verdict.ok for r in pipeline.match.rulings)
    panel.close()


def test_an_unreadable_thing_beside_the_square_is_asked_about_never_flagged(
    factory: MockFactory,
) -> None:
    pipeline, panel = make(factory, Clock())
    show(pipeline, ("vizier", "nw"))
    pipeline.on_frame(frame(("vizier", "nw"), (None, "beside")))
    pipeline.on_frame(frame(("vizier", "nw"), (None, "beside")))
    assert len(pipeline.match.rulings) == 1
    assert pipeline.transcript[-1]["ask"].startswith("which card went on off?")
    assert factory.pin(BUZZER).state == 0
    panel.close()


def test_a_hold_of_the_seat_to_play_is_a_stuck_move(factory: MockFactory) -> None:
    clock = Clock()
    pipeline, panel = make(factory, clock)
    show(pipeline, ("treasure", "nw"))
    button = factory.pin(SEAT_PINS[1][0])
    button.drive_low()
    clock.now += 2.0
    panel.poll()
    button.drive_high()
    for event in panel.events():
        pipeline.on_press(event.seat, event.kind)
    stuck = pipeline.match.rulings[-1]
    assert stuck.move.kind == "stuck"
    # with cells free the claim is provably false: flagged, the turn stays with seat 1
    assert stuck.verdict.ok is False and led(factory, 1) and not led(factory, 0)
    panel.close()


def test_a_bad_frame_is_noted_once_and_the_loop_goes_on(factory: MockFactory) -> None:
    pipeline, panel = make(factory, Clock())
    bad = np.zeros((4, 4), np.uint8)
    pipeline.on_frame(bad, "frame 3")
    pipeline.on_frame(bad, "frame 4")
    pipeline.on_frame(None, "frame 5")
    problems = [e["problem"] for e in pipeline.transcript if "problem" in e]
    assert problems == ["frame 3: saw 1 of the 4 mat tags", "frame 5: the frame is empty"]
    show(pipeline, ("oasis", "se"))
    assert len(pipeline.match.rulings) == 1
    panel.close()


def test_moves_and_take_backs_reach_the_store(factory: MockFactory) -> None:
    store = MatchStore.open(":memory:")
    pipeline, panel = make(factory, Clock(), store)
    show(pipeline, ("vizier", "nw"))
    show(pipeline, ("vizier", "nw"), ("brigand", "ne"))
    show(pipeline, ("vizier", "nw"))
    show(pipeline, ("vizier", "nw"), ("oasis", "ne"))
    stored = store.unfinished_match()
    assert stored is not None
    assert [m["card"] for m in store.moves(stored.id)] == ["vizier", "oasis"]
    panel.close()


def test_the_snapshot_names_the_seats_and_the_seat_to_play(factory: MockFactory) -> None:
    pipeline, panel = make(factory, Clock())
    show(pipeline, ("oasis", "nw"))
    snapshot = pipeline.snapshot()
    assert [(s["name"], s["to_play"]) for s in snapshot["seats"]] == [
        ("Ana", False), ("Bogdan", True)
    ]
    assert snapshot["table"][0] == {"zone": "nw", "cards": ["oasis"], "top": "oasis",
                                    "zone_texts": {"en": "NW", "ro": "NV", "it": "NO",
                                                   "es": "NO", "pt": "NO"}}
    assert snapshot["verdicts"][-1]["ok"] is True
    said = snapshot["verdicts"][-1]
    assert said["description"] == "puts an oasis on nw"  # the log's words
    assert said["description_texts"]["en"] == "puts an oasis on NW"  # the page's
    assert said["description_texts"]["ro"] == "pune o oază pe NV"
    panel.close()


def test_a_press_of_the_seat_to_play_is_a_move_over_the_mock_pins(factory: MockFactory) -> None:
    """Tempus: a press says "I slid a card under the opponent's set"."""
    clock = Clock()
    panel = SeatPanel(SEAT_PINS, STATUS_LED, BUZZER, pin_factory=factory, clock=clock)
    game = get_game("tempus")
    match = Match(game, Header("tempus", ("Ana", "Bogdan")))
    match.play(game.parse_move(0, "open", {"series": "plus", "card": "red-5"}))
    pipeline = RefereePipeline(match, ScriptedReader(), Tracker(CENTRE), panel, UnreadableFrame)
    assert led(factory, 1) and not led(factory, 0)
    button = factory.pin(SEAT_PINS[1][0])
    button.drive_low()
    clock.now += 0.1
    button.drive_high()
    clock.now += 1.0  # past the double-press window: a single press
    panel.poll()
    for event in panel.events():
        pipeline.on_press(event.seat, event.kind)
    assert pipeline.match.rulings[-1].move.to_json() == {
        "seat": 1, "move": "feed", "set": 1, "card": None
    }
    assert led(factory, 0) and not led(factory, 1)
    panel.close()


def test_a_card_named_on_the_page_replaces_the_unchecked_move_it_led_to(
    factory: MockFactory,
) -> None:
    store = MatchStore.open(":memory:")
    pipeline, panel = make(factory, Clock(), store)
    show(pipeline, ("vizier", "nw"))
    show(pipeline, ("vizier", "nw"), (None, "ne"))  # type: ignore[arg-type]
    assert pipeline.match.rulings[-1].verdict.severity == "warning"
    [unknown] = pipeline.snapshot()["unknown"]
    assert unknown["card"] == 0

    pipeline.name_card(0, "brigand")
    moves = [r.move.to_json() for r in pipeline.match.rulings]
    assert moves[-1] == {"seat": 1, "move": "place", "cell": "ne", "card": "brigand"}
    assert pipeline.match.rulings[-1].verdict.rules == ("DES-NO-BRIGAND-BY-VIZIER",)
    stored = store.unfinished_match()
    assert stored is not None and [m["card"] for m in store.moves(stored.id)] == [
        "vizier", "brigand"
    ]
    assert pipeline.snapshot()["unknown"] == []
    # The name sticks while the card lies there: the same view again changes nothing.
    show(pipeline, ("vizier", "nw"), (None, "ne"))  # type: ignore[arg-type]
    assert len(pipeline.match.rulings) == 2
    panel.close()


def test_naming_a_card_that_is_not_there_or_not_in_the_deck_is_refused(
    factory: MockFactory,
) -> None:
    pipeline, panel = make(factory, Clock())
    show(pipeline, (None, "nw"))  # type: ignore[arg-type]
    with pytest.raises(PipelineError, match="no unknown card 1"):
        pipeline.name_card(1, "oasis")
    with pytest.raises(PipelineError, match="not a card of the Deserto deck"):
        pipeline.name_card(0, "red-5")
    assert len(pipeline.match.rulings) == 1
    panel.close()


class PlacedReader:
    """Reads 'frames' that are lists of (code, (x, y) mm from the mat centre)."""

    def read(self, frame: np.ndarray, *, full: np.ndarray | None = None) -> Reading:
        return Reading([Card(code, (CENTRE[0] + x, CENTRE[1] + y))
                        for code, (x, y) in frame.tolist()])


def test_a_page_move_reads_the_table_again_a_challenged_hand_already_laid_out(
    factory: MockFactory,
) -> None:
    """UNO: the accused lays its hand out, then the challenge is entered on the page."""
    panel = SeatPanel(SEAT_PINS, STATUS_LED, BUZZER, pin_factory=factory, clock=Clock())
    game = get_game("uno")
    match = Match(game, Header("uno", ("Ana", "Bogdan", "Carmen")))
    match.play(game.parse_move(2, "deal", {}))
    match.play(game.parse_move(2, "turn-up", {"card": "red-3"}))
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=2))
    pipeline = RefereePipeline(match, PlacedReader(), tracker, panel, UnreadableFrame)
    top = [("wild-draw4", (3.0, 2.0))]  # the camera sees the top of the discard pile
    x, y = UnoTable.seat_place(0, 3)
    hand = [(code, (x + 25.0 * i - 60.0, y)) for i, code in enumerate(
        ["blue-1", "green-7", "yellow-2", "blue-5", "green-3", "yellow-9"])]
    for cards in ([("red-3", (0.0, 2.0))], top, top + hand):
        for _ in range(2):
            pipeline.on_frame(frame(*cards))
    assert [r.move.kind for r in match.rulings] == ["deal", "turn-up", "play"]

    pipeline.enter_move(1, "challenge", {})
    assert [r.move.kind for r in match.rulings][-2:] == ["challenge", "reveal"]
    assert match.rulings[-1].move.seat == 0
    panel.close()


def test_a_flagged_play_holds_the_turn_on_its_seat_until_it_is_taken_back(
    factory: MockFactory,
) -> None:
    pipeline, panel = make(factory, Clock())
    show(pipeline, ("vizier", "nw"))
    show(pipeline, ("vizier", "nw"), ("brigand", "ne"))  # Bogdan's brigand: flagged
    snapshot = pipeline.snapshot()
    assert snapshot["flagged"]["seat"] == 1
    assert [s["to_play"] for s in snapshot["seats"]] == [False, True]  # not yet Ana's turn
    show(pipeline, ("vizier", "nw"))  # taken back
    assert pipeline.snapshot()["flagged"] is None
    assert [s["to_play"] for s in pipeline.snapshot()["seats"]] == [False, True]
    panel.close()


def test_the_flagged_seat_s_led_stays_lit(factory: MockFactory) -> None:
    pipeline, panel = make(factory, Clock())
    show(pipeline, ("vizier", "nw"))
    show(pipeline, ("vizier", "nw"), ("brigand", "ne"))
    assert (led(factory, 0), led(factory, 1)) == (False, True)
    panel.close()


def test_the_snapshot_says_who_deals_while_uno_deals(factory: MockFactory) -> None:
    panel = SeatPanel(SEAT_PINS, STATUS_LED, BUZZER, pin_factory=factory, clock=Clock())
    game = get_game("uno")
    match = Match(game, Header("uno", ("Ana", "Bogdan"), first=1))
    pipeline = RefereePipeline(match, ScriptedReader(), Tracker(CENTRE), panel,
                               UnreadableFrame)
    snapshot = pipeline.snapshot()
    assert snapshot["dealing"] == 0 and snapshot["seats"][0]["to_play"] is True
    match.play(Move(0, "deal", {}))
    match.play(Move(0, "turn-up", {"card": "red-3"}))
    assert pipeline.snapshot()["dealing"] is None
    panel.close()
