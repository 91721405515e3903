"""Deserto on the page: nothing to enter, as the log holds every score (the camera sees
every card placed, and a stuck seat holds its button)."""

from __future__ import annotations

from referee.core import Header, Match, Move
from referee.games.deserto import Deserto

GAME = Deserto()


def test_deserto_offers_no_move_on_the_page_at_any_point() -> None:
    match = Match(GAME, Header("deserto", ("Ana", "Bogdan")))
    assert GAME.page_moves(match.state) == []
    match.play(Move(0, "place", {"cell": "nw", "card": "brigand"}))
    match.play(Move(1, "place", {"cell": "ne", "card": "vizier"}))
    assert GAME.page_moves(match.state) == []
