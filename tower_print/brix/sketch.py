"""An isometric drawing of a tower, as a render `Scene`: for cards, answer sheets and previews.

View: the eye looks down from far away in the +x, +y, +z direction, so on paper the x axis runs
right-down, the y axis left-down and z straight up. Each brick shows three faces: its top, its +x
face (on the right) and its +y face (on the left). Bricks are drawn back to front (painter's
algorithm); the order comes from a topological sort of "B may hide part of A, so A goes first"
relations found with separating axes, which is exact for non-overlapping axis-aligned boxes,
where sorting on a single depth number is not.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Sequence

from tower_print.brix.geometry import PlacedBrick
from tower_print.render.scene import NONE, Item, Polygon, Scene

Point3 = tuple[float, float, float]

MISSING_COLOR = "#9A9A9A"  # a brick whose colour name is not in the palette
OUTLINE = "#222222"
GROUND_FILL = "#EEEEEE"
SHADOW_FILL = "#CFCFCF"
MARGIN = 0.04  # share of the drawing's larger side left blank on every side
GROUND_PAD = 1  # lattice units of table shown around the footprint

_COS30 = math.sqrt(3.0) / 2.0


def _project(point: Point3) -> tuple[float, float]:
    """Isometric projection in lattice units, paper y down: nearer and lower points go down."""
    x, y, z = point
    return (x - y) * _COS30, (x + y) * 0.5 - z


# --- colours ---------------------------------------------------------------------------------


def _rgb(color: str) -> tuple[int, int, int]:
    text = color.strip().lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    if not color.strip().startswith("#") or len(text) != 6:
        raise ValueError(f"brick colours must be written #RRGGBB, got {color!r}")
    try:
        return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)
    except ValueError:
        raise ValueError(f"brick colours must be written #RRGGBB, got {color!r}") from None


def _mix(color: str, toward: int, share: float) -> str:
    """`color` moved `share` of the way to grey level `toward` (255 lightens, 0 darkens)."""
    return "#" + "".join(f"{round(c + (toward - c) * share):02X}" for c in _rgb(color))


def face_colors(base: str) -> tuple[str, str, str]:
    """(top, left (+y) side, right (+x) side): light from above and a little from the left."""
    return _mix(base, 255, 0.35), _mix(base, 0, 0.12), _mix(base, 0, 0.32)


# --- drawing order ---------------------------------------------------------------------------


def _slabs(b: PlacedBrick) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """Ranges of x - y, y - z and z - x over the box: its projected hexagon is their meet."""
    x0, x1 = b.span(0)
    y0, y1 = b.span(1)
    z0, z1 = b.span(2)
    return (x0 - y1, x1 - y0), (y0 - z1, y1 - z0), (z0 - x1, z1 - x0)


def _images_overlap(a: PlacedBrick, b: PlacedBrick) -> bool:
    """Do the projected hexagons share area? Both have the same three edge directions, so by
    the separating axis theorem they do exactly when all three slab ranges overlap."""
    return all(
        min(sa[1], sb[1]) > max(sa[0], sb[0]) for sa, sb in zip(_slabs(a), _slabs(b), strict=True)
    )


def _in_front(a: PlacedBrick, b: PlacedBrick) -> bool:
    """`b` lies on the eye's side of a plane separating it from `a` (so `b` may hide `a`)."""
    return any(a.span(k)[1] <= b.span(k)[0] for k in range(3))


def _depth_key(b: PlacedBrick) -> tuple[int, int, PlacedBrick]:
    """Tie break among boxes that do not hide each other: farther and lower first."""
    return b.x + b.y + b.z, b.z, b


def draw_order(bricks: Sequence[PlacedBrick]) -> list[PlacedBrick]:
    """Bricks back to front: every brick comes after all bricks it may hide part of.

    Kahn's algorithm with a heap on `_depth_key`, so the order does not depend on the input
    order. Axis-aligned boxes can in rare arrangements hide each other in a cycle; then the
    farthest remaining brick is drawn next and the cycle is drawn as well as one order allows.
    """
    n = len(bricks)
    after: list[list[int]] = [[] for _ in range(n)]
    waiting = [0] * n
    for i in range(n):
        for j in range(n):
            a, b = bricks[i], bricks[j]
            if i != j and _images_overlap(a, b) and _in_front(a, b):
                after[i].append(j)
                waiting[j] += 1
    keys = [(_depth_key(b), i) for i, b in enumerate(bricks)]
    ready = [keys[i] for i in range(n) if waiting[i] == 0]
    heapq.heapify(ready)
    done = [False] * n
    order: list[PlacedBrick] = []
    while len(order) < n:
        if not ready:  # a cycle: release the farthest brick still waiting
            heapq.heappush(ready, min(keys[i] for i in range(n) if not done[i]))
        _, i = heapq.heappop(ready)
        if done[i]:
            continue
        done[i] = True
        order.append(bricks[i])
        for j in after[i]:
            waiting[j] -= 1
            if waiting[j] == 0 and not done[j]:
                heapq.heappush(ready, keys[j])
    return order


