"""Remi in words: a move as a player says it, what a legal move did (the opening's points,
the row, the rack counted, the closing), and the proofs given when a turn ends or a rack
is shown."""

from __future__ import annotations

from referee.core import Move, Verdict
from referee.games.remi.state import (
    JOKER,
    RUPERE_ANY_RACK,
    Pending,
    RemiState,
    rack_value,
    read_meld,
)
from referee.text import Text, t, tn


def describe(move: Move) -> Text:
    """`move` after the seat's name ("draws from the wall"), read from the move alone."""
    kind = move.kind
    if kind == "deal":
        return t("deals the tiles, the atu {tile} turned up", tile=move.get("atu"))
    if kind == "draw":
        return t("draws from the wall")
    if kind == "take":
        if "tile" in move.fields:
            return t("takes {tile} from the row at {at}", tile=move.get("tile"), at=move.get("at"))
        return t("takes from the row at {at}", at=move.get("at"))
    if kind == "pe-tabla":
        return t("announces pe tablă")
    if kind == "lay":
        melds = Text.joined("; ", (Text.joined(", ", meld) for meld in move.get("melds")))
        return t("lays out {melds}", melds=melds)
    if kind == "add":
        return t("lays {tiles} off on meld {meld}", tiles=Text.joined(", ", move.get("tiles")),
                 meld=move.get("meld"))
    if kind == "swap":
        return t("frees the joly of meld {meld} with {tiles}",
                 tiles=Text.joined(", ", move.get("tiles")), meld=move.get("meld"))
    if kind == "discard":
        return t("discards {tile}", tile=move.get("tile"))
    if kind == "atu":
        return t("shows the tile identical to the atu")
    if not move.get("tiles"):
        return t("shows an empty rack")
    return t("shows their rack: {tiles}", tiles=Text.joined(", ", move.get("tiles")))


def news(before: RemiState, move: Move, after: RemiState) -> str:
    """What a legal `move` did beyond itself, read after it ("discards red 13; Bogdan to
    play"): the move names the tiles, so the news never names them again."""
    seat, kind = move.seat, move.kind
    if kind == "deal":
        return t("and keeps 15 tiles, to discard first")
    if kind == "lay" and not before.opened[seat]:
        points = sum(made.points() for codes in move.get("melds")
                     if not isinstance(made := read_meld(codes, seat, before.options), tuple))
        return tn("and opens with {points} points, holding {count} tiles",
                  "and opens with {points} points, holding 1 tile",
                  points=points, count=after.racks[seat])
    if kind == "take" and move.get("at") < len(before.row) - 1 \
            and before.racks[seat] < RUPERE_ANY_RACK:
        return t(": their rack was counted at {count} tiles; whether it held 4 is proven "
                 "when it is shown", count=before.racks[seat])
    if kind == "take":
        after_it = len(before.row) - len(after.row) - 1
        if not after_it:
            return t(": use it in a meld this turn")
        return tn("and the {count} tiles after it: use the first in a meld this turn",
                  "and the tile after it: use the first in a meld this turn", count=after_it)
    if kind == "swap":
        return t(": lay the joly in a meld this turn")
    if kind == "discard" and after.phase == "reveal":
        if after.closer is None:
            return t("; the wall is empty: the round ends; every rack is shown")
        return t("and goes out: the round ends; every rack is shown")
    if kind == "discard":
        return t("; seat {current} to play", current=after.turn.seat)
    if kind == "reveal" and after.round > before.round:
        # the last rack shown ends the round: its points against it are said too
        return Text.joined("", (_against(move, before), _round_end(before, after)))
    if kind == "reveal":
        return _against(move, before)
    if kind == "pe-tabla":
        return ""  # the announcement is the whole news
    if kind == "atu":
        return t(": {points} points this round", points=before.options["atu_bonus"])
    return tn("and holds {count} tiles", "and holds 1 tile", count=after.racks[seat])


