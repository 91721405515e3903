"""Photo-like renders of the card table, for test fixtures and the vision benchmark.

A real camera sees the printed mat through a tilted lens, under a lamp, with cards
that cast shadows, hands that reach in and objects that lie about. Recording enough
such photos by hand is slow, so this module renders them, with the ground truth
(where every card's corners land in the image) that a photo cannot give.

Geometry: world coordinates are mat millimetres (x right, y down, as printed) and z
points into the table, so anything above the mat has a negative z. The camera is a
pinhole looking at the mat centre; lens distortion is not modelled.

Everything random comes from the `numpy.random.Generator` passed in, so a seed fixes
the picture; there is no clock or file access here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.mat import MatSpec

Image = NDArray[np.uint8]
F32 = NDArray[np.float32]
F64 = NDArray[np.float64]
BGR = tuple[float, float, float]

ClutterKind = Literal["phone", "coin", "mug", "pen", "notebook"]
CLUTTER_KINDS: tuple[ClutterKind, ...] = ("phone", "coin", "mug", "pen", "notebook")

_SKIN_TONES: tuple[BGR, ...] = (
    (165, 185, 230),
    (130, 160, 215),
    (100, 140, 190),
    (80, 115, 160),
    (55, 80, 120),
)
_WOODS: tuple[BGR, ...] = ((110, 160, 200), (70, 110, 160), (45, 70, 105), (90, 120, 140))


@dataclass(frozen=True)
class CardPlacement:
    """A card face (or back) lying on the mat; later placements lie on top of earlier ones.

    `angle_deg` turns the card clockwise as seen on the printed mat; `lift_mm` holds it
    above the mat (a card being put down), which moves it towards the camera and
    spreads its shadow. `label` is free ground truth for the caller (e.g. the card code).
    The image's corners are cut round (`corner_radius_mm`) like a real card's.
    """

    image: Image
    center_mm: tuple[float, float]
    angle_deg: float
    lift_mm: float = 0.0
    size_mm: tuple[float, float] = (63.0, 88.0)
    label: str = ""
    corner_radius_mm: float = 3.0

    def corners_mm(self) -> F64:
        """The card's corners in mat mm (z included): image TL, TR, BR, BL."""
        w, h = self.size_mm
        local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
        xy = local @ _rot2(self.angle_deg).T + np.array(self.center_mm)
        return np.column_stack([xy, np.full(4, -self.lift_mm)])


@dataclass(frozen=True)
class CameraPose:
    """A pinhole camera aimed at the mat centre (plus `offset_mm`).

    `tilt_deg` is the angle between the optical axis and the table normal, `yaw_deg` the
    side of the table the camera leans from, `roll_deg` a turn of the image about the
    optical axis. The distance follows from `fill`: the mat's farthest corner from the
    image centre lies at `fill` of the half-width or half-height, so the whole mat is
    in view with a margin of (1 - fill) / 2 of the frame on its tightest side.
    """

    resolution: tuple[int, int] = (1280, 720)
    tilt_deg: float = 0.0
    yaw_deg: float = 0.0
    roll_deg: float = 0.0
    fov_deg: float = 62.0
    fill: float = 0.8
    offset_mm: tuple[float, float] = (0.0, 0.0)

    @classmethod
    def random(
        cls, rng: np.random.Generator, resolution: tuple[int, int] = (1280, 720)
    ) -> CameraPose:
        """A plausible camera on a stand: up to 20 degrees of tilt from any side, the
        mat's long side roughly along the frame's (either way up), 60-85 % fill."""
        yaw = float(rng.uniform(-180.0, 180.0))
        upright = 0.0 if rng.random() < 0.7 else 180.0
        return cls(
            resolution=resolution,
            tilt_deg=float(rng.uniform(0.0, 20.0)),
            yaw_deg=yaw,
            roll_deg=upright + float(rng.uniform(-10.0, 10.0)) - yaw,
            fov_deg=float(rng.uniform(55.0, 70.0)),
            fill=float(rng.uniform(0.6, 0.85)),
            offset_mm=(float(rng.uniform(-15, 15)), float(rng.uniform(-15, 15))),
        )

    def intrinsics(self) -> F64:
        w, h = self.resolution
        f = (w / 2) / math.tan(math.radians(self.fov_deg) / 2)
        return np.array([[f, 0.0, (w - 1) / 2], [0.0, f, (h - 1) / 2], [0.0, 0.0, 1.0]])

    def rotation(self) -> F64:
        """World-to-camera rotation; the identity looks straight down with the mat upright."""
        return _rot_z(self.roll_deg) @ _rot_x(self.tilt_deg) @ _rot_z(self.yaw_deg)

    def extrinsics(self, spec: MatSpec) -> tuple[F64, F64, F64]:
        """(K, R, t) with x_image ~ K (R X + t), the distance solved for `fill`."""
        k, r = self.intrinsics(), self.rotation()
        cx, cy = spec.center_mm
        target = np.array([cx + self.offset_mm[0], cy + self.offset_mm[1], 0.0])
        axis = r.T @ np.array([0.0, 0.0, 1.0])
        corners = np.array(
            [[0, 0, 0], [spec.width_mm, 0, 0], [spec.width_mm, spec.height_mm, 0],
             [0, spec.height_mm, 0]], dtype=np.float64,
        )
        w, h = self.resolution
        distance = 1000.0
        for _ in range(6):  # extent scales roughly as 1/distance, so this converges fast
            t = -r @ (target - distance * axis)
            uv = _project(k, r, t, corners)
            extent = max(
                float(np.max(np.abs(uv[:, 0] - k[0, 2]))) / (w / 2),
                float(np.max(np.abs(uv[:, 1] - k[1, 2]))) / (h / 2),
            )
            distance *= extent / self.fill
        return k, r, -r @ (target - distance * axis)

    def homography(self, spec: MatSpec, z_mm: float = 0.0) -> F64:
        """Mat mm (x, y) at height z -> image pixels."""
        k, r, t = self.extrinsics(spec)
        return k @ np.column_stack([r[:, 0], r[:, 1], r[:, 2] * z_mm + t])


