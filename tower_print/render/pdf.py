"""PDF backend: `Scene`s as vector PDF pages, drawn with reportlab.

Each page's coordinate system is set once to millimetres with y down (the scene's convention), so
items are drawn with their own numbers and groups become nested transforms and clips. Text is set
in the shipped DejaVu Sans Condensed, embedded as a subset. The canvas runs with `invariant=1`
(no dates, fixed document id) so the same scenes give the same bytes.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from reportlab.lib.colors import Color, toColor
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas

from tower_print.render.fonts import font_name
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


@cache
def _color(value: str) -> Color:
    if len(value) == 4 and value.startswith("#"):
        # reportlab reads "#abc" as 0x000abc; SVG means "#aabbcc".
        value = "#" + "".join(c * 2 for c in value[1:])
    try:
        return toColor(value)
    except ValueError:
        raise ValueError(f"not a colour: {value!r}") from None


_COLOR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})|[a-zA-Z]+")


def check_color(value: str) -> None:
    """Raise ValueError unless both backends can draw `value`: #RGB, #RRGGBB, a colour name
    both know, or "none"."""
    if value == NONE:
        return
    if not _COLOR.fullmatch(value):
        raise ValueError(f"not a colour: {value!r}")
    _color(value)


class _Painter:
    def __init__(self, pdf: canvas.Canvas) -> None:
        self.pdf = pdf
        self.fill: str | None = None
        self.stroke: str | None = None
        self.width: float | None = None
        self.dash: tuple[float, ...] | None = None
        self.font: tuple[str, float] | None = None

    # reportlab writes every setter to the page stream; skip the ones that change nothing.
    def set_fill(self, value: str) -> None:
        if value != self.fill:
            self.pdf.setFillColor(_color(value))
            self.fill = value

    def set_stroke(self, value: str, width: float, dash: tuple[float, ...]) -> None:
        if value != self.stroke:
            self.pdf.setStrokeColor(_color(value))
            self.stroke = value
        if width != self.width:
            self.pdf.setLineWidth(width)
            self.width = width
        if dash != self.dash:
            self.pdf.setDash(list(dash) if dash else [], 0)
            self.dash = dash

    def forget(self) -> None:
        """After restoreState the graphics state is the saved one: track nothing."""
        self.fill = self.stroke = None
        self.width = None
        self.dash = None
        self.font = None

    def draw(self, items: Sequence[Item]) -> None:
        pdf = self.pdf
        for item in items:
            if isinstance(item, Polygon):
                if len(item.points) < 2:
                    continue
                fill = item.fill != NONE
                stroke = item.stroke != NONE and item.stroke_width > 0
                if not (fill or stroke):
                    continue
                path = pdf.beginPath()
                path.moveTo(*item.points[0])
                for point in item.points[1:]:
                    path.lineTo(*point)
                path.close()
                if fill:
                    self.set_fill(item.fill)
                if stroke:
                    self.set_stroke(item.stroke, item.stroke_width, ())
                pdf.drawPath(path, fill=int(fill), stroke=int(stroke))
            elif isinstance(item, Rect):
                fill = item.fill != NONE
                stroke = item.stroke != NONE and item.stroke_width > 0
                if not (fill or stroke) or item.w <= 0 or item.h <= 0:
                    continue
                if fill:
                    self.set_fill(item.fill)
                if stroke:
                    self.set_stroke(item.stroke, item.stroke_width, item.dash)
                radius = min(item.radius, item.w / 2, item.h / 2)
                if radius > 0:
                    pdf.roundRect(item.x, item.y, item.w, item.h, radius,
                                  stroke=int(stroke), fill=int(fill))
                else:
                    pdf.rect(item.x, item.y, item.w, item.h, stroke=int(stroke), fill=int(fill))
            elif isinstance(item, Line):
                if item.stroke == NONE or item.stroke_width <= 0:
                    continue
                self.set_stroke(item.stroke, item.stroke_width, item.dash)
                pdf.line(item.x1, item.y1, item.x2, item.y2)
            elif isinstance(item, Text):
                if item.fill == NONE or not item.text:
                    continue
                self.set_fill(item.fill)
                font = (font_name(item.bold), item.size)
                if font != self.font:
                    pdf.setFont(*font)
                    self.font = font
                # The page is y-down; flip each line back upright about its own baseline.
                pdf.saveState()
                pdf.transform(1, 0, 0, -1, item.x, item.y)
                if item.anchor == "middle":
                    pdf.drawCentredString(0, 0, item.text)
                elif item.anchor == "end":
                    pdf.drawRightString(0, 0, item.text)
                else:
                    pdf.drawString(0, 0, item.text)
                pdf.restoreState()
            elif isinstance(item, Group):
                pdf.saveState()
                if item.dx or item.dy or item.scale != 1:
                    pdf.transform(item.scale, 0, 0, item.scale, item.dx, item.dy)
                if item.clip is not None:
                    x, y, w, h = item.clip
                    path = pdf.beginPath()
                    path.rect(x, y, w, h)
                    pdf.clipPath(path, stroke=0, fill=0)
                self.draw(item.items)
                pdf.restoreState()
                self.forget()
            else:
                raise TypeError(f"unknown scene item: {item!r}")


def scenes_to_pdf_bytes(pages: Sequence[Scene], title: str = "") -> bytes:
    """The scenes as the pages of one PDF, each page the size of its scene."""
    if not pages:
        raise ValueError("a PDF needs at least one page")
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=(pages[0].width * mm, pages[0].height * mm),
                        invariant=1, pageCompression=1,
                        # else reportlab names Helvetica (not embedded) on every page
                        initialFontName=font_name(), initialFontSize=10)
    pdf.setTitle(title)
    pdf.setCreator("tower-print")
    for scene in pages:
        page_w, page_h = scene.width * mm, scene.height * mm
        pdf.setPageSize((page_w, page_h))
        pdf.setLineJoin(1)  # round, like the SVG backend
        pdf.setLineCap(1)
        pdf.transform(mm, 0, 0, -mm, 0, page_h)  # mm, origin top left, y down
        _Painter(pdf).draw(scene.items)
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def scene_to_pdf_bytes(scene: Scene) -> bytes:
    """The scene as the bytes of a one-page PDF."""
    return scenes_to_pdf_bytes([scene])


def scene_to_pdf(scene: Scene, path: str | os.PathLike[str]) -> Path:
    """Write the scene as a one-page PDF to `path` (temporary file + rename)."""
    return write_atomic(path, scene_to_pdf_bytes(scene))
