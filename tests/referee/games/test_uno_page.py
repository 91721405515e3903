"""UNO: what the page offers for what the camera cannot see or hear: the UNO call, a
catch, the challenge of a wild draw 4 (and a wild's colour, test_uno_colour.py).

Each offer must be made exactly when the referee would judge its move legal, to the
seats that may make it: the page never produces a false "illegal". The move the page
sends is `{"seat": s, "move": kind, **fixed, **answers}` through `parse_move`, as the
table service does. The challenged hand is then read by the camera (`UnoTable`), and
page moves never upset how the camera reads the discard pile.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from referee.core import Header, Match, Move, PageMove, Ruling
from referee.games.uno import COLOURS, WILDS, Uno, UnoState, UnoTable
from referee.table import AskTable, Play, Press, TableView, TakeBack, ViewCard
from referee.text import Text, catalogue, translate, untranslated

GAME = Uno()
RO = catalogue("ro")


def started(top: str = "red-3", seats: int = 3, **options: Any) -> Match[UnoState]:
    """The dealer (the last seat) has dealt and turned up `top`; seat 0 plays first."""
    match = Match(GAME, Header("uno", tuple(f"seat{n}" for n in range(seats)), 0, options))
    dealer = seats - 1
    legal(match, Move(dealer, "deal"), Move(dealer, "turn-up", {"card": top}))
    return match


def hands(match: Match[UnoState], *counts: int) -> None:
    """A test shortcut: the seats hold these many cards (the pile makes up the rest)."""
    state = match.state
    diff = sum(counts) - sum(state.hands)
    match._states[-1] = type(state)(  # noqa: SLF001 - a test shortcut
        **{**state.__dict__, "hands": tuple(counts), "pile": state.pile - diff}
    )


def play(seat: int, *cards: str, **fields: Any) -> Move:
    return Move(seat, "play", {"cards": list(cards), **fields})


def draw(seat: int, count: int = 1) -> Move:
    return Move(seat, "draw", {"count": count})


def legal(match: Match[UnoState], *moves: Move) -> None:
    for move in moves:
        verdict = match.play(move).verdict
        assert verdict.ok and verdict.severity == "ok", (move, verdict)


def offers(state: UnoState) -> dict[str, PageMove]:
    found = {offer.kind: offer for offer in GAME.page_moves(state)}
    assert len(found) == len(GAME.page_moves(state)), "one offer per kind of move"
    return found


def seats(state: UnoState, kind: str) -> tuple[int, ...]:
    """The seats the page offers `kind` to (none when it is not offered)."""
    offer = offers(state).get(kind)
    return () if offer is None else offer.seats


def answers(offer: PageMove) -> list[dict[str, Any]]:
    """Every set of answers the offer's form allows."""
    ranges = [
        field.choices or tuple(range(field.minimum, field.maximum + 1)) for field in offer.fields
    ]
    names = [field.name for field in offer.fields]
    return [dict(zip(names, values, strict=True)) for values in itertools.product(*ranges)]


def sent(offer: PageMove, seat: int, **answered: Any) -> Move:
    """The move the page sends for `offer`, read as the table service reads it."""
    assert seat in offer.seats
    return GAME.parse_move(seat, offer.kind, {**offer.fixed, **answered})


def enter(match: Match[UnoState], kind: str, seat: int, **answered: Any) -> Ruling:
    ruling = match.play(sent(offers(match.state)[kind], seat, **answered))
    assert ruling.verdict.ok and ruling.verdict.severity == "ok", ruling.verdict
    return ruling


def every_offer_is_legal(state: UnoState) -> None:
    """Whatever the page lets anyone send now is judged legal (never even a warning)."""
    for offer in GAME.page_moves(state):
        for seat in offer.seats:
            for answered in answers(offer):
                verdict = GAME.judge(state, sent(offer, seat, **answered))
                assert verdict.ok and verdict.severity == "ok", (offer, seat, answered, verdict)