@dataclass(frozen=True)
class Glare:
    """A specular highlight: centre and Gaussian radius as fractions of the frame width/
    height and width, strength as how far towards white it bleaches the centre."""

    center: tuple[float, float]
    radius: float
    strength: float


@dataclass(frozen=True)
class Lighting:
    """Room light: overall brightness, a fall-off (linear across the frame or radial from
    a lamp), a colour cast as per-channel BGR gains, an optional glare spot, and the
    direction, length (per mm of height) and darkness of the shadows objects cast."""

    brightness: float = 1.0
    gains_bgr: BGR = (1.0, 1.0, 1.0)
    gradient: float = 0.0
    gradient_kind: Literal["linear", "radial"] = "linear"
    gradient_angle_deg: float = 0.0
    gradient_center: tuple[float, float] = (0.5, 0.5)
    glare: Glare | None = None
    shadow_angle_deg: float = 45.0
    shadow_length: float = 0.6
    shadow_strength: float = 0.35

    @classmethod
    def warm_lamp(cls) -> Lighting:
        """An incandescent lamp over the table: orange, bright in the middle."""
        return cls(
            brightness=0.95, gains_bgr=(0.75, 0.95, 1.2), gradient=0.35,
            gradient_kind="radial", gradient_center=(0.5, 0.45),
            shadow_angle_deg=60.0, shadow_length=0.4, shadow_strength=0.45,
        )

    @classmethod
    def daylight(cls) -> Lighting:
        """Window light from one side: slightly blue, falling off across the table."""
        return cls(
            brightness=1.05, gains_bgr=(1.1, 1.0, 0.92), gradient=0.25,
            gradient_kind="linear", gradient_angle_deg=20.0,
            shadow_angle_deg=20.0, shadow_length=0.9, shadow_strength=0.25,
        )

    @classmethod
    def dim(cls) -> Lighting:
        """An evening room: dark and a little warm; pair it with more sensor noise."""
        return cls(
            brightness=0.45, gains_bgr=(0.9, 0.97, 1.05), gradient=0.25,
            gradient_kind="radial", gradient_center=(0.4, 0.5),
            shadow_angle_deg=120.0, shadow_length=0.7, shadow_strength=0.3,
        )

    @classmethod
    def random(cls, rng: np.random.Generator) -> Lighting:
        """A preset or neutral light, jittered, with glare on about a third of frames."""
        base = [cls(), cls.warm_lamp(), cls.daylight(), cls.dim()][int(rng.integers(0, 4))]
        jitter = rng.uniform(0.93, 1.07, size=3)
        glare = None
        if rng.random() < 0.35:
            glare = Glare(
                center=(float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.2, 0.8))),
                radius=float(rng.uniform(0.03, 0.1)),
                strength=float(rng.uniform(0.3, 0.8)),
            )
        return cls(
            brightness=base.brightness * float(rng.uniform(0.85, 1.15)),
            gains_bgr=(
                base.gains_bgr[0] * float(jitter[0]),
                base.gains_bgr[1] * float(jitter[1]),
                base.gains_bgr[2] * float(jitter[2]),
            ),
            gradient=float(rng.uniform(0.0, 0.4)),
            gradient_kind="linear" if rng.random() < 0.5 else "radial",
            gradient_angle_deg=float(rng.uniform(0, 360)),
            gradient_center=(float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.2, 0.8))),
            glare=glare,
            shadow_angle_deg=float(rng.uniform(0, 360)),
            shadow_length=float(rng.uniform(0.2, 1.0)),
            shadow_strength=float(rng.uniform(0.15, 0.5)),
        )


@dataclass(frozen=True)
class HandPose:
    """A player's arm reaching over the mat: the palm centre at `reach_mm`, the fingers
    pointing along `angle_deg` (mat frame, clockwise from +x), `height_mm` above the mat."""

    reach_mm: tuple[float, float]
    angle_deg: float
    height_mm: float = 80.0
    skin_bgr: BGR = (130, 160, 215)
    sleeve_bgr: BGR | None = (90, 70, 60)
    scale: float = 1.0
    spread: float = 0.5
    right: bool = True
    #: where the sleeve starts, in mm behind the palm centre (about 45: at the wrist)
    sleeve_from_mm: float = 220.0

    @classmethod
    def random(cls, rng: np.random.Generator, spec: MatSpec) -> HandPose:
        """A hand from a random side of the table, palm somewhere over the mat."""
        reach = (
            float(rng.uniform(0.15, 0.85) * spec.width_mm),
            float(rng.uniform(0.15, 0.85) * spec.height_mm),
        )
        inward = [0.0, 90.0, 180.0, -90.0][int(rng.integers(0, 4))]  # from left/top/right/bottom
        sleeve: BGR | None = None
        if rng.random() < 0.7:
            c = rng.uniform(20, 200, size=3)
            sleeve = (float(c[0]), float(c[1]), float(c[2]))
        return cls(
            reach_mm=reach,
            angle_deg=inward + float(rng.uniform(-30, 30)),
            height_mm=float(rng.uniform(30, 160)),
            skin_bgr=_SKIN_TONES[int(rng.integers(0, len(_SKIN_TONES)))],
            sleeve_bgr=sleeve,
            scale=float(rng.uniform(0.85, 1.1)),
            spread=float(rng.uniform(0.0, 1.0)),
            right=bool(rng.random() < 0.5),
        )


