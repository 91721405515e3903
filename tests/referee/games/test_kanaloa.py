"""Kanaloa: every rule of shared/rules/kanaloa.md by its id, legal and illegal, the
options, revokes proven later, the race on a shrinking ring, the example log."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from firmware.cli import main
from referee.core import Header, Match, Move, Ruling, Verdict
from referee.games import get_game
from referee.games.kanaloa import Kanaloa, KanaloaState
from referee.games.kanaloa.state import RING_CARDS, Boat, lead_colour, tiki
from referee.notation import read_log, replay
from referee.text import LANGUAGES, catalogue, untranslated

GAME = Kanaloa()
FIXTURES = Path(__file__).parents[2] / "fixtures" / "referee" / "kanaloa"
NOTATION_DOC = Path(__file__).parents[3] / "docs" / "notation.md"
#: The ring from the island clockwise, ten cards laid as printed. Places 0-19:
#: 0 ocean-1a blue island, 1 1b red, 2 2a green, 3 2b yellow dolphin, 4 3a red dolphin,
#: 5 3b blue, 6 4a yellow, 7 4b green, 8 5a blue, 9 5b yellow dolphin, 10 6a green,
#: 11 6b red, 12 7a red, 13 7b yellow, 14 8a blue dolphin, 15 8b green, 16 9a yellow,
#: 17 9b red dolphin, 18 10a green dolphin, 19 10b blue.
RING = [f"ocean-{n}" for n in range(1, 13)]
RULE_IDS = [
    "KAN-SETUP", "KAN-DEAL", "KAN-FOLLOW", "KAN-VOID", "KAN-LEAD-COLOUR", "KAN-TRUMP",
    "KAN-WIN", "KAN-MOVE", "KAN-ONE-PER-SPACE", "KAN-DOLPHIN", "KAN-DOLPHIN-CHAIN",
    "KAN-OCTOPUS", "KAN-ROUND-REMOVE", "KAN-NEXT-ROUND", "KAN-END",
]


def new_match(seats: int = 3, first: int = 0, **options: Any) -> Match[KanaloaState]:
    """A match with its ring laid (ocean-1 to ocean-10, 11 or 12) and round 1 dealt."""
    names = tuple(f"seat{n}" for n in range(seats))
    match = Match(GAME, Header("kanaloa", names, first, options))
    assert match.play(Move(first, "ring", {"cards": RING[: RING_CARDS[seats]]})).verdict.ok
    assert match.play(Move(first, "deal", {})).verdict.ok
    return match


def play(match: Match[KanaloaState], *cards: str) -> list[Ruling]:
    """Each card by the seat whose turn it is."""
    rulings = []
    for card in cards:
        seat = GAME.to_play(match.state)
        assert seat is not None
        rulings.append(match.play(Move(seat, "play", {"card": card})))
    return rulings


def verdict(match: Match[KanaloaState], seat: int, kind: str, **fields: Any) -> Verdict:
    """What the referee would say of a move now, without playing it."""
    return GAME.judge(match.state, Move(seat, kind, fields))


def placed(places: list[int], laps: list[int] | None = None, **options: Any) -> KanaloaState:
    """Round 1 dealt with the boats put where a test needs them (seat 0 leads)."""
    state = new_match(len(places), **options).state
    assert state.race is not None
    boats = tuple(Boat(lap, place) for lap, place in zip(laps or [0] * len(places), places,
                                                         strict=True))
    return replace(state, race=replace(state.race, boats=boats))


def apply_all(state: KanaloaState, *moves: Move) -> KanaloaState:
    for move in moves:
        state = GAME.apply(state, move)
    return state


def seat0_wins(state: KanaloaState) -> KanaloaState:
    """A trick of three that seat 0 leads and wins with blue-12."""
    return apply_all(state, Move(0, "play", {"card": "blue-12"}),
                     Move(1, "play", {"card": "blue-1"}), Move(2, "play", {"card": "blue-2"}))


def space(state: KanaloaState, seat: int) -> str:
    assert state.race is not None
    return state.race.space_of(seat).name


def test_the_game_is_registered_with_its_deck() -> None:
    game = get_game("kanaloa")
    assert isinstance(game, Kanaloa)
    assert game.deck.size == 48 + 3 + 2 + 12
    assert [len(game.oceans[card]) for card in RING] == [2] * 12
    colours = [s.colour for spaces in game.oceans.values() for s in spaces]
    assert {c: colours.count(c) for c in set(colours)} == dict.fromkeys(
        ["blue", "green", "red", "yellow"], 6)
    island = [s for spaces in game.oceans.values() for s in spaces if s.island]
    assert [(s.name, s.colour) for s in island] == [("ocean-1a", "blue")]


# -- setup and deal -------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_kan_setup_legal_the_ring_has_its_length_for_the_players(seats: int) -> None:
    match = new_match(seats)
    assert match.state.race is not None
    assert len(match.state.race.cards) == RING_CARDS[seats]
    assert {space(match.state, seat) for seat in range(seats)} == {"ocean-1a"}


def test_kan_setup_illegal_a_ring_too_long_or_laid_twice() -> None:
    match = Match(GAME, Header("kanaloa", ("a", "b", "c")))
    long = match.play(Move(0, "ring", {"cards": RING[:11]})).verdict
    assert long.rules == ("KAN-SETUP",)
    assert "3 players race on 10 ocean cards, not 11" in long.message
    again = match.play(Move(0, "ring", {"cards": RING[:10]})).verdict
    assert again.rules == ("KAN-SETUP",)
    before = Match(GAME, Header("kanaloa", ("a", "b", "c")))
    assert before.play(Move(0, "deal", {})).verdict.rules == ("KAN-SETUP",)


def test_a_turned_ocean_card_puts_its_spaces_the_other_way() -> None:
    match = Match(GAME, Header("kanaloa", ("a", "b", "c")))
    match.play(Move(0, "ring", {"cards": RING[:10], "turned": ["ocean-1", "ocean-2"]}))
    race = match.state.race
    assert race is not None
    assert [s.name for s in race.spaces[:3]] == ["ocean-1a", "ocean-2b", "ocean-2a"]
    assert race.spaces[-1].name == "ocean-1b"


def test_kan_deal_legal_the_first_seat_deals_and_leads() -> None:
    match = Match(GAME, Header("kanaloa", ("a", "b", "c"), first=1))
    match.play(Move(1, "ring", {"cards": RING[:10]}))
    ruling = match.play(Move(1, "deal", {}))
    assert ruling.verdict.ok and "the trump is blue" in ruling.verdict.message
    assert GAME.to_play(match.state) == 1


def test_kan_deal_illegal_another_seat_deals_or_a_deal_mid_round_or_a_play_first() -> None:
    match = Match(GAME, Header("kanaloa", ("a", "b", "c")))
    match.play(Move(0, "ring", {"cards": RING[:10]}))
    assert verdict(match, 0, "play", card="blue-3").rules == ("KAN-DEAL",)
    assert verdict(match, 2, "deal").rules == ("KAN-DEAL",)
    match.play(Move(0, "deal", {}))
    assert verdict(match, 0, "deal").rules == ("KAN-DEAL",)


def test_turn_order_illegal_a_card_out_of_turn_or_a_second_card_in_one_trick() -> None:
    match = new_match()
    play(match, "blue-5")
    assert verdict(match, 2, "play", card="blue-6").rules == ("TURN-ORDER",)
    assert verdict(match, 0, "play", card="blue-6").rules == ("TURN-ORDER",)
    assert verdict(match, 1, "play", card="blue-6").ok


# -- following ------------------------------------------------------------------------------


def test_kan_follow_legal_following_or_a_special_card_at_any_time() -> None:
    match = new_match()
    # Seat 1's Kanaloa and seat 0's claim no void: their later blue proves nothing.
    rulings = play(match, "blue-5", "kanaloa", "blue-9", "red-12", "red-1", "kanaloa",
                   "blue-2", "blue-3")
    assert all(r.verdict.ok and not r.deferred for r in rulings)
    assert match.state.voids == ()


def test_kan_follow_illegal_a_revoke_is_flagged_once_a_later_card_proves_it() -> None:
    match = new_match()
    first = play(match, "blue-5", "green-3", "blue-9")  # seat 1 shows no blue
    assert all(r.verdict.ok and not r.deferred for r in first)
    assert first[1].verdict.message == "showing no blue"
    assert GAME.public_view(match.state)["voids"]["1"] == ["blue"]
    # seat 2 (blue-9) leads the next trick; seat 0, then seat 1, who now plays blue.
    between = play(match, "red-5", "red-6")
    assert not any(r.deferred for r in between)
    [proof] = play(match, "blue-1")
    assert proof.verdict.ok
    [deferred] = proof.deferred
    assert deferred.move == first[1].move
    assert deferred.verdict.rules == ("KAN-FOLLOW",)
    assert deferred.verdict.concerns == first[1].index
    assert "so it held blue when it played green-3" in deferred.verdict.message
    assert match.transcript()[-1]["concerns"] == first[1].index
    assert GAME.public_view(match.state)["voids"]["1"] == ["red"]  # blue-1 did not follow red


def test_kan_void_legal_a_void_seat_plays_any_card_and_a_new_round_forgets_it() -> None:
    match = new_match(dolphin="automatic")
    ruling = play(match, "blue-5", "red-3", "blue-9")[1]
    assert ruling.verdict.ok
    state = replace(match.state, tricks=7)
    state = apply_all(state, *(Move(s, "play", {"card": c}) for s, c in
                               [(2, "green-12"), (0, "green-1"), (1, "green-2")]))
    assert state.round == 2 and state.voids == ()
    state = apply_all(state, Move(2, "remove", {"card": GAME.free_cards(state)[0]}),
                      Move(2, "deal", {}), Move(2, "play", {"card": "yellow-4"}))
    after = GAME.apply(state, Move(0, "play", {"card": "blue-1"}))
    assert after.proven == ()


def test_kan_void_illegal_a_void_disproved_in_the_same_round() -> None:
    match = new_match()
    play(match, "yellow-5", "yellow-6", "green-7")  # seat 2: no yellow
    play(match, "blue-12")  # seat 1 won with yellow-6 and leads; seat 2 plays next
    [proof] = play(match, "yellow-2")
    assert [d.verdict.rules for d in proof.deferred] == [("KAN-FOLLOW",)]
    assert proof.deferred[0].move.seat == 2


def test_kan_lead_colour_legal_after_a_special_lead_the_first_tiki_sets_it() -> None:
    match = new_match()
    rulings = play(match, "kanaloa", "blue-3", "red-4")
    assert all(r.verdict.ok for r in rulings)
    assert rulings[2].verdict.message.startswith(
        "showing no blue and seat 0 wins the trick with kanaloa (trump blue)")


def test_kan_lead_colour_illegal_deferred_after_a_special_lead() -> None:
    match = new_match()
    play(match, "kanaloa", "blue-3", "red-4")  # seat 2 shows no blue; seat 0 wins
    play(match, "green-9", "green-1")
    [proof] = play(match, "blue-2")  # seat 2 plays blue
    [deferred] = proof.deferred
    assert deferred.verdict.rules == ("KAN-FOLLOW", "KAN-LEAD-COLOUR")


def test_kan_lead_colour_free_nobody_follows_after_a_special_lead() -> None:
    match = new_match(special_lead="free")
    play(match, "kanaloa", "blue-3", "red-4")
    assert match.state.voids == ()
    play(match, "green-9", "green-1")
    assert play(match, "blue-2")[0].deferred == ()


# -- trump and trick ------------------------------------------------------------------------


def test_kan_trump_legal_blue_on_the_island_then_the_leading_boat_s_colour() -> None:
    match = new_match()
    [lead] = play(match, "blue-5")
    assert "the trump is blue" in lead.verdict.message
    assert verdict(match, 1, "play", card="blue-1").ok
    play(match, "blue-1", "blue-2")  # seat 0 sails to ocean-1b, red
    assert GAME.trump(match.state) == "red"
    assert verdict(match, 0, "play", card="green-4", trump="red").ok


def test_kan_trump_illegal_a_wrong_announcement_or_one_after_the_lead() -> None:
    match = new_match()
    wrong = verdict(match, 0, "play", card="blue-5", trump="red")
    assert wrong.rules == ("KAN-TRUMP",) and "every boat is on the island" in wrong.message
    play(match, "blue-5")
    assert verdict(match, 1, "play", card="blue-1", trump="blue").rules == ("KAN-TRUMP",)
    play(match, "blue-1", "blue-2")
    later = verdict(match, 0, "play", card="green-4", trump="blue")
    assert "the colour under seat 0's boat, the most advanced" in later.message


@pytest.mark.parametrize(
    "cards, winner",
    [
        (["blue-5", "kanaloa", "kanaloa"], 2),  # the last Kanaloa
        (["blue-5", "red-2", "blue-11"], 1),  # red is trump after seat 0's first trick
        (["green-5", "green-11", "green-3"], 1),  # the highest of the lead colour
    ],
)
def test_kan_win_legal_the_referee_works_out_the_winner(cards: list[str], winner: int) -> None:
    match = new_match(removals="optional")
    play(match, "blue-12", "blue-1", "blue-2")  # seat 0 on ocean-1b: trump red
    *_, last = play(match, *cards)
    assert match.state.leader == winner
    said = last.verdict.message  # the card is named again only when it is another's
    assert said.startswith("and wins the trick (trump") if winner == last.move.seat \
        else said.startswith(f"and seat {winner} wins the trick with {cards[winner]} (trump")


def test_kan_win_legal_an_octopus_never_wins() -> None:
    match = new_match()
    play(match, "yellow-2", "octopus")
    match.play(Move(1, "remove", {"card": "ocean-5"}))
    [last] = play(match, "yellow-3")
    assert match.state.leader == 2 and last.verdict.message.startswith("and wins the trick")


def test_kan_win_illegal_another_seat_leads_the_next_trick() -> None:
    match = new_match()
    play(match, "blue-5", "blue-9", "blue-1")
    wrong = verdict(match, 0, "play", card="red-3")
    assert wrong.rules == ("KAN-WIN",) and "seat 1 won the last trick" in wrong.message


# -- the race --------------------------------------------------------------------------------


def test_kan_move_legal_to_the_next_free_space_passing_held_ones() -> None:
    state = seat0_wins(placed([0, 1, 2]))
    assert space(state, 0) == "ocean-2b"  # ocean-1b and ocean-2a are held
    assert state.sailing is not None and state.sailing.skipped == 2
    assert state.dolphin is None  # a dolphin, but ocean-2a behind it is held
    assert GAME.judge(state, Move(0, "boat", {"space": "ocean-2b"})).ok


def test_kan_move_illegal_a_boat_seen_elsewhere() -> None:
    state = seat0_wins(placed([0, 1, 2]))
    wrong = GAME.judge(state, Move(0, "boat", {"space": "ocean-3a"}))
    assert wrong.rules == ("KAN-MOVE",)
    assert "seat 0's boat sails on ocean-2b, not ocean-3a" in wrong.message
    assert GAME.judge(state, Move(0, "boat", {"space": "ocean-11a"})).rules == ("KAN-MOVE",)


def test_kan_one_per_space_legal_every_boat_starts_on_the_island() -> None:
    match = new_match()
    assert all(verdict(match, seat, "boat", space="ocean-1a").ok for seat in range(3))


def test_kan_one_per_space_illegal_a_boat_seen_on_a_held_space() -> None:
    state = placed([5, 7, 0])
    held = GAME.judge(state, Move(0, "boat", {"space": "ocean-4b"}))
    assert held.rules == ("KAN-ONE-PER-SPACE",) and "seat 1's boat" in held.message
    assert GAME.judge(state, Move(0, "boat", {"space": "ocean-1a"})).rules == (
        "KAN-ONE-PER-SPACE",)


def test_kan_dolphin_legal_the_owner_takes_the_step_or_lets_it_go() -> None:
    state = seat0_wins(placed([8, 0, 0]))
    assert space(state, 0) == "ocean-5b" and state.dolphin == 0
    assert GAME.to_play(state) == 0
    [offer] = GAME.page_moves(state)
    assert offer.kind == "dolphin" and offer.seats == (0,)
    step = Move(0, "dolphin", {"step": True})
    assert GAME.judge(state, step).ok
    assert space(GAME.apply(state, step), 0) == "ocean-6a"
    stay = GAME.apply(state, Move(0, "dolphin", {"step": False}))
    assert space(stay, 0) == "ocean-5b" and stay.dolphin is None and stay.tricks == 1
    declined = GAME.apply(state, Move(0, "play", {"card": "red-4"}))
    assert space(declined, 0) == "ocean-5b" and declined.trick == ((0, "red-4"),)


def test_kan_dolphin_automatic_the_boat_steps_by_itself() -> None:
    state = seat0_wins(placed([8, 0, 0], dolphin="automatic"))
    assert space(state, 0) == "ocean-6a" and state.dolphin is None
    assert state.sailing is not None and state.sailing.dolphin_steps == 1


def test_kan_dolphin_illegal_a_step_with_no_dolphin_or_by_another_seat() -> None:
    state = placed([8, 0, 0])
    assert GAME.judge(state, Move(0, "dolphin", {"step": True})).rules == ("KAN-DOLPHIN",)
    offered = seat0_wins(state)
    assert GAME.judge(offered, Move(1, "dolphin", {"step": True})).rules == ("KAN-DOLPHIN",)
    automatic = seat0_wins(placed([8, 0, 0], dolphin="automatic"))
    assert GAME.judge(automatic, Move(0, "dolphin", {"step": True})).rules == ("KAN-DOLPHIN",)


def test_kan_dolphin_chain_legal_a_second_dolphin_offers_another_step() -> None:
    state = seat0_wins(placed([2, 0, 0]))
    assert space(state, 0) == "ocean-2b" and state.dolphin == 0
    chained = GAME.apply(state, Move(0, "dolphin", {"step": True}))
    assert space(chained, 0) == "ocean-3a" and chained.dolphin == 0
    said = GAME.judge(state, Move(0, "dolphin", {"step": True})).message
    assert "seat 0 may sail on one more space" in said
    done = GAME.apply(chained, Move(0, "dolphin", {"step": True}))
    assert space(done, 0) == "ocean-3b" and done.dolphin is None
    unchained = seat0_wins(placed([2, 0, 0], dolphin="automatic", dolphin_chain=False))
    assert space(unchained, 0) == "ocean-3a"


def test_kan_dolphin_chain_illegal_another_step_off_a_plain_space() -> None:
    state = seat0_wins(placed([8, 0, 0]))
    stepped = GAME.apply(state, Move(0, "dolphin", {"step": True}))
    again = GAME.judge(stepped, Move(0, "dolphin", {"step": True}))
    assert again.rules == ("KAN-DOLPHIN-CHAIN",) and "ocean-6a" in again.message


def test_kan_octopus_legal_its_player_removes_a_free_ocean_card_at_once() -> None:
    match = new_match()
    [ruling] = play(match, "octopus")
    assert "seat 0 removes a free ocean card" in ruling.verdict.message
    assert GAME.to_play(match.state) == 0
    [offer] = GAME.page_moves(match.state)
    assert offer.kind == "remove" and "ocean-1" not in offer.fields[0].choices
    removed = match.play(Move(0, "remove", {"card": "ocean-5"}))
    assert removed.verdict.ok and removed.verdict.message == "and 9 ocean cards are left"
    assert GAME.to_play(match.state) == 1


def test_kan_octopus_last_card_removes_before_the_boat_sails() -> None:
    match = new_match()
    play(match, "blue-5", "blue-9", "octopus")
    assert match.state.tricks == 0
    ruling = match.play(Move(2, "remove", {"card": "ocean-2"}))
    assert "seat 1 wins the trick with blue-9" in ruling.verdict.message
    assert space(match.state, 1) == "ocean-1b"


def test_kan_octopus_illegal_a_held_card_a_removal_skipped_or_none_due() -> None:
    match = new_match()
    assert verdict(match, 0, "remove", card="ocean-5").rules == ("KAN-OCTOPUS",)
    play(match, "octopus")
    held = verdict(match, 0, "remove", card="ocean-1")
    assert held.rules == ("KAN-OCTOPUS",) and "has a boat on it" in held.message
    assert verdict(match, 1, "remove", card="ocean-5").rules == ("KAN-OCTOPUS",)
    assert verdict(match, 1, "play", card="blue-3").rules == ("KAN-OCTOPUS",)
    optional = new_match(removals="optional")
    play(optional, "octopus")
    assert verdict(optional, 1, "play", card="blue-3").ok


def three_cards(state: KanaloaState) -> KanaloaState:
    """`state` with the ring down to ocean-1, ocean-2 and ocean-3."""
    assert state.race is not None
    race = state.race
    for card in RING[3:10]:
        race = race.without(card)
    assert race.cards == ("ocean-1", "ocean-2", "ocean-3")
    return replace(state, race=race)


def test_kan_octopus_keeps_three_ocean_cards_unless_the_table_says_otherwise() -> None:
    three = three_cards(placed([0, 0, 0]))
    assert GAME.apply(three, Move(0, "play", {"card": "octopus"})).removal is None
    floorless = replace(three, options={**three.options, "octopus_floor": False})
    assert GAME.apply(floorless, Move(0, "play", {"card": "octopus"})).removal is not None


def test_the_island_card_may_stay_by_option() -> None:
    assert "ocean-1" not in GAME.free_cards(placed([5, 6, 7], island_removable=False))
    assert "ocean-1" in GAME.free_cards(placed([5, 6, 7]))


def round_played(**options: Any) -> Match[KanaloaState]:
    """Round 1 played out: seat 0 leads and wins all eight tricks."""
    match = new_match(dolphin="automatic", **options)
    colours = ["blue", "green", "red", "yellow"]
    for trick in range(8):
        colour = colours[trick % 4]
        high = 12 - trick // 4 * 3
        play(match, f"{colour}-{high}", f"{colour}-{high - 1}", f"{colour}-{high - 2}")
    return match


def test_kan_round_remove_legal_the_last_trick_s_winner_removes_then_deals() -> None:
    match = round_played()
    state = match.state
    assert state.round == 2 and state.removal is not None and state.removal.seat == 0
    assert "round 1 ends: seat 0 removes a free ocean card and deals" in \
        match.rulings[-1].verdict.message
    free = GAME.free_cards(state)
    assert match.play(Move(0, "remove", {"card": free[0]})).verdict.ok
    assert match.play(Move(0, "deal", {})).verdict.ok


def test_kan_round_remove_illegal_another_seat_removes_or_the_deal_comes_first() -> None:
    match = round_played()
    free = GAME.free_cards(match.state)
    assert verdict(match, 1, "remove", card=free[0]).rules == ("KAN-ROUND-REMOVE",)
    assert verdict(match, 0, "deal").rules == ("KAN-ROUND-REMOVE",)


def test_kan_round_remove_illegal_with_three_ocean_cards_left() -> None:
    state = replace(three_cards(placed([0, 0, 0])), tricks=7)
    state = apply_all(state, *(Move(s, "play", {"card": c}) for s, c in
                               [(0, "red-3"), (1, "red-2"), (2, "red-1")]))
    assert state.phase == "deal" and state.removal is None
    removal = GAME.judge(state, Move(0, "remove", {"card": "ocean-2"}))
    assert removal.rules == ("KAN-ROUND-REMOVE",)
    assert GAME.judge(state, Move(0, "deal", {})).ok


def test_kan_next_round_legal_the_winner_deals_and_leads() -> None:
    match = round_played()
    match.play(Move(0, "remove", {"card": GAME.free_cards(match.state)[0]}))
    match.play(Move(0, "deal", {}))
    assert GAME.to_play(match.state) == 0 and match.state.round == 2
    assert verdict(match, 0, "play", card="blue-4").ok


def test_kan_next_round_illegal_another_seat_deals_or_leads() -> None:
    match = round_played()
    match.play(Move(0, "remove", {"card": GAME.free_cards(match.state)[0]}))
    deal = verdict(match, 1, "deal")
    assert deal.rules == ("KAN-NEXT-ROUND",) and "deals round 2" in deal.message
    assert verdict(match, 1, "play", card="blue-4").rules == ("KAN-NEXT-ROUND",)
    match.play(Move(0, "deal", {}))
    assert verdict(match, 1, "play", card="blue-4").rules == ("KAN-NEXT-ROUND",)


def test_kan_end_legal_a_boat_lapping_the_rearmost_wins_at_once() -> None:
    state = placed([19, 5, 0], laps=[0, 0, 0])
    over = seat0_wins(state)
    assert GAME.is_over(over) and GAME.winners(over) == [0] and GAME.to_play(over) is None
    said = GAME.judge(apply_all(state, Move(0, "play", {"card": "blue-12"}),
                                Move(1, "play", {"card": "blue-1"})),
                      Move(2, "play", {"card": "blue-2"})).message
    assert "seat 0's boat laps the rearmost boat: seat 0 wins the game" in said


def test_kan_end_needs_a_whole_lap_and_counts_a_passed_boat() -> None:
    first_lap = seat0_wins(placed([4, 5, 6]))  # passes two boats on its first lap
    assert not GAME.is_over(first_lap)
    passing = seat0_wins(placed([18, 19, 0], laps=[0, 0, 0]))
    assert GAME.is_over(passing) and passing.winner == 0


def test_kan_end_laps_count_on_a_ring_that_shrinks() -> None:
    state = placed([19, 5, 3])
    assert state.race is not None
    shorter = replace(state, race=state.race.without("ocean-1"))  # the island's card
    assert shorter.race is not None
    assert [boat.place for boat in shorter.race.boats] == [17, 3, 1]
    once = seat0_wins(shorter)  # past the marker onto ocean-2a: a new lap
    assert once.race is not None and once.race.boats[0] == Boat(1, 0)
    assert not GAME.is_over(once)
    assert GAME.winners(seat0_wins(once)) == [0]  # onto seat 2's space, a lap ahead
    assert not GAME.is_over(seat0_wins(seat0_wins(state)))  # the full ring: not yet


def test_kan_end_illegal_a_move_after_the_game_is_over() -> None:
    over = seat0_wins(placed([19, 5, 0]))
    late = GAME.judge(over, Move(0, "play", {"card": "red-3"}))
    assert late.rules == ("KAN-END",) and "seat 0's boat lapped the rearmost boat" in late.message


def test_a_card_seen_twice_in_a_round_is_a_misread_not_a_verdict() -> None:
    match = new_match()
    play(match, "blue-5", "blue-6", "blue-7")
    seen = verdict(match, 2, "play", card="blue-5")
    assert seen.ok and seen.severity == "warning" and "misread" in seen.message


def test_every_rule_id_has_a_legal_and_an_illegal_test() -> None:
    names = [name for name in globals() if name.startswith("test_kan_")]
    for rule in RULE_IDS:
        slug = rule.lower().replace("-", "_")
        assert any(n.startswith(f"test_{slug}_legal") for n in names), rule
        assert any(n.startswith(f"test_{slug}_illegal") for n in names), rule


# -- whole games ------------------------------------------------------------------------------


def random_game(seed: int, seats: int, revokes: float, **options: Any) -> Match[KanaloaState]:
    """A game played with real hands: legal cards, and a revoke now and then."""
    chance = random.Random(seed)
    names = tuple(f"seat{n}" for n in range(seats))
    match = Match(GAME, Header("kanaloa", names, 0, options))
    ring = ["ocean-1", *chance.sample(RING[1:], RING_CARDS[seats] - 1)]
    match.play(Move(0, "ring", {"cards": ring}))
    hands: dict[int, list[str]] = {}
    while not GAME.is_over(match.state):
        state = match.state
        seat = GAME.to_play(state)
        assert seat is not None
        if state.removal is not None:
            move = Move(seat, "remove", {"card": chance.choice(GAME.free_cards(state))})
        elif state.dolphin is not None:
            move = Move(seat, "dolphin", {"step": chance.random() < 0.7})
        elif state.phase == "deal":
            cards = [code for code, copies in GAME.copies.items() for _ in range(copies)]
            chance.shuffle(cards)
            hands = {s: cards[s * 8 : (s + 1) * 8] for s in range(seats)}
            move = Move(seat, "deal", {})
        else:
            hand = hands[seat]
            lead = lead_colour(state.trick, state.options["special_lead"])
            follow = [c for c in hand if (card := tiki(c)) is not None and card[0] == lead]
            if follow and chance.random() >= revokes:
                hand_ok = follow + [c for c in hand if tiki(c) is None]
            else:
                hand_ok = hand
            card = chance.choice(hand_ok)
            hand.remove(card)
            move = Move(seat, "play", {"card": card})
        match.play(move)
    return match


@pytest.mark.parametrize("seed", range(10))
def test_a_fair_game_is_never_flagged_and_ends_with_a_lap(seed: int) -> None:
    options = [{}, {"dolphin": "automatic"}, {"special_lead": "free"},
               {"removals": "optional", "island_removable": False}][seed % 4]
    match = random_game(seed, 3 + seed % 3, 0.0, **options)
    assert [r.index for r in match.rulings if not r.verdict.ok or r.deferred] == []
    assert GAME.is_over(match.state) and len(GAME.winners(match.state)) == 1


@pytest.mark.parametrize("seed", range(5))
def test_every_revoke_proven_is_one_that_happened(seed: int) -> None:
    match = random_game(seed, 4, 0.3)
    proven = [d for r in match.rulings for d in r.deferred]
    assert proven
    for proof in proven:
        concerned = match.rulings[proof.verdict.concerns or 0]
        assert concerned.move.seat == proof.move.seat and concerned.verdict.ok
        assert proof.index > concerned.index


# -- the example log and the notation ---------------------------------------------------------


def check(name: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict[str, Any]]]:
    code = main(["referee", "check", "--game", "kanaloa", str(FIXTURES / f"{name}.jsonl")])
    return code, [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_the_example_log_checks_with_its_revoke_proven_later(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, lines = check("race", capsys)
    flagged = [line for line in lines if "ok" in line and not line["ok"]]
    assert [(line["rules"], line.get("concerns")) for line in flagged] == [
        (["KAN-FOLLOW", "KAN-LEAD-COLOUR"], 14), (["KAN-TRUMP"], None),
    ]
    assert code == 0
    assert lines[-1] == {"final": True, "scores": {"0": 13, "1": 1, "2": 5}, "winners": [0]}


def test_the_example_log_reads_entirely_in_every_language() -> None:
    lines = (FIXTURES / "race.jsonl").read_text(encoding="utf-8").splitlines()
    match = replay(read_log(lines))
    for ruling in match.rulings:
        for line in (ruling, *ruling.deferred):
            for language in LANGUAGES[1:]:
                assert untranslated(line.verdict.message, catalogue(language)) == [], line
    for offer in GAME.page_moves(match.state):
        assert untranslated(offer.title, catalogue("ro")) == []


def test_the_notation_doc_shows_every_kind_of_kanaloa_move() -> None:
    doc = NOTATION_DOC.read_text(encoding="utf-8")
    section = doc[doc.index("## Kanaloa") : doc.index("## Professor Tempus")]
    for kind in ("ring", "deal", "play", "remove", "dolphin", "boat"):
        assert f'"move": "{kind}"' in section, kind
