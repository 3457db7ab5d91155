"""Tiling: a drawing larger than the paper cut into page-sized windows that overlap.

Knows no game. The drawing is laid out in a grid of windows, each as large as the printable area
of the paper (inside the margin, above the legend band), neighbours sharing `overlap` mm. Every
page shows its window of the drawing at 100 % and, inside each overlap strip, alignment targets
at the same drawing coordinates on both sheets, plus a dashed line where the strip starts: trim
one sheet there, lay it over its neighbour and match the targets. Portrait or landscape,
whichever needs fewer pages (portrait on a tie).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tower_print.render.scene import Group, Item, Line, Rect, Scene

TARGET_STEP = 50.0  # mm between alignment targets along a seam
TARGET_SIZE = 6.0  # mm across a target
MARK_COLOR = "#E0007A"  # a colour the drawing is unlikely to use, so the marks stand out


@dataclass(frozen=True)
class TileSpec:
    paper_w: float
    paper_h: float
    margin: float = 5.0
    legend_band: float = 6.0
    overlap: float = 10.0


@dataclass(frozen=True)
class Tile:
    """One page: the window (x, y, w, h) of the drawing it shows, at (margin, margin)."""

    scene: Scene
    row: int
    col: int
    rows: int
    cols: int
    x: float
    y: float
    w: float
    h: float

    @property
    def label(self) -> str:
        return f"{chr(ord('A') + self.row)}{self.col + 1}"


def _count(length: float, window: float, overlap: float) -> int:
    if length <= window:
        return 1
    return math.ceil((length - overlap) / (window - overlap) - 1e-9)


def _grid(spec: TileSpec, width: float, height: float, page_w: float, page_h: float,
          ) -> tuple[int, int, float, float, float, float]:
    win_w = page_w - 2 * spec.margin
    win_h = page_h - 2 * spec.margin - spec.legend_band
    if win_w <= spec.overlap or win_h <= spec.overlap:
        raise ValueError(f"an overlap of {spec.overlap:g} mm leaves no room on the paper")
    return (_count(width, win_w, spec.overlap), _count(height, win_h, spec.overlap),
            win_w, win_h, page_w, page_h)


def _target(x: float, y: float) -> list[Item]:
    r = TARGET_SIZE / 2
    return [Rect(x - r * 0.6, y - r * 0.6, r * 1.2, r * 1.2, stroke=MARK_COLOR,
                 stroke_width=0.25, radius=r * 0.6),
            Line(x - r, y, x + r, y, MARK_COLOR, 0.25),
            Line(x, y - r, x, y + r, MARK_COLOR, 0.25)]


def _marks(xs: list[float], ys: list[float], width: float, height: float, overlap: float,
           ) -> list[Item]:
    """Seam marks in drawing coordinates: targets in every overlap strip, dashed strip starts."""
    items: list[Item] = []
    along_y = [TARGET_STEP / 2 + k * TARGET_STEP for k in range(int(height // TARGET_STEP) + 1)]
    along_x = [TARGET_STEP / 2 + k * TARGET_STEP for k in range(int(width // TARGET_STEP) + 1)]
    for x in xs[1:]:
        items.append(Line(x, 0, x, height, MARK_COLOR, 0.2, (2.0, 1.5)))
        items.extend(t for y in along_y if y < height for t in _target(x + overlap / 2, y))
    for y in ys[1:]:
        items.append(Line(0, y, width, y, MARK_COLOR, 0.2, (2.0, 1.5)))
        items.extend(t for x in along_x if x < width for t in _target(x, y + overlap / 2))
    return items


def tile(drawing: Scene, spec: TileSpec) -> list[Tile]:
    """Pages covering `drawing`, row by row from the top left."""
    short, long = sorted((spec.paper_w, spec.paper_h))
    options = [_grid(spec, drawing.width, drawing.height, short, long),
               _grid(spec, drawing.width, drawing.height, long, short)]
    cols, rows, win_w, win_h, page_w, page_h = min(options, key=lambda g: g[0] * g[1])
    step_x, step_y = win_w - spec.overlap, win_h - spec.overlap
    xs = [round(c * step_x, 4) for c in range(cols)]
    ys = [round(r * step_y, 4) for r in range(rows)]
    marks = tuple(_marks(xs, ys, drawing.width, drawing.height, spec.overlap))
    tiles = []
    for row, y in enumerate(ys):
        for col, x in enumerate(xs):
            w = round(min(win_w, drawing.width - x), 4)
            h = round(min(win_h, drawing.height - y), 4)
            dx, dy = round(spec.margin - x, 4), round(spec.margin - y, 4)
            page = Scene(page_w, page_h, (
                Group(drawing.items, dx, dy, clip=(x, y, w, h)),
                Group(marks, dx, dy, clip=(x, y, w, h)),
            ))
            tiles.append(Tile(page, row, col, rows, cols, x, y, w, h))
    return tiles