@dataclass(frozen=True)
class Clutter:
    """A non-card object on the table, seen from above: a phone, a coin, a mug, a pen or
    a pale notebook (A5 or A6: card-like but not card-sized, for false-accept tests)."""

    kind: ClutterKind
    center_mm: tuple[float, float]
    angle_deg: float = 0.0
    colour_bgr: BGR | None = None
    variant: int = 0

    @classmethod
    def random(
        cls, rng: np.random.Generator, spec: MatSpec, kind: ClutterKind | None = None
    ) -> Clutter:
        """An object beside the mat or over its edge, clear of the corner tags."""
        if kind is None:
            kind = CLUTTER_KINDS[int(rng.integers(0, len(CLUTTER_KINDS)))]
        radius = _CLUTTER_RADIUS_MM[kind]
        edge = int(rng.integers(0, 4))
        along = float(rng.uniform(0.25, 0.75))
        outward = radius + float(rng.uniform(-60.0, 40.0))
        center = (0.0, 0.0)
        for _ in range(20):
            center = _edge_point(spec, edge, along, outward)
            if all(
                math.dist(center, tag.center_mm) > radius + tag.size_mm * 0.75 + 5
                for tag in spec.tags
            ):
                break
            outward += 15.0
        c = rng.uniform(30, 220, size=3)
        return cls(
            kind=kind,
            center_mm=center,
            angle_deg=float(rng.uniform(0, 360)),
            colour_bgr=(float(c[0]), float(c[1]), float(c[2])),
            variant=int(rng.integers(0, 4)),
        )


_CLUTTER_RADIUS_MM: dict[ClutterKind, float] = {
    "phone": 83.0, "coin": 12.0, "mug": 72.0, "pen": 70.0, "notebook": 129.0,
}


@dataclass(frozen=True)
class Scene:
    """What lies on the table: the printed mat (as an image at `mat_px_per_mm`), the cards
    in stacking order, an optional hand and some clutter."""

    mat_image: Image
    mat_spec: MatSpec
    mat_px_per_mm: float
    cards: list[CardPlacement] = field(default_factory=list)
    hand: HandPose | None = None
    clutter: list[Clutter] = field(default_factory=list)


@dataclass(frozen=True)
class RenderResult:
    """A rendered frame and its ground truth.

    `card_corners_px[i]` are placement i's corners (card image TL, TR, BR, BL) in image
    pixels; `visible_fraction[i]` is how much of it the camera sees (not covered by later
    cards, clutter or the hand, and inside the frame); `jpeg_bytes` is the encoded size.
    """

    image: Image
    card_corners_px: list[F64]
    visible_fraction: list[float]
    homography_mat_to_image: F64
    jpeg_bytes: int


def card_corners_px(scene: Scene, camera: CameraPose, placement: CardPlacement) -> F64:
    """Where the placement's corners (TL, TR, BR, BL of its image) land in the frame."""
    k, r, t = camera.extrinsics(scene.mat_spec)
    return _project(k, r, t, placement.corners_mm())


def render(
    scene: Scene,
    camera: CameraPose,
    lighting: Lighting,
    rng: np.random.Generator,
    blur_sigma: float = 0.7,
    noise_sigma: float = 2.0,
    jpeg_quality: int | None = 90,
    tablecloth_bgr: BGR | None = None,
) -> RenderResult:
    """Render one camera frame (BGR uint8 at the camera resolution) with its ground truth.

    The mat and the cards are drawn in mat space at about the camera's own sampling rate,
    warped into the frame over a wooden table, then clutter and the hand are drawn in
    the frame (they stick out of the mat plane), and last the optics and sensor: light
    fall-off and colour cast, glare, lens blur (sigma in pixels), noise (sigma in grey
    levels) and a JPEG round trip (None skips it). With `tablecloth_bgr` the table under
    the mat is a plain cloth of that colour instead of wood.
    """
    spec = scene.mat_spec
    k, r, t = camera.extrinsics(spec)
    h_mat = k @ np.column_stack([r[:, 0], r[:, 1], t])
    w_img, h_img = camera.resolution

    ppm = min(scene.mat_px_per_mm, 1.1 * _max_scale(h_mat, spec))
    canvas_size = (max(1, round(spec.width_mm * ppm)), max(1, round(spec.height_mm * ppm)))
    canvas = _shrink(scene.mat_image, canvas_size)
    to_canvas = np.array(
        [[canvas_size[0] / spec.width_mm, 0, -0.5], [0, canvas_size[1] / spec.height_mm, -0.5],
         [0, 0, 1]]
    )
    mat_from_image = np.linalg.inv(h_mat)
    shadow_dir = _unit(lighting.shadow_angle_deg)
    corners_px = [_project(k, r, t, c.corners_mm()) for c in scene.cards]
    for card, px in zip(scene.cards, corners_px, strict=True):
        on_canvas = _apply(to_canvas @ mat_from_image, px)
        footprint = card.corners_mm()[:, :2]
        offset = shadow_dir * lighting.shadow_length * (0.8 + card.lift_mm)
        shadow = _apply(to_canvas, footprint + offset)
        _paint_shadow(canvas, [shadow], (0.6 + 0.3 * card.lift_mm) * ppm,
                      lighting.shadow_strength)
        _paste_card(canvas, card, on_canvas, rng)

    if tablecloth_bgr is None:
        image = _wood(rng, w_img, h_img)
    else:
        image = np.empty((h_img, w_img, 3), np.uint8)
        image[:] = np.array(tablecloth_bgr, np.float64).round().astype(np.uint8)
    cv2.warpPerspective(
        canvas, h_mat @ np.linalg.inv(to_canvas), (w_img, h_img), dst=image,
        flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT,
    )

    px_per_mm = _max_scale(h_mat, spec)
    occluders: list[list[F64]] = []
    for item in scene.clutter:
        solids = _clutter_solids(item)
        _draw_solids(image, solids, k, r, t, lighting, px_per_mm)
        occluders.append([_project(k, r, t, s.outline) for s in solids])
    if scene.hand is not None:
        solids = _hand_solids(scene.hand)
        _draw_solids(image, solids, k, r, t, lighting, px_per_mm)
        occluders.append([_project(k, r, t, s.outline) for s in solids])

    if blur_sigma > 0:  # before the light: both are smooth, and blurring bytes is cheaper
        image = np.asarray(cv2.GaussianBlur(image, (0, 0), blur_sigma), dtype=np.uint8)
    out = _sensor(_light(image, lighting), rng, noise_sigma)
    jpeg_bytes = 0
    if jpeg_quality is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
        if not ok:
            raise RuntimeError("JPEG encoding failed")
        jpeg_bytes = int(buf.size)
        out = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), dtype=np.uint8)
    return RenderResult(
        image=out,
        card_corners_px=corners_px,
        visible_fraction=_visibility(corners_px, occluders, camera.resolution),
        homography_mat_to_image=h_mat,
        jpeg_bytes=jpeg_bytes,
    )


