"""History: ended matches with their scores and winners, a move-by-move replay of each,
and a tally per player across matches. Read-only, straight from the control.

The replay works without a script: `/history/<id>?move=n` shows move n with its
verdict and the scores after it, with links to the previous and next move. A move reads
as its game says it ("puts a vizier on nw") in the page's language when the record holds
that sentence (`description`, and `description_texts` per language, as a verdict has
`message` and `texts`); a record without it shows the log's own words (`move_words`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import Blueprint, abort, render_template, request

from webui.context import control
from webui.control import ControlError
from webui.forms import whole
from webui.security import Label

bp = Blueprint("history", __name__, url_prefix="/history")


@bp.get("")
def matches() -> str:
    table = control()
    return render_template("history.html", matches=[summary(match) for match in table.history()],
                           tally=table.tally())


@bp.get("/<int:match_id>")
def replay(match_id: int) -> str:
    try:
        record = control().match_record(match_id)
    except ControlError:
        abort(404)
    moves: list[dict[str, Any]] = record.get("moves") or []
    step = (whole(request.args, "move", Label("field.move_number"), 1, len(moves))
            if moves and "move" in request.args else (1 if moves else 0))
    names = names_of(record.get("seats") or [])
    return render_template(
        "match.html",
        record=record,
        result=summary({**record, **(record.get("result") or {})}),
        moves=moves,
        step=step,
        current=moves[step - 1] if moves else None,
        standings=standings(names, moves[step - 1].get("scores"), []) if moves else [],
        names=dict(enumerate(names)),
    )


def summary(match: Mapping[str, Any]) -> dict[str, Any]:
    """A match as the history lists it: title, when, each seat's score, the winners."""
    names = names_of(match.get("seats") or [])
    winners = [int(seat) for seat in match.get("winners") or []]
    return {
        "id": match.get("id"),
        "title": match.get("title") or match.get("game") or "",
        "when": str(match.get("ended") or match.get("started") or "")[:16].replace("T", " "),
        "moves": match.get("moves") if isinstance(match.get("moves"), int) else None,
        # ended before any move: listed, marked, and counted for nobody
        "abandoned": match.get("moves") == 0,
        "seats": standings(names, match.get("scores"), winners),
        "winners": [names[seat] for seat in winners if 0 <= seat < len(names)],
    }


def standings(names: Sequence[str], scores: Any, winners: Sequence[int]) -> list[dict[str, Any]]:
    return [{"seat": seat, "name": name, "score": score_of(scores, seat),
             "winner": seat in winners} for seat, name in enumerate(names)]


def names_of(seats: Sequence[Any]) -> list[str]:
    """Seat names, whether the record lists names or seat objects."""
    return [str(seat.get("name", "")) if isinstance(seat, Mapping) else str(seat)
            for seat in seats]


def score_of(scores: Any, seat: int) -> Any:
    """A seat's score from {seat: points} (keys may be strings in JSON) or [points]."""
    if isinstance(scores, Mapping):
        return scores.get(seat, scores.get(str(seat), 0))
    if isinstance(scores, Sequence) and not isinstance(scores, str) and seat < len(scores):
        return scores[seat]
    return 0


def move_words(move: Any) -> str:
    """A move as a line of text: its kind and its fields, as the log records them (what
    the page shows of a move when no description in words came with it)."""
    if not isinstance(move, Mapping):
        return str(move)
    fields = [f"{name} {value}" for name, value in move.items() if name not in ("seat", "move")]
    return " · ".join([str(move.get("move", ""))] + fields)
