"""Each patch's best correlation with the shapes of an enrolled deck: the full comparison's
answer near where the patch's card lies, where the decision needs it, at a fraction of its
cost.

The full comparison correlates every window of a patch (one per shift within the margin)
with every template (every enrolled view, both ways up, at every scale): one matmul of
some 63 x 2080 by 2080 x 1000 a patch, tens of milliseconds a frame. But templates lie
close to a space of few dimensions (their principal components), and for unit vectors
w, t and an orthonormal basis B of such a space, by Cauchy-Schwarz,

    w.t = (B'w).(B't) + (w - BB'w).(t - BB't) <= (B'w).(B't) + |w - BB'w| |t - BB't|,

an upper bound on every correlation from a projection onto BASIS dimensions (the
residual lengths a column more of one matmul). The basis is taken among products of the
templates' main row and column profiles (PROFILES), so that the projections of all of
a patch's windows cost two small matmuls (the columns at every shift, then the rows),
not one of all their values. A deck's decision needs only the two best
shapes' scores (the best and the ratio test against the next): the templates taken best
bound first, every (window, template) pair whose bound could still raise the second best
score so far, or its own shape's, is compared in full (vision.search_kernels, one pair at
a time: a few hundred a picture), and no other. The two best scores are then the full
comparison's, and every other shape's score (a lower bound) is no higher than the
second: the same decision, provably. The same bounds give a shape's best few templates
(those the finer look compares again) at the cost of a handful of comparisons more
(Scored.best_templates).

The window where the card lies (AlignedSearch). A cut falls a millimetre or two off its
card, so the margin lets a window move 3 and 4 pixels each way; but the card lies in one
place in it, and its best shapes' best windows lie there too. So each picture is placed
first: its windows, and each shape's mean template both ways up, COARSE times smaller (20
windows by 34 to 56 guides: one small matmul), the best coarse window its coarse place;
then to the pixel (search_kernels.fine_places): of that coarse place and the windows a
pixel from it toward its better coarse neighbour each way, the one that correlates best
with the guides of the GUIDES shapes best there, at the search's own size. The search above
then compares that one window (REACH 0). A coarse place alone is not enough: a card cut
square lies 3 pixels from the margin's edge, between two coarse places (REACH 0 there named
40.5 % of tempus-framed's cards), and once nine windows around it were compared (REACH 1:
on the first 24 unseen tables, every card named as the whole margin names it). Placed to
the pixel, a card's place was its best shape's best template's best window of those nine on
96.9 to 99.4 % of the cards scoring 0.85 or more on tables 1000040-1000079 (five designs;
that window lay among the four refined on 99.2 to 100 %); a shape whose best window lies
elsewhere scores lower (a wrong shape's, which the ratio test then finds farther behind). A
view at another scale than the guides' may lie best a pixel off: a card the one window
leaves unknown though a shape could name it is searched again in the nine around its place
(WIDE_REACH, TemplateIdentifier._identify; real UNO photos, 15 of 640 numerals unknown
without it, none with it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from threadpoolctl import ThreadpoolController

from vision import search_kernels

Floats = NDArray[np.float32]

BASIS = 64  # principal components of the templates the bound projects onto
PROFILES = (20, 16)  # row and column profiles of the templates whose products hold them
HEADS = 128  # templates a picture takes first, highest bound first (a few dozen set its floor)
SLACK = 1e-4  # added to every bound: the float32 rounding of the bound's own arithmetic
RESIDUAL_SLACK = 1e-5  # added to a squared residual length before its square root
REACH = 0  # shifts each way from a picture's place whose windows are compared: placed to
# the pixel, one (at the coarse place, 9 were: 1, which then cost a third of the naming)
WIDE_REACH = 1  # the same, where one window leaves a card a shape could name unknown: its 9
# windows (each view at each scale compared at its own best of them), as every card's were
# searched before a place was refined (TemplateIdentifier._identify)
GUIDES = 2  # shapes best at a picture's coarse place whose guides (each way up) place it
# to the pixel: the best alone, or the best three guides, missed a turned card whose
# other way up won the coarse look a pixel off
COARSE = 2  # times smaller each way, the pictures and templates that place a picture


@cache
def _blas() -> _OneThread:
    """The BLAS the matmuls run on, whose threads a search (and learning one) keeps to
    one: its matmuls are too small for threads to pay, and on a busy machine (the Pi runs
    the camera and the page too) their waiting for each other cost ten times the work.
    Found once (finding the process's libraries takes about 0.4 ms, each search)."""
    return _OneThread(ThreadpoolController().select(user_api="blas").lib_controllers)


class _OneThread:
    """A context in which the BLAS libraries given run on one thread, each set back to its
    own count after: what ThreadpoolController.limit(limits=1) does, without its survey of
    every library's state on the way in (about 10 us a search, a fifth of a one-card
    search's own arithmetic). Contexts may nest."""

    def __init__(self, libraries: Sequence[Any]) -> None:
        self._libraries = list(libraries)
        self._kept: list[list[tuple[Any, int]]] = []

    def __enter__(self) -> None:
        kept = [(library, library.num_threads) for library in self._libraries]
        for library, threads in kept:
            if threads != 1:
                library.set_num_threads(1)
        self._kept.append(kept)

    def __exit__(self, *exc: object) -> None:
        for library, threads in self._kept.pop():
            if threads != 1:
                library.set_num_threads(threads)


def standardised(x: Floats) -> Floats:
    """Rows of two-channel ink pictures (channels last), each channel made zero-mean and of
    length 1/sqrt(2): their dot product is the mean of the channels' normalised
    correlations. (Each channel's values are put side by side first: numpy sums an axis
    of many values with two channels beside it several times slower.)"""
    planes = np.ascontiguousarray(x.reshape(len(x), -1, 2).transpose(0, 2, 1), np.float32)
    planes -= planes.mean(axis=2, keepdims=True)
    planes /= np.sqrt(2.0) * np.sqrt(np.einsum("ncp,ncp->nc", planes, planes))[..., None] + 1e-6
    out: Floats = np.ascontiguousarray(planes.transpose(0, 2, 1)).reshape(len(x), -1)
    return out


@dataclass(frozen=True, eq=False)
class ShapeSearch:
    """The best correlation of ink pictures with each shape, over its templates and every
    window of the picture the size of a template.

    Templates are kept sorted by shape (`starts`: where each shape's run begins); the
    row and column profiles are kept at every shift, so that one matmul each takes all
    the windows of a picture onto their products; `mixing` takes those onto the basis;
    `coords` holds each template's projection and residual length, a column each (the
    bound's matmul reads it row by row: a third to two thirds faster than through a
    transposed view, the bounds the same to float32 rounding, well within SLACK).
    """

    templates: Floats  # (templates, values): standardised (height, width, 2) rows
    shapes: NDArray[np.intp]  # the shape of each template, ascending
    starts: NDArray[np.intp]  # the first template of each shape
    size: tuple[int, int]  # (width, height) of the ink pictures searched
    margin: tuple[int, int]  # pixels a window may move each way from the middle
    column_basis: Floats  # (width, column shifts * columns): the column profiles, shifted
    row_basis: Floats  # (row shifts * rows, height): the row profiles, shifted
    mixing: Floats  # (2, rows * columns, basis): the basis from each channel's products
    coords: Floats  # (basis + 2, templates): projections, the residual length, SLACK
    window_index: NDArray[np.intp]  # (shifts, values): each window's place in a picture
    channel_sums: Floats  # (templates, 2): each template's channels summed (0 but rounding)

    @classmethod
    def build(cls, templates: Floats, shapes: NDArray[np.intp], n_shapes: int,
              size: tuple[int, int], margin: tuple[int, int]) -> ShapeSearch:
        """The search over these templates (standardised rows of (height - 2 margin,
        width - 2 margin, 2) ink pictures) of these shapes (every one of range(n_shapes)
        holding at least one), in pictures of `size`."""
        if sorted(set(shapes.tolist())) != list(range(n_shapes)):
            raise ValueError("every shape needs a template")
        order = np.argsort(shapes, kind="stable")
        templates, shapes = templates[order], shapes[order]
        (w, h), (mx, my) = size, margin
        tw, th = w - 2 * mx, h - 2 * my
        pictures = templates.reshape(len(templates), th, tw, 2).astype(np.float64)
        with _blas():
            rows, columns, mixing = _separable_basis(pictures)
        (p, q), k = rows.shape[1:] + columns.shape[1:], mixing.shape[1]
        row_basis = np.zeros((2 * my + 1, p, h))
        for dy in range(2 * my + 1):
            row_basis[dy, :, dy : dy + th] = rows.T
        column_basis = np.zeros((w, 2 * mx + 1, q))
        for dx in range(2 * mx + 1):
            column_basis[dx : dx + tw, dx] = columns
        projections = np.einsum("ya,tyxc,xb->tcab", rows, pictures, columns,
                                optimize=True).reshape(len(templates), -1) @ mixing
        lengths = (templates.astype(np.float64) ** 2).sum(axis=1)
        residual = np.sqrt(np.maximum(lengths - (projections ** 2).sum(axis=1), 0.0)
                           + RESIDUAL_SLACK)
        ys, xs, cs = np.meshgrid(np.arange(th), np.arange(tw), np.arange(2), indexing="ij")
        inside = ((ys * w + xs) * 2 + cs).ravel()
        window_index = np.array([inside + (dy * w + dx) * 2 for dy in range(2 * my + 1)
                                 for dx in range(2 * mx + 1)], np.intp)
        return cls(templates=np.ascontiguousarray(templates), shapes=shapes,
                   starts=np.searchsorted(shapes, np.arange(n_shapes)).astype(np.intp),
                   size=size, margin=margin,
                   column_basis=column_basis.reshape(w, -1).astype(np.float32),
                   row_basis=row_basis.reshape(-1, h).astype(np.float32),
                   mixing=mixing.reshape(2, p * q, k).astype(np.float32),
                   coords=np.ascontiguousarray(np.column_stack(
                       [projections, residual, np.full(len(residual), SLACK)]).T, np.float32),
                   window_index=window_index,
                   channel_sums=templates.reshape(len(templates), -1, 2).sum(axis=1))

    @property
    def n_shapes(self) -> int:
        return len(self.starts)

    @cached_property
    def ends(self) -> NDArray[np.intp]:
        """The template after each shape's last."""
        return np.append(self.starts[1:], len(self.shapes))

    def windows(self, inks: Floats) -> Floats:
        """Every window of each ink picture the size of a template, standardised:
        (pictures, shifts, values)."""
        flat = inks.reshape(len(inks), -1)
        out = standardised(flat[:, self.window_index].reshape(-1, self.window_index.shape[1]))
        return out.reshape(len(inks), len(self.window_index), -1)

    def full_scored(self, inks: Floats) -> Scored:
        """scored() with every pair compared: each picture's best correlation with each
        shape, and every correlation (a hair above, for rounding) as its bound."""
        windows = self.windows(inks)
        n, shifts, values = windows.shape
        with _blas():
            products = (windows.reshape(n * shifts, values) @ self.templates.T
                        ).reshape(n, shifts, -1)
            scales = self._bounds(inks)[1]
        scores: Floats = np.maximum.reduceat(products.max(axis=1), self.starts, axis=1)
        return Scored(self, scores, products + SLACK, scales, self._rows(inks))

    def scored(self, inks: Floats, settle: float = 0.0, least: float = -np.inf) -> Scored:
        """Each picture's two best shapes with their full score (full_scored()'s), every
        other shape a score no higher than the second's (the best it reached among the
        pairs compared, or -1); and what the search compared them with. Where a decision
        looks no further, fewer comparisons (search_kernels.best_scores):
        - with `settle` (a ratio of distances, 1 minus a score, 0 < settle < 1), the
          second best score is the full one only where the best one's distance over it
          would lie above `settle`; elsewhere it is no higher than the full one, and that
          ratio is under `settle` either way;
        - with `least`, a picture whose best score lies below it has every score no
          higher than the full one (its best too), and below `least`."""
        with _blas():
            return self._scored(inks, settle, least)

    def _scored(self, inks: Floats, settle: float = 0.0, least: float = -np.inf) -> Scored:
        """scored(), its matmuls in this thread."""
        bounds, scales = self._bounds(inks)
        (w, h), (mx, my) = self.size, self.margin
        pictures = self._rows(inks)
        out: Floats = search_kernels.best_scores(
            pictures, scales, bounds, self.templates, self.channel_sums, self.shapes,
            self.n_shapes, HEADS, w - 2 * mx, h - 2 * my, 2 * mx + 1, settle, least)
        return Scored(self, out, bounds, scales, pictures)

    def _rows(self, inks: Floats) -> Floats:
        """Ink pictures as the compiled comparisons read them: (pictures, height, width *
        2), each row's channels side by side."""
        w, h = self.size
        out: Floats = np.ascontiguousarray(inks, np.float32).reshape(len(inks), h, 2 * w)
        return out

    def bounds(self, inks: Floats) -> Floats:
        """An upper bound on the correlation of every window of each picture with every
        template: (pictures, shifts, templates)."""
        with _blas():
            return self._bounds(inks)[0]

    def _bounds(self, inks: Floats) -> tuple[Floats, Floats]:
        """bounds(), and what standardises each window of each picture: each channel's
        scale, then its scaled mean negated, (pictures, shifts, 4)."""
        n = len(inks)
        (w, h), (mx, my) = self.size, self.margin
        th, tw = h - 2 * my, w - 2 * mx
        ny, nx = 2 * my + 1, 2 * mx + 1
        k = self.coords.shape[0] - 2
        planar = np.ascontiguousarray(inks.transpose(3, 0, 1, 2), np.float32)  # (2, n, h, w)
        sums, norms = _window_sums(planar, (tw, th), (nx, ny))
        scale = 1.0 / (np.sqrt(2.0) * norms + 1e-6)  # (2, n, shifts)
        # each window's products of row and column profiles: columns first, every shift
        # of them at once, then rows (the basis pictures sum to 0 in each channel: a
        # window's mean adds nothing)
        q = self.column_basis.shape[1] // nx
        p = self.row_basis.shape[0] // ny
        across = (planar.reshape(2 * n * h, w) @ self.column_basis).reshape(2 * n, h, -1)
        down = self.row_basis @ np.ascontiguousarray(across.transpose(1, 0, 2)).reshape(h, -1)
        products = np.ascontiguousarray(
            down.reshape(ny, p, 2, n, nx, q).transpose(2, 3, 0, 4, 1, 5)
        ).reshape(2, n * ny * nx, p * q)
        left = np.empty((n, ny * nx, k + 2), np.float32)  # projection, residual, 1
        projected = left[..., :k]
        np.multiply((products[0] @ self.mixing[0]).reshape(n, ny * nx, k),
                    scale[0][..., None], out=projected, casting="unsafe")
        projected += (products[1] @ self.mixing[1]).reshape(n, ny * nx, k) * scale[1][..., None]
        length = (norms ** 2 * scale ** 2).sum(axis=0)
        left[..., k] = np.sqrt(np.maximum(
            length - (projected.astype(np.float64) ** 2).sum(axis=2), 0.0) + RESIDUAL_SLACK)
        left[..., k + 1] = 1.0
        out: Floats = (left.reshape(n * ny * nx, k + 2) @ self.coords).reshape(n, ny * nx, -1)
        means = sums / (tw * th)
        return out, np.ascontiguousarray(np.concatenate([scale, -scale * means]).transpose(1, 2, 0),
                                         np.float32)


@dataclass(frozen=True, eq=False)
class Scored:
    """What a search found in some pictures: each shape's score, and the bounds and
    pictures it was found with, from which a shape's best templates follow at the cost of
    a few comparisons more."""

    search: ShapeSearch
    scores: Floats  # (pictures, shapes): see ShapeSearch.scored
    bounds: Floats  # (pictures, shifts, templates): above every correlation
    scales: Floats  # (pictures, shifts, 4): what standardises each window (_bounds)
    pictures: Floats  # (pictures, height, width * 2): the ink pictures (ShapeSearch._rows)
    origins: NDArray[np.intp] | None = None  # (pictures, 2): where each picture searched
    # lies in the whole one (AlignedSearch), (row, column); None: at (0, 0)

    def best_templates(self, picture: int, shapes: Sequence[int], count: int
                       ) -> list[list[tuple[int, int, int]]]:
        """For each of these shapes, the `count` templates that correlate best with some
        window of this picture, best first, and where: (template, shift row, shift
        column). The `count` best-bounded templates, each compared where its bound is
        highest, give a floor that the count-th best reaches; the templates whose bound
        rises above it are compared wherever it does, and no other could be among the
        best."""
        search = self.search
        (w, h), (mx, my) = search.size, search.margin
        out = []
        for shape in shapes:
            found = search_kernels.best_templates(
                self.pictures[picture], self.scales[picture], self.bounds[picture],
                search.templates, search.channel_sums, int(search.starts[shape]),
                int(search.ends[shape]), count, w - 2 * mx, h - 2 * my, 2 * mx + 1)
            top, left = (0, 0) if self.origins is None else self.origins[picture]
            out.append([(int(t), int(s) // (2 * mx + 1) + int(top),
                         int(s) % (2 * mx + 1) + int(left)) for t, s in found])
        return out


@dataclass(frozen=True, eq=False)
class AlignedSearch:
    """A ShapeSearch over the windows at each picture's place, not its whole margin: the
    picture is placed first by a coarse look refined to the pixel (`places`), then only
    its windows within REACH shifts of that place are searched (`near`, on the picture cut
    to them)."""

    near: ShapeSearch  # over pictures cut to the windows within REACH of a place
    wide: ShapeSearch  # the same within WIDE_REACH (scored(wide=True))
    guides: Floats  # (guides, coarse values): each shape's mean template each way up,
    # COARSE times smaller, each channel standardised and the channels apart
    size: tuple[int, int]  # (width, height) of the whole ink pictures
    margin: tuple[int, int]  # pixels a window may move each way from the middle
    coarse_window: tuple[int, int]  # (width, height) of a guide, COARSE times smaller
    fine_guides: Floats  # (guides, height, width * 2): the guides at the search's own size,
    # each channel standardised, rows of interleaved channels (what refines a place)

    @property
    def turns(self) -> int:
        """Guides a shape has (each way up), side by side."""
        return len(self.guides) // self.near.n_shapes

    @classmethod
    def build(cls, templates: Floats, shapes: NDArray[np.intp], n_shapes: int,
              size: tuple[int, int], margin: tuple[int, int], guides: Floats) -> AlignedSearch:
        """The search over these templates (as ShapeSearch.build takes them), placing a
        picture by these guides (standardised rows of templates' size: a shape's look
        without the details that tell its views apart)."""
        (w, h), (mx, my) = size, margin
        tw, th = w - 2 * mx, h - 2 * my
        near, wide = (ShapeSearch.build(templates, shapes, n_shapes,
                                        (tw + 2 * min(reach, mx), th + 2 * min(reach, my)),
                                        (min(reach, mx), min(reach, my)))
                      for reach in (REACH, WIDE_REACH))
        ctw, cth = tw // COARSE, th // COARSE
        coarse: Floats = np.stack([cv2.resize(np.ascontiguousarray(guide.reshape(th, tw, 2)),
                                              (ctw, cth), interpolation=cv2.INTER_AREA)
                                   for guide in guides]).astype(np.float32)
        planar = standardised(coarse.reshape(len(coarse), -1)).reshape(coarse.shape)
        return cls(near=near, wide=wide,
                   guides=np.ascontiguousarray(planar.transpose(0, 3, 1, 2)).reshape(
                       len(coarse), -1),
                   size=size, margin=margin, coarse_window=(ctw, cth),
                   fine_guides=standardised(guides).reshape(len(guides), th, 2 * tw))

    def scored(self, inks: Floats, settle: float = 0.0, least: float = -np.inf,
               wide: bool = False) -> Scored:
        """ShapeSearch.scored over the windows near each picture's place (`wide`: within
        WIDE_REACH of it), their shifts those of the whole picture."""
        search = self.wide if wide else self.near
        with _blas():
            origins = self.places(inks, search)
            return dataclasses.replace(
                search._scored(self.cut_near(inks, origins, search), settle, least),
                origins=origins)

    def full_scored(self, inks: Floats, wide: bool = False) -> Scored:
        """scored() with every pair near each picture's place compared (every score full)."""
        search = self.wide if wide else self.near
        with _blas():
            origins = self.places(inks, search)
        return dataclasses.replace(search.full_scored(self.cut_near(inks, origins, search)),
                                   origins=origins)

    def places(self, inks: Floats, search: ShapeSearch | None = None) -> NDArray[np.intp]:
        """Where each picture's windows near its place begin, (pictures, 2) of (row,
        column): those within REACH of its place (`search`'s margin: `near`'s unless
        given; as near a whole picture's edge as they fit), its coarse window that
        correlates best with a guide refined to the pixel (search_kernels.fine_places).
        The guides sum to 0 in each channel: a coarse window's mean adds nothing, only
        each channel's length is taken out."""
        n = len(inks)
        if not n:
            return np.zeros((0, 2), np.intp)
        (w, h), (mx, my) = self.size, self.margin
        rx, ry = (search or self.near).margin
        planar = np.ascontiguousarray(inks.transpose(0, 3, 1, 2), np.float32)
        small = np.asarray(cv2.resize(planar.reshape(n * 2 * h, w),
                                      (w // COARSE, n * 2 * (h // COARSE)),
                                      interpolation=cv2.INTER_AREA), np.float32)
        # (a plane is a whole number of coarse rows high: no coarse row mixes two)
        (cw, ch), (ctw, cth) = (w // COARSE, h // COARSE), self.coarse_window
        windows = search_kernels.coarse_windows(small, n, ch, cw, cth, ctw)
        matches = (windows @ self.guides.T).reshape(n, ch - cth + 1, cw - ctw + 1,
                                                   len(self.guides))
        fine = search_kernels.fine_places(
            np.ascontiguousarray(inks, np.float32).reshape(n, h, 2 * w), matches,
            self.fine_guides, self.turns, GUIDES, COARSE, 2 * my, 2 * mx)
        out = np.empty((n, 2), np.intp)  # (np.clip's values, without its cost)
        out[:, 0] = np.minimum(np.maximum(fine[:, 0] - ry, 0), 2 * (my - ry))
        out[:, 1] = np.minimum(np.maximum(fine[:, 1] - rx, 0), 2 * (mx - rx))
        return out

    def cut_near(self, inks: Floats, origins: NDArray[np.intp],
                 search: ShapeSearch | None = None) -> Floats:
        """Each picture cut to its windows near its place (`origins`, places()), as
        `search` (`near`'s unless given) takes them."""
        w, h = (search or self.near).size
        if not len(inks):
            return inks[:, :h, :w]
        out: Floats = np.stack([picture[y : y + h, x : x + w]
                                for picture, (y, x) in zip(inks, origins, strict=True)])
        return out


def _separable_basis(pictures: NDArray[np.float64]
                     ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """A basis close to the templates' first BASIS principal directions, among products
    of their first PROFILES row and column profiles (so that every window's projection
    costs two small matmuls, not one of its every value): the row profiles (height,
    rows), the column profiles (width, columns), and the orthonormal basis in those
    products' coordinates ((channel, row, column), basis), orthogonal to a constant
    picture in each channel (so a window's mean adds nothing)."""
    _, h, w, _ = pictures.shape
    p, q = min(PROFILES[0], h), min(PROFILES[1], w)
    down = pictures.transpose(1, 0, 2, 3).reshape(h, -1)  # each row's values, all pictures
    across = pictures.transpose(2, 0, 1, 3).reshape(w, -1)  # and each column's
    rows = np.linalg.eigh(down @ down.T)[1][:, ::-1][:, :p]
    columns = np.linalg.eigh(across @ across.T)[1][:, ::-1][:, :q]
    coords = np.einsum("ya,tyxc,xb->tcab", rows, pictures, columns, optimize=True
                       ).reshape(len(pictures), -1)
    flat = np.outer(rows.sum(axis=0), columns.sum(axis=0)).ravel()
    constants = np.zeros((2, 2 * p * q))
    constants[0, : p * q], constants[1, p * q :] = flat, flat
    constants /= np.linalg.norm(constants, axis=1, keepdims=True) + 1e-12
    coords -= (coords @ constants.T) @ constants
    values, vectors = np.linalg.eigh(coords.T @ coords)
    rank = int((values > 1e-9 * max(float(values.max()), 1e-12)).sum())
    mixing = vectors[:, ::-1][:, : min(BASIS, rank)]
    return rows, columns, mixing


def _window_sums(planar: Floats, window: tuple[int, int], shifts: tuple[int, int]
                 ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The sum and the centred length of every window of each channel of each picture,
    (channels, pictures, shifts) each, shifts in rows of columns, from one integral image
    (in float64) of all the pictures stacked: no window crosses from one to the next."""
    (tw, th), (nx, ny) = window, shifts
    c, n, h, w = planar.shape
    if (nx, ny) == (1, 1) and (tw, th) == (w, h):  # one window, the whole picture (REACH 0)
        sums, squares = search_kernels.whole_sums(planar)
        return sums, np.sqrt(np.maximum(squares - sums ** 2 / (tw * th), 0.0))
    total, squared = (np.asarray(image, np.float64) for image in cv2.integral2(
        planar.reshape(c * n * h, w), sdepth=cv2.CV_64F, sqdepth=cv2.CV_64F))

    def box(values: NDArray[np.float64]) -> NDArray[np.float64]:
        # each picture's rows of the integral image from its first (a window's top) and
        # from its second (a window's bottom, th - 1 further down: the last picture's
        # reaches the image's extra last row), sliced, not gathered
        above = values[:-1].reshape(c * n, h, w + 1)[:, :ny]
        below = values[1:].reshape(c * n, h, w + 1)[:, th - 1 : th - 1 + ny]
        out: NDArray[np.float64] = (below[:, :, tw : tw + nx] - above[:, :, tw : tw + nx]
                                    - below[:, :, :nx] + above[:, :, :nx])
        return out.reshape(c, n, ny * nx)

    sums = box(total)
    return sums, np.sqrt(np.maximum(box(squared) - sums ** 2 / (tw * th), 0.0))
