"""Kanaloa at the table: the trick's cards as the camera sees them, a removed ocean card,
the buttons; and what the page offers, in every language."""

from __future__ import annotations

import math
from collections.abc import Sequence

from referee.core import Header, Match, Move
from referee.games.kanaloa import Kanaloa, KanaloaState, KanaloaTable
from referee.table import AskTable, Play, Press, TableView, TakeBack, ViewCard
from referee.text import LANGUAGES, catalogue, untranslated

GAME = Kanaloa()
RING = [f"ocean-{n}" for n in range(1, 11)]


def dealt() -> tuple[Match[KanaloaState], KanaloaTable]:
    header = Header("kanaloa", ("a", "b", "c"))
    match = Match(GAME, header)
    match.play(Move(0, "ring", {"cards": RING}))
    match.play(Move(0, "deal", {}))
    return match, GAME.interpreter(match.header)


def view(*codes: str | None, ring: Sequence[str | None] = RING) -> TableView:
    """The ring's cards round the mat's edge and the trick's cards in the middle."""
    cards = [ViewCard(code, 200.0 + 10 * n, 0.0) for n, code in enumerate(ring)]
    cards += [ViewCard(code, 10.0 * n, 0.0) for n, code in enumerate(codes)]
    return TableView(tuple(cards))


def test_a_new_card_on_the_trick_is_the_next_seat_s() -> None:
    match, table = dealt()
    assert table.on_view(match.state, view(), None) == []
    [action] = table.on_view(match.state, view("blue-5"), None)
    assert action == Play(Move(0, "play", {"card": "blue-5"}))
    ruling = match.play(action.move)
    assert table.on_view(match.state, view("blue-5"), ruling) == []
    [second] = table.on_view(match.state, view("blue-5", "kanaloa"), ruling)
    assert second == Play(Move(1, "play", {"card": "kanaloa"}))


def test_the_last_trick_lying_in_sight_is_not_played_again() -> None:
    match, table = dealt()
    for seat, card in enumerate(["blue-5", "blue-9", "blue-1"]):
        match.play(Move(seat, "play", {"card": card}))
    seen = view("blue-5", "blue-9", "blue-1")
    assert table.on_view(match.state, seen, None) == []
    [action] = table.on_view(match.state, view("blue-5", "blue-9", "blue-1", "red-4"), None)
    assert action == Play(Move(1, "play", {"card": "red-4"}))


def test_two_new_cards_at_once_ask_the_table() -> None:
    match, table = dealt()
    [action] = table.on_view(match.state, view("blue-5", "red-4"), None)
    assert isinstance(action, AskTable) and "2 new cards" in action.message


def test_a_press_claims_the_next_card_for_an_out_of_order_seat() -> None:
    match, table = dealt()
    [asked] = table.on_press(match.state, Press(2, "press"), None)
    assert isinstance(asked, AskTable)
    [action] = table.on_view(match.state, view("green-3"), None)
    assert action == Play(Move(2, "play", {"card": "green-3"}))
    assert not GAME.judge(match.state, action.move).ok  # seat 0 leads: TURN-ORDER


def test_an_ocean_card_gone_while_a_removal_is_due_is_the_removed_one() -> None:
    match, table = dealt()
    ruling = match.play(Move(0, "play", {"card": "octopus"}))
    gone = [card for card in RING if card != "ocean-5"]
    [action] = table.on_view(match.state, view("octopus", ring=gone), ruling)
    assert action == Play(Move(0, "remove", {"card": "ocean-5"}))


def test_an_ocean_card_read_weakly_while_a_removal_is_due_is_asked_about_not_removed() -> None:
    match, table = dealt()
    assert table.on_view(match.state, view(), None) == []  # the ring as it lies
    ruling = match.play(Move(0, "play", {"card": "octopus"}))
    unread = [None if card == "ocean-5" else card for card in RING]
    [action] = table.on_view(match.state, view("octopus", ring=unread), ruling)
    assert isinstance(action, AskTable) and "ocean-5 cannot be read" in action.message
    gone = [card for card in RING if card != "ocean-5"]
    # an unnamed card elsewhere (on the trick) says nothing about the ring
    [removed] = table.on_view(match.state, view("octopus", None, ring=gone), ruling)
    assert removed == Play(Move(0, "remove", {"card": "ocean-5"}))


def test_the_buttons_take_back_and_answer_the_dolphin() -> None:
    match, table = dealt()
    ruling = match.play(Move(0, "play", {"card": "blue-5"}))
    assert table.on_press(match.state, Press(0, "double"), ruling) == [
        TakeBack("seat 0 took back its move")]
    assert table.on_press(match.state, Press(1, "double"), ruling) == []
    for seat, card in [(1, "blue-1"), (2, "blue-2")]:
        match.play(Move(seat, "play", {"card": card}))
    for card in ["red-12", "red-1", "red-2"]:  # seat 0 on ocean-1b, then ocean-2a
        match.play(Move(GAME.to_play(match.state) or 0, "play", {"card": card}))
    for card in ["green-12", "green-1", "green-2"]:  # onto ocean-2b, a dolphin
        match.play(Move(GAME.to_play(match.state) or 0, "play", {"card": card}))
    assert match.state.dolphin == 0
    assert table.on_press(match.state, Press(0, "press"), None) == [
        Play(Move(0, "dolphin", {"step": True}))]
    assert table.on_press(match.state, Press(0, "hold"), None) == [
        Play(Move(0, "dolphin", {"step": False}))]