# -- the UNO call --------------------------------------------------------------------------------


def test_uno_is_offered_to_a_seat_with_two_cards_or_one_that_has_not_called() -> None:
    match = started()
    assert seats(match.state, "uno") == ()
    hands(match, 2, 7, 1)
    assert seats(match.state, "uno") == (0, 2)
    offer = offers(match.state)["uno"]
    assert offer.to_json() == {
        "move": "uno", "title": "Who called UNO?", "seats": [0, 2], "fields": [], "fixed": {},
    }
    ruling = enter(match, "uno", 0)
    assert ruling.verdict.message == ""  # "calls UNO" says it all
    assert seats(match.state, "uno") == (2,)
    legal(match, play(0, "red-4"))
    assert seats(match.state, "uno") == (2,)  # seat 0 called before its next-to-last card
    assert seats(match.state, "catch") == ()


def test_a_call_goes_with_a_draw_past_two_cards_and_is_offered_again_at_two() -> None:
    match = started()
    hands(match, 2, 7, 7)
    enter(match, "uno", 0)
    legal(match, draw(0))
    assert match.state.hands[0] == 3 and seats(match.state, "uno") == ()
    legal(match, play(1, "red-5"), play(2, "red-6"), play(0, "red-9"))
    assert seats(match.state, "uno") == (0,)  # 2 cards: the old call went with the draw


def test_a_seat_that_owes_cards_is_not_offered_the_call() -> None:
    match = started()
    hands(match, 2, 7, 7)
    legal(match, play(0, "red-4"))
    assert seats(match.state, "uno") == (0,)  # one card, not called: it may still call
    enter(match, "catch", 2)
    assert seats(match.state, "uno") == ()  # caught: it draws 2 first


def test_uno_is_not_offered_without_the_call_nor_outside_play() -> None:
    match = started(uno_call=False)
    hands(match, 2, 7, 7)
    assert offers(match.state) == {}
    legal(match, play(0, "red-4"))
    assert offers(match.state) == {}
    out = started()
    hands(out, 1, 2, 2)
    legal(out, play(0, "red-4"))
    assert out.state.phase == "reveal" and offers(out.state) == {}
    fresh = Match(GAME, Header("uno", ("a", "b"), 0, {}))
    assert offers(fresh.state) == {}


# -- catches ------------------------------------------------------------------------------------


def test_a_seat_down_to_one_card_without_calling_may_be_caught_by_any_other() -> None:
    match = started(seats=4)
    hands(match, 2, 7, 7, 7)
    legal(match, play(0, "red-4"))
    offer = offers(match.state)["catch"]
    assert offer.to_json() == {
        "move": "catch",
        "title": "Seat 0 is down to one card without calling UNO: who caught it?",
        "seats": [1, 2, 3],
        "fields": [],
        "fixed": {"target": 0},
    }
    ruling = enter(match, "catch", 3)
    assert ruling.verdict.message == "and seat 0 draws 2"
    assert seats(match.state, "catch") == ()
    assert match.to_play() == 0
    legal(match, draw(0, 2))
    assert match.state.hands[0] == 3


def test_the_catch_ends_when_the_seat_calls_or_the_next_player_starts_a_turn() -> None:
    match = started()
    hands(match, 2, 7, 7)
    legal(match, play(0, "red-4"))
    assert seats(match.state, "catch") == (1, 2)
    enter(match, "uno", 0)
    assert seats(match.state, "catch") == ()
    for turn in (play(1, "red-5"), draw(1)):
        late = started()
        hands(late, 2, 7, 7)
        legal(late, play(0, "red-4"), turn)
        assert seats(late.state, "catch") == (), turn


def test_a_colour_named_does_not_end_the_catch_a_play_does() -> None:
    match = started(wild="official")
    hands(match, 2, 7, 7)
    legal(match, play(0, "wild", colour=None))
    assert seats(match.state, "catch") == (1, 2)
    enter(match, "colour", 0, colour="blue")
    assert seats(match.state, "catch") == (1, 2)  # naming is no turn
    legal(match, play(1, "blue-5"))
    assert seats(match.state, "catch") == ()


