"""A tiny scene model: shapes and text in millimetres, drawn by the SVG and PDF backends.

Games build a `Scene` once and every backend draws the same thing, so what is printed and what is
previewed cannot drift apart. The model knows no game. Coordinates are millimetres with the origin
at the top left and y growing downward (the SVG convention); the PDF backend flips y itself.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Union

Point = tuple[float, float]
Anchor = Literal["start", "middle", "end"]

#: Colour strings are SVG-style: "#RRGGBB", "#RGB", a CSS colour name, or "none".
NONE = "none"


@dataclass(frozen=True)
class Polygon:
    """A closed outline, filled and stroked; faces, cards and tiles are all polygons."""

    points: tuple[Point, ...]
    fill: str = NONE
    stroke: str = NONE
    stroke_width: float = 0.0


@dataclass(frozen=True)
class Line:
    """A straight stroke: table edges, crop marks, guides. `dash` is (on, off, ...) in mm."""

    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = "#000000"
    stroke_width: float = 0.25
    dash: tuple[float, ...] = ()


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle with corners rounded by `radius` mm: panels, cut guides."""

    x: float
    y: float
    w: float
    h: float
    fill: str = NONE
    stroke: str = NONE
    stroke_width: float = 0.0
    radius: float = 0.0
    dash: tuple[float, ...] = ()


@dataclass(frozen=True)
class Text:
    """One line of text; (x, y) is on the baseline, `anchor` says which end of the line it is.

    `size` is the font size in mm (the em height), so layouts stay in one unit. `bold` picks the
    bold face of the shipped font. `length`, when known, is the line's width in mm measured with
    the shipped font (`tower_print.render.text`); the SVG backend pins the line to it so a viewer
    that substitutes another font still cannot run the text out of its box.
    """

    x: float
    y: float
    text: str
    size: float = 3.5
    anchor: Anchor = "start"
    fill: str = "#000000"
    bold: bool = False
    length: float | None = None


@dataclass(frozen=True)
class Group:
    """Items drawn shifted by (`dx`, `dy`) and scaled by `scale` (in that order: a point p of
    the group lands at (dx, dy) + scale * p), optionally clipped to `clip` = (x, y, w, h) in the
    group's own coordinates. Cards are placed on sheets as groups; sketches fit boxes with them.
    """

    items: tuple[Item, ...]
    dx: float = 0.0
    dy: float = 0.0
    scale: float = 1.0
    clip: tuple[float, float, float, float] | None = None


Item = Union[Polygon, Line, Rect, Text, Group]  # noqa: UP007 - a runtime alias (Python 3.10)


@dataclass(frozen=True)
class Scene:
    """A page-sized drawing: `width` x `height` mm, items drawn in order (later ones on top)."""

    width: float
    height: float
    items: tuple[Item, ...] = ()


def group_in_box(scene: Scene, x: float, y: float, w: float, h: float) -> Group:
    """`scene` scaled to fit the box (`x`, `y`, `w`, `h`) keeping its proportions, centred."""
    if scene.width <= 0 or scene.height <= 0:
        return Group((), x, y)
    scale = min(w / scene.width, h / scene.height)
    dx = x + (w - scene.width * scale) / 2
    dy = y + (h - scene.height * scale) / 2
    return Group(scene.items, round(dx, 4), round(dy, 4), round(scale, 6))


def write_atomic(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write `data` to `path` through a temporary file in the same folder and a rename.

    A crash or an error mid-way leaves either the old file or none, never a truncated one.
    """
    target = Path(path)
    # mkstemp makes the file private (0600); give the result the usual mode of an output file.
    mode = target.stat().st_mode & 0o777 if target.exists() else 0o644
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target
