"""Enrolling a table's own deck through its camera, one layout of cards at a time.

The table is asked to lay out a few faces at once (PER_LAYOUT, in rows of four as the
mat lies); each still, sharp frame that shows that many cards, all of the deck's
size, is cut into crops given to the faces by their place in the grid. The table
confirms them (`y`) or renames some (`3=red-9`), and the next faces are asked for,
until every face and the back have been seen. A face framed unlike the others laid
with it, and unlike every face kept so far, may be a card of another deck: the table is
asked, and keeps it with `y!` (a deck's black wilds may be framed so); a face kept so
is not asked about again. A second pass, in another place or light, gives each face a
second view and checks the first: a face named as another's code means two cards were
swapped. At the end the faces the camera will confuse are named, and
`EnrolSession.result()` is the deck to write as a profile.

The session only sees frames and answers (no camera, no terminal, no files): the
terminal flow (`firmware.enrol_cli`) and the page (`firmware.service`) drive it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from firmware.enrol_words import Cards, Said
from referee.decks import Deck
from vision.calibration import (
    Calibration,
    FrameTrouble,
    VisionError,
    calibrate,
    check_frame,
)
from vision.cards import mat_colour, view_mask
from vision.deck_measure import FaceTally, measure_deck
from vision.enrolment import (
    Image8,
    LaidOut,
    blurred,
    border_colour,
    contact_sheet,
    cut_card,
    deck_size,
    find_laid_cards,
    in_grid_order,
    moved,
    odd_borders,
    off_size,
    play_view,
    seen_px_per_mm,
)
from vision.mat import MatSpec
from vision.table_reader import NamingSource
from vision.template_identifier import TemplateIdentifier

BACK = "back"
PER_LAYOUT = 8
LEARN_SEED = 20261201  # the views as play may see them, tried for the confusable faces
CONFUSION_TRIES = 16  # such views of each enrolled view tried against the others (8 named
# other faces of a pale deck from one seed to the next; 16 the same two)
CONFUSABLE_SHARE = 0.34  # of a face's tries named as another face: a pair to warn about
UNSURE_SHARE = 0.45  # of a face's tries left unknown, at least: a face to warn about
NEAR_SHARE = 0.2  # a face whose first tries leave it unknown this short of UNSURE_SHARE,
# or more ...
CLOSE_TRIES = 256  # ... is tried this many times a view in all before it is reported or not
# (benchmarks/enrol_warnings.py, the pale deck on 8 seeds: on 16 tries alone, its yellow-8,
# left unknown 56 % of the time, was reported on 5, and green-8, 38 %, on 2; at 128, on 8
# and 2; at 256 on 8 and none, 3.8 s CPU for the deck's tries against 0.9)
MAX_OTHER_MM2 = 1500.0  # more than this of something else on the mat: not laid out yet


#: What the table is told of a frame the camera cannot use, by what is wrong with it.
FRAME_TROUBLE: dict[FrameTrouble, Said] = {
    "no_frame": Said("enrol.frame.no_frame"),
    "not_image": Said("enrol.frame.not_image"),
    "too_small": Said("enrol.frame.too_small"),
    "two_streams": Said("enrol.frame.two_streams"),
    "tags_unseen": Said("enrol.frame.tags_unseen"),
    "tags_covered": Said("enrol.frame.tags_covered"),
    "mat_not_flat": Said("enrol.frame.mat_not_flat"),
}


class EnrolError(Exception):
    """An enrolment that cannot go on or end as asked; the message says why, in one line."""


def layouts(codes: Sequence[str], per_layout: int = PER_LAYOUT) -> list[list[str]]:
    """The faces in the order the table is asked to lay them out, `per_layout` at a time."""
    return [list(codes[i:i + per_layout]) for i in range(0, len(codes), per_layout)]


@dataclass
class Layout:
    """A layout seen: the crops in grid order, the names given to them, the crops framed
    unlike the others (indices), what the table is asked about before keeping them."""

    asked: list[str]
    crops: list[Image8]
    names: list[str]
    framed: list[int] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    compare: list[Image8] = field(default_factory=list)  # the first pass's views, if any
    # what the layout tells of its pass once kept (PassInfo) and of the deck's faces: a
    # layout looked at again, or refused, counts for nothing
    light: tuple[float, float, float] = (0.0, 0.0, 0.0)
    px_per_mm: float = 0.0
    faces: FaceTally = field(default_factory=FaceTally)

    def sheet(self) -> Image8:
        """The crops numbered and named (and the first pass's views they are checked
        against below them) for the table to look at."""
        sheet = contact_sheet(self.crops, self.names)
        if not self.compare:
            return sheet
        below = contact_sheet(self.compare, [f"1st: {n}" for n in self.names])
        width = max(sheet.shape[1], below.shape[1])
        pad = [np.pad(s, ((0, 0), (0, width - s.shape[1]), (0, 0)), constant_values=255)
               for s in (sheet, below)]
        return np.vstack(pad)


@dataclass(frozen=True)
class PassInfo:
    """When and under what light a pass was seen: the mat's colour as lit (BGR) and the
    camera's pixels per mm on the cards."""

    mat_bgr: tuple[float, float, float]
    px_per_mm: float
    frames: int

    def to_json(self) -> dict[str, Any]:
        return {"mat_bgr": [round(c, 1) for c in self.mat_bgr],
                "px_per_mm": round(self.px_per_mm, 2), "frames": self.frames}