def test_nothing_to_catch_without_the_call() -> None:
    match = started(uno_call=False)
    hands(match, 2, 7, 7)
    legal(match, play(0, "red-4"))
    assert match.state.hands[0] == 1 and seats(match.state, "catch") == ()


# -- the challenge ------------------------------------------------------------------------------


def test_the_target_of_a_wild_draw4_is_offered_the_challenge() -> None:
    match = started()
    hands(match, 3, 7, 7)
    assert seats(match.state, "challenge") == ()
    legal(match, play(0, "wild-draw4", colour="blue"))
    offer = offers(match.state)["challenge"]
    assert offer.to_json() == {
        "move": "challenge",
        "title": "Does seat 1 challenge the wild draw 4 of seat 0?",
        "seats": [1],
        "fields": [],
        "fixed": {},
    }
    ruling = enter(match, "challenge", 1)
    assert ruling.verdict.message == "and seat 0 shows its hand"
    assert seats(match.state, "challenge") == ()
    assert match.to_play() == 0


def test_the_challenge_is_settled_by_the_hand_as_the_notation_says() -> None:
    innocent = started()
    hands(innocent, 3, 7, 7)
    legal(innocent, play(0, "wild-draw4", colour="blue"))
    enter(innocent, "challenge", 1)
    ruling = innocent.play(Move(0, "reveal", {"cards": ["blue-1", "green-7"]}))
    assert "was legal, and seat 1 draws 6" in ruling.verdict.message
    legal(innocent, draw(1, 6))
    assert innocent.to_play() == 2
    guilty = started()
    hands(guilty, 3, 7, 7)
    legal(guilty, play(0, "wild-draw4", colour="blue"))
    enter(guilty, "challenge", 1)
    ruling = guilty.play(Move(0, "reveal", {"cards": ["red-9", "green-7"]}))
    assert "was illegal, and seat 0 draws 4" in ruling.verdict.message
    assert [proof.verdict.rules for proof in ruling.deferred] == [("UNO-WD4-RESTRICT",)]


def test_the_challenge_stays_offered_while_the_colour_is_named_and_the_call_made() -> None:
    match = started()
    hands(match, 2, 7, 7)
    legal(match, play(0, "wild-draw4", colour=None))
    assert set(offers(match.state)) == {"colour", "challenge", "catch", "uno"}
    enter(match, "colour", 0, colour="green")
    enter(match, "uno", 0)
    assert seats(match.state, "challenge") == (1,)
    enter(match, "challenge", 1)


def test_a_challenge_is_not_offered_once_the_target_plays_or_draws() -> None:
    for answer in (play(1, "wild-draw4", colour="red"), draw(1, 4)):
        match = started()
        legal(match, play(0, "wild-draw4", colour="blue"), answer)
        assert seats(match.state, "challenge") == (), answer


def test_no_challenge_of_a_defence_nor_at_a_table_without_challenges() -> None:
    defence = started()
    legal(defence, play(0, "red-draw2"), play(1, "wild-draw4", colour="blue"))
    assert seats(defence.state, "challenge") == ()
    without = started(challenge=False)
    legal(without, play(0, "wild-draw4", colour="blue"))
    assert seats(without.state, "challenge") == ()


def test_a_wild_draw4_the_referee_cannot_judge_is_not_offered_for_a_challenge() -> None:
    # On a wild whose colour nobody entered, what would have forbidden the +4 is not
    # known: a challenge would make the challenger draw 6 on a guess.
    match = started(wild="official")
    legal(match, play(0, "wild", colour=None))
    match.play(play(1, "wild-draw4", colour="blue"))  # a warning: not checked
    assert seats(match.state, "challenge") == ()


