"""What the Tempus page may enter: the round-end count the camera cannot make."""

from __future__ import annotations

from referee.core import PageField, PageMove
from referee.games.tempus.state import TempusState
from referee.text import t


def count_offer(state: TempusState, playing_cards: int) -> list[PageMove]:
    """The round-end count (`count`), for each seat that has not counted yet.

    At a round end every player gathers the sets in front of them into their scoring
    pile: that is when a table counts what each seat took. So the page offers the count
    from the round end until the seat has counted or the next round's first card is
    played (by then the sets are mixed into the scoring piles). After the last round the
    game is over and the counts stay offered: they are the last check of the log. Every
    seat is offered, also one the log says took nothing: a set the camera gave to the
    wrong seat shows on both seats' counts.
    """
    if not state.uncounted:
        return []
    ended = state.round if state.over else state.round - 1
    return [
        PageMove(
            "count",
            t("count the cards won in round {round}", round=ended),
            state.uncounted,
            # No seat can have won more cards than the deck has.
            (PageField("cards", t("cards won"), maximum=playing_cards),),
        )
    ]