def random_layout(
    rng: np.random.Generator,
    spec: MatSpec,
    images: list[tuple[str, Image]],
    size_mm: tuple[float, float] = (63.0, 88.0),
    p_touch: float = 0.3,
    p_overlap: float = 0.2,
    around: Sequence[CardPlacement] = (),
) -> list[CardPlacement]:
    """Lay the (label, image) cards on the mat in order: each one apart from the others,
    touching an earlier card edge to edge, or partly covering one (at most half of it),
    always inside the mat and clear of the corner tags; cards already lying `around` count
    as earlier cards (and are not returned). A card that finds no such place in 60 tries
    is left out."""
    placed = list(around)
    for label, image in images:
        for attempt in range(60):
            mode = rng.random() if placed and attempt < 40 else 1.0
            if mode < p_touch:
                base = placed[int(rng.integers(0, len(placed)))]
                sign = 1.0 if rng.random() < 0.5 else -1.0
                gap = float(rng.uniform(0.0, 0.6))
                slide = float(rng.uniform(-0.3, 0.3))
                if rng.random() < 0.5:
                    step = np.array([sign * (size_mm[0] + gap), slide * size_mm[1]])
                else:
                    step = np.array([slide * size_mm[0], sign * (size_mm[1] + gap)])
                center = np.array(base.center_mm) + _rot2(base.angle_deg) @ step
                angle = base.angle_deg + float(rng.uniform(-1.5, 1.5))
            elif mode < p_touch + p_overlap:
                base = placed[int(rng.integers(0, len(placed)))]
                reach = float(rng.uniform(0.45, 0.7)) * max(size_mm)
                center = np.array(base.center_mm) + _unit(float(rng.uniform(0, 360))) * reach
                angle = float(rng.uniform(0, 360))
            else:
                center = rng.uniform([0, 0], [spec.width_mm, spec.height_mm])
                angle = float(rng.uniform(0, 360))
            card = CardPlacement(
                image, (float(center[0]), float(center[1])), angle, size_mm=size_mm, label=label
            )
            limit = 8.0 if mode >= p_touch + p_overlap else 40.0 if mode < p_touch else 0.5
            if _fits(card, spec) and _allowed(card, placed, limit):
                placed.append(card)
                break
    return placed[len(around):]


def tile_rows(
    rng: np.random.Generator,
    spec: MatSpec,
    images: list[tuple[str, Image]],
    size_mm: tuple[float, float],
    longest: int = 8,
) -> list[CardPlacement]:
    """Lay the (label, image) tiles in rows as rummy melds lie: 3 to `longest` tiles side
    by side along their short sides, touching (0 to 0.5 mm apart, a degree askew at most),
    each row along the mat's edges within 4 degrees or at any angle now and then, clear of
    the other rows and the tags. A row that finds no place in 60 tries is left out."""
    placed: list[CardPlacement] = []
    rest = list(images)
    while len(rest) >= 3:
        count = min(len(rest), int(rng.integers(3, longest + 1)))
        row, rest = rest[:count], rest[count:]
        for _ in range(60):
            if rng.random() < 0.85:
                angle = 90.0 * int(rng.integers(0, 4)) + float(rng.uniform(-4, 4))
            else:
                angle = float(rng.uniform(0, 360))
            along = _rot2(angle) @ np.array([1.0, 0.0])
            start = rng.uniform([0, 0], [spec.width_mm, spec.height_mm])
            offset = 0.0
            tiles = []
            for label, image in row:
                centre = start + along * offset
                tiles.append(CardPlacement(
                    image, (float(centre[0]), float(centre[1])),
                    angle + float(rng.uniform(-1.0, 1.0)), size_mm=size_mm, label=label))
                offset += size_mm[0] + float(rng.uniform(0.0, 0.5))
            if all(_fits(tile, spec) and _allowed(tile, placed, 8.0) for tile in tiles):
                placed += tiles
                break
    return placed


# --- geometry ---------------------------------------------------------------------------