def test_a_wild_draw4_played_while_known_to_be_illegal_can_still_be_challenged() -> None:
    match = started(seats=2)
    legal(match, Move(0, "draw", {"count": 1, "cards": ["red-8"]}), play(1, "red-4"))
    assert match.state.turn.current == 0
    ruling = match.play(play(0, "wild-draw4", colour="blue"))
    assert ruling.verdict.rules == ("UNO-WD4-RESTRICT",)
    assert seats(match.state, "challenge") == (1,)
    enter(match, "challenge", 1)
    cards = ["red-8", *["green-1"] * (match.state.hands[0] - 1)]
    settled = match.play(Move(0, "reveal", {"cards": cards}))
    assert "was illegal, and seat 0 draws 4" in settled.verdict.message


# -- the offers speak Romanian ------------------------------------------------------------------


def test_the_offers_speak_romanian() -> None:
    match = started()
    hands(match, 2, 7, 7)
    legal(match, play(0, "wild-draw4", colour="blue"))
    titles = {kind: offer.title for kind, offer in offers(match.state).items()}
    assert all(isinstance(title, Text) and not untranslated(title, RO) for title in titles.values())
    names = ("Ana", "Bogdan", "Chiara")
    assert {kind: translate(title, RO, names) for kind, title in titles.items()} == {
        "challenge": "Contestă Bogdan cartea +4 a lui Ana?",
        "catch": "Ana a rămas cu o carte fără să strige UNO: cine a observat?",
        "uno": "Cine a strigat UNO?",
    }


# -- never a false "illegal": random tables ----------------------------------------------------

CODES = sorted(set(GAME.deck.codes) - {"blank"})


def _any_move(rng: random.Random, match: Match[UnoState]) -> Move:
    """A move a table could make now, often odd: the referee accepts what it flags."""
    state = match.state
    to_play = GAME.to_play(state)
    seat = to_play if to_play is not None and rng.random() < 0.8 else rng.randrange(state.seats)
    if state.phase == "deal":
        return Move(state.dealer, "deal")
    if state.phase == "turn-up":
        return Move(state.dealer, "turn-up", {"card": rng.choice(CODES)})
    if state.phase == "reveal" or state.challenge is not None:
        return Move(seat, "reveal", {"cards": rng.sample(CODES, state.hands[seat] % 8)})
    if state.debts:
        return Move(state.debts[0].seat, "draw", {"count": state.debts[0].count})
    roll = rng.random()
    if roll < 0.15:
        return draw(seat, state.stack if state.stack and rng.random() < 0.8 else 1)
    top = state.top or "red-3"
    if roll < 0.3 and top not in WILDS:
        return play(rng.randrange(state.seats), top)  # a jump-in, or in turn
    card = rng.choice([*CODES, *WILDS * 6, "red-draw2", "blue-draw2"])
    fields: dict[str, Any] = {}
    if card in WILDS:
        fields["colour"] = rng.choice([*COLOURS, None])
    return play(seat, card, **fields)


def _random_table(seed: int) -> set[str]:
    """A random match under random options: before every move, each offer is checked;
    now and then one is entered. Returns the kinds of page moves entered."""
    rng = random.Random(seed)
    count = rng.randint(2, 6)
    options = {o.name: rng.choice(o.choices) for o in GAME.options if o.name != "target"}
    match = Match(GAME, Header("uno", tuple(f"s{n}" for n in range(count)), 0, options))
    entered: set[str] = set()
    for _ in range(250):
        if GAME.is_over(match.state):
            break
        if match.state.phase == "play" and rng.random() < 0.25:
            # Hands run short: the page's offers come into play more often.
            hands(match, *(min(held, rng.randint(1, 3)) for held in match.state.hands))
        every_offer_is_legal(match.state)
        offered = GAME.page_moves(match.state)
        if offered and rng.random() < 0.4:
            offer = rng.choice(offered)
            match.play(sent(offer, rng.choice(offer.seats), **rng.choice(answers(offer))))
            entered.add(offer.kind)
        else:
            match.play(_any_move(rng, match))
        if match.rulings and rng.random() < 0.05:
            match.undo()
    return entered