def test_what_the_page_offers_reads_in_every_language() -> None:
    match, _ = dealt()
    match.play(Move(0, "play", {"card": "octopus"}))
    [offer] = GAME.page_moves(match.state)
    for language in LANGUAGES[1:]:
        words = catalogue(language)
        texts = [offer.title, *(f.label for f in offer.fields),
                 *(str(c) for f in offer.fields for c in f.choices), "trick", "True", "False"]
        assert [missing for text in texts for missing in untranslated(text, words)] == []


def ring_view(codes: Sequence[str | None]) -> TableView:
    """Ocean cards round the mat's centre, the first at the bottom, then clockwise."""
    cards = []
    for n, code in enumerate(codes):
        angle = math.radians(90.0 + 360.0 * n / len(codes))
        cards.append(ViewCard(code, 300.0 * math.cos(angle), 200.0 * math.sin(angle)))
    return TableView(tuple(cards))


def test_the_ring_is_read_clockwise_from_the_island_once_every_card_is_down() -> None:
    match = Match(GAME, Header("kanaloa", ("a", "b", "c"), first=2))
    table = GAME.interpreter(match.header)
    laid = ["ocean-7", "ocean-3", "ocean-1", "ocean-12", "ocean-5", "ocean-9", "ocean-2",
            "ocean-11", "ocean-4", "ocean-8"]
    assert table.on_view(match.state, ring_view(laid[:9]), None) == []
    [action] = table.on_view(match.state, ring_view(laid), None)
    assert action == Play(Move(2, "ring", {"cards": [*laid[2:], *laid[:2]]}))
    assert GAME.judge(match.state, action.move).ok


def test_a_ring_without_the_island_or_with_a_card_twice_is_asked_about() -> None:
    match = Match(GAME, Header("kanaloa", ("a", "b", "c")))
    table = GAME.interpreter(match.header)
    [action] = table.on_view(match.state, ring_view([f"ocean-{n}" for n in range(2, 12)]), None)
    assert isinstance(action, AskTable) and "the island's" in action.message


def test_a_ring_with_a_card_the_camera_cannot_name_is_asked_about() -> None:
    match = Match(GAME, Header("kanaloa", ("a", "b", "c")))
    table = GAME.interpreter(match.header)
    laid: list[str | None] = [*RING[:9], None]
    [action] = table.on_view(match.state, ring_view(laid), None)
    assert isinstance(action, AskTable) and "1 ocean card of the ring" in action.message


def test_the_round_s_first_lead_says_the_dealer_dealt() -> None:
    match = Match(GAME, Header("kanaloa", ("a", "b", "c"), first=1))
    match.play(Move(1, "ring", {"cards": RING}))
    table = GAME.interpreter(match.header)
    assert table.on_view(match.state, view(), None) == []
    actions = table.on_view(match.state, view("green-7"), None)
    assert actions == [Play(Move(1, "deal")), Play(Move(1, "play", {"card": "green-7"}))]
    for action in actions:
        assert isinstance(action, Play) and match.play(action.move).verdict.ok


def test_a_second_octopus_after_the_last_trick_was_taken_is_a_new_card() -> None:
    match, table = dealt()
    for seat, card in enumerate(["octopus", "blue-9", "blue-1"]):
        match.play(Move(seat, "play", {"card": card}))
        if card == "octopus":
            [gone] = [c for c in match.state.race.cards if c != "ocean-1"][:1]
            match.play(Move(seat, "remove", {"card": gone}))
    ring = list(match.state.race.cards)
    # still lying: the second Octopus could be the first one
    assert table.on_view(match.state, view("octopus", "blue-9", "blue-1", ring=ring),
                         None) == []
    [lead] = table.on_view(match.state, view("red-4", ring=ring), None)  # taken, then led
    assert isinstance(lead, Play)
    match.play(lead.move)
    [action] = table.on_view(match.state, view("red-4", "octopus", ring=ring), None)
    assert action == Play(Move(2, "play", {"card": "octopus"}))


def test_the_board_shows_the_ring_the_boats_the_trump_and_the_void_colours() -> None:
    match, _ = dealt()
    for seat, card in [(0, "blue-5"), (1, "red-3"), (2, "blue-9")]:  # seat 1 shows no blue
        match.play(Move(seat, "play", {"card": card}))
    match.play(Move(2, "play", {"card": "kanaloa"}))  # seat 2 won: its boat on ocean-1b
    board = GAME.board(match.state)
    assert [space.name for space in board.track][:3] == ["ocean-1a", "ocean-1b", "ocean-2a"]
    assert board.track[0].marks == ("island",) and board.track[0].seats == (0, 1)
    assert board.track[1].seats == (2,) and board.track[1].colour == "red"
    notes = {str(note.text): note for note in board.notes}
    assert notes["trump: red"].colours == ("red",)
    assert notes["seat 1 has shown no blue"].seat == 1
    assert "round 1, trick 2 of 8" in notes
    for language in LANGUAGES[1:]:  # English is the referee's own
        words = catalogue(language)
        texts = [board.title or "", *(note.text for note in board.notes),
                 *(mark for space in board.track for mark in space.marks),
                 *(space.colour for space in board.track)]
        assert [missing for text in texts for missing in untranslated(text, words)] == []
