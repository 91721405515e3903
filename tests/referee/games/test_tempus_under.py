"""Professor Tempus: a face-up card seen going under a set (issue 3, item 3).

The camera sees a loose card lie by a set and then not; the seat's press says a card
went under. The interpreter is driven as the pipeline drives it: each view and press in
turn, its moves played on a match, its take-backs undone. Sets lie as in
test_tempus.py: a series card with the pile 70 mm beside it; with two players seat 0's
set at the bottom of the mat (y = 150) and seat 1's at the top (y = -150).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from referee.core import Header, Match, Move
from referee.games.tempus import Tempus, TempusSet, TempusState, TempusTable
from referee.table import Action, AskTable, Play, Press, TableView, TakeBack, ViewCard

GAME = Tempus()
FREE_SERIES = [ViewCard("series-plus", -40.0, 0.0)]


def set_at(x: float, y: float, top: str | None, series: str = "plus") -> list[ViewCard]:
    """A set centred on (x, y): its series card 35 mm to the left, its pile 35 mm right."""
    return [ViewCard(f"series-{series}", x - 35.0, y), ViewCard(top, x + 35.0, y)]


def feed(seat: int, number: int | None, card: str | None = None) -> Move:
    return Move(seat, "feed", {"set": number, "card": card})


class Table:
    """A match and its table interpreter, fed views and presses as the pipeline does."""

    def __init__(self, *sets: tuple[int, list[str]], seats: int = 2, to_play: int = 0,
                 hands: list[int] | None = None) -> None:
        names = tuple(f"seat{n}" for n in range(seats))
        self.match = Match(GAME, GAME.check_header(Header("tempus", names, to_play)))
        state = self.match.state
        held = tuple(
            TempusSet(number, owner, "plus", tuple(cards))
            for number, (owner, cards) in enumerate(sets, start=1)
        )
        self.match._states[-1] = replace(
            state, sets=held, hands=state.hands if hands is None else tuple(hands)
        )
        self.interpreter = TempusTable(GAME.deck.card_mm)

    @property
    def state(self) -> TempusState:
        return self.match.state

    def see(self, *groups: list[ViewCard]) -> list[Action]:
        cards = tuple(FREE_SERIES + [card for group in groups for card in group])
        last = self.match.rulings[-1] if self.match.rulings else None
        return self._act(self.interpreter.on_view(self.state, TableView(cards), last))

    def press(self, seat: int, kind: Any = "press") -> list[Action]:
        last = self.match.rulings[-1] if self.match.rulings else None
        return self._act(self.interpreter.on_press(self.state, Press(seat, kind), last))

    def _act(self, actions: list[Action]) -> list[Action]:
        for action in actions:
            if isinstance(action, Play):
                self.match.play(action.move)
            elif isinstance(action, TakeBack):
                self.match.undo()
        return actions

    def moves(self) -> list[Move]:
        return [ruling.move for ruling in self.match.rulings]


#: Two players: seat 0's set (red-5 on top) and seat 1's (red-12 on top); seat 0 to play.
MINE = set_at(0.0, 150.0, "red-5")
THEIRS = set_at(0.0, -150.0, "red-12")
#: A card laid beside the pile of seat 1's set, and one beside seat 0's own set.
BY_THEIRS = ViewCard("violet-3", 115.0, -150.0)
BY_MINE = ViewCard("violet-3", 115.0, 150.0)


def two_players(**kwargs: Any) -> Table:
    return Table((0, ["red-5"]), (1, ["red-12"]), **kwargs)


def asks(actions: list[Action]) -> list[str]:
    return [action.message for action in actions if isinstance(action, AskTable)]


# -- seen, gone, pressed ------------------------------------------------------------------


def test_a_card_seen_going_under_then_the_press_feeds_it_under_that_set() -> None:
    table = two_players()
    assert table.see(MINE, THEIRS) == []
    assert table.see(MINE, THEIRS, [BY_THEIRS]) == []
    assert table.see(MINE, THEIRS) == []  # gone: nothing is judged until the press
    assert table.press(0) == [Play(feed(0, 2, "violet-3"))]
    [ruling] = table.match.rulings
    assert ruling.verdict.ok and ruling.verdict.severity == "ok"
    assert ruling.verdict.message == ""  # "slides violet-3 under set 2" says it all
    assert table.state.find(2) == TempusSet(2, 1, "plus", ("violet-3", "red-12"))


def test_one_press_is_one_feed() -> None:
    table = two_players()
    table.see(MINE, THEIRS)
    table.see(MINE, THEIRS, [BY_THEIRS])
    table.see(MINE, THEIRS)
    table.press(0)
    again = table.press(0)
    assert len(again) == 1 and "it is seat 1's turn" in asks(again)[0]
    assert table.see(MINE, THEIRS) == []
    assert table.moves() == [feed(0, 2, "violet-3")]


def test_the_card_fed_counts_for_the_set_s_owner_at_the_round_end() -> None:
    table = two_players(hands=[3, 2])
    table.see(MINE, THEIRS)
    table.see(MINE, THEIRS, [BY_THEIRS])
    table.see(MINE, THEIRS)
    table.press(0)
    state = table.state
    assert state.round == 2 and "violet-3" in state.won[1]
    # violet-3 has 2 hourglasses and red-12 one: seat 1 scores both.
    assert GAME.scores(state) == {0: 1, 1: 3}


def test_a_press_with_no_loose_card_is_a_face_down_feed_as_before() -> None:
    table = two_players()
    table.see(MINE, THEIRS)
    assert table.press(0) == [Play(feed(0, 2))]


def test_a_press_first_and_the_card_gone_after_is_the_same_feed_with_its_card() -> None:
    table = two_players()
    table.see(MINE, THEIRS)
    table.see(MINE, THEIRS, [BY_THEIRS])
    assert table.press(0) == [Play(feed(0, 2))]
    actions = table.see(MINE, THEIRS)
    assert isinstance(actions[0], TakeBack) and "violet-3" in actions[0].reason
    assert actions[1:] == [Play(feed(0, 2, "violet-3"))]
    assert table.moves() == [feed(0, 2, "violet-3")]
    assert table.see(MINE, THEIRS, [ViewCard("red-20", 200.0, 0.0)]) == []
    assert table.moves() == [feed(0, 2, "violet-3")]


def test_a_press_first_and_something_else_changing_first_keeps_the_face_down_feed() -> None:
    table = two_players(to_play=0)
    table.see(MINE, THEIRS)
    table.see(MINE, THEIRS, [BY_THEIRS])
    table.press(0)
    # Seat 1 captures seat 0's set before the card goes: the card is nobody's evidence.
    assert table.see(set_at(0.0, 150.0, "red-9"), THEIRS, [BY_THEIRS]) == [
        Play(Move(1, "capture", {"set": 1, "card": "red-9"}))
    ]
    table.see(set_at(0.0, 150.0, "red-9"), THEIRS)
    assert table.moves() == [feed(0, 2), Move(1, "capture", {"set": 1, "card": "red-9"})]


# -- where it lay -------------------------------------------------------------------------

#: Three players, seat 0 to play: seat 1's set at the top left, seat 2's at the top right.
SEAT_1_SET = set_at(-160.0, -100.0, "red-12")
SEAT_2_SET = set_at(160.0, -100.0, "violet-20")
OWN_SET = set_at(0.0, 150.0, "red-5")


def three_players() -> Table:
    return Table((0, ["red-5"]), (1, ["red-12"]), (2, ["violet-20"]), seats=3)


def test_the_card_goes_under_the_opponent_s_set_nearest_to_where_it_lay() -> None:
    table = three_players()
    table.see(OWN_SET, SEAT_1_SET, SEAT_2_SET)
    table.see(OWN_SET, SEAT_1_SET, SEAT_2_SET, [ViewCard("joker-7", 160.0, -190.0)])
    table.see(OWN_SET, SEAT_1_SET, SEAT_2_SET)
    assert table.press(0) == [Play(feed(0, 3, "joker-7"))]


def test_a_card_as_near_to_two_opponents_sets_is_fed_under_an_unknown_set_and_asked() -> None:
    table = three_players()
    table.see(OWN_SET, SEAT_1_SET, SEAT_2_SET)
    table.see(OWN_SET, SEAT_1_SET, SEAT_2_SET, [ViewCard("joker-7", 0.0, -100.0)])
    table.see(OWN_SET, SEAT_1_SET, SEAT_2_SET)
    actions = table.press(0)
    assert actions[0] == Play(feed(0, None, "joker-7"))
    assert asks(actions) == ["seat 0 slid joker-7 under a set: which one (2, 3)?"]
    [ruling] = table.match.rulings
    assert ruling.verdict.ok and table.state.fed_unknown == 1


def test_a_card_laid_by_one_s_own_set_says_nothing_about_the_feed() -> None:
    table = two_players()
    table.see(MINE, THEIRS)
    table.see(MINE, THEIRS, [BY_MINE])
    table.see(MINE, THEIRS)
    assert table.press(0) == [Play(feed(0, 2))]


def test_a_card_far_from_every_set_says_nothing_about_the_feed() -> None:
    table = two_players()
    table.see(MINE, THEIRS)
    # Nearer seat 1's set than seat 0's, but more than a card and a half from it.
    table.see(MINE, THEIRS, [ViewCard("violet-3", 250.0, -120.0)])
    table.see(MINE, THEIRS)
    assert table.press(0) == [Play(feed(0, 2))]


# -- what is not a card going under -------------------------------------------------------


def test_a_loose_card_that_goes_without_a_press_is_nothing_and_the_next_move_is_legal() -> None:
    table = two_players()
    table.see(MINE, THEIRS)
    assert table.see(MINE, THEIRS, [BY_THEIRS]) == []
    assert table.see(MINE, THEIRS) == []  # picked up again, or slid under: not known
    assert table.moves() == []
    # Seat 0 then captures: one card this turn, legal.
    assert table.see(MINE, set_at(0.0, -150.0, "red-20")) == [
        Play(Move(0, "capture", {"set": 2, "card": "red-20"}))
    ]
    assert table.match.rulings[-1].verdict.ok
    # Seat 1 presses next: the card that went last turn is not its card.
    assert table.press(1)[0] == Play(feed(1, None))


def test_a_card_lying_since_before_the_last_move_is_no_evidence() -> None:
    table = two_players(to_play=1)
    far = ViewCard("red-20", 250.0, 0.0)
    table.see(MINE, THEIRS)
    table.see(MINE, THEIRS, [BY_THEIRS])  # laid down in seat 1's turn
    assert table.press(1) == [Play(feed(1, 1))]  # seat 1 feeds face down
    table.see(MINE, THEIRS, [BY_THEIRS, far])
    table.see(MINE, THEIRS, [far])  # and picks violet-3 up in seat 0's turn
    assert table.press(0) == [Play(feed(0, 2))]


def test_the_first_view_shows_no_card_laid_down_yet() -> None:
    table = two_players()
    table.see(MINE, THEIRS, [BY_THEIRS])  # lying there before the referee looked
    table.see(MINE, THEIRS)
    assert table.press(0) == [Play(feed(0, 2))]


def test_two_cards_gone_and_one_press_is_a_face_down_feed() -> None:
    table = two_players()
    table.see(MINE, THEIRS)
    table.see(MINE, THEIRS, [BY_THEIRS, ViewCard("joker-9", -115.0, -150.0)])
    table.see(MINE, THEIRS)
    assert table.press(0) == [Play(feed(0, 2))]


def test_a_card_that_comes_back_did_not_go_under() -> None:
    table = two_players()
    table.see(MINE, THEIRS)
    table.see(MINE, THEIRS, [BY_THEIRS])
    table.see(MINE, THEIRS)
    table.see(MINE, THEIRS, [ViewCard("violet-3", 250.0, 0.0)])
    assert table.press(0) == [Play(feed(0, 2))]


def test_a_card_gone_while_a_set_changed_is_not_taken_for_a_feed() -> None:
    table = two_players()
    table.see(MINE, THEIRS)
    table.see(MINE, THEIRS, [BY_THEIRS])
    actions = table.see(MINE)  # seat 1's set out of sight as the card goes
    assert asks(actions) and table.moves() == []
    table.see(MINE, THEIRS)
    assert table.press(0) == [Play(feed(0, 2))]


def test_an_unreadable_loose_card_is_no_evidence() -> None:
    table = two_players()
    table.see(MINE, THEIRS)
    table.see(MINE, THEIRS, [ViewCard(None, 115.0, -150.0)])
    table.see(MINE, THEIRS)
    assert table.press(0) == [Play(feed(0, 2))]


def test_a_deadlocked_press_still_buries_a_card_nobody_saw() -> None:
    table = Table((0, ["red-5"]), (0, ["red-12"]), (0, ["violet-20"]))
    sets = (set_at(-150.0, 150.0, "red-5"), set_at(0.0, 150.0, "red-12"),
            set_at(150.0, 150.0, "violet-20"))
    table.see(*sets)
    table.see(*sets, [ViewCard("violet-3", 0.0, 60.0)])
    table.see(*sets)
    assert table.press(0) == [Play(Move(0, "bury", {"card": None}))]