def test_every_offer_is_legal_whatever_the_table_did() -> None:
    entered: set[str] = set()
    for seed in range(60):
        entered |= _random_table(seed)
    assert entered == {"colour", "uno", "catch", "challenge"}


# -- the challenged hand, read by the camera ----------------------------------------------------


def pile(*codes: str | None) -> list[ViewCard]:
    return [ViewCard(code, 3.0 * i, 2.0) for i, code in enumerate(codes)]


def laid(seat: int, seats: int, *codes: str | None) -> list[ViewCard]:
    """A hand laid face up before `seat`'s place."""
    x, y = UnoTable.seat_place(seat, seats)
    return [ViewCard(code, x + 25.0 * i - 25.0, y) for i, code in enumerate(codes)]


def on_view(match: Match[UnoState], *cards: ViewCard) -> list[Any]:
    last = match.rulings[-1] if match.rulings else None
    actions = UnoTable(GAME).on_view(match.state, TableView(cards), last)
    return [a.move.to_json() if isinstance(a, Play) else type(a).__name__ for a in actions]


def on_press(match: Match[UnoState], seat: int) -> list[Any]:
    last = match.rulings[-1] if match.rulings else None
    actions = UnoTable(GAME).on_press(match.state, Press(seat, "press"), last)
    return [a.move.to_json() if isinstance(a, Play) else type(a).__name__ for a in actions]


def act(match: Match[UnoState], actions: list[Any]) -> None:
    """Do what the camera or a button said, as the pipeline does."""
    for action in actions:
        if isinstance(action, Play):
            match.play(action.move)
        elif isinstance(action, TakeBack):
            match.undo()


def challenged(seats: int = 3) -> Match[UnoState]:
    match = started(seats=seats)
    hands(match, *([3] + [7] * (seats - 1)))
    legal(match, play(0, "wild-draw4", colour="blue"))
    enter(match, "challenge", 1)
    return match


def test_the_challenged_hand_laid_before_the_accused_is_revealed() -> None:
    match = challenged()
    hand = laid(0, 3, "green-7", "blue-1")
    assert on_view(match, *pile("wild-draw4"), *hand) == [
        {"seat": 0, "move": "reveal", "cards": ["blue-1", "green-7"]}
    ]
    last = match.rulings[-1]
    actions = UnoTable(GAME).on_view(match.state, TableView((*pile("wild-draw4"), *hand)), last)
    act(match, actions)
    assert match.rulings[-1].verdict.message == (
        "so the wild draw 4 was legal, and seat 1 draws 6"
    )
    assert on_view(match, *pile("wild-draw4"), *hand) == []  # shown once


def test_a_hand_before_the_accused_counts_only_once_the_challenge_is_entered() -> None:
    match = started()
    hands(match, 3, 7, 7)
    legal(match, play(0, "wild-draw4", colour="blue"))
    assert on_view(match, *pile("wild-draw4"), *laid(0, 3, "green-7", "blue-1")) == []


def test_a_challenged_hand_the_camera_cannot_read_whole_is_asked_never_guessed() -> None:
    match = challenged()
    assert on_view(match, *pile("wild-draw4"), *laid(0, 3, "green-7")) == ["AskTable"]
    assert on_view(match, *pile("wild-draw4"), *laid(0, 3, "green-7", None)) == ["AskTable"]
    too_many = laid(0, 3, "green-7", "blue-1", "red-2")
    [asked] = UnoTable(GAME).on_view(match.state, TableView((*pile("wild-draw4"), *too_many)),
                                     match.rulings[-1])
    assert isinstance(asked, AskTable)
    assert asked.message == (
        "the camera sees 3 cards before seat 0, which holds 2: the challenge waits for its "
        "hand alone"
    )
    assert not untranslated(asked.message, RO)