# --- faces -----------------------------------------------------------------------------------


def _faces(b: PlacedBrick) -> tuple[tuple[Point3, ...], tuple[Point3, ...], tuple[Point3, ...]]:
    """(top, +y face, +x face) corners of a brick, in lattice units."""
    x0, x1 = b.span(0)
    y0, y1 = b.span(1)
    z0, z1 = b.span(2)
    top = ((x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1))
    left = ((x0, y1, z0), (x1, y1, z0), (x1, y1, z1), (x0, y1, z1))
    right = ((x1, y0, z0), (x1, y1, z0), (x1, y1, z1), (x1, y0, z1))
    return top, left, right


def _rectangle(x0: float, x1: float, y0: float, y1: float) -> tuple[Point3, ...]:
    return (x0, y0, 0), (x1, y0, 0), (x1, y1, 0), (x0, y1, 0)


def tower_scene(
    bricks: tuple[PlacedBrick, ...],
    colors: dict[str, str],
    unit_mm: float,
    width_mm: float | None = None,
    ground: bool = True,
) -> Scene:
    """An isometric drawing of `bricks`, fitted to a scene with a small margin.

    Without `width_mm` the drawing is at true size (one lattice unit along an axis is `unit_mm`
    on paper); with it, scaled so the scene is `width_mm` wide. `colors` maps colour names to
    "#RRGGBB" fills; a brick whose colour is missing is drawn grey. With `ground`, a patch of
    table is drawn under the tower, and the shadows of raised bricks straight below them.
    """
    if unit_mm <= 0:
        raise ValueError(f"unit_mm must be positive, got {unit_mm}")
    if width_mm is not None and width_mm <= 0:
        raise ValueError(f"width_mm must be positive, got {width_mm}")
    for b in bricks:
        if min(b.dx, b.dy, b.dz) <= 0:
            raise ValueError(f"brick {b.name} has an empty extent ({b.dx}, {b.dy}, {b.dz})")

    # Shapes in lattice units first: (3-D corners, fill, outlined).
    shapes: list[tuple[tuple[Point3, ...], str, bool]] = []
    if ground and bricks:
        x0 = min(b.x for b in bricks) - GROUND_PAD
        x1 = max(b.x + b.dx for b in bricks) + GROUND_PAD
        y0 = min(b.y for b in bricks) - GROUND_PAD
        y1 = max(b.y + b.dy for b in bricks) + GROUND_PAD
        shapes.append((_rectangle(x0, x1, y0, y1), GROUND_FILL, False))
        for b in sorted(b for b in bricks if b.z > 0):
            shapes.append((_rectangle(b.x, b.x + b.dx, b.y, b.y + b.dy), SHADOW_FILL, False))
    for b in draw_order(bricks):
        top, left, right = face_colors(colors.get(b.color, MISSING_COLOR))
        face_top, face_left, face_right = _faces(b)
        shapes += [(face_left, left, True), (face_right, right, True), (face_top, top, True)]

    flat = [([_project(p) for p in corners], fill, outlined) for corners, fill, outlined in shapes]
    us = [u for points, _, _ in flat for u, _ in points]
    vs = [v for points, _, _ in flat for _, v in points]
    if not us:
        side = width_mm if width_mm is not None else 10.0
        return Scene(side, side, ())
    span_u, span_v = max(us) - min(us), max(vs) - min(vs)
    margin = MARGIN * max(span_u, span_v)  # lattice units
    scale = unit_mm if width_mm is None else width_mm / (span_u + 2 * margin)
    origin_u, origin_v = min(us) - margin, min(vs) - margin
    stroke = max(0.1, 0.02 * scale)  # mm; scale is mm per lattice unit

    def paper(points: Iterable[tuple[float, float]]) -> tuple[tuple[float, float], ...]:
        return tuple(
            (round((u - origin_u) * scale, 4), round((v - origin_v) * scale, 4)) for u, v in points
        )

    items: list[Item] = [
        Polygon(paper(points), fill, OUTLINE if outlined else NONE, stroke if outlined else 0.0)
        for points, fill, outlined in flat
    ]
    width = width_mm if width_mm is not None else (span_u + 2 * margin) * scale
    return Scene(round(width, 4), round((span_v + 2 * margin) * scale, 4), tuple(items))