def _rot2(angle_deg: float) -> F64:
    a = math.radians(angle_deg)
    return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])


def _rot_z(angle_deg: float) -> F64:
    rot = np.eye(3)
    rot[:2, :2] = _rot2(angle_deg)
    return rot


def _rot_x(angle_deg: float) -> F64:
    a = math.radians(angle_deg)
    c, s = math.cos(a), math.sin(a)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def _unit(angle_deg: float) -> F64:
    a = math.radians(angle_deg)
    return np.array([math.cos(a), math.sin(a)])


def _project(k: F64, r: F64, t: F64, pts: F64) -> F64:
    uvw = (pts @ r.T + t) @ k.T
    return uvw[:, :2] / uvw[:, 2:3]


def _apply(h: F64, pts: F64) -> F64:
    uvw = np.column_stack([pts, np.ones(len(pts))]) @ h.T
    return uvw[:, :2] / uvw[:, 2:3]


def _max_scale(h: F64, spec: MatSpec) -> float:
    """Largest image pixels per mat mm over the mat (the near corner of a tilted view)."""
    best = 0.0
    for x, y in ((0, 0), (spec.width_mm, 0), (spec.width_mm, spec.height_mm), (0, spec.height_mm)):
        u, v, w = h @ np.array([x, y, 1.0])
        jac = np.array(
            [[h[0, 0] - u / w * h[2, 0], h[0, 1] - u / w * h[2, 1]],
             [h[1, 0] - v / w * h[2, 0], h[1, 1] - v / w * h[2, 1]]]
        ) / w
        best = max(best, float(np.linalg.svd(jac, compute_uv=False)[0]))
    return best


def _edge_point(spec: MatSpec, edge: int, along: float, outward: float) -> tuple[float, float]:
    """A point `along` (0..1) the top/right/bottom/left edge, `outward` mm off the mat."""
    w, h = spec.width_mm, spec.height_mm
    if edge == 0:
        return (along * w, -outward)
    if edge == 1:
        return (w + outward, along * h)
    if edge == 2:
        return (along * w, h + outward)
    return (-outward, along * h)


def _fits(card: CardPlacement, spec: MatSpec) -> bool:
    xy = card.corners_mm()[:, :2]
    inside = bool(
        np.all(xy >= 3.0) and np.all(xy[:, 0] <= spec.width_mm - 3)
        and np.all(xy[:, 1] <= spec.height_mm - 3)
    )
    return inside and all(
        math.dist(card.center_mm, tag.center_mm) > 54 + tag.size_mm * 0.75 for tag in spec.tags
    )


def _allowed(card: CardPlacement, placed: list[CardPlacement], limit: float) -> bool:
    """Whether the card overlaps no other by more than `limit`: in mm^2 when above 1 (a
    sliver for touching cards, ~0 for cards apart), else as a share of the other's area."""
    poly = card.corners_mm()[:, :2].astype(np.float32)
    for other in placed:
        other_poly = other.corners_mm()[:, :2].astype(np.float32)
        area, _ = cv2.intersectConvexConvex(poly, other_poly)
        if area > (limit if limit > 1 else limit * other.size_mm[0] * other.size_mm[1]):
            return False
    return True


# --- drawing in mat space ---------------------------------------------------------------


def _shrink(image: Image, size: tuple[int, int]) -> Image:
    """Resize to (w, h) without aliasing: halve with a Gaussian while it is more than twice
    too big (much faster than INTER_AREA), then interpolate the rest of the way."""
    while image.shape[1] >= 2 * size[0] and image.shape[0] >= 2 * size[1]:
        image = np.asarray(cv2.pyrDown(image), dtype=np.uint8)
    if (image.shape[1], image.shape[0]) != size:
        image = np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_LINEAR), np.uint8)
    return image


def _soften(mask: F32, sigma: float) -> F32:
    """Gaussian blur; wide ones run at a reduced size, since their result is smooth anyway."""
    if sigma <= 4:
        return np.asarray(cv2.GaussianBlur(mask, (0, 0), sigma), dtype=np.float32)
    f = sigma / 2
    h, w = mask.shape[:2]
    small = cv2.resize(mask, (max(1, round(w / f)), max(1, round(h / f))),
                       interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), 2.0)
    return np.asarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR), np.float32)


def _to_bytes(values: F32) -> Image:
    """Round and saturate to uint8 in one pass."""
    return np.asarray(cv2.addWeighted(values, 1.0, values, 0.0, 0.0, dtype=cv2.CV_8U), np.uint8)


def _store(roi: Image, values: F32) -> None:
    roi[:] = _to_bytes(values)