def test_cards_before_other_seats_do_not_settle_the_challenge() -> None:
    match = challenged(seats=4)
    assert on_view(match, *pile("wild-draw4"), *laid(2, 4, "green-7", "blue-1")) == []


def test_the_challenged_hand_read_in_a_whole_round_through_the_camera() -> None:
    match = challenged()
    actions = UnoTable(GAME).on_view(
        match.state, TableView((*pile("wild-draw4"), *laid(0, 3, "red-9", "green-7"))),
        match.rulings[-1],
    )
    act(match, actions)
    [proof] = match.rulings[-1].deferred
    assert proof.verdict.concerns == 2 and proof.verdict.rules == ("UNO-WD4-RESTRICT",)
    assert match.to_play() == 0  # it draws its 4


# -- page moves between a play and what the camera sees next ---------------------------------


def test_a_flagged_card_picked_up_after_a_call_goes_back_and_the_call_stands() -> None:
    match = started()
    hands(match, 2, 7, 7)
    assert not match.play(play(0, "blue-7")).verdict.ok
    enter(match, "uno", 0)
    actions = on_view(match, *pile("red-3"))
    assert actions == ["TakeBack", "TakeBack", {"seat": 0, "move": "uno"}]
    act(match, UnoTable(GAME).on_view(match.state, TableView(tuple(pile("red-3"))),
                                      match.rulings[-1]))
    assert match.state.top == "red-3" and match.state.hands[0] == 2
    assert match.state.called == {0}
    assert [ruling.move.kind for ruling in match.rulings[-1:]] == ["uno"]
    assert match.rulings[-1].verdict.ok


def test_a_flagged_card_picked_up_after_a_catch_voids_the_catch() -> None:
    match = started()
    hands(match, 2, 7, 7)
    assert not match.play(play(0, "blue-7")).verdict.ok
    enter(match, "catch", 1)
    assert match.state.debts
    act(match, UnoTable(GAME).on_view(match.state, TableView(tuple(pile("red-3"))),
                                      match.rulings[-1]))
    assert match.state.top == "red-3" and match.state.debts == ()
    assert match.state.hands == (2, 7, 7) and match.state.exposed is None


def test_a_flagged_wild_draw4_picked_up_after_a_challenge_takes_the_challenge_back() -> None:
    match = started(seats=2)
    legal(match, Move(0, "draw", {"count": 1, "cards": ["red-8"]}), play(1, "red-4"))
    assert not match.play(play(0, "wild-draw4", colour=None)).verdict.ok
    enter(match, "colour", 0, colour="green")
    enter(match, "challenge", 1)
    assert on_view(match, *pile("red-4")) == ["TakeBack", "TakeBack", "TakeBack"]
    act(match, UnoTable(GAME).on_view(match.state, TableView(tuple(pile("red-4"))),
                                      match.rulings[-1]))
    assert match.state.top == "red-4" and match.state.challenge is None
    assert match.to_play() == 0


def test_a_legal_wild_picked_up_after_its_colour_and_a_call_is_asked() -> None:
    match = started(wild="official")
    hands(match, 2, 7, 7)
    legal(match, play(0, "wild", colour=None))
    enter(match, "colour", 0, colour="blue")
    enter(match, "uno", 0)
    [asked] = UnoTable(GAME).on_view(match.state, TableView(tuple(pile("red-3"))),
                                     match.rulings[-1])
    assert isinstance(asked, AskTable)
    assert asked.message == (
        "the wild left the discard pile: if seat 0 took it back, take back the last 3 moves "
        "on the page (those entered since, then the card)"
    )
    assert not untranslated(asked.message, RO)


def test_a_new_card_after_a_call_is_a_play_as_ever() -> None:
    match = started()
    hands(match, 2, 7, 7)
    legal(match, play(0, "red-4"))
    enter(match, "uno", 0)
    assert on_view(match, *pile("red-4")) == []
    assert on_view(match, *pile("red-9")) == [{"seat": 1, "move": "play", "cards": ["red-9"]}]


