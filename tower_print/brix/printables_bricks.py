"""Fold-up paper bricks: a net with glue tabs for every brick of the set, at the set's size.

The geometry is made here (a mechanism: which faces, where the tabs go, which edges are cut and
which folded); how it looks comes from `templates/brix/brick-net.yaml.j2`.

The net of an L x W x T box: the four long faces side by side (W, T, W, T wide, L tall), a glue
tab on the free end of that strip, and the two end caps (W x T) on the first face, each with
glue tabs on its three free sides. Edges two pieces share are folds; every other edge is cut.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import jinja2

from tower_print.brix.bricks import BrickSet
from tower_print.render.layout import render_layout
from tower_print.render.scene import Group, Scene

Point = tuple[float, float]
Segment = tuple[Point, Point]


@dataclass(frozen=True)
class Net:
    w: float
    h: float
    faces: tuple[tuple[Point, ...], ...]
    tabs: tuple[tuple[Point, ...], ...]
    cuts: tuple[Segment, ...]
    folds: tuple[Segment, ...]


def _rect(x: float, y: float, w: float, h: float) -> tuple[Point, ...]:
    return (x, y), (x + w, y), (x + w, y + h), (x, y + h)


def _tab(a: Point, b: Point, depth: float) -> tuple[Point, ...]:
    """A trapezoid glue tab on edge a -> b, outside a shape whose outline runs clockwise on
    the page (y down) through a then b."""
    (ax, ay), (bx, by) = a, b
    length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    ux, uy = (bx - ax) / length, (by - ay) / length
    nx, ny = uy, -ux  # outward normal of a clockwise (y-down) outline
    inset = min(depth, length / 3)
    return (
        a, b,
        (bx - ux * inset + nx * depth, by - uy * inset + ny * depth),
        (ax + ux * inset + nx * depth, ay + uy * inset + ny * depth),
    )


def _key(p: Point) -> tuple[float, float]:
    return round(p[0], 4), round(p[1], 4)


def _edges(polygons: Sequence[tuple[Point, ...]]) -> tuple[list[Segment], list[Segment]]:
    """(cuts, folds): an edge two polygons share is a fold, any other edge is cut."""
    count: Counter[tuple[tuple[float, float], tuple[float, float]]] = Counter()
    order: list[tuple[tuple[float, float], tuple[float, float]]] = []
    for poly in polygons:
        for k, a in enumerate(poly):
            b = poly[(k + 1) % len(poly)]
            edge = tuple(sorted((_key(a), _key(b))))
            if edge not in count:
                order.append(edge)  # type: ignore[arg-type]
            count[edge] += 1  # type: ignore[index]
    cuts = [e for e in order if count[e] == 1]
    folds = [e for e in order if count[e] > 1]
    return cuts, folds


def box_net(length: float, width: float, thickness: float, tab: float) -> Net:
    """The net of a length x width x thickness box, all in mm, origin at its top left."""
    L, W, T = length, width, thickness
    x0, y0 = tab, tab + T  # top left corner of the strip of long faces
    faces: list[tuple[Point, ...]] = []
    x = x0
    for side in (W, T, W, T):
        faces.append(_rect(x, y0, side, L))
        x += side
    top_cap = _rect(x0, y0 - T, W, T)
    bottom_cap = _rect(x0, y0 + L, W, T)
    faces += [top_cap, bottom_cap]
    tabs = [_tab((x, y0), (x, y0 + L), tab)]  # the strip's free end, glued under face 1
    for cap, far in ((top_cap, "top"), (bottom_cap, "bottom")):
        (ax, ay), (bx, _), (_, cy), _ = cap
        # clockwise around the cap (y down): left edge goes up, top edge right, right edge down
        tabs.append(_tab((ax, cy), (ax, ay), tab))
        tabs.append(_tab((bx, ay), (bx, cy), tab))
        if far == "top":
            tabs.append(_tab((ax, ay), (bx, ay), tab))
        else:
            tabs.append(_tab((bx, cy), (ax, cy), tab))
    cuts, folds = _edges([*faces, *tabs])
    return Net(round(x + tab, 4), round(y0 + L + T + tab, 4), tuple(faces), tuple(tabs),
               tuple(cuts), tuple(folds))


def _net_context(net: Net) -> dict[str, object]:
    def pts(poly: tuple[Point, ...]) -> list[list[float]]:
        return [[round(x, 4), round(y, 4)] for x, y in poly]

    def seg(s: Segment) -> dict[str, float]:
        (x1, y1), (x2, y2) = s
        return {"x1": x1, "y1": y1, "x2": x2, "y2": y2}

    return {"w": net.w, "h": net.h, "faces": [pts(f) for f in net.faces],
            "tabs": [pts(t) for t in net.tabs], "cuts": [seg(s) for s in net.cuts],
            "folds": [seg(s) for s in net.folds]}


def brick_net_pages(
    bricks: BrickSet, env: jinja2.Environment, paper: tuple[float, float], margin: float,
    band: float, gap: float = 5.0,
) -> list[Scene]:
    """One net per brick of the set, packed in rows on as many pages as needed (portrait, or
    landscape when that holds more nets)."""
    unit = bricks.unit_mm
    tab = min(8.0, max(4.0, 0.3 * bricks.thickness * unit))
    net = box_net(bricks.length * unit, bricks.width * unit, bricks.thickness * unit, tab)
    context = _net_context(net)
    counts = Counter(b.color for b in bricks.bricks)
    seen: Counter[str] = Counter()
    drawings: list[Scene] = []
    for brick in bricks.bricks:
        seen[brick.color] += 1
        layout = render_layout(
            env, "brix/brick-net.yaml.j2",
            {"net": context, "brick": {"color_name": brick.color,
                                       "color": bricks.colors[brick.color],
                                       "number": seen[brick.color],
                                       "count": counts[brick.color]}},
            what=f"paper brick {brick.name}",
        )
        drawings.append(Scene(net.w, net.h, layout.items))

    def per_page(page_w: float, page_h: float) -> tuple[int, int]:
        cols = int((page_w - 2 * margin + gap) // (net.w + gap))
        rows = int((page_h - 2 * margin - band + gap) // (net.h + gap))
        return cols, rows

    short, long = sorted(paper)
    page_w, page_h = short, long
    cols, rows = per_page(short, long)
    if per_page(long, short)[0] * per_page(long, short)[1] > cols * rows:
        page_w, page_h = long, short
        cols, rows = per_page(long, short)
    if cols < 1 or rows < 1:
        raise ValueError(f"a {net.w:g} x {net.h:g} mm brick net does not fit on the paper")
    block_w = cols * (net.w + gap) - gap
    left = (page_w - block_w) / 2
    pages: list[Scene] = []
    for start in range(0, len(drawings), cols * rows):
        items = []
        for k, drawing in enumerate(drawings[start:start + cols * rows]):
            row, col = divmod(k, cols)
            items.append(Group(drawing.items, round(left + col * (net.w + gap), 4),
                               round(margin + row * (net.h + gap), 4)))
        pages.append(Scene(page_w, page_h, tuple(items)))
    return pages
