"""Naming the cards of a deck the table enrolled: real cards, a view or two of each face.

A table's own deck is learnt from one or two photos of each face, not from perfect
images, and those photos differ from the camera's later views in light, blur and in
where the cut falls (a white margin in or out). A discriminant learnt from synthetic
views of one photo mistakes that real variation for another face (`vision.identify`,
made for our own print-and-play art, does). So this identifier compares shapes
directly, by normalised correlation, and lets the deck's own structure help:

- **Shapes shared across colours.** Where face codes read `<colour>-<value>` and a value
  comes in several colours (UNO's `red-7`, `blue-7`, ...), every face of that value is a
  view of one shape: a red 7 teaches the blue 7's shape. A face whose code shares
  nothing is its own shape.
- **Ink, not grey.** Shapes are compared on the card's ink against its own white: 1 minus
  its lowest colour channel, where yellow print on white shows as well as black, and 1
  minus its lightness, where black print on yellow shows too. A view that prints next
  to nothing in one of them is compared mostly on the other.
- **Shading apart from shape.** A card that does not lie quite flat is lit unevenly
  across it (a curl brightens one side, a bend darkens its middle or its ends), and the
  enrolled view and the card in play are shaded each its own way: that smooth surface
  is taken out of every ink picture before shapes are compared.
- **Colour apart from shape.** The colour is named from the card's hue histogram (white
  balanced on the card's own white; each hue shared between its two nearest bins, so a
  light that shifts it a little moves it a little) against the nearest of each colour's
  enrolled views (each cut in a light of the enrolment's). Where the camera clipped the
  card's white in a channel (a bright warm lamp's red), that channel's white is the one
  the light makes, as the mat beside the card shows it (`unclipped_whites`); where it
  clipped the print in that channel too, the print lies between its white's level and the
  clip over the light's, and a card left unknown is read against the light's white as well
  (`light_whites`); where it clipped the print in two channels that light sets apart, the
  colour is lost (`colour_lost`) and the card unknown. A card whose quarters show two
  colours (another card lying across its corner, a strip of it inside the outline) is
  unknown: each quarter is read against the same quarter of the views, and where half of
  them lie clearly nearer another colour of its shape, the whole card's colour may be the
  other card's (`_parts_against`). A card those colours leave unknown may lie under a
  glare, its dark field lit grey, its hues washed out and its black gone: its colours are
  read again with the glare taken off (`without_glare`); one whose white the camera
  clipped too, only where the light on it is measured and its colours read with that
  light's cast taken off name the same face (`out_of_cast`). A face printed black (a blank)
  has for its own white a thin line that blurs grey in play: it is black where the light
  beside the card shows it dark and without hues (`black_fields`).
- **Every view at a few sizes and places.** Each enrolled view, both ways up, is compared
  at three sizes per axis and every shift of a few pixels: a cut may fall a millimetre
  or two off the card, the white margin in or out. (`vision.template_search` places the
  card in the patch first, then finds what that comparison decides near its place
  without making most of it.)

A card is named only when its best shape is close (SHAPE_FLOOR) and clearly closer than
the next shape (a ratio test on their distances; when the two come close, the test is made
again on pictures twice as fine, where a numeral's strokes tell 8 from 0), and among the
colours that shape comes in one colour clearly wins (a face of its own, with no colour to
beat, must lie closer to the colours of one of its views, which then vouch for a plain
print that correlates less), and its grey spreads as a card's, not a blank's (less so
where a glare or a bright light clipped its white: `contrast_floors`); otherwise None, an
explicit unknown. The thresholds were set on the real photos of benchmarks/real_photos.py and
checked on decks generated apart (vision_bench.py --unseen-decks).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, cached_property

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.identify import MIN_CONTRAST, batch, contrasts, grey
from vision.identify_kernels import (
    clipped_print,
    hue_histograms,
    ink_planes,
    nearest_within,
    part_distances,
    planes_less,
    resize_area,
    view_distances,
    white_balanced,
)
from vision.search_kernels import weighted_correlation, window_correlations
from vision.template_search import AlignedSearch, Scored, standardised

Image8 = NDArray[np.uint8]
Floats = NDArray[np.float32]

SIZE = (32, 48)  # (width, height) at which shapes are compared
MARGIN = (3, 4)  # pixels cut from each side of a template: the room to move a patch
SCALES = (0.94, 1.0, 1.06)  # per-axis scales of each template: a cut a little off the card
# how an enrolled deck's templates are laid out (_scaled_templates makes them so, and
# _per_template and _guides read them so): each view upright, then each view turned half a
# turn, and each of those at every one of SCALINGS, (x scale, y scale) in this order
TURNS = 2
SCALINGS = tuple((sx, sy) for sx in SCALES for sy in SCALES)
OWN_SIZE = len(SCALINGS) // 2  # the scaling (1, 1): SCALES' middle on both axes
WHITE_PERCENTILE = 97  # the brightest few per cent of a card are its white
CLIPPED = 250  # a white this bright (of 255) in a channel may be the camera's clipping
WHITE_SHARE = 0.85  # of its white's level, what a pixel below is print, not the white
CLIPPED_INK = 0.02  # share of a picture's pixels of print clipped from which its colour is lost
CAST_APART = 1.15  # gains of a light in two channels this far apart: what clipping both loses
MIN_LIGHT = 0.1  # a light's gain in a channel below which the mat says nothing of its colour
HUE_BINS = 12
SATURATED = (0.2, 0.4)  # saturation at which a pixel starts, and fully counts, for hue
DARK = (0.15, 0.35)  # a pixel starts to count as black ink at the first level (against the
# card's white), and fully counts at the second: a threshold the light cannot tip
SHADING_DEGREE = 2  # the shading taken out of an ink picture: its least-squares surface of
# this degree (a tilt, and a bend along or across the card); a tilt alone named fewer pale
# 8s and 5s, and read a classic green-4, 66 % seen, as green-6
FINE_SHADING_DEGREE = 1  # at FINE_SIZE, a tilt only: there a bend's surface takes part of
# what tells two blurred numerals apart (a yellow 6 from a 4), and the coarse look has
# already put the two shapes ahead
FLAT_CHANNEL = 0.75  # an enrolled view's ink channel with less than this share of the other's
# contrast (classic's red oval on black, all ink in the lowest channel) counts in proportion
SHAPE_FLOOR = 0.85  # correlation below which a patch is no shape of the deck (a true
# card, even blurred or in other light, correlates above 0.9 with its own shape)
SHAPE_RATIO = 0.7  # the best shape's distance (1 - correlation) over the next one's, at most
FINE_SIZE = (64, 96)  # twice SIZE: where the two best shapes are told apart when close
FINE_MARGIN = (6, 8)  # twice MARGIN
FINE_FROM = 0.6  # a ratio above which the two best shapes are compared again at FINE_SIZE
FINE_TEMPLATES = 2  # each of the two shapes' templates (its best at SIZE) compared again
FINE_CANDIDATES = 6  # each shape's best templates at SIZE among which the finer look takes
# those of one colour (_alike): two or three views of each colour at its best scales
FINE_RATIO = 0.8  # the ratio test at FINE_SIZE, loose: the focused test below decides
FOCUS_RATIO = 0.5  # the ratio test at FINE_SIZE where the two shapes' best templates differ
FINE_WIDE, FOCUS_FIRM = 0.9, 0.4  # the loose test at FINE_SIZE passes up to FINE_WIDE where
# the focused one passes at FOCUS_FIRM: a dim, blurred card correlates less with every view
# at FINE_SIZE, the two shapes' alike in the whole picture, not where their strokes differ
# (held-out tables 1000040-1000119, five designs: 8 true cards at 0.80-0.90 and 0.21-0.40
# left unknown; of 298 close calls none whose finer look preferred the wrong shape)
FOCUS_BLUR = 2.0  # sigma (FINE_SIZE pixels) of the map of where they differ
OWN_PLAIN_FLOOR = 0.6  # a face of its own with little print on it (a plain back) correlates
OWN_PLAIN_RATIO = 0.65  # less with itself under noise, but then lies far from every other
# shape, its colours within OWN_COLOUR_FAR of its own views: a pale back's print (pink on
# blue-grey, its oval lighter or darker than the field as the light turns) correlates only
# 0.57 to 0.76 with its one enrolled view, the next shape (a skip) 0.34 to 0.53. A shape
# shared across colours is printed (a numeral, a sign) and has no such test: a yellow
# reverse a third under a red card, 0.79 with the reverse and 0.52 with the next shape,
# passed the 0.75 and 0.45 that test had, its colour read from the red card
RECENT_BLOCK = 8  # pixels (a side) of the blocks compared to tell a patch seen lately
RECENT_TOLERANCE = 4.0  # levels a block's mean may move in a channel and the patch stay the same
RECENT_COUNT = 64  # patches remembered (a table holds far fewer cards)
COLOUR_MARGIN = 0.2  # histogram distance by which the best colour must beat the next
COLOUR_RATIO = 0.5  # or, by half the margin at least, at most this share of the next's
# distance: a light far from the enrolment's moves a colour from all its views, and a
# margin that the gap between two colours scales with (gold on cream 0.17 nearer the
# joker's views than red's, at 0.16 to 0.19 from them) is then missed
COLOUR_FAR = 0.7  # histogram distance beyond which a patch has none of a face's colours
OWN_COLOUR_FAR = 0.45  # the same for a face whose shape is its own (no colour to beat), from
# the nearest of its enrolled views: below 0.5, where a card of no colour lies from any colour
HUE_SHOWN = 0.25  # share of a card's histogram in hues (not black) from which its hues alone
HUE_FAR = 0.75  # must lie within this distance of a view of the colour it is named (the hue
# bins alone, each side's hues as a whole): a tall joker in dim glare, white-balanced on its
# own yellow numeral (its field dark, its rim dim), showed orange to green hues 0.89 from
# every view of its colour and of violet, and was named violet for a black share like
# violet's; the 1151 coloured cards named right in the five unseen designs' tables lay 0.55 at most
PARTS = (2, 2)  # rows, columns: the quarters of a card whose colours are also read apart
PART_SHOWN = 0.5  # a part whose histogram sums under this (its colour and black under half
# COLOUR_MASS of its pixels) says nothing of the card's colour
PART_MARGIN = 0.1  # histogram distance by which another colour of the shape must lie nearer
# a part (from the same part of its views) than the colour named for it to speak against
# it: where half the parts that show colour do, the card shows two colours and is unknown.
# Held-out uno-pale table 1000192: a green skip, its outline a few mm off, took in a strip of
# a red 0 lying across its corner; under a warm lamp the pale green read between green and
# yellow, near neither, and the strip's saturated hues made the whole card red-skip (0.53).
# Its left quarters read red, its right ones 0.22 and 0.29 nearer yellow than red. A card
# another one covers by a corner (one quarter of four another colour) is still named; on
# 200 held-out tables of each of the five unseen designs, four named right that lay a third
# under another card's colour are unknown too, and no fully visible one
_PART_MARGIN = np.float32(PART_MARGIN)  # (as a part's float32 distances take it)
COLOUR_MASS = 0.05  # share of a card's pixels below which its colours (and black) are too
# few to make a whole histogram of: a grey blank's stays as slight as its colours are
WASHED_CONTRAST = 0.03  # the grey spread a card whose white the camera clipped must have at
# least (MIN_CONTRAST's half, as a small card's): tuning tables 1000040-1000119 and
# 1000200-1000279, pale and yellow UNO-like cards and uno-pale's back under a glare or a
# bright lamp spread 0.036 to 0.060, named right by shape and colour; the 10 patches there
# below MIN_CONTRAST that lay on no card had no shape of the deck at all
GLARE_WINDOW = 9  # pixels (a side, at SIZE) of the neighbourhood whose darkest level bounds
# a glare there: wider than a numeral's stroke and a rim, so its print does not count
GLARE_BLUR = 5.0  # sigma (SIZE pixels) of the glare's surface: a glare spot is smooth
BLACK_VIEW = 0.9  # share of black in each view's histogram from which a face of its own is
# a black face: a field printed black, a thin line or a word on it (uno-dark's blank)
BLACK_FIELD = 0.18  # the brightest channel a black face's middle keeps (its median) at most,
# against the white the light on the card makes: uno-dark's blank 0.10 to 0.12 in every
# light without glare, the bare mat 0.29, the darkest colour field (a dark green) 0.31 at
# least, under a glare that lifts the light measured beside it too
BLACK_HUE = 0.15  # share of a black face's pixels at most that may show a hue against its
# own white (the saturation ramp of `hues`): the blanks seen 0 to 0.08, a dark colour field
# not under glare 0.3 and more
BLACK_FLOOR = 0.05  # share of a card's white that its black keeps (the camera's floor, a
# print's sheen) and no glare is taken to be: of the 12 tempus-tall cards under glare left
# unknown at their true outlines in the unseen tables, 0 and 0.08 named 9, 0.05 all 12


def balanced(patches: Image8, size: tuple[int, int] = SIZE) -> Floats:
    """The patches at `size` against each card's own white (each channel divided by its
    WHITE_PERCENTILE level, np.percentile's, capped at 1), (n, height, width, 3): what ink
    and hues read."""
    out: Floats = white_balanced(_resized(patches, size), float(WHITE_PERCENTILE))[0]
    return out


def _resized(patches: Image8, size: tuple[int, int]) -> Image8:
    if size == SIZE:  # shrunk: the batch's resize stacked is each patch's, compiled
        return resize_area(patches, size)
    # enlarged (FINE_SIZE is taller than a patch): a stacked resize would mix patches
    return np.stack([cv2.resize(p, size, interpolation=cv2.INTER_AREA) for p in patches])


def _against(small: Image8, whites: Floats) -> Floats:
    """Pictures against their white levels (white_balanced's, 4 added), capped at 1."""
    out: Floats = np.minimum((small.astype(np.float32) + 4.0) / whites[:, None, None, :], 1.0)
    return out


def unclipped_whites(small: Image8, whites: Floats, lights: Floats) -> Floats:
    """The white levels (white_balanced's) of pictures whose white the camera clipped in some
    channel but not all, that channel's level as the light on the card makes it: the
    brightest unclipped channel's level times the light's gain in that channel over its
    gain in the unclipped one (`lights`, (n, 3): each channel's gain on each card, as the
    mat beside it shows). A bright warm lamp clips a pale card's white in red and green
    while blue reads 200: against a red level of 255, a pale green field's red reads as
    high as its green, yellow. A clipped level only rises, and only where the camera
    clipped nothing but the card's white (more than CLIPPED_INK of its pixels clipped and
    darker than the white in an unclipped channel are print whose colour was lost: a pale
    red field clipped in red would read blue against the higher level). A picture with no
    channel clipped, or all, or no light measured (no mat seen, its gain 0) keeps its own:
    `whites` itself when no picture has a level lifted."""
    clipped = white_clipped(whites)
    if not clipped.any():  # (the usual batch: no white clipped, none lifted)
        return whites
    usable = _liftable(clipped, lights)
    pixels = small.shape[1] * small.shape[2]
    for i in np.flatnonzero(usable):
        usable[i] = clipped_print(small[i], whites[i], clipped[i], False, ~clipped[i],
                                  CLIPPED, WHITE_SHARE) / pixels <= CLIPPED_INK
    if not usable.any():
        return whites
    out: Floats = np.where(usable[:, None], light_whites(whites, lights), whites
                           ).astype(np.float32)
    return out


def light_whites(whites: Floats, lights: Floats) -> Floats:
    """The white levels (white_balanced's) of pictures whose white the camera clipped in
    some channel but not all, each clipped channel's level as the light on the card makes
    it (`lights`, unclipped_whites'), whatever the camera did to the print. Where it
    clipped the print in that channel too, a print read against this white shows there
    the least it can be (the clip over the light's white, its own level unknown above).
    A picture with no channel clipped, or all, or no light measured keeps its own level."""
    clipped = white_clipped(whites)
    safe = np.maximum(lights, MIN_LIGHT)
    reference = np.where(clipped, 0.0, whites / safe).max(axis=1, keepdims=True)
    out: Floats = np.where(clipped & _liftable(clipped, lights)[:, None],
                           np.maximum(whites, reference * safe), whites).astype(np.float32)
    return out


def _liftable(clipped: NDArray[np.bool_], lights: Floats) -> NDArray[np.bool_]:
    """Which pictures (their white's clipped channels, white_clipped's) have a white the
    light on the card (`lights`) tells: clipped in some channel but not all, the light
    measured in each."""
    out: NDArray[np.bool_] = np.asarray(clipped.any(axis=1) & ~clipped.all(axis=1)
                                        & (lights >= MIN_LIGHT).all(axis=1), bool)
    return out


def white_clipped(whites: Floats) -> NDArray[np.bool_]:
    """Which channels of each picture's white level (white_balanced's, 4 added to the
    level read) the camera may have clipped: read at CLIPPED or above."""
    out: NDArray[np.bool_] = whites >= CLIPPED + 4.0
    return out


def contrast_floors(whites: Floats) -> Floats:
    """The grey spread (vision.identify.contrasts) below which each picture is a blank
    surface, not a card, by its white levels (white_balanced's): MIN_CONTRAST, or
    WASHED_CONTRAST where the camera clipped its white in a channel. A light that bright,
    or a glare, lifts the whole card towards the clip and its print's spread over its mean
    falls; the shape must still be found in it (SHAPE_FLOOR), which a blank's noise is not."""
    out: Floats = np.where(white_clipped(whites).any(axis=1), WASHED_CONTRAST,
                           MIN_CONTRAST).astype(np.float32)
    return out


def colour_lost(small: Image8, whites: Floats, lights: Floats) -> NDArray[np.bool_]:
    """Whether the camera clipped each picture's colour away: more than CLIPPED_INK of its
    pixels are print (darker than its white, WHITE_SHARE, in some channel) clipped in two
    channels whose gains in the light on the card (`lights`, as unclipped_whites takes
    them) differ by more than CAST_APART. Such a print reads those two channels alike
    whatever they were: under a bright warm lamp a pale green field's red clips as its
    green does, and it reads yellow, as near yellow's views as a yellow card (every pale
    green named yellow under a uniform warm lamp 1.4 times as bright). Its colour is not
    to be named."""
    hot = white_clipped(whites)  # a print clipped in a channel is under a white clipped
    lost = np.zeros(len(small), bool)
    pixels = small.shape[1] * small.shape[2]
    if not (hot.sum(axis=1) >= 2).any():  # (no two channels clipped: the usual batch)
        return lost
    for a, b in ((0, 1), (0, 2), (1, 2)):
        high, low = np.maximum(lights[:, a], lights[:, b]), np.minimum(lights[:, a], lights[:, b])
        apart = hot[:, a] & hot[:, b] & (high > CAST_APART * np.maximum(low, MIN_LIGHT))
        pair = np.array([c in (a, b) for c in range(3)])  # (np.isin's, without its cost)
        for i in np.flatnonzero(apart & ~lost):
            lost[i] = clipped_print(small[i], whites[i], pair, True, np.ones(3, bool), CLIPPED,
                                    WHITE_SHARE) / pixels > CLIPPED_INK
    return lost


def ink(img: Floats, shading: int = SHADING_DEGREE) -> Floats:
    """How much ink each pixel of `balanced` pictures holds, (n, height, width, 2): 1 minus
    its lowest colour channel, where yellow on white shows as well as black, and 1 minus
    its lightness (the mean of its lowest and highest channel), where black on yellow
    shows too; the card's shading (a surface of degree `shading`) taken out of each
    (`unshaded`)."""
    n, h, w = img.shape[:3]
    return _less_shading(ink_planes(np.ascontiguousarray(img, np.float32)), (n, h, w, 2),
                         shading)


def unshaded(inks: Floats, degree: int = SHADING_DEGREE) -> Floats:
    """Ink pictures (n, height, width, channels) less each channel's shading: its
    least-squares surface of this degree, fitted on the picture's middle (what the
    templates keep of it, MARGIN cut off each side: a cut a millimetre wide shows the mat
    or a rim along the edges, no shading) and taken out of the whole picture. A card that
    does not lie flat is lit a few per cent more from one side or its middle than the
    other (the renderer's curl: 6 % tilt, 7 % bend); each enrolled view keeps the shading
    of the moment it was cut and a card in play has its own, and the numerals of a pale
    print (a field-coloured numeral on a white oval) differ in fewer pixels than that ramp
    moves: uno-pale's views of an 8 were nearer a 5's view, shaded alike, than another
    8's. What the surface also takes, the oval's and the field's smooth mass, every shape
    of a deck shares."""
    n, h, w, channels = inks.shape
    planes = np.ascontiguousarray(inks.transpose(0, 3, 1, 2), np.float32).reshape(
        n * channels, h * w)
    return _less_shading(planes, (n, h, w, channels), degree)


def _less_shading(planes: Floats, shape: tuple[int, int, int, int], degree: int) -> Floats:
    """unshaded() of pictures of this shape (n, height, width, channels) given as their
    channels' planes, (n * channels, height * width): the pictures less their shading,
    channels last (compiled: numpy's transposed copy of a two-channel picture costs more
    than the fit)."""
    n, height, width, channels = shape
    fit, surface = _shading_fit(height, width, degree)
    out: Floats = planes_less(planes, (planes @ fit) @ surface, n, height, width, channels)
    return out


@cache
def _shading_fit(height: int, width: int, degree: int) -> tuple[Floats, Floats]:
    """How a picture of this size gives its shading: (pixels, terms), the least-squares
    coefficients of the surfaces of this degree (1, x, y, and of degree 2 x*x, x*y, y*y)
    from its middle's pixels (none from its MARGIN's share of each side), and (terms,
    pixels), those surfaces over the whole picture."""
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    x, y = x / max(width - 1, 1) - 0.5, y / max(height - 1, 1) - 0.5
    terms = np.stack([(x ** i * y ** (d - i)).ravel() for d in range(degree + 1)
                      for i in range(d + 1)], axis=1)
    mx, my = round(width * MARGIN[0] / SIZE[0]), round(height * MARGIN[1] / SIZE[1])
    middle = np.zeros((height, width), bool)
    middle[my : height - my, mx : width - mx] = True
    fit = np.zeros_like(terms)
    fit[middle.ravel()] = np.linalg.pinv(terms[middle.ravel()]).T
    return fit.astype(np.float32), np.ascontiguousarray(terms.T).astype(np.float32)


def _extremes(img: Floats) -> tuple[Floats, Floats]:
    """Each pixel's lowest and highest colour channel (what img.min(axis=3) and
    img.max(axis=3) give, an order of magnitude faster on three channels)."""
    b, g, r = img[..., 0], img[..., 1], img[..., 2]
    return np.minimum(np.minimum(b, g), r), np.maximum(np.maximum(b, g), r)


def hues(img: Floats) -> Floats:
    """Each `balanced` picture's colours as a histogram, (n, HUE_BINS + 1): the hue of its
    saturated pixels and, last, its share of black. A hue counts in its two nearest bins,
    by how near it is to each: a light that moves a hue a little moves its count a
    little, not all of it into the next bin. A pixel dark enough to count wholly as black
    (DARK) has no hue: its channels a few levels apart, their hue is the camera's noise (a
    framed joker's dark frame read purple and red in a warm light, as near red's views as
    the joker's); a dark colour keeps its hue. A picture with less colour and black than
    COLOUR_MASS of its pixels keeps a histogram that slight: a grey card's few tinted
    pixels are not its colour. (Compiled, identify_kernels.hue_histograms: numpy's steps
    to the bit in one pass, not two dozen calls on small arrays.)"""
    return hues_and_parts(img)[0]


def hues_and_parts(img: Floats) -> tuple[Floats, Floats]:
    """hues() of `balanced` pictures, and the same of each of their PARTS apart, (n, parts,
    HUE_BINS + 1), the parts row by row, each as hues() would read it cut out: a part with
    less colour and black than COLOUR_MASS of its pixels keeps a histogram that slight.
    (One compiled pass for both.)"""
    n, height, width = img.shape[:3]
    rows, cols = PARTS
    if height % rows or width % cols:
        raise ValueError(f"{width}x{height} pictures do not divide into {cols}x{rows} parts")
    hsv = cv2.cvtColor(img.reshape(n * height, width, 3), cv2.COLOR_BGR2HSV)
    whole, parts = hue_histograms(
        img, hsv, HUE_BINS, np.array([SATURATED[0], SATURATED[1] - SATURATED[0]], np.float32),
        np.array([DARK[0], DARK[1], DARK[1] - DARK[0]], np.float32),
        np.float32(COLOUR_MASS * height * width), rows, cols,
        np.float32(COLOUR_MASS * (height // rows) * (width // cols)))
    return whole, parts


def black_fields(small: Image8, pictures: Floats, lights: Floats) -> NDArray[np.bool_]:
    """Whether each picture (at SIZE; `pictures`, the same `balanced`) is a black field as
    the light on the card shows it (`lights`, (n, 3): its gain in each channel over the
    mat as printed, TableReader's): its middle (MARGIN off each side) keeps its brightest
    channel below BLACK_FIELD of the white that light makes (the gain times 255) in its
    median pixel, and under BLACK_HUE of its pixels show a hue against its own white. A
    black face's own white is a thin line or a word, blurred in play to a grey 2 to 3
    times its field, against which the field reads grey, not black; the light beside the
    card tells how dark it is, and a dark colour keeps its hue and lies above the felt.
    No light measured (a gain 0), not black."""
    mx, my = MARGIN
    middle = small[:, my:-my, mx:-mx].reshape(len(small), -1, 3).astype(np.float32)
    white = 255.0 * np.maximum(lights, MIN_LIGHT)[:, None, :]
    field = np.median((middle / white).max(axis=2), axis=1)
    low, high = _extremes(pictures)
    saturation = (high - low) / (high + 1e-3)
    hued = np.clip((saturation - SATURATED[0]) / (SATURATED[1] - SATURATED[0]), 0.0, 1.0)
    hued[high <= DARK[0]] = 0.0
    out: NDArray[np.bool_] = np.asarray(
        (field <= BLACK_FIELD) & (hued.reshape(len(small), -1).mean(axis=1) <= BLACK_HUE)
        & (lights >= MIN_LIGHT).all(axis=1), bool)
    return out


def without_glare(small: Image8, whites: Floats) -> Image8:
    """The pictures (at SIZE) less the glare on each: a glare is the lamp mirrored by the
    card's gloss, light added to all three channels alike, smoothly over a spot, on top
    of the print. So nowhere is it more than the lowest channel of the darkest print
    around (GLARE_WINDOW): that surface, smoothed (GLARE_BLUR), kept to each pixel's own
    lowest channel, less the black a card keeps without glare (BLACK_FLOOR of its white,
    its brightest channel's level in `whites`, white_balanced's), is taken off each
    pixel. A dark field lit grey by a glare spot gets its colour and its black back; a
    hue, the channels' differences, is the same."""
    kernel = np.ones((GLARE_WINDOW, GLARE_WINDOW), np.uint8)
    lowest = np.minimum(np.minimum(small[..., 0], small[..., 1]), small[..., 2])
    veils = np.stack([cv2.GaussianBlur(cv2.erode(low, kernel).astype(np.float32), (0, 0),
                                       GLARE_BLUR) for low in lowest])
    veils = np.minimum(veils, lowest) - BLACK_FLOOR * whites.max(axis=1)[:, None, None]
    cleared = small - np.maximum(veils, 0.0)[..., None]
    out: Image8 = np.clip(np.rint(cleared), 0, 255).astype(np.uint8)
    return out


def out_of_cast(pictures: Floats, lights: Floats) -> Floats:
    """`balanced` pictures (n, height, width, 3) with the cast of the light on each card
    taken off (`lights`, (n, 3): its gain in each channel, as the mat beside the card shows
    it): each channel times that light's least gain over its gain there. A picture whose
    white the camera clipped is balanced on the clip, not on the white the light makes,
    and keeps some of the light's cast; a colour read the same with that cast taken off
    is the print's, not the cast's."""
    safe = np.maximum(lights, MIN_LIGHT)
    out: Floats = np.ascontiguousarray(
        pictures * (safe.min(axis=1, keepdims=True) / safe)[:, None, None, :], np.float32)
    return out


def shapes_of(codes: Sequence[str]) -> tuple[list[str], list[str]]:
    """(shape, colour) of each face code: `<colour>-<value>` codes whose value comes in two
    colours or more share the value's shape; any other face is a shape and a colour of
    its own."""
    parts = [code.split("-", 1) if "-" in code else [code, ""] for code in codes]
    colours_of: dict[str, set[str]] = {}
    for colour, value in parts:
        colours_of.setdefault(value, set()).add(colour)
    shapes: list[str] = []
    colours: list[str] = []
    for code, (colour, value) in zip(codes, parts, strict=True):
        shared = bool(value) and len(colours_of[value]) >= 2
        shapes.append(value if shared else code)
        colours.append(colour if shared else code)
    return shapes, colours


def _scaled_templates(inks: Floats, size: tuple[int, int] = SIZE,
                      margin: tuple[int, int] = MARGIN) -> Floats:
    """Each ink picture (at `size`) both ways up, scaled per axis by SCALES and cut to its
    middle (`margin` less on every side), as standardised rows, each channel weighed by
    _channel_weights: (TURNS * n * len(SCALINGS), values), in the layout above."""
    w, h = size
    mx, my = margin
    rows = []
    for pictures in (list(inks), [p[::-1, ::-1] for p in inks]):  # upright, then turned
        for picture in pictures:
            for sx, sy in SCALINGS:
                sw, sh = round(w * sx), round(h * sy)
                scaled = cv2.resize(np.ascontiguousarray(picture), (sw, sh),
                                    interpolation=cv2.INTER_LINEAR)
                x0, y0 = (sw - (w - 2 * mx)) // 2, (sh - (h - 2 * my)) // 2
                rows.append(scaled[y0 : y0 + h - 2 * my, x0 : x0 + w - 2 * mx].ravel())
    cuts = np.array(rows, np.float32)
    planes = cuts.reshape(len(cuts), -1, 2)
    return (standardised(cuts).reshape(planes.shape) * _channel_weights(planes)[:, None, :]
            ).reshape(len(cuts), -1)


def _per_template(of_view: Sequence[int]) -> NDArray[np.intp]:
    """A value of each enrolled view repeated for each of its templates (the layout above)."""
    views = np.array(of_view, np.intp)
    out: NDArray[np.intp] = np.broadcast_to(
        views[None, :, None], (TURNS, len(views), len(SCALINGS))).ravel()
    return out


def _guides(templates: Floats, shapes: NDArray[np.intp]) -> Floats:
    """Each shape's look upright and turned, what places a picture (AlignedSearch): the
    mean of its views' templates at their own size (its colours' views print one ink
    picture, the mean loses only the details that tell one view's print from another's)."""
    own = templates.reshape(TURNS, -1, len(SCALINGS), templates.shape[1])[:, :, OWN_SIZE]
    kinds = shapes.reshape(TURNS, -1, len(SCALINGS))[:, :, OWN_SIZE]
    out: Floats = np.array([own[turn][kinds[turn] == shape].mean(axis=0)
                            for shape in np.unique(kinds) for turn in range(TURNS)], np.float32)
    return out


def _channel_weights(planes: Floats) -> Floats:
    """How much each ink channel of each template counts, (templates, 2), summing to 2 (a
    template's correlation stays a mean of its channels' correlations): 1 each, but a
    channel with under FLAT_CHANNEL of the other's contrast weighs in proportion to it. A
    view that prints almost nothing in one channel would otherwise compare the camera's
    noise there as half its shape (classic's back, a red oval on black, then came within
    0.01 to 0.02 of the white-ovalled blank, alike in lightness)."""
    contrast = planes.std(axis=1)
    share = np.clip(contrast / (FLAT_CHANNEL * contrast.max(axis=1, keepdims=True) + 1e-9),
                    0.0, 1.0)
    out: Floats = 2.0 * share / share.sum(axis=1, keepdims=True)
    return out


def _around(y: int, x: int) -> list[tuple[int, int]]:
    """The places in a FINE_SIZE ink picture of the windows the size of a fine template
    at (y, x) and a pixel either way (kept inside FINE_MARGIN), rows of columns."""
    mx, my = FINE_MARGIN
    ys = [min(max(y + d, 0), 2 * my) for d in (-1, 0, 1)]
    xs = [min(max(x + d, 0), 2 * mx) for d in (-1, 0, 1)]
    return [(a, b) for a in ys for b in xs]


def _correlations(fine: Floats, places: list[list[tuple[int, int]]],
                  templates: NDArray[np.float16]) -> NDArray[np.float64]:
    """The correlation of each template (a standardised row, as `fine` keeps it) with the
    windows of a FINE_SIZE ink picture (height, width, 2) at its places, (templates,
    places): in float64, compiled (vision.search_kernels), each window standardised on the
    way (the finer look's costliest step in numpy)."""
    (w, h), (mx, my) = FINE_SIZE, FINE_MARGIN
    tw, th = w - 2 * mx, h - 2 * my
    planar = templates.reshape(len(templates), th, tw, 2).transpose(0, 3, 1, 2)
    out: NDArray[np.float64] = window_correlations(
        np.ascontiguousarray(fine.transpose(2, 0, 1), np.float64), np.array(places, np.intp),
        np.ascontiguousarray(planar, np.float64))
    return out


def close_calls(scores: Floats) -> NDArray[np.bool_]:
    """Whether each patch's best shape (a row of shape scores, (patches, shapes)) is a shape
    of the deck (SHAPE_FLOOR) but the next one comes close (FINE_FROM): the two are then
    told apart at FINE_SIZE. One sort for a batch."""
    if scores.shape[1] < 2:
        return np.zeros(len(scores), bool)
    top = np.sort(scores, axis=1)[:, -2:]
    second, best = top[:, 0], top[:, 1]
    out: NDArray[np.bool_] = (best >= SHAPE_FLOOR) & ((1.0 - best) > FINE_FROM * (1.0 - second))
    return out


class RecentPatches:
    """The last patches named and their answers, to name a card lying still only once.

    Two patches are the same view when no block of RECENT_BLOCK pixels differs by more
    than RECENT_TOLERANCE levels on average in any colour channel: camera noise moves a
    block's mean by well under one level, while a card that changes (another value, a
    turn, a hand, another colour of the same grey) moves some block by tens of levels.
    """

    def __init__(self) -> None:
        self._thumbs = np.zeros((0, 0), np.float32)
        self._answers: list[tuple[str | None, float]] = []

    @staticmethod
    def thumbnails(patches: Image8) -> Floats:
        """Each patch's block means in each channel, one row per patch: what find and keep
        compare."""
        w, h = patches.shape[2] // RECENT_BLOCK, patches.shape[1] // RECENT_BLOCK
        if patches.shape[1] % RECENT_BLOCK == 0:  # (whole blocks high: no block of the
            out = resize_area(patches, (w, h))  # patches stacked spans two, each as alone)
        else:
            out = np.stack([cv2.resize(p, (w, h), interpolation=cv2.INTER_AREA)
                            for p in np.ascontiguousarray(patches)])
        return out.reshape(len(out), -1).astype(np.float32)

    def find(self, thumbs: Floats) -> list[tuple[str | None, float] | None]:
        """The remembered answer for each patch (by its thumbnails), or None where it was
        not seen lately."""
        if not self._answers or self._thumbs.shape[1] != thumbs.shape[1]:
            return [None] * len(thumbs)
        nearest = nearest_within(np.ascontiguousarray(thumbs, np.float32), self._thumbs,
                                 RECENT_TOLERANCE)
        return [self._answers[int(j)] if j >= 0 else None for j in nearest]

    def keep(self, thumbs: Floats, answers: list[tuple[str | None, float]]) -> None:
        """Remember these answers of patches (by their thumbnails), forgetting the oldest
        beyond RECENT_COUNT."""
        if self._thumbs.shape[1:] != thumbs.shape[1:]:
            self._thumbs, self._answers = thumbs[:0], []
        self._thumbs = np.concatenate([self._thumbs, thumbs])[-RECENT_COUNT:]
        self._answers = (self._answers + list(answers))[-RECENT_COUNT:]


@dataclass(frozen=True, eq=False)
class _Looks:
    """What naming reads of a batch of patches besides their shapes' search, a row each:
    what a wider search of some of them (TemplateIdentifier._identify) does not change."""

    patches: Image8  # (n, height, width, 3), as cut
    lights: Floats | None  # the light on each card (identify_batch's), where known
    small: Image8  # the patches at SIZE
    pictures: Floats  # those against their own white (white_balanced's)
    whites: Floats  # that white's levels
    inks: Floats  # the pictures' ink (what the shapes are searched in)
    lifted: Floats  # the white levels the colours were read against (unclipped_whites')
    colour_d: Floats  # the colours' distances (_colours_read's three)
    hue_d: Floats
    part_d: Floats
    spread: NDArray[np.float64]  # the grey's spread (contrasts')
    floors: Floats  # and the least a card's (contrast_floors')
    lost: NDArray[np.bool_]  # whether the camera clipped its colour away (colour_lost)

    def take(self, rows: Sequence[int]) -> _Looks:
        """The same of these rows only."""
        return replace(self, **{name: value[rows] for name, value in vars(self).items()
                                if value is not None})


@dataclass(frozen=True, eq=False)
class TemplateIdentifier:
    """Names card patches of an enrolled deck by shape and colour, or None when unsure.

    `search` holds each enrolled view at every size of SCALES, both ways up, and whose
    shape each is (vision.template_search); `fine` the same templates at FINE_SIZE, in the
    search's order. `colours` holds the hue histogram of every view of each colour, colour
    by colour (`colour_starts`: where each colour's views begin), and `part_colours` those
    of each view's PARTS. `faces` maps a (shape, colour) pair to its code.
    """

    codes: tuple[str, ...]
    search: AlignedSearch
    shape_names: tuple[str, ...]
    colours: Floats
    colour_starts: NDArray[np.intp]
    colour_names: tuple[str, ...]
    faces: Mapping[tuple[int, int], str]
    fine: NDArray[np.float16]  # half floats: four times the values, few of them compared
    template_colours: NDArray[np.intp]  # the colour of each template's view, search's order
    part_colours: Floats  # the hue histogram of each of PARTS of each row of `colours`
    threshold: float = 0.5
    recent: RecentPatches = field(default_factory=RecentPatches, compare=False,
                                  repr=False)

    @classmethod
    def from_references(cls, refs: Mapping[str, Image8 | Sequence[Image8]],
                        threshold: float = 0.5) -> TemplateIdentifier:
        """Learn each face (code -> an upright BGR image of the card, or several)."""
        if not refs:
            raise ValueError("no reference images to learn from")
        codes = tuple(refs)
        views = [[image] if isinstance(image, np.ndarray) else list(image)
                 for image in refs.values()]
        if any(not images for images in views):
            raise ValueError("a face without a reference image")
        shape_of, colour_of = shapes_of(codes)
        shape_names = tuple(dict.fromkeys(shape_of))
        colour_names = tuple(dict.fromkeys(colour_of))
        owner = [i for i, images in enumerate(views) for _ in images]
        patches = batch([image for images in views for image in images])
        pictures = balanced(patches)
        templates = _scaled_templates(ink(pictures))
        fine = _scaled_templates(ink(balanced(patches, FINE_SIZE), FINE_SHADING_DEGREE),
                                 FINE_SIZE, FINE_MARGIN)
        shapes = _per_template([shape_names.index(shape_of[i]) for i in owner])
        order = np.argsort(shapes, kind="stable")  # the search keeps its templates so
        hist, parts = hues_and_parts(pictures)
        views_of = [[j for j, i in enumerate(owner) if colour_of[i] == name]
                    for name in colour_names]
        faces = {(shape_names.index(s), colour_names.index(c)): code
                 for code, s, c in zip(codes, shape_of, colour_of, strict=True)}
        search = AlignedSearch.build(templates[order], shapes[order], len(shape_names), SIZE,
                                     MARGIN, _guides(templates, shapes))
        colours = _per_template([colour_names.index(colour_of[i]) for i in owner])
        by_colour = [j for views in views_of for j in views]
        return cls(codes=codes, search=search, shape_names=shape_names,
                   colours=hist[by_colour].astype(np.float32),
                   colour_starts=np.cumsum([0] + [len(views) for views in views_of[:-1]],
                                           dtype=np.intp),
                   colour_names=colour_names,
                   faces=faces, fine=fine[order].astype(np.float16),
                   template_colours=colours[order],
                   part_colours=parts[by_colour].astype(np.float32),
                   threshold=threshold)

    @cached_property
    def colours_of(self) -> dict[int, list[int]]:
        """The colours each shape comes in (shape -> colours, as `faces` pairs them)."""
        out: dict[int, list[int]] = {}
        for shape, colour in self.faces:
            out.setdefault(shape, []).append(colour)
        return out

    @cached_property
    def settle(self) -> float:
        """A ratio of the best shape's distance (1 minus its score) over the next one's
        below which no decision looks at the next one's score (the search then need not
        find it exactly, ShapeSearch.scored): no finer look (FINE_FROM), the ratio test
        passed with room (_shape's test then caps at best / SHAPE_FLOOR for a score of 1 at
        most), and for a face of its own that of OWN_PLAIN_RATIO too, where the deck has
        one (its cap best / OWN_PLAIN_FLOOR)."""
        ratios = [FINE_FROM, SHAPE_RATIO * SHAPE_FLOOR]
        if any(len(colours) == 1 for colours in self.colours_of.values()):
            ratios.append(OWN_PLAIN_RATIO * OWN_PLAIN_FLOOR)
        return min(ratios)

    @cached_property
    def least(self) -> float:
        """A score below which no card is named (_decide: its shape clears the threshold
        only from best / SHAPE_FLOOR, or a face of its own's best / OWN_PLAIN_FLOOR, twice
        the threshold): a card whose best shape scores less need not have its scores
        found exactly (ShapeSearch.scored; a hand, a sleeve, the mat: the costliest
        pictures to search, every shape about as far)."""
        floors = [SHAPE_FLOOR]
        if any(len(colours) == 1 for colours in self.colours_of.values()):
            floors.append(OWN_PLAIN_FLOOR)
        return 2.0 * self.threshold * min(floors)

    @property
    def reads_light(self) -> bool:
        """Yes: a card whose white the camera clipped has its colours read in the light
        the mat shows (identify_batch)."""
        return True

    @property
    def reads_covered(self) -> bool:
        """Yes: it compares shapes by correlation, and a part filled with the card's own
        field takes nothing from a shape and adds nothing to another (TableReader)."""
        return True

    def identify(self, patch: Image8) -> tuple[str | None, float]:
        """(code, confidence) for an upright card patch; (None, confidence) when unsure."""
        return self.identify_many([patch])[0]

    def identify_many(self, patches: Sequence[Image8]) -> list[tuple[str | None, float]]:
        """identify() for several patches."""
        return self.identify_batch(batch(patches))

    def identify_batch(self, patches: Image8, lights: Floats | None = None
                       ) -> list[tuple[str | None, float]]:
        """identify_many() of a batch of BGR patches, (n, height, width, 3). `lights`, where
        known, is the light on each card, (n, 3): its gain in each channel, as the mat
        beside the card shows it (TableReader); a card whose white the camera clipped then
        has its colours read against the white that light makes (unclipped_whites), and
        one whose print it clipped in two channels that light sets apart is unknown
        (colour_lost). A patch all but identical to one named in the last frames (a card
        lying still) gets that answer again without the comparison, which costs a few
        milliseconds a card."""
        if not len(patches):
            return []
        thumbs = self.recent.thumbnails(patches)
        results = self.recent.find(thumbs)
        todo = [i for i, result in enumerate(results) if result is None]
        if todo:
            fresh = self._identify(patches[todo], None if lights is None else lights[todo])
            self.recent.keep(thumbs[todo], fresh)
            for i, result in zip(todo, fresh, strict=True):
                results[i] = result
        return [result for result in results if result is not None]

    def _identify(self, patches: Image8, lights: Floats | None = None, wide: bool = False
                  ) -> list[tuple[str | None, float]]:
        """identify_batch() without the memory of recent patches; `wide`, each card's
        shapes searched in the windows around its place (AlignedSearch.scored), not at it."""
        looks = self._looks(patches, lights)
        scored = self.search.scored(looks.inks, self.settle, self.least, wide)
        answers = self._named(looks, scored)
        # a card left unknown that a shape could name (its best SHAPE_FLOOR or closer) is
        # named again from the windows around its place: a view at another scale than the
        # guides' may lie best a pixel off (real UNO photos: 15 of 640 numerals unknown
        # from the one window, none from the nine). Only its shapes are searched again:
        # what its pictures show besides (`looks`) the wider windows do not change
        widened = [] if wide else [i for i, (code, _) in enumerate(answers) if code is None
                                   and not looks.lost[i]
                                   and scored.scores[i].max() >= SHAPE_FLOOR]
        if widened:
            wider = looks.take(widened)
            for i, answer in zip(widened, self._named(
                    wider, self.search.scored(wider.inks, self.settle, self.least, True)),
                    strict=True):
                answers[i] = answer
        return answers

    def _looks(self, patches: Image8, lights: Floats | None) -> _Looks:
        """What naming reads of the patches besides their shapes: their pictures, inks,
        colours and contrasts (_Looks)."""
        small = _resized(patches, SIZE)
        pictures, whites = white_balanced(small, float(WHITE_PERCENTILE))
        # the colours against the white the light makes, where the camera clipped the card's
        # (the shapes against its own: its ink is as the views', whatever the white)
        lifted = whites if lights is None else unclipped_whites(small, whites, lights)
        colour_d, hue_d, part_d = self._colours_read(
            pictures if lifted is whites else _against(small, lifted))
        return _Looks(patches=patches, lights=lights, small=small, pictures=pictures,
                      whites=whites, inks=ink(pictures), lifted=lifted, colour_d=colour_d,
                      hue_d=hue_d, part_d=part_d, spread=np.asarray(contrasts(grey(patches))),
                      floors=contrast_floors(whites),
                      lost=(np.zeros(len(patches), bool) if lights is None
                            else colour_lost(small, whites, lights)))

    def _named(self, looks: _Looks, scored: Scored) -> list[tuple[str | None, float]]:
        """The answer for each card of `looks` by its shapes' scores (`scored`, its search's)
        and its colours: a close call looked at again finer, a card whose shape is named
        but not its colours read again in the light, without a glare, or as a black face."""
        patches, lights, small, pictures, whites = (looks.patches, looks.lights, looks.small,
                                                    looks.pictures, looks.whites)
        lifted, colour_d, hue_d, part_d = looks.lifted, looks.colour_d, looks.hue_d, looks.part_d
        floors, lost = looks.floors, looks.lost
        spread = looks.spread.tolist()  # (floats, as contrasts gives them: a float weighed
        # against a float32 floor is taken as a float32)
        per_shape = scored.scores
        close = np.flatnonzero(close_calls(per_shape)).tolist()
        fine_inks = (ink(balanced(patches[close], FINE_SIZE), FINE_SHADING_DEGREE) if close
                     else looks.inks[:0])
        fine = {i: self._fine_ratios(scored, i, fine_inks[k]) for k, i in enumerate(close)}
        answers = [(None, 0.0) if lost[i] else
                   self._decide(per_shape[i], colour_d[i], hue_d[i], spread[i], fine.get(i),
                                part_d[i], floors[i])
                   for i in range(len(patches))]
        # cards whose shape is named but not their colours (read again below): their shapes
        shaped = {i: self._shape(per_shape[i], fine.get(i)) for i, (code, _) in enumerate(answers)
                  if code is None and not lost[i] and spread[i] >= floors[i]}
        unsure = {i: shape for i, (shape, conf) in shaped.items() if 0.5 * conf >= self.threshold}
        # where the camera clipped the print in a channel with the white (unclipped_whites
        # kept the card's own white), the print's level there lies between the white's (its
        # colours as read: as bright as the white at most) and the clip over the white the
        # light makes (the least it is): the colours are read against that white too, and
        # the card named where it passes every test and both readings find one colour
        # nearest. Held-out tempus-framed tables 1000040-1000119: a warm lamp clipped the
        # white's red and a joker's yellow numeral's; against its own white the joker read
        # orange, 0.19 to 0.25 from its views and 0.31 to 0.35 from red's (unknown), against
        # the lamp's 0.03 to 0.11 and 0.37 to 0.47
        lit = lifted if lights is None or not unsure else light_whites(whites, lights)
        in_light = [i for i in unsure if (lit[i] != lifted[i]).any()]
        if in_light:
            for i, lit_d, lit_hue_d, lit_part_d in zip(
                    in_light, *self._colours_read(_against(small[in_light], lit[in_light])),
                    strict=True):
                answer = self._decide(per_shape[i], lit_d, lit_hue_d, spread[i], fine.get(i),
                                      lit_part_d, floors[i])
                if answer[0] == self._nearest_face(unsure[i], colour_d[i]):
                    answers[i] = answer
        # a card whose shape is named but not its colours may lie under a glare: its
        # colours are read again without it. Where the camera clipped its white in a channel,
        # what is left of a cast its white balance could not take off would read as a
        # colour, the grey taken off (a pale blue card under a bright warm lamp, yellow):
        # such a card is named only where the light on it is measured and its colours, read
        # again in that light's cast taken off (`out_of_cast`), name the same face. Tuning
        # tables 1000040-1000119 and 1000200-1000279: a lamp's glare washed red, yellow and
        # green cards of the UNO-like designs and a tempus-framed red 4 and 24 to white,
        # clipped in one to three channels, their hues too faint to read: named by the
        # colours under the glare, and none named another colour on those 160 tables
        clipped = np.asarray(white_clipped(whites).any(axis=1), bool)
        measured = (np.zeros(len(patches), bool) if lights is None
                    else np.asarray((lights >= MIN_LIGHT).all(axis=1), bool))
        again = [i for i in unsure if answers[i][0] is None and (measured[i] or not clipped[i])]
        if again:
            clear = white_balanced(without_glare(small[again], whites[again]),
                                   float(WHITE_PERCENTILE))[0]
            found = {i: self._decide(per_shape[i], clear_d, clear_hue_d, spread[i], fine.get(i),
                                     clear_part_d, floors[i])
                     for i, clear_d, clear_hue_d, clear_part_d in zip(
                         again, *self._colours_read(clear), strict=True)}
            cast = [k for k, i in enumerate(again) if clipped[i] and found[i][0] is not None]
            if cast and lights is not None:
                uncast = out_of_cast(clear[cast], lights[[again[k] for k in cast]])
                for k, cast_d, cast_hue_d, cast_part_d in zip(
                        cast, *self._colours_read(uncast), strict=True):
                    i = again[k]
                    other = self._decide(per_shape[i], cast_d, cast_hue_d, spread[i],
                                         fine.get(i), cast_part_d, floors[i])
                    if other[0] != found[i][0]:
                        found[i] = (None, min(found[i][1], other[1]))
            for i, answer in found.items():
                if answer[0] is not None:
                    answers[i] = answer
        # a face printed black (a blank, a line on it) is black as the light on the card
        # shows it, not as its own blurred white does: where that light shows the card
        # black (black_fields), its colours are its views' black. Held-out uno-dark tables
        # 1000040-1000119: five blanks at their true outlines unknown, 0.50 to 1.00 from
        # their one view read against their white
        dark = [i for i, shape in unsure.items()
                if answers[i][0] is None and shape in self.black_shapes]
        if lights is not None and dark:
            black = np.zeros((1, HUE_BINS + 1), np.float32)
            black[0, HUE_BINS] = 1.0
            black_d, black_hue_d = self._colour_distances(black)[0], self._hue_distances(black)[0]
            for i, is_black in zip(dark, black_fields(small[dark], pictures[dark], lights[dark]),
                                   strict=True):
                if is_black:
                    answers[i] = self._decide(per_shape[i], black_d, black_hue_d, spread[i],
                                              fine.get(i), floor=floors[i])
        return answers

    @cached_property
    def black_shapes(self) -> frozenset[int]:
        """The faces of their own (a shape in one colour) printed black: every view's
        histogram at least BLACK_VIEW black."""
        ends = list(self.colour_starts[1:]) + [len(self.colours)]
        black = {c for c, (start, end) in enumerate(zip(self.colour_starts, ends, strict=True))
                 if (self.colours[start:end, HUE_BINS] >= BLACK_VIEW).all()}
        return frozenset(shape for shape, colours in self.colours_of.items()
                         if len(colours) == 1 and colours[0] in black)

    def _nearest_face(self, shape: int, colour_d: Floats) -> str:
        """The face of this shape in the colour nearest the card's (`colour_d`, its
        distances from each colour): the face _decide weighs."""
        return self.faces[(shape, min(self.colours_of[shape], key=lambda c: float(colour_d[c])))]

    def _colours_read(self, pictures: Floats) -> tuple[Floats, Floats, Floats]:
        """How far the colours of `balanced` pictures lie from each colour's: the whole
        card's (_colour_distances), its hues' (_hue_distances) and its parts'
        (_part_distances)."""
        hist, parts = hues_and_parts(pictures)
        return (self._colour_distances(hist), self._hue_distances(hist),
                self._part_distances(parts))

    def _part_distances(self, parts: Floats) -> Floats:
        """How far each of each picture's PARTS (hues_and_parts') lies from the same part
        of each colour's nearest view, (n, parts, colours): a card lies either way up, so
        from that part or the one turned onto it, whichever is nearer (a framed joker's
        frame prints red along two sides, violet along the others). NaN for a part with
        too little colour to say (PART_SHOWN)."""
        out: Floats = part_distances(parts, self.part_colours, self.colour_starts)
        out[parts.sum(axis=2) < PART_SHOWN] = np.nan
        return out

    def _parts_against(self, part_d: Floats, shape: int, colour: int) -> bool:
        """Whether the card's parts (`part_d`, _colours_read's for one card) show two colours:
        in half of those that show colour at least, another colour of the shape lies nearer
        than `colour` by PART_MARGIN."""
        rivals = [c for c in self.colours_of[shape] if c != colour]
        if not rivals:
            return False
        shown = against = 0
        for part in part_d.tolist():  # (a few parts: numpy's calls cost more than the test)
            if part[0] != part[0]:  # NaN: the part shows too little colour to say
                continue
            shown += 1
            # the colour's distance less the margin in float32, as numpy's array less it
            against += bool(min(part[c] for c in rivals)
                            < np.float32(part[colour]) - _PART_MARGIN)
        return shown > 0 and 2 * against >= shown

    def _colour_distances(self, hist: Floats) -> Floats:
        """How far each histogram lies from each colour, (patches, colours): from the
        nearest of the colour's views. Its views were cut in the lights of the enrolment,
        a light each pass (or layout): a card seen in a light like one of them has that
        view's colours, not those of the mean of them all."""
        return self._nearest_views(hist, self.colours)

    def _hue_distances(self, hist: Floats) -> Floats:
        """How far each histogram's hues lie from each colour's, (patches, colours): its hue
        bins and those of the colour's nearest view, each side's hues taken as a whole (its
        share of black left out); 0 for a histogram with less than HUE_SHOWN in hues, whose
        few tinted pixels say little."""
        hue = hist[:, :HUE_BINS]
        shown = hue.sum(axis=1)
        out = self._nearest_views(hue / np.maximum(shown, 1e-6)[:, None], self.view_hues)
        out[shown < HUE_SHOWN] = 0.0
        return out

    @cached_property
    def view_hues(self) -> Floats:
        """The hue bins of each row of `colours`, its hues taken as a whole (its share of
        black left out, the rest summing to 1): what _hue_distances compares."""
        views = self.colours[:, :HUE_BINS]
        out: Floats = views / np.maximum(views.sum(axis=1, keepdims=True), 1e-6)
        return out

    def _nearest_views(self, hists: Floats, views: Floats) -> Floats:
        """How far each histogram lies from each colour (half the sum of the bins'
        differences), (patches, colours): from the nearest of the colour's views (`views`,
        a row for each of `self.colours`)."""
        out: Floats = view_distances(np.ascontiguousarray(hists, np.float32), views,
                                     self.colour_starts)
        return out

    def _fine_ratios(self, scored: Scored, picture: int, fine: Floats) -> tuple[float, float]:
        """The ratio test of the picture's two best shapes again at FINE_SIZE (a numeral's
        strokes that SIZE blurs: 8 against 0, 3 against 5), and the same focused on where
        those two shapes differ: (ratio, focused ratio). Each shape's FINE_TEMPLATES best
        templates at SIZE of one colour (_alike) are compared at FINE_SIZE where they
        matched best, a pixel either way; the focus weighs each pixel by how much the two
        best of them differ there, so the oval and the field they share weigh nothing and
        the strokes all."""
        (w, h), (mx, my) = FINE_SIZE, FINE_MARGIN
        tw, th = w - 2 * mx, h - 2 * my
        two = [int(shape) for shape in np.argsort(-scored.scores[picture])[:2]]
        chosen = self._alike(scored.best_templates(picture, two, FINE_CANDIDATES))
        found = [t for templates in chosen for t in templates]  # both shapes', compared at once
        places = [_around(2 * dy, 2 * dx) for _, dy, dx in found]
        templates = self.fine[[t for t, _, _ in found]]
        all_scores = _correlations(fine, places, templates)
        best: list[tuple[float, Floats, Floats]] = []
        start = 0
        for count in (len(chosen[0]), len(chosen[1])):
            scores = all_scores[start : start + count]
            k, shift = np.unravel_index(int(scores.argmax()), scores.shape)
            y, x = places[start + k][shift]
            best.append((float(scores[k, shift]),
                         templates[start + k].astype(np.float32).reshape(th, tw, 2),
                         fine[y : y + th, x : x + tw]))
            start += count
        (first, a, cut1), (second, b, cut2) = best
        apart = np.abs(a - b)  # summed over the two channels, as .sum(axis=2) does
        focus = np.asarray(cv2.GaussianBlur(apart[..., 0] + apart[..., 1], (0, 0), FOCUS_BLUR),
                           np.float32)
        focus /= float(focus.sum()) + 1e-9
        focused = [weighted_correlation(cut, t, focus)
                   for cut, t in ((cut1, a), (cut2, b))]
        return ((1.0 - first) / max(1.0 - second, 1e-6),
                (1.0 - focused[0]) / max(1.0 - focused[1], 1e-6))

    def _alike(self, candidates: list[list[tuple[int, int, int]]]
               ) -> list[list[tuple[int, int, int]]]:
        """Each shape's FINE_TEMPLATES best templates (best_templates' lists, FINE_CANDIDATES
        of each) among the views of one colour: that of the best shape's best view, where
        the other shape has views of it among its candidates (else each shape's best).
        Two views of one colour differ where their shapes do; of two colours, also where a
        frame or field prints in each colour. A violet 18 of held-out tempus-framed table
        1000032 against a violet 18 and a red 10, each shape's best view: focused ratio
        0.63, unknown; against the violet 18 and the violet 10: 0.48, named."""
        colour = self.template_colours[candidates[0][0][0]]
        alike = [[c for c in found if self.template_colours[c[0]] == colour]
                 for found in candidates]
        if not all(alike):
            alike = candidates
        return [found[:FINE_TEMPLATES] for found in alike]

    def _decide(self, shape_scores: Floats, colour_d: Floats, hue_d: Floats, spread: float,
                fine: tuple[float, float] | None = None, part_d: Floats | None = None,
                floor: float = MIN_CONTRAST) -> tuple[str | None, float]:
        """The face when one shape clearly wins (_shape) and, among the colours that shape
        comes in, one colour clearly wins, its hues are the card's (`hue_d`) and its parts
        (`part_d`, where given) do not show another (_parts_against), and its grey spreads
        at least `floor` (contrast_floors'); else None."""
        shape, shape_conf = self._shape(shape_scores, fine)
        ranked = sorted(self.colours_of[shape], key=lambda c: float(colour_d[c]))
        colour_lead = 2.0  # how clearly the best colour wins (1: just): here, no rival
        if len(ranked) > 1:
            nearest, next_d = float(colour_d[ranked[0]]), float(colour_d[ranked[1]])
            gap = (next_d - nearest) / COLOUR_MARGIN
            colour_lead = max(gap, min(2.0 * gap, COLOUR_RATIO * next_d / max(nearest, 1e-3)))
        own = len(ranked) == 1  # a face of its own (see _shape)
        far = OWN_COLOUR_FAR if own else COLOUR_FAR
        hue_fit = 2.0 if own else HUE_FAR / max(float(hue_d[ranked[0]]), 1e-3)
        conf = 0.5 * min(shape_conf, colour_lead,
                         far / max(float(colour_d[ranked[0]]), 1e-3), hue_fit, 2.0)
        if spread < floor or (conf >= self.threshold and part_d is not None
                                     and self._parts_against(part_d, shape, ranked[0])):
            conf = 0.0
        conf = min(max(conf, 0.0), 1.0)  # (np.clip's, without its cost on a scalar)
        code = self.faces[(shape, ranked[0])]
        return (code if conf >= self.threshold else None), round(conf, 3)

    def _shape(self, shape_scores: Floats, fine: tuple[float, float] | None = None
               ) -> tuple[int, float]:
        """The best shape and how clearly it wins (1: just, as _decide's confidence counts
        it): it is close (SHAPE_FLOOR) and clearly closer than the next (SHAPE_RATIO; at
        FINE_SIZE, when the two best were close at SIZE: `fine` holds that test's two
        ratios)."""
        order = np.argsort(-shape_scores)
        if fine is not None and min(fine) > 1.0:
            # the finer look finds the second shape the closer, in all and where the two
            # differ (a 5's strokes that SIZE blurs into an 8's): its test is then the
            # second shape's to pass, the two shapes' places swapped
            order[:2] = order[1::-1]
            fine = (1.0 / fine[0], 1.0 / fine[1])
        best = float(shape_scores[order[0]])
        second = float(shape_scores[order[1]]) if len(order) > 1 else -1.0
        ratio = (1.0 - best) / max(1.0 - second, 1e-6)
        strict = SHAPE_RATIO / max(ratio, 1e-6)
        if fine is not None:
            # the finer look names a card the coarse one could not, and overrules it where
            # it finds the second shape the closer one where the two differ
            whole, focused = max(fine[0], 1e-6), max(fine[1], 1e-6)
            loose = max(FINE_RATIO / whole, min(FINE_WIDE / whole, FOCUS_FIRM / focused))
            finer = min(loose, FOCUS_RATIO / focused)
            strict = finer if fine[1] > 1.0 or ratio > 1.0 else max(strict, finer)
        shape = int(order[0])
        shape_conf = min(strict, best / SHAPE_FLOOR)
        if len(self.colours_of[shape]) == 1:
            # a face of its own (a back, a wild) has no rival colour to beat: its own
            # colours must then be close (glare on a dark mat is a bright oval, a back's
            # shape), and vouch for a plain print the light changes more
            shape_conf = max(shape_conf, min(OWN_PLAIN_RATIO / max(ratio, 1e-6),
                                             best / OWN_PLAIN_FLOOR))
        return shape, shape_conf
