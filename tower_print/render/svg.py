"""SVG backend: a `Scene` as an SVG document sized in mm, with a viewBox in mm.

Output is deterministic (clip ids numbered in drawing order, no timestamps, numbers rounded to
1 µm) so the same scene always gives the same bytes; svgwrite escapes text and attribute values.
SVG cannot carry the font the PDF embeds without bloating every file, so text asks for DejaVu Sans
Condensed by name and each measured line is pinned to its measured width (`textLength`): a viewer
that substitutes a font squeezes it into the same room rather than running out of the box.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import svgwrite
from svgwrite.container import Group as SvgGroup

from tower_print.render.fonts import SVG_FAMILY
from tower_print.render.scene import (
    NONE,
    Group,
    Item,
    Line,
    Polygon,
    Rect,
    Scene,
    Text,
    write_atomic,
)


def _num(value: float) -> str:
    """A short, stable spelling of a length in mm (3 decimals, no trailing zeros, no -0)."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _scale(value: float) -> str:
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _stroke_attrs(stroke: str, width: float, dash: tuple[float, ...] = ()) -> dict[str, str]:
    if stroke == NONE or width <= 0:
        return {"stroke": NONE}
    attrs = {"stroke": stroke, "stroke_width": _num(width), "stroke_linejoin": "round"}
    if dash:
        attrs["stroke_dasharray"] = ",".join(_num(d) for d in dash)
    return attrs


class _Writer:
    def __init__(self, drawing: svgwrite.Drawing) -> None:
        self.drawing = drawing
        self.clips = 0

    def add(self, parent: Any, items: Sequence[Item]) -> None:
        drawing = self.drawing
        for item in items:
            if isinstance(item, Polygon):
                # Numbers go in pre-spelled: svgwrite writes them with "%s" as given.
                element = drawing.polygon(
                    points=[(_num(x), _num(y)) for x, y in item.points],
                    fill=item.fill,
                    **_stroke_attrs(item.stroke, item.stroke_width),
                )
            elif isinstance(item, Rect):
                extra = {}
                radius = min(item.radius, item.w / 2, item.h / 2)
                if radius > 0:
                    extra = {"rx": _num(radius), "ry": _num(radius)}
                element = drawing.rect(
                    insert=(_num(item.x), _num(item.y)), size=(_num(item.w), _num(item.h)),
                    fill=item.fill, **extra,
                    **_stroke_attrs(item.stroke, item.stroke_width, item.dash),
                )
            elif isinstance(item, Line):
                element = drawing.line(
                    start=(_num(item.x1), _num(item.y1)),
                    end=(_num(item.x2), _num(item.y2)),
                    stroke_linecap="round",
                    **_stroke_attrs(item.stroke, item.stroke_width, item.dash),
                )
            elif isinstance(item, Text):
                extra = {"font_weight": "bold"} if item.bold else {}
                if item.length is not None and item.length > 0:
                    extra["textLength"] = _num(item.length)
                    extra["lengthAdjust"] = "spacingAndGlyphs"
                element = drawing.text(
                    item.text,
                    insert=(_num(item.x), _num(item.y)),
                    fill=item.fill,
                    font_size=_num(item.size),
                    font_family=SVG_FAMILY,
                    text_anchor=item.anchor,
                    **extra,
                )
                # Keep runs of spaces as typed, like the PDF backend does.
                element.attribs["xml:space"] = "preserve"
            elif isinstance(item, Group):
                element = self.group(item)
            else:
                raise TypeError(f"unknown scene item: {item!r}")
            parent.add(element)

    def group(self, item: Group) -> SvgGroup:
        drawing = self.drawing
        outer = drawing.g()
        transform = []
        if item.dx or item.dy:
            transform.append(f"translate({_num(item.dx)} {_num(item.dy)})")
        if item.scale != 1:
            transform.append(f"scale({_scale(item.scale)})")
        if transform:
            outer.attribs["transform"] = " ".join(transform)
        if item.clip is None:
            self.add(outer, item.items)
            return outer
        self.clips += 1
        clip_id = f"clip{self.clips}"
        x, y, w, h = item.clip
        clip = drawing.clipPath(id=clip_id)
        clip.add(drawing.rect(insert=(_num(x), _num(y)), size=(_num(w), _num(h))))
        outer.add(clip)
        inner = drawing.g(clip_path=f"url(#{clip_id})")
        self.add(inner, item.items)
        outer.add(inner)
        return outer


def scene_to_svg(scene: Scene) -> str:
    """The scene as an SVG document (a str, starting with the XML declaration)."""
    drawing = svgwrite.Drawing(
        size=(f"{_num(scene.width)}mm", f"{_num(scene.height)}mm"),
        viewBox=f"0 0 {_num(scene.width)} {_num(scene.height)}",
        profile="full",
        debug=False,
    )
    _Writer(drawing).add(drawing, scene.items)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + drawing.tostring() + "\n"


def write_svg(scene: Scene, path: str | os.PathLike[str]) -> Path:
    """Write the scene as SVG to `path` (temporary file + rename: never a partial file)."""
    return write_atomic(path, scene_to_svg(scene).encode("utf-8"))
