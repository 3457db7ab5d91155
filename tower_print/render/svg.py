"""SVG backend: a `Scene` as an SVG document sized in mm, with a viewBox in mm.

Output is deterministic (no generated ids, no timestamps, numbers rounded to 1 µm) so the same
scene always gives the same bytes; svgwrite escapes text and attribute values.
"""

from __future__ import annotations

import os
from pathlib import Path

import svgwrite

from tower_print.render.scene import NONE, Line, Polygon, Scene, Text, write_atomic

#: Open fonts first: the PDF backend embeds Bitstream Vera, DejaVu is its widespread successor.
FONT_FAMILY = "Bitstream Vera Sans, DejaVu Sans, Verdana, sans-serif"


def _num(value: float) -> str:
    """A short, stable spelling of a length in mm (3 decimals, no trailing zeros, no -0)."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _stroke_attrs(stroke: str, width: float) -> dict[str, str]:
    if stroke == NONE or width <= 0:
        return {"stroke": NONE}
    return {"stroke": stroke, "stroke_width": _num(width), "stroke_linejoin": "round"}


def scene_to_svg(scene: Scene) -> str:
    """The scene as an SVG document (a str, starting with the XML declaration)."""
    drawing = svgwrite.Drawing(
        size=(f"{_num(scene.width)}mm", f"{_num(scene.height)}mm"),
        viewBox=f"0 0 {_num(scene.width)} {_num(scene.height)}",
        profile="full",
        debug=False,
    )
    for item in scene.items:
        if isinstance(item, Polygon):
            # Numbers go in pre-spelled: svgwrite writes them with "%s" as given.
            element = drawing.polygon(
                points=[(_num(x), _num(y)) for x, y in item.points],
                fill=item.fill,
                **_stroke_attrs(item.stroke, item.stroke_width),
            )
        elif isinstance(item, Line):
            element = drawing.line(
                start=(_num(item.x1), _num(item.y1)),
                end=(_num(item.x2), _num(item.y2)),
                stroke_linecap="round",
                **_stroke_attrs(item.stroke, item.stroke_width),
            )
        elif isinstance(item, Text):
            element = drawing.text(
                item.text,
                insert=(_num(item.x), _num(item.y)),
                fill=item.fill,
                font_size=_num(item.size),
                font_family=FONT_FAMILY,
                text_anchor=item.anchor,
            )
            # Keep runs of spaces as typed, like the PDF backend does.
            element.attribs["xml:space"] = "preserve"
        else:
            raise TypeError(f"unknown scene item: {item!r}")
        drawing.add(element)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + drawing.tostring() + "\n"


def write_svg(scene: Scene, path: str | os.PathLike[str]) -> Path:
    """Write the scene as SVG to `path` (temporary file + rename: never a partial file)."""
    return write_atomic(path, scene_to_svg(scene).encode("utf-8"))