def test_a_second_identical_card_after_a_call_is_a_double_and_the_call_stands() -> None:
    match = started()
    hands(match, 3, 7, 7)
    legal(match, play(0, "red-4"))
    enter(match, "uno", 0)
    assert on_press(match, 0) == [
        "TakeBack", "TakeBack", {"seat": 0, "move": "play", "cards": ["red-4", "red-4"]},
        {"seat": 0, "move": "uno"},
    ]
    last = match.rulings[-1]
    act(match, UnoTable(GAME).on_press(match.state, Press(0, "press"), last))
    assert all(ruling.verdict.ok for ruling in match.rulings)
    assert match.state.hands[0] == 1 and match.state.called == {0}
    assert seats(match.state, "catch") == ()


def test_a_second_identical_card_after_a_catch_is_a_double_and_the_catch_is_void() -> None:
    match = started()
    hands(match, 2, 7, 7)
    legal(match, play(0, "red-4"))
    enter(match, "catch", 2)
    last = match.rulings[-1]
    actions = UnoTable(GAME).on_press(match.state, Press(0, "press"), last)
    assert [type(a).__name__ for a in actions] == ["TakeBack", "TakeBack", "Play"]
    act(match, actions)
    assert match.state.phase == "reveal" and match.state.debts == ()
    assert match.rulings[-1].verdict.ok


def test_a_second_identical_card_that_goes_out_after_a_call_makes_no_call_again() -> None:
    match = started()
    hands(match, 2, 7, 7)
    legal(match, play(0, "red-4"))
    enter(match, "uno", 0)
    assert on_press(match, 0) == [
        "TakeBack", "TakeBack", {"seat": 0, "move": "play", "cards": ["red-4", "red-4"]},
    ]


def test_a_second_wild_after_its_colour_and_a_call_is_a_double_of_that_colour() -> None:
    match = started(wild="official")
    hands(match, 3, 7, 7)
    legal(match, play(0, "wild", colour=None))
    enter(match, "colour", 0, colour="blue")
    enter(match, "uno", 0)
    assert on_press(match, 0) == [
        "TakeBack", "TakeBack", "TakeBack",
        {"seat": 0, "move": "play", "cards": ["wild", "wild"], "colour": "blue"},
        {"seat": 0, "move": "uno"},
    ]


def test_what_the_camera_says_of_page_moves_reads_in_romanian() -> None:
    match = started(seats=2)
    legal(match, Move(0, "draw", {"count": 1, "cards": ["red-8"]}), play(1, "red-4"))
    hands(match, 2, 7)
    match.play(play(0, "wild-draw4", colour=None))
    enter(match, "colour", 0, colour="green")
    enter(match, "uno", 0)
    enter(match, "challenge", 1)
    actions = UnoTable(GAME).on_view(match.state, TableView(tuple(pile("red-4"))),
                                     match.rulings[-1])
    reasons = [a.reason for a in actions if isinstance(a, TakeBack)]
    assert len(reasons) == 4
    assert [r for r in reasons if untranslated(r, RO)] == []
    catch = started()
    hands(catch, 2, 7, 7)
    catch.play(play(0, "blue-7"))
    enter(catch, "catch", 1)
    [reason, _] = [
        a.reason for a in UnoTable(GAME).on_view(catch.state, TableView(tuple(pile("red-3"))),
                                                 catch.rulings[-1])
        if isinstance(a, TakeBack)
    ]
    assert reason == (
        "seat 1's catch of seat 0 no longer holds: the play it caught changed"
    )
    assert translate(reason, RO, ("Ana", "Bogdan", "Chiara")) == (
        "prinderea lui Ana de către Bogdan nu mai contează: s-a schimbat jocul "
        "pentru care a fost prins"
    )