def _against(move: Move, before: RemiState) -> Text:
    """What a shown rack counts against its seat."""
    if not move.get("tiles"):
        return t(": 0 points against them")
    points = sum(rack_value(code, before.options) for code in move.get("tiles"))
    return tn("; {count} tiles, {points} points against them",
              "; 1 tile, {points} points against them",
              count=len(move.get("tiles")), points=points)


def _round_end(before: RemiState, after: RemiState) -> Text:
    """A round's scores, once its last rack is shown, and who starts the next."""
    scores = Text.joined(", ", (t("seat {seat} {points:+d}", seat=s, points=p)
                                for s, p in enumerate(after.last_round)))
    if after.phase == "over":
        return t("; round {round}: {scores}; the game is over", round=before.round,
                 scores=scores)
    return t("; round {round}: {scores}; seat {seat} starts the next", round=before.round,
             scores=scores, seat=after.starter)


def unused_proof(rule: str, index: int, seat: int, code: str,
                 announced: int | None = None) -> Verdict:
    """A turn that ended without doing what it had to: proven when it ends (moves are
    said from 1, as the table counts them; `index` and `announced` are the log's)."""
    move = index + 1
    if rule == "REMI-PE-TABLA":
        assert announced is not None, "pe tablă is proven wrong only once announced"
        message = t("seat {seat} announced pe tablă at move {announced} yet laid out at move "
                    "{index} without going out", seat=seat,
                    announced=announced + 1, index=move)
    elif code == JOKER:
        message = t("seat {seat} ended its turn without laying the joly it freed at move "
                    "{index}", seat=seat, index=move)
    else:
        message = t("seat {seat} ended its turn without using {tile}, taken from the row at "
                    "move {index}, in a meld", seat=seat, tile=code, index=move)
    return Verdict(ok=False, rules=(rule,), message=message, severity="illegal", concerns=index)


def rack_proof(item: Pending, shown: int) -> Text:
    """What a shown rack proves of an earlier move (said from 1, as the table counts)."""
    if item.rule == "REMI-CLOSE":
        return tn("seat {seat} shows {count} tiles left, so it had not laid out all its "
                  "tiles when it went out at move {index}", "seat {seat} shows 1 tile left, so "
                  "it had not laid out all its tiles when it went out at move {index}",
                  seat=item.seat, count=shown, index=item.index + 1)
    return t("seat {seat}'s rack shows as counted, so it held {count} tiles, under 4, when it "
             "took from inside the row at move {index}", seat=item.seat, count=item.counted,
             index=item.index + 1)


RULE_NAMES = {
    "REMI-RUN": t("A run: three or more in a row, one colour"),
    "REMI-SET": t("A set: one number in three or four colours"),
    "REMI-ACE": t("The 1 low or high, never round the corner"),
    "REMI-JOLY": t("A joly stands for any tile"),
    "REMI-JOLY-RATIO": t("Twice as many real tiles as jolies"),
    "REMI-OPEN-ROUND": t("No laying out in the first round"),
    "REMI-OPEN-45": t("The first lay-out is worth 45 points"),
    "REMI-OPEN-RUN": t("The first lay-out holds a run"),
    "REMI-DRAW": t("Draw from the wall"),
    "REMI-RUPERE-LAST": t("The row's last tile, used at once"),
    "REMI-PE-TABLA": t("Taken “pe tablă”, said aloud"),
    "REMI-RUPERE-ANY": t("A tile from anywhere in the row, once opened"),
    "REMI-FIRST-DISCARD-DEAD": t("The row's first tile is dead"),
    "REMI-LAYOFF": t("Laying off on the melds"),
    "REMI-JOLY-LAYOFF-OWN": t("A joly laid off only on one's own melds"),
    "REMI-JOLY-SWAP": t("A freed joly is used the same turn"),
    "REMI-JOLY-SET": t("Freeing a joly from a set of three"),
    "REMI-DISCARD": t("One discard a turn"),
    "REMI-CLOSE": t("Going out"),
    "REMI-ATU": t("The atu"),
    "REMI-GAME-END": t("The end of the game"),
}