@dataclass(frozen=True)
class EnrolledDeck:
    """What an enrolment found: the card size, the views of each face (first pass
    first), each pass's light, the pairs of faces the camera will confuse, whether the
    cards' rim is darker than the mat and whether some faces are with no light rim round
    them (the reader looks for them so), and the faces it will often leave unknown."""

    deck: str
    card_mm: tuple[float, float]
    views: dict[str, list[Image8]]
    passes: list[PassInfo]
    confusable: list[tuple[str, str, float]]
    dark_rims: bool = False
    dark_faces: bool = False
    unsure: list[tuple[str, float]] = field(default_factory=list)  # faces often unknown


class EnrolSession:
    """One enrolment of `deck` on `mat` (see the module docstring). `state` is "laying"
    (waiting for the asked faces on the mat), "confirm" (crops to confirm) or "done"."""

    def __init__(self, deck: Deck, mat: MatSpec, passes: int = 1,
                 per_layout: int = PER_LAYOUT) -> None:
        if passes not in (1, 2):
            raise EnrolError("an enrolment has one pass or two")
        self.deck = deck
        self.mat = mat
        self.passes = passes
        self.per_layout = per_layout
        self.codes = [*deck.codes, BACK]
        self.pass_number = 1
        self.pending = list(self.codes)
        self.state = "laying"
        self.layout: Layout | None = None
        self.message = ""
        self.card_mm: tuple[float, float] | None = None
        self.dark_rims = False  # measured with the card size (vision.deck_measure)
        self._faces = FaceTally()  # the dark faces of the layouts kept (dark_faces)
        self._laid_mm = (0.0, 0.0)  # the cards' size as find_laid_cards outlines them
        self.views: list[dict[str, Image8]] = [{}]
        self._infos: list[PassInfo] = []
        self._frames = 0
        self._calibration: Calibration | None = None
        self._last: LaidOut | None = None  # the previous frame's cards
        self._taken: LaidOut | None = None  # the cards of the layout last confirmed
        self._mat_bgr: list[tuple[float, float, float]] = []
        self._ppm: list[float] = []
        self._checker: TemplateIdentifier | None = None  # learnt from the first pass
        self._kept_framed: set[str] = set()  # faces kept though framed unlike the others
        self._kept_borders: list[NDArray[np.float64]] = []  # of every face kept (Lab)
        self._confusions = Confusions(pairs=[], unsure=[])

    # -- what to lay out ----------------------------------------------------------

    def asked(self) -> list[str]:
        """The faces to lay out now, in grid order (rows of four from the mat's top)."""
        return self.pending[:self.per_layout]

    def progress(self) -> tuple[int, int]:
        """(faces seen, faces to see) over every pass."""
        total = len(self.codes) * self.passes
        return total - len(self.pending) - (self.passes - self.pass_number) * len(self.codes), \
            total

    # -- frames ---------------------------------------------------------------------

    def on_frame(self, image: object, full: Image8 | None = None) -> str:
        """Look at one frame while waiting for a layout; returns what the table is told
        (also in `message`): a frame the camera cannot use too, in words (FRAME_TROUBLE).
        `full`: the same instant at a higher resolution, to cut the crops from."""
        if self.state != "laying":
            return self.message
        try:
            frame = check_frame(image)
            full = None if full is None else NamingSource.of(frame, full).full
            self._frames += 1
            self._calibration = calibrate(frame, self.mat)
        except VisionError as error:
            return self._say(FRAME_TROUBLE[error.reason])
        found = find_laid_cards(frame, self._calibration)
        last, self._last = self._last, found
        want = len(self.asked())
        if self._taken is not None and not moved(self._taken.cards, found.cards):
            return self._say(Said("enrol.say.take_away"))
        if found.other_mm2 > MAX_OTHER_MM2:
            return self._say(Said("enrol.say.clutter"))
        if len(found.cards) != want:
            return self._say(Said("enrol.say.count", count=want, seen=len(found.cards)))
        if last is None or moved(last.cards, found.cards):
            return self._say(Said("enrol.say.hold_still"))
        return self._take(frame, full, found)

    def _take(self, frame: Image8, full: Image8 | None, found: LaidOut) -> str:
        cal = self._calibration
        assert cal is not None
        cards = in_grid_order(found.cards)
        soft = [card for card in cards if blurred(card, seen_px_per_mm(cal, card))]
        if len(soft) > len(cards) // 2:
            return self._say(Said("enrol.say.blurred"))
        try:  # the first layout measures the deck; each counts its dark faces
            measured = measure_deck(cal, [frame])
        except ValueError:
            if self.card_mm is None:
                return self._say(Said("enrol.say.no_edges"))
            measured = None
        if self.card_mm is None:
            assert measured is not None
            size, dark_rims, laid = measured.card_mm, measured.dark_rims, deck_size(cards)
        else:
            size, dark_rims, laid = self.card_mm, self.dark_rims, self._laid_mm
        # compared as found: a black frame on the dark mat may be outlined inside it here
        odd = [i for i, card in enumerate(cards) if off_size(card, laid)]
        if odd:
            i = odd[0]
            w, h = cards[i].size_mm
            return self._say(Said("enrol.say.off_size", number=i + 1, width=round(w),
                                  height=round(h), deck_width=round(laid[0]),
                                  deck_height=round(laid[1])))
        source, scale = (frame, 1.0) if full is None else (full, full.shape[1] / frame.shape[1])
        crops = [cut_card(source, cal, card, size, scale) for card in cards]
        asked = self.asked()
        faces = [i for i, code in enumerate(asked) if code != BACK]
        framed = [faces[i] for i in odd_borders([crops[i] for i in faces], self._kept_borders)]
        self.card_mm, self.dark_rims, self._laid_mm = size, dark_rims, laid
        self._taken = found
        self.layout = Layout(asked=list(asked), crops=crops, names=list(asked), framed=framed,
                             light=self._mat_light(frame, cal),
                             px_per_mm=min(crop.shape[1] / size[0] for crop in crops),
                             faces=FaceTally() if measured is None else measured.faces)
        self._check(self.layout)
        self.state = "confirm"
        return self._say(self._confirm_prompt())

    def _mat_light(self, frame: Image8, cal: Calibration) -> tuple[float, float, float]:
        top = cal.warp_mat(frame, 0.5)
        b, g, r = mat_colour(top, view_mask(cal, 0.5)).tolist()
        return (float(b), float(g), float(r))

    # -- answers --------------------------------------------------------------------

    def answer(self, text: str) -> str:
        """The table's answer to the crops shown: `y` (right), `3=red-9 5=red-6` (crop 3
        is red-9 ...), `y!` (right, whatever the problems said: a card framed unlike the
        others, a pair the first pass knows swapped), `again` (look at the layout again).
        Returns what the table is told next."""
        if self.state != "confirm" or self.layout is None:
            raise EnrolError(Said("enrol.error.no_crops"))
        words = text.strip().split()
        if not words:
            return self._say(self._confirm_prompt())
        if words == ["again"]:
            self._reject()
            return self._say(Said("enrol.say.look_again", cards=Cards(self.asked())))
        if words in (["y"], ["yes"], ["y!"]):
            if self.layout.problems and words != ["y!"]:
                return self._say(self._confirm_prompt())
            return self._accept()
        self._rename(words)
        self._check(self.layout)
        return self._say(self._confirm_prompt())

    def _rename(self, words: list[str]) -> None:
        assert self.layout is not None
        names = list(self.layout.names)
        for word in words:
            number, sep, code = word.partition("=")
            if not sep or not number.isdigit() or not 1 <= int(number) <= len(names):
                raise EnrolError(f"{word!r}: answer y, or N=CODE to rename crop N "
                                 f"(1 to {len(names)}), e.g. 3=red-9")
            if code not in self.codes:
                raise EnrolError(f"{word!r}: {code!r} is not a face of {self.deck.name}")
            names[int(number) - 1] = code
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise EnrolError(Said("enrol.error.twice", card=Cards(twice[:1])))
        self.layout.names = names

    def _accept(self) -> str:
        assert self.layout is not None
        views = self.views[self.pass_number - 1]
        for code, crop in zip(self.layout.names, self.layout.crops, strict=True):
            views[code] = crop
        self._kept_framed.update(self.layout.names[i] for i in self.layout.framed)
        self._mat_bgr.append(self.layout.light)
        self._ppm.append(self.layout.px_per_mm)
        self._faces += self.layout.faces
        self._kept_borders += [border_colour(crop) for code, crop in
                               zip(self.layout.names, self.layout.crops, strict=True)
                               if code != BACK]
        self.pending = [c for c in self.pending if c not in self.layout.names]
        self.layout = None
        self.state = "laying"
        if self.pending:
            return self._say(Said("enrol.say.next", cards=Cards(self.asked())))
        self._infos.append(PassInfo(_mean(self._mat_bgr), float(np.median(self._ppm)),
                                    self._frames))
        self._mat_bgr, self._ppm, self._frames = [], [], 0
        if self.pass_number < self.passes:
            self.pass_number += 1
            self.views.append({})
            self.pending = list(self.codes)  # (the last layout is still to be taken away)
            return self._say(Said("enrol.say.second_pass", cards=Cards(self.asked())))
        self._confusions = confusions(self.views, self._checker)
        self.state = "done"
        return self._say(Said("enrol.say.every_face"))

    def _reject(self) -> None:
        self.layout = None
        self.state = "laying"
        self._taken = None
        self._last = None

    def stop_message(self) -> str:
        """Why the enrolment cannot end now: the faces not yet seen."""
        missing = self.pending
        shown = ", ".join(missing[:6]) + (f" and {len(missing) - 6} more" if len(missing) > 6
                                          else "")
        where = f" in pass {self.pass_number}" if self.passes > 1 else ""
        return f"{len(missing)} faces not seen{where}: {shown}"

    # -- the checks before the crops are kept --------------------------------------

    def _check(self, layout: Layout) -> None:
        """What the table is asked about before it keeps the crops: faces framed unlike
        the others (unless the table kept that face before, in whatever light: asked
        once), and in the second pass the crops named with what the first pass taught: a
        crop named as another face laid out now means the two were swapped (here or in
        the first pass)."""
        framed = [i + 1 for i in layout.framed if layout.names[i] not in self._kept_framed]
        layout.problems = [_framed_problem(framed)] if framed else []
        if self.pass_number == 1:
            return
        checker = self._first_pass_identifier()
        named = [code for code, _ in checker.identify_many(layout.crops)]
        layout.compare = [self.views[0][n] for n in layout.names]
        said: set[str] = set()
        for i, (name, seen) in enumerate(zip(layout.names, named, strict=True)):
            if seen is None or seen == name or name in said:
                continue
            if seen in layout.names and named[layout.names.index(seen)] == name:
                j = layout.names.index(seen)
                layout.problems.append(Said("enrol.problem.swapped", first=Cards([name]),
                                            second=Cards([seen]), crop=i + 1,
                                            other_crop=j + 1))
                said.update((name, seen))
            else:
                layout.problems.append(Said("enrol.problem.looks_like", number=i + 1,
                                            laid=Cards([name]), seen=Cards([seen])))

    def _first_pass_identifier(self) -> TemplateIdentifier:
        if self._checker is None:
            self._checker = learn(self.views[:1])
        return self._checker

    def _confirm_prompt(self) -> str:
        assert self.layout is not None
        lines = [f"{i + 1}={name}" for i, name in enumerate(self.layout.names)]
        prompt = "crops: " + " ".join(lines) + ". Right? y, or N=CODE to rename crop N"
        if self.layout.problems:
            prompt = ("; ".join(self.layout.problems) + ". " + prompt
                      + " (y! to keep them, again once the right cards are there)")
        return prompt

    def _say(self, message: str) -> str:
        self.message = message
        return message

    @property
    def dark_faces(self) -> bool:
        """Whether some faces are dark without a light rim round them (a glare may hide
        them in play), as counted over the layouts kept (vision.deck_measure.FaceTally)."""
        return self._faces.dark_faces

    # -- the end --------------------------------------------------------------------

    def result(self) -> EnrolledDeck:
        """The enrolled deck; EnrolError if a face is still to be seen."""
        if self.state != "done" or self.card_mm is None:
            raise EnrolError(self.stop_message())
        views = {code: [p[code] for p in self.views if code in p] for code in self.codes}
        return EnrolledDeck(deck=self.deck.name, card_mm=self.card_mm, views=views,
                            passes=list(self._infos), confusable=list(self._confusions.pairs),
                            dark_rims=self.dark_rims, dark_faces=self.dark_faces,
                            unsure=list(self._confusions.unsure))