def _roi(pts: list[F64], pad: float, shape: tuple[int, ...]) -> tuple[int, int, int, int] | None:
    allpts = np.concatenate(pts)
    x0 = max(0, math.floor(float(allpts[:, 0].min()) - pad))
    y0 = max(0, math.floor(float(allpts[:, 1].min()) - pad))
    x1 = min(shape[1], math.ceil(float(allpts[:, 0].max()) + pad) + 1)
    y1 = min(shape[0], math.ceil(float(allpts[:, 1].max()) + pad) + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1


def _mask(polys: list[F64], origin: tuple[int, int], size: tuple[int, int]) -> F32:
    """Anti-aliased coverage (0..1) of the polygons in a (w, h) box at `origin`."""
    mask = np.zeros((size[1], size[0]), np.uint8)
    shifted = [np.round((p - origin) * 16).astype(np.int32) for p in polys]
    cv2.fillPoly(mask, shifted, 255, cv2.LINE_AA, 4)
    return mask.astype(np.float32) * (1 / 255)


def _paint_shadow(image: Image, polys: list[F64], sigma: float, strength: float) -> None:
    box = _roi(polys, 3 * sigma + 2, image.shape)
    if box is None or strength <= 0:
        return
    x0, y0, x1, y1 = box
    mask = _mask(polys, (x0, y0), (x1 - x0, y1 - y0))
    if sigma > 0.3:
        mask = _soften(mask, sigma)
    roi = image[y0:y1, x0:x1]
    _store(roi, roi * (1 - strength * mask)[..., None])


def _paste_card(canvas: Image, placement: CardPlacement, quad: F64,
                rng: np.random.Generator) -> None:
    """Warp the card onto the canvas quad, with round corners, a little curl shading and
    anti-aliased edges."""
    box = _roi([quad], 2, canvas.shape)
    if box is None:
        return
    x0, y0, x1, y1 = box
    card = placement.image
    side = max(float(np.linalg.norm(quad[1] - quad[0])), float(np.linalg.norm(quad[3] - quad[0])))
    scale = min(1.0, 1.25 * side / max(card.shape[:2]))
    size = (max(2, round(card.shape[1] * scale)), max(2, round(card.shape[0] * scale)))
    face = _shrink(card, size).astype(np.float32)
    yn, xn = np.mgrid[-1 : 1 : size[1] * 1j, -1 : 1 : size[0] * 1j].astype(np.float32)
    a = rng.uniform(-0.06, 0.06, size=2)
    bend = float(rng.uniform(0.0, 0.07))
    curl = 1 + a[0] * xn + a[1] * yn - bend * (xn if rng.random() < 0.5 else yn) ** 2
    face *= curl[..., None]
    right, bottom = size[0] - 0.5, size[1] - 0.5
    src = np.array([[-0.5, -0.5], [right, -0.5], [right, bottom], [-0.5, bottom]], np.float32)
    dst = (quad - [x0, y0]).astype(np.float32)
    warp = cv2.getPerspectiveTransform(src, dst)
    out = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(face, warp, out, flags=cv2.INTER_LINEAR)
    radius = placement.corner_radius_mm * size[0] / placement.size_mm[0]
    shape = _mask([_rounded_rect(size[0], size[1], radius, (size[0] - 1) / 2,
                                 (size[1] - 1) / 2)], (0, 0), size)
    face *= shape[..., None]
    alpha = cv2.warpPerspective(shape, warp, out, flags=cv2.INTER_LINEAR)
    roi = canvas[y0:y1, x0:x1]
    blend = roi * (1 - np.asarray(alpha, dtype=np.float32))[..., None]
    _store(roi, blend + np.asarray(warped, dtype=np.float32))


# --- drawing in the frame ---------------------------------------------------------------


@dataclass(frozen=True)
class _Solid:
    """A flat-topped object: its top outline (mat mm with z), colour, and how rounded its
    top looks (mm of edge shading). With `sides`, its walls down to the table are drawn."""

    outline: F64
    colour: BGR
    round_mm: float = 0.0
    sides: bool = False
    casts_shadow: bool = True


def _scaled(colour: BGR, factor: float) -> BGR:
    return (colour[0] * factor, colour[1] * factor, colour[2] * factor)


def _outline(xy: F64, z: float | F64, center: tuple[float, float], angle_deg: float) -> F64:
    pts = xy @ _rot2(angle_deg).T + np.array(center)
    return np.column_stack([pts, np.broadcast_to(z, (len(pts),))])


def _circle(radius: float, n: int = 40, cx: float = 0.0, cy: float = 0.0) -> F64:
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.column_stack([cx + radius * np.cos(a), cy + radius * np.sin(a)])


def _rounded_rect(w: float, h: float, radius: float, cx: float = 0.0, cy: float = 0.0) -> F64:
    pts = []
    for (sx, sy), start in zip(((1, 1), (-1, 1), (-1, -1), (1, -1)), (0, 90, 180, 270),
                               strict=True):
        ccx, ccy = cx + sx * (w / 2 - radius), cy + sy * (h / 2 - radius)
        for a in np.radians(np.linspace(start, start + 90, 7)):
            pts.append((ccx + radius * math.cos(a), ccy + radius * math.sin(a)))
    return np.array(pts, dtype=np.float64)


def _capsule(x0: float, x1: float, width: float, angle_deg: float = 0.0,
             origin: tuple[float, float] = (0.0, 0.0)) -> F64:
    """A rounded stick from x0 to x1 along the local x axis, turned and moved to origin."""
    r = width / 2
    a = np.radians(np.linspace(-90, 90, 9))
    right = np.column_stack([x1 + r * np.cos(a), r * np.sin(a)])
    left = np.column_stack([x0 - r * np.cos(a), -r * np.sin(a)])
    pts: F64 = np.concatenate([right, left]) @ _rot2(angle_deg).T + np.array(origin)
    return pts


def _clutter_solids(item: Clutter) -> list[_Solid]:
    c, a, v = item.center_mm, item.angle_deg, item.variant
    colour = item.colour_bgr or (90.0, 90.0, 90.0)
    if item.kind == "phone":
        body = _rounded_rect(72, 150, 9)
        screen_on = v == 0
        screen = (150.0, 120.0, 90.0) if screen_on else (35.0, 28.0, 25.0)
        return [
            _Solid(_outline(body, -8.0, c, a), (30.0, 30.0, 32.0), 2.0, sides=True),
            _Solid(_outline(_rounded_rect(66, 140, 6), -8.0, c, a), screen, 0.0,
                   casts_shadow=False),
        ]
    if item.kind == "coin":
        metal = (160.0, 165.0, 170.0) if v % 2 else (70.0, 150.0, 190.0)
        return [
            _Solid(_outline(_circle(11.5), -2.0, c, a), metal, 3.0, sides=True),
            _Solid(_outline(_circle(8.5), -2.0, c, a), _scaled(metal, 0.85), 1.5,
                   casts_shadow=False),
        ]
    if item.kind == "mug":
        height = 95.0
        handle = _capsule(36, 66, 14)
        return [
            _Solid(_outline(handle, -60.0, c, a), colour, 4.0, sides=True),
            _Solid(_outline(_circle(42), -height, c, a), colour, 3.0, sides=True),
            _Solid(_outline(_circle(37), -height, c, a), (25.0, 45.0, 70.0), 6.0,
                   casts_shadow=False),
        ]
    if item.kind == "pen":
        return [
            _Solid(_outline(_capsule(-70, 70, 9), -9.0, c, a), colour, 2.5, sides=True),
            _Solid(_outline(_capsule(25, 70, 10), -10.0, c, a), (40.0, 40.0, 40.0), 2.5,
                   sides=True),
        ]
    size = (148.0, 210.0) if v < 2 else (105.0, 148.0)
    pale = [(225.0, 238.0, 245.0), (235.0, 235.0, 235.0), (235.0, 220.0, 200.0),
            (200.0, 230.0, 230.0)][v]
    solids = [_Solid(_outline(_rounded_rect(*size, 3), -10.0, c, a), pale, 1.0, sides=True)]
    if v % 2:
        band = _rounded_rect(8, size[1], 1, cx=size[0] / 2 - 18)
        solids.append(_Solid(_outline(band, -10.5, c, a), (40.0, 40.0, 40.0), 0.0,
                             casts_shadow=False))
    return solids


def _hand_solids(hand: HandPose) -> list[_Solid]:
    """Forearm, sleeve, palm, four fingers and a thumb, sloping up towards the elbow."""
    s, h = hand.scale, hand.height_mm
    side = 1.0 if hand.right else -1.0
    parts: list[F64] = []
    arm = np.array([[-40, -30], [-40, 30], [-480, 45], [-480, -45]], dtype=np.float64) * s
    palm = np.array([[1.0, 0.8]]) * _circle(50 * s, 32)
    spread = 4 + 8 * hand.spread
    for i, length in enumerate((70, 80, 76, 60)):
        y = (-27 + 18 * i) * s * side
        parts.append(_capsule(35 * s, (35 + length) * s, 16 * s, (i - 1.5) * spread * side,
                              (0.0, y)))
    thumb = _capsule(0, 60 * s, 21 * s, side * (-55 - 20 * hand.spread),
                     (-15 * s, -38 * s * side))
    c, a = hand.reach_mm, hand.angle_deg
    slope = 0.3  # the arm rises towards the elbow
    arm_z = -h - 10 + slope * np.minimum(arm[:, 0], 0)
    solids = [
        _Solid(_outline(arm, arm_z, c, a), hand.skin_bgr, 12.0 * s),
        _Solid(_outline(palm, -h - 5, c, a), hand.skin_bgr, 14.0 * s),
        _Solid(_outline(thumb, -h, c, a), hand.skin_bgr, 6.0 * s),
    ]
    solids += [_Solid(_outline(p, -h, c, a), hand.skin_bgr, 5.0 * s) for p in parts]
    if hand.sleeve_bgr is not None:
        cuff = -hand.sleeve_from_mm
        half = 30 + 14 * min(1.0, hand.sleeve_from_mm / 220)  # the forearm widens
        sleeve = np.array([[cuff, -half], [cuff, half], [-480, 55], [-480, -55]]) * s
        sleeve_z = -h - 10 + slope * sleeve[:, 0]
        solids.append(_Solid(_outline(sleeve, sleeve_z, c, a), hand.sleeve_bgr, 15.0 * s))
    return solids


def _draw_solids(image: Image, solids: list[_Solid], k: F64, r: F64, t: F64,
                 lighting: Lighting, px_per_mm: float) -> None:
    """Shadows of all the solids on the table first, then each solid, walls before top."""
    direction = _unit(lighting.shadow_angle_deg) * lighting.shadow_length
    shadows, heights = [], []
    for solid in solids:
        if solid.casts_shadow:
            height = -solid.outline[:, 2]
            ground = solid.outline[:, :2] + height[:, None] * direction
            shadows.append(_project(k, r, t, np.column_stack([ground, np.zeros(len(ground))])))
            heights.append(float(height.mean()))
    if shadows:
        sigma = (1.0 + 0.08 * max(heights)) * px_per_mm
        strength = min(0.8, lighting.shadow_strength * 1.4)
        _paint_shadow(image, shadows, sigma, strength)
    for solid in solids:
        top = _project(k, r, t, solid.outline)
        if solid.sides:
            base = _project(k, r, t, np.column_stack([solid.outline[:, :2],
                                                      np.zeros(len(solid.outline))]))
            hull = cv2.convexHull(np.concatenate([top, base]).astype(np.float32))
            wall = _scaled(solid.colour, 0.7)
            _paint_solid(image, hull.reshape(-1, 2).astype(np.float64), wall, 0.0)
        _paint_solid(image, top, solid.colour, solid.round_mm * px_per_mm)


def _paint_solid(image: Image, poly: F64, colour: BGR, round_px: float) -> None:
    """Fill the polygon with the colour, darkened towards its rim when it is rounded."""
    box = _roi([poly], 2, image.shape)
    if box is None:
        return
    x0, y0, x1, y1 = box
    mask = _mask([poly], (x0, y0), (x1 - x0, y1 - y0))
    col = np.array(colour, np.float32)
    roi = image[y0:y1, x0:x1]
    cover = mask
    if round_px > 0.5:
        inner = _soften(mask, round_px)
        rim = np.sqrt(np.clip(inner * 2 - 1, 0, 1), dtype=np.float32)
        cover = np.asarray(mask * (0.6 + 0.4 * rim), dtype=np.float32)
    _store(roi, roi * (1 - mask)[..., None] + cover[..., None] * col)


def _wood(rng: np.random.Generator, w: int, h: int) -> Image:
    """A plain wooden table top: grain streaks, plank seams and slow tone changes. Drawn
    at half size: the grain is smooth along its length and the mat covers the middle."""
    base = np.array(_WOODS[int(rng.integers(0, len(_WOODS)))], np.float32)
    hw, hh = max(2, w // 2), max(2, h // 2)
    across = hw if rng.random() < 0.5 else hh
    size = (max(hw, hh), across)
    grain = cv2.resize(rng.random((max(2, across // 2), 5)).astype(np.float32), size,
                       interpolation=cv2.INTER_CUBIC)
    blotch = cv2.resize(rng.random((3, 5)).astype(np.float32), size,
                        interpolation=cv2.INTER_CUBIC)
    tone = np.asarray(0.82 + 0.18 * grain + 0.15 * blotch, dtype=np.float32)
    plank = int(rng.integers(60, 130))
    tone[int(rng.integers(0, plank)) :: plank] *= 0.55
    tone = tone[:, :hw] if across == hh else tone[:, :hh].T
    small = _to_bytes(np.asarray(tone[..., None] * base, dtype=np.float32))
    return np.asarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR), np.uint8)


def _light(image: Image, lighting: Lighting) -> F32:
    """The frame as the sensor gets it (float): fall-off, colour cast and glare, built on a
    coarse grid and applied as one gain and one offset per pixel."""
    h, w = image.shape[:2]
    gh, gw = max(2, h // 8), max(2, w // 8)
    yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
    u, v = (xx + 0.5) / gw, (yy + 0.5) / gh
    if lighting.gradient_kind == "linear":
        d = _unit(lighting.gradient_angle_deg)
        fall = np.clip((u - 0.5) * d[0] + (v - 0.5) * d[1] + 0.5, 0, 1)
    else:
        cx, cy = lighting.gradient_center
        dist = np.hypot(u - cx, (v - cy) * h / w)
        fall = np.clip(dist / 0.6, 0, 1) ** 2
    gain = lighting.brightness * np.clip(1 - lighting.gradient * fall, 0.05, None)
    spot = np.zeros_like(gain)
    if lighting.glare is not None:  # glare washes towards white: x (1 - s) + 275 s
        g = lighting.glare
        dist2 = (u - g.center[0]) ** 2 + ((v - g.center[1]) * h / w) ** 2
        spot = g.strength * np.exp(-dist2 / (2 * g.radius**2))
    gains = np.array(lighting.gains_bgr, np.float32)
    gain3 = ((gain * (1 - spot))[..., None] * gains).astype(np.float32)
    frame = cv2.multiply(image, cv2.resize(gain3, (w, h)), dtype=cv2.CV_32F)
    if lighting.glare is not None:
        glare3 = np.repeat((275 * spot)[..., None], 3, axis=2).astype(np.float32)
        frame = cv2.add(frame, cv2.resize(glare3, (w, h)))
    return np.asarray(frame, dtype=np.float32)


def sensor_noise(image: Image, rng: np.random.Generator, sigma: float = 2.0) -> Image:
    """A rendered frame rendered without noise (`noise_sigma=0`, no JPEG) with the sensor's
    noise added: the camera's next frame of a scene that did not change."""
    return _sensor(image.astype(np.float32), rng, sigma)


def _sensor(frame: F32, rng: np.random.Generator, sigma: float) -> Image:
    """Add near-Gaussian sensor noise (a centred sum of two uniform random bytes) and
    quantise to bytes, in one pass."""
    if sigma <= 0:
        return _to_bytes(frame)
    raw = np.frombuffer(rng.bytes(2 * frame.size), dtype=np.uint8)
    a, b = raw[: frame.size].reshape(frame.shape), raw[frame.size :].reshape(frame.shape)
    pair = cv2.add(a, b, dtype=cv2.CV_32F)
    k = sigma / 104.5  # the standard deviation of a sum of two uniform bytes
    return np.asarray(cv2.addWeighted(frame, 1.0, pair, k, -255 * k, dtype=cv2.CV_8U), np.uint8)


def _visibility(corners: list[F64], occluders: list[list[F64]],
                resolution: tuple[int, int]) -> list[float]:
    """Painter's algorithm on a quarter-size label map: the share of each card's area
    that is topmost and inside the frame."""
    if not corners:
        return []
    w, h = resolution
    labels = np.full((h // 4 + 1, w // 4 + 1), 255, np.uint8)
    for i, quad in enumerate(corners):
        cv2.fillPoly(labels, [np.round(quad / 4 - 0.375).astype(np.int32)], min(i, 253))
    for polys in occluders:
        cv2.fillPoly(labels, [np.round(p / 4 - 0.375).astype(np.int32) for p in polys], 254)
    counts = np.bincount(labels.ravel(), minlength=256)
    result = []
    for i, quad in enumerate(corners):
        x, y = quad[:, 0], quad[:, 1]
        area = 0.5 * abs(float(x @ np.roll(y, -1) - y @ np.roll(x, -1))) / 16
        result.append(min(1.0, float(counts[min(i, 253)]) / max(area, 1.0)))
    return result
