"""Remi at the table: the row and the melds as the camera sees them, the presses for a draw
and "pe tablă", the racks shown at the round's end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.core import Header, Match, Move
from referee.games.remi import Remi, RemiState, RemiTable
from referee.table import Action, AskTable, Play, Press, TableView, ViewCard
from referee.text import LANGUAGES, catalogue, untranslated

GAME = Remi()
OPENING = [["red-10", "red-11", "red-12"], ["blue-9", "joker", "black-9"]]
Melds = Sequence[Sequence[str | None]]


def view(row: Sequence[str | None] = (), bottom: Melds = (), right: Melds = (),
         top: Melds = (), left: Melds = (), pitch: tuple[float, float] = (21.0, 32.0)
         ) -> TableView:
    """Tiles as they lie: the row in two lines across the middle, each seat's melds one
    to a line in front of it, tiles touching (`pitch`: 21 mm apart along a line, the lines
    32 mm apart, for our 20 x 30 mm tiles)."""
    step, line = pitch
    cards = [ViewCard(code, -190.0 + step * (n % 19), -17.0 if n < 19 else 17.0)
             for n, code in enumerate(row)]
    for k, meld in enumerate(bottom):
        cards += [ViewCard(code, -150.0 + step * n, 80.0 + line * k)
                  for n, code in enumerate(meld)]
    for k, meld in enumerate(top):
        cards += [ViewCard(code, -150.0 + step * n, -80.0 - line * k)
                  for n, code in enumerate(meld)]
    for k, meld in enumerate(right):
        cards += [ViewCard(code, 230.0 + line * k, -130.0 + step * n)
                  for n, code in enumerate(meld)]
    for k, meld in enumerate(left):
        cards += [ViewCard(code, -230.0 - line * k, -130.0 + step * n)
                  for n, code in enumerate(meld)]
    return TableView(tuple(cards))


def started(seats: int = 3) -> tuple[Match[RemiState], RemiTable]:
    """Round 1 dealt and its first round of turns played: seat 0 to draw; the row is
    blue-3 (dead), blue-4, blue-5 (, blue-6)."""
    match = Match(GAME, Header("remi", tuple(f"p{n}" for n in range(seats))))
    match.play(Move(0, "deal", {"atu": "red-7"}))
    match.play(Move(0, "discard", {"tile": "blue-3"}))
    for seat, code in zip(range(1, seats), ["blue-4", "blue-5", "blue-6"], strict=False):
        match.play(Move(seat, "draw"))
        match.play(Move(seat, "discard", {"tile": code}))
    return match, GAME.interpreter(match.header)


def row(match: Match[RemiState]) -> list[str]:
    return [code for _, code in match.state.row]


def play_all(match: Match[RemiState], actions: list[Action]) -> list[Move]:
    moves = []
    for action in actions:
        assert isinstance(action, Play), action
        assert match.play(action.move).verdict.ok, action.move
        moves.append(action.move)
    return moves


def test_the_atu_shown_alone_deals_the_round_and_is_no_discard() -> None:
    match = Match(GAME, Header("remi", ("a", "b")))
    table = GAME.interpreter(match.header)
    assert table.on_view(match.state, view(bottom=[["red-1", "red-2"]]), None) == []
    assert play_all(match, table.on_view(match.state, view(["red-7"]), None)) == [
        Move(0, "deal", {"atu": "red-7"})]
    assert table.on_view(match.state, view(["red-7"]), None) == []
    assert table.on_view(match.state, view(), None) == []
    assert table.on_view(match.state, view(["red-7"]), None) == [
        Play(Move(0, "discard", {"tile": "red-7"}))]


def test_a_draw_pressed_then_a_discard_seen() -> None:
    match, table = started()
    assert play_all(match, table.on_press(match.state, Press(0, "press"), None)) == [
        Move(0, "draw")]
    assert table.on_view(match.state, view(row(match)), None) == []
    assert table.on_view(match.state, view([*row(match), "red-2"]), None) == [
        Play(Move(0, "discard", {"tile": "red-2"}))]


def test_a_discard_with_no_draw_seen_is_asked_then_read_on_the_press() -> None:
    match, table = started()
    seen = view([*row(match), "red-2"])
    assert "press the button" in asks(table.on_view(match.state, seen, None))
    assert table.on_press(match.state, Press(0, "press"), None) == [
        Play(Move(0, "draw")), Play(Move(0, "discard", {"tile": "red-2"}))]


def test_the_row_s_last_tile_taken_is_a_take_at_once_and_a_hold_announces() -> None:
    match, table = started()
    [take] = play_all(match, table.on_view(match.state, view(row(match)[:-1]), None))
    assert take == Move(0, "take", {"at": 2, "tile": "blue-5"})
    last = match.rulings[-1]
    assert table.on_press(match.state, Press(0, "hold"), last) == [Play(Move(0, "pe-tabla"))]
    assert table.on_press(match.state, Press(0, "press"), last) == []


def test_melds_are_read_when_the_turn_s_discard_shows_not_before() -> None:
    match, table = started()
    play_all(match, table.on_press(match.state, Press(0, "press"), None))
    half = view(row(match), bottom=[OPENING[0]])
    assert table.on_view(match.state, half, None) == []
    laid = view(row(match), bottom=OPENING)
    assert table.on_view(match.state, laid, None) == []
    moves = play_all(match, table.on_view(match.state, view([*row(match), "black-2"],
                                                            bottom=OPENING), None))
    assert moves == [Move(0, "lay", {"melds": OPENING}),
                     Move(0, "discard", {"tile": "black-2"})]
    assert match.state.opened[0] and match.state.turn.seat == 1


def test_a_table_s_own_larger_tiles_touch_further_apart_in_a_meld() -> None:
    """A set of 26 x 36 mm tiles (its profile's size) laid touching: 27 mm apart."""
    match, _ = started()
    table = GAME.interpreter(match.header, (26.0, 36.0))
    play_all(match, table.on_press(match.state, Press(0, "press"), None))
    laid = view(row(match), bottom=OPENING, pitch=(27.0, 40.0))
    assert table.on_view(match.state, laid, None) == []
    discarded = view([*row(match), "black-2"], bottom=OPENING, pitch=(27.0, 40.0))
    # read at our tiles' size, each tile was a meld of its own: a lay-out flagged illegal
    ours = GAME.interpreter(match.header)
    assert ours.on_view(match.state, laid, None) == []
    [lay, _] = ours.on_view(match.state, discarded, None)
    assert isinstance(lay, Play) and all(len(meld) == 1 for meld in lay.move.get("melds"))
    assert play_all(match, table.on_view(match.state, discarded, None)) == [
        Move(0, "lay", {"melds": OPENING}), Move(0, "discard", {"tile": "black-2"})]


def opened() -> tuple[Match[RemiState], RemiTable, list[str]]:
    """Seat 0 opened with OPENING and discarded black-2; seat 1 to play."""
    match, table = started()
    match.play(Move(0, "draw"))
    match.play(Move(0, "lay", {"melds": OPENING}))
    match.play(Move(0, "discard", {"tile": "black-2"}))
    return match, table, row(match)


def test_tiles_laid_off_on_another_seat_s_meld_are_an_add_by_the_seat_to_play() -> None:
    match, table, _ = opened()
    yellow = [f"yellow-{n}" for n in range(8, 14)]
    match.play(Move(1, "draw"))
    match.play(Move(1, "lay", {"melds": [yellow]}))
    match.play(Move(1, "discard", {"tile": "red-1"}))
    match.play(Move(2, "draw"))
    seen = view(row(match), bottom=OPENING, right=[yellow])
    assert table.on_view(match.state, seen, None) == []
    assert match.play(Move(2, "discard", {"tile": "red-3"})).verdict.ok
    match.play(Move(0, "draw"))
    grown = view([*row(match), "black-5"], bottom=[[*OPENING[0], "red-13"], OPENING[1]],
                 right=[["yellow-7", *yellow]])
    assert play_all(match, table.on_view(match.state, grown, None)) == [
        Move(0, "add", {"meld": 1, "tiles": ["red-13"]}),
        Move(0, "add", {"meld": 3, "tiles": ["yellow-7"]}),
        Move(0, "discard", {"tile": "black-5"})]


def test_a_joly_in_a_set_freed_by_both_missing_colours_and_laid_face_down() -> None:
    match, table, before = opened()
    match.play(Move(1, "draw"))
    whole = ["blue-9", "red-9", "black-9", "yellow-9"]
    new = [["yellow-10", "back", "yellow-12", "yellow-13"], ["red-2", "red-3", "red-4"]]
    seen = view([*before, "red-1"], bottom=[OPENING[0], whole], right=new)
    assert play_all(match, table.on_view(match.state, seen, None)) == [
        Move(1, "swap", {"meld": 2, "tiles": ["red-9", "yellow-9"]}),
        Move(1, "lay", {"melds": [["yellow-10", "joker", "yellow-12", "yellow-13"],
                                  ["red-2", "red-3", "red-4"]]}),
        Move(1, "discard", {"tile": "red-1"})]
    assert match.state.melds[2].slots[1].freed


def test_a_joly_in_a_run_is_freed_by_the_tile_it_stands_for() -> None:
    match, table = started()
    match.play(Move(0, "draw"))
    run = ["red-3", "joker", "red-5", "red-6"]
    match.play(Move(0, "lay", {"melds": [run, ["black-9", "black-10", "black-11"]]}))
    match.play(Move(0, "discard", {"tile": "black-2"}))
    match.play(Move(1, "draw"))
    seen = view([*row(match), "blue-12"], bottom=[["red-3", "red-4", "red-5", "red-6"],
                                                  ["black-9", "black-10", "black-11"]],
                right=[["yellow-12", "back", "black-12"], ["red-7", "red-8", "red-9"]])
    moves = play_all(match, table.on_view(match.state, seen, None))
    assert moves == [Move(1, "swap", {"meld": 1, "tiles": ["red-4"]}),
                     Move(1, "lay", {"melds": [["yellow-12", "joker", "black-12"],
                                               ["red-7", "red-8", "red-9"]]}),
                     Move(1, "discard", {"tile": "blue-12"})]


def test_a_take_from_inside_the_row_takes_every_later_tile() -> None:
    match, table, before = opened()
    match.play(Move(1, "draw"))
    match.play(Move(1, "discard", {"tile": "red-1"}))
    match.play(Move(2, "draw"))
    match.play(Move(2, "discard", {"tile": "red-3"}))
    assert row(match) == ["blue-3", "blue-4", "blue-5", "black-2", "red-1", "red-3"]
    [take] = table.on_view(match.state, view(row(match)[:2], bottom=OPENING), None)
    assert take == Play(Move(0, "take", {"at": 2, "tile": "blue-5"}))


def asks(actions: list[Action]) -> str:
    """The one question the table is asked, which reads wholly in every language."""
    [ask] = actions
    assert isinstance(ask, AskTable)
    for language in LANGUAGES[1:]:
        assert untranslated(ask.message, catalogue(language)) == [], language
    return ask.message


def test_what_the_view_cannot_settle_is_asked_never_guessed() -> None:
    match, table = started()
    [unread] = table.on_view(match.state, view([*row(match), None]), None)
    assert isinstance(unread, AskTable) and [card.code for card in unread.unread] == [None]
    assert "2 new tiles" in asks(table.on_view(
        match.state, view(["blue-3", "red-9", "blue-5"]), None))
    assert "2 new tiles" in asks(table.on_view(
        match.state, view([*row(match), "red-1", "red-2"]), None))
    assert "in front of seat 2" in asks(table.on_view(
        match.state, view(row(match), left=[["red-1", "red-2", "red-3"]]), None))
    assert "no seat sits" in asks(table.on_view(
        match.state, view(row(match), top=[["red-1", "red-2", "red-3"]]), None))
    assert "out of sight" in asks(table.on_view(match.state, view(), None))


def test_a_meld_gone_from_sight_is_asked_about() -> None:
    match, table, before = opened()
    match.play(Move(1, "draw"))
    assert "meld 2 is not in sight" in asks(table.on_view(
        match.state, view([*before, "red-1"], bottom=[OPENING[0]]), None))


def reveal_state(**options: Any) -> tuple[Match[RemiState], RemiTable]:
    """Two seats; seat 0 goes out: lays 14 tiles and discards the 15th's twin."""
    match = Match(GAME, Header("remi", ("a", "b"), 0, options))
    table = GAME.interpreter(match.header)
    match.play(Move(0, "deal", {"atu": "red-7"}))
    match.play(Move(0, "discard", {"tile": "blue-3"}))
    match.play(Move(1, "draw"))
    match.play(Move(1, "discard", {"tile": "blue-4"}))
    match.play(Move(0, "draw"))
    melds = [["red-1", "red-2", "red-3", "red-4"], ["black-5", "black-6", "black-7"],
             ["yellow-9", "yellow-10", "yellow-11", "yellow-12"],
             ["blue-6", "blue-7", "blue-8"]]
    assert match.play(Move(0, "lay", {"melds": melds})).verdict.ok
    assert match.state.racks[0] == 1
    match.play(Move(0, "discard", {"tile": "red-9"}))
    assert match.state.phase == "reveal"
    return match, table


def test_the_racks_shown_at_the_round_s_end_are_read_when_complete() -> None:
    match, table = reveal_state()
    melds = [[slot.code for slot in meld.slots] for meld in match.state.melds]
    rack = ["red-5", "black-13", "joker", "yellow-1", "blue-2", "blue-9", "blue-10",
            "black-1", "black-3", "red-11", "red-12", "yellow-3", "yellow-4", "yellow-6"]
    assert len(rack) == match.state.racks[1]
    partly = view(row(match), bottom=melds, top=[rack[:8]])
    assert play_all(match, table.on_view(match.state, partly, None)) == [
        Move(0, "reveal", {"tiles": []})]
    whole = view(row(match), bottom=melds, top=[rack[:8], rack[8:]])
    assert play_all(match, table.on_view(match.state, whole, None)) == [
        Move(1, "reveal", {"tiles": rack})]
    assert match.state.phase == "deal" and match.state.round == 2


def test_a_press_shows_a_rack_that_does_not_count_as_counted() -> None:
    match, table = reveal_state()
    melds = [[slot.code for slot in meld.slots] for meld in match.state.melds]
    short = view(row(match), bottom=melds, top=[["red-5", "black-13"]])
    table.on_view(match.state, short, None)
    assert table.on_press(match.state, Press(1, "press"), None) == [
        Play(Move(1, "reveal", {"tiles": ["red-5", "black-13"]}))]


def test_going_out_by_laying_every_tile_is_read_with_no_discard_where_allowed() -> None:
    match = Match(GAME, Header("remi", ("a", "b"), 0, {"close_discard": False}))
    table = GAME.interpreter(match.header)
    for move in [Move(0, "deal", {"atu": "red-7"}), Move(0, "discard", {"tile": "blue-3"}),
                 Move(1, "draw"), Move(1, "discard", {"tile": "blue-4"}), Move(0, "draw")]:
        match.play(move)
    melds = [["red-1", "red-2", "red-3", "red-4"], ["black-5", "black-6", "black-7"],
             ["yellow-9", "yellow-10", "yellow-11", "yellow-12"],
             ["blue-6", "blue-7", "blue-8", "blue-9"]]
    assert match.state.racks[0] == 15
    assert table.on_view(match.state, view(row(match), bottom=melds[:3]), None) == []
    assert play_all(match, table.on_view(match.state, view(row(match), bottom=melds),
                                         None)) == [Move(0, "lay", {"melds": melds})]
    assert match.state.phase == "reveal" and match.state.closer == 0


def row_laid(codes: Sequence[str], from_right: bool, camera_deg: float = 17.0,
             crosswise: int | None = 0) -> list[ViewCard]:
    """The row in one line, in the order laid, from the left or from the right, tile
    `crosswise` turned a quarter; the camera sees every tile's long side `camera_deg` off
    its picture's axis (any camera: only how the tiles lie to each other counts)."""
    step = -25.0 if from_right else 25.0
    start = 150.0 if from_right else -150.0
    return [ViewCard(code, start + step * n, -17.0,
                     (camera_deg + (90.0 if n == crosswise else 0.0)) % 180.0)
            for n, code in enumerate(codes)]


def test_a_row_laid_from_the_right_is_read_from_its_crosswise_first_tile() -> None:
    match, table = started()
    tiles = row_laid(row(match), from_right=True)
    reading = table.read(TableView(tuple(tiles)))
    assert reading is not None and reading.row == ("blue-3", "blue-4", "blue-5")
    assert play_all(match, table.on_press(match.state, Press(0, "press"), None)) == [
        Move(0, "draw")]
    discarded = row_laid([*row(match), "red-2"], from_right=True)
    assert table.on_view(match.state, TableView(tuple(discarded)), None) == [
        Play(Move(0, "discard", {"tile": "red-2"}))]


def test_the_melds_along_the_row_tell_which_of_two_tiles_lies_crosswise() -> None:
    """Without the referee's first tile (a reading alone)."""
    match = Match(GAME, Header("remi", ("a", "b")))
    table = GAME.interpreter(match.header)
    tiles = row_laid(["blue-3", "blue-4"], from_right=True, camera_deg=100.0)
    meld = [ViewCard(code, -150.0 + 21 * n, 80.0, 101.0)
            for n, code in enumerate(["red-1", "red-2", "red-3"])]
    alone = table.read(TableView(tuple(tiles)))
    beside = table.read(TableView((*tiles, *meld)))
    assert alone is not None and alone.row == ("blue-4", "blue-3")  # either may be turned
    assert beside is not None and beside.row == ("blue-3", "blue-4")


def test_of_two_tiles_turned_from_each_other_the_row_s_first_is_the_crosswise_one() -> None:
    match = Match(GAME, Header("remi", ("a", "b")))
    table = GAME.interpreter(match.header)
    play_all(match, table.on_view(match.state, view(["red-7"]), None))  # the deal
    assert table.on_view(match.state, view(), None) == []
    first = row_laid(["blue-3"], from_right=True)
    play_all(match, table.on_view(match.state, TableView(tuple(first)), None))
    assert play_all(match, table.on_press(match.state, Press(1, "press"), None)) == [
        Move(1, "draw")]
    both = row_laid(["blue-3", "blue-4"], from_right=True)
    assert table.on_view(match.state, TableView(tuple(both)), None) == [
        Play(Move(1, "discard", {"tile": "blue-4"}))]


def test_with_no_tile_crosswise_the_row_is_read_in_lines_from_the_left() -> None:
    _match, table = started()
    codes = ["blue-3", "blue-4", "blue-5", "blue-6"]
    for tiles in (row_laid(codes, from_right=False),
                  row_laid(codes, from_right=False, crosswise=None),
                  row_laid(codes, from_right=True, crosswise=None),
                  row_laid(codes, from_right=True, crosswise=2),  # one tile turned, mid-row
                  [ViewCard(c.code, c.x_mm, c.y_mm) for c in row_laid(codes, from_right=True)]):
        reading = table.read(TableView(tuple(tiles)))
        assert reading is not None
        assert reading.row == tuple(sorted(codes, key=lambda code: next(
            c.x_mm for c in tiles if c.code == code)))