def _framed_problem(numbers: Sequence[int]) -> Said:
    """The words for crops (numbered from 1) framed unlike the others laid with them."""
    if len(numbers) == 1:
        return Said("enrol.problem.framed_one", number=numbers[0])
    return Said("enrol.problem.framed_many", numbers=", ".join(map(str, numbers[:-1])),
                last=numbers[-1])


def learn(passes: Sequence[Mapping[str, Image8]]) -> TemplateIdentifier:
    """The identifier play will use (vision.template_identifier), learnt from the enrolled
    views of every face in these passes."""
    refs = {code: [views[code] for views in passes if code in views] for code in passes[0]}
    return TemplateIdentifier.from_references(refs)


@dataclass(frozen=True)
class Confusions:
    """What the tries of each face as play may see it found: the pairs of faces named as
    each other (a, b, share of the tries named so) and the faces often left unknown (code,
    share of the tries left unknown: the table is asked for them in play)."""

    pairs: list[tuple[str, str, float]]
    unsure: list[tuple[str, float]]


def named_tries(passes: Sequence[Mapping[str, Image8]],
                identifier: TemplateIdentifier | None = None, tries: int = CONFUSION_TRIES,
                close_tries: int = CLOSE_TRIES, seed: int = LEARN_SEED + 1
                ) -> dict[str, list[str | None]]:
    """What each face of the first pass was named on its tries (None: left unknown): views
    of every enrolled view as play may see the card (vision.enrolment.play_view), `tries`
    a view, and a face's view from the other pass, named by an identifier learnt from the
    first pass (`identifier`, if already learnt). A face those leave unknown near the
    warning's line or past it (UNSURE_SHARE less NEAR_SHARE, or more) is tried
    `close_tries` times a view in all, so that which side it lies is not the luck of a few
    tries."""
    identifier = identifier or learn(passes[:1])
    rng = np.random.default_rng(seed)
    named = {}
    for code in passes[0]:
        enrolled = [views[code] for views in passes if code in views]
        names = _names(identifier, _play_views(enrolled, tries, rng) + enrolled[1:])
        if names.count(None) / len(names) >= UNSURE_SHARE - NEAR_SHARE:
            names += _names(identifier, _play_views(enrolled, close_tries - tries, rng))
        named[code] = names
    return named


def _play_views(views: list[Image8], count: int, rng: np.random.Generator) -> list[Image8]:
    """`count` views of each of these as play may see the card (play_view), view by view."""
    return [play_view(view, rng) for view in views for _ in range(count)]


def _names(identifier: TemplateIdentifier, views: list[Image8]) -> list[str | None]:
    """The codes the identifier names these views (None: unknown)."""
    return [name for name, _ in identifier.identify_many(views)] if views else []


def confusions(passes: Sequence[Mapping[str, Image8]],
               identifier: TemplateIdentifier | None = None) -> Confusions:
    """The faces the camera will confuse or leave unknown, from their tries (named_tries).
    A try named as another face counts for that pair; a try left unknown confuses it with
    nothing (the table will be asked) and counts for the face's unknowns."""
    pairs: dict[tuple[str, str], float] = {}
    unsure: list[tuple[str, float]] = []
    for code, names in named_tries(passes, identifier).items():
        unknown = names.count(None) / len(names)
        if unknown >= UNSURE_SHARE:
            unsure.append((code, round(unknown, 2)))
        for other, count in Counter(n for n in names if n is not None and n != code).items():
            share = count / len(names)
            key = (min(code, other), max(code, other))
            if share >= CONFUSABLE_SHARE and share > pairs.get(key, 0.0):
                pairs[key] = share
    return Confusions(
        pairs=sorted(((a, b, round(s, 2)) for (a, b), s in pairs.items()), key=lambda p: -p[2]),
        unsure=sorted(unsure, key=lambda u: -u[1]))


def _mean(values: Sequence[tuple[float, float, float]]) -> tuple[float, float, float]:
    array = np.array(values, np.float64).reshape(-1, 3)
    b, g, r = array.mean(axis=0).tolist() if len(array) else (0.0, 0.0, 0.0)
    return (float(b), float(g), float(r))
