"""PDF backend: a `Scene` as one vector PDF page of the scene's size, drawn with reportlab.

The scene is in mm with y down; PDF is in points with y up, so every point is scaled and flipped
here. Text is set in Bitstream Vera (shipped with reportlab), embedded as a subset. The canvas runs
with `invariant=1` (no dates, fixed document id) so the same scene gives the same bytes.
"""

from __future__ import annotations

import io
import os
from functools import cache
from pathlib import Path

from reportlab.lib.colors import Color, toColor
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from tower_print.render.scene import NONE, Line, Polygon, Scene, Text, write_atomic

FONT_NAME = "Vera"


@cache
def _font() -> str:
    """Register the open Vera font once (reportlab finds Vera.ttf in its own fonts folder)."""
    pdfmetrics.registerFont(TTFont(FONT_NAME, "Vera.ttf"))
    return FONT_NAME


@cache
def _color(value: str) -> Color:
    if len(value) == 4 and value.startswith("#"):
        # reportlab reads "#abc" as 0x000abc; SVG means "#aabbcc".
        value = "#" + "".join(c * 2 for c in value[1:])
    try:
        return toColor(value)
    except ValueError:
        raise ValueError(f"not a colour: {value!r}") from None


def scene_to_pdf_bytes(scene: Scene) -> bytes:
    """The scene as the bytes of a one-page PDF."""
    buffer = io.BytesIO()
    page_w, page_h = scene.width * mm, scene.height * mm
    pdf = canvas.Canvas(buffer, pagesize=(page_w, page_h), invariant=1, pageCompression=1)
    pdf.setPageCompression(1)
    pdf.setLineJoin(1)  # round, like the SVG backend
    pdf.setLineCap(1)

    def xy(x: float, y: float) -> tuple[float, float]:
        return x * mm, page_h - y * mm

    for item in scene.items:
        if isinstance(item, Polygon):
            if len(item.points) < 2:
                continue
            path = pdf.beginPath()
            path.moveTo(*xy(*item.points[0]))
            for point in item.points[1:]:
                path.lineTo(*xy(*point))
            path.close()
            fill = item.fill != NONE
            stroke = item.stroke != NONE and item.stroke_width > 0
            if fill:
                pdf.setFillColor(_color(item.fill))
            if stroke:
                pdf.setStrokeColor(_color(item.stroke))
                pdf.setLineWidth(item.stroke_width * mm)
            if fill or stroke:
                pdf.drawPath(path, fill=int(fill), stroke=int(stroke))
        elif isinstance(item, Line):
            if item.stroke == NONE or item.stroke_width <= 0:
                continue
            pdf.setStrokeColor(_color(item.stroke))
            pdf.setLineWidth(item.stroke_width * mm)
            pdf.line(*xy(item.x1, item.y1), *xy(item.x2, item.y2))
        elif isinstance(item, Text):
            if item.fill == NONE or not item.text:
                continue
            pdf.setFillColor(_color(item.fill))
            pdf.setFont(_font(), item.size * mm)
            x, y = xy(item.x, item.y)
            if item.anchor == "middle":
                pdf.drawCentredString(x, y, item.text)
            elif item.anchor == "end":
                pdf.drawRightString(x, y, item.text)
            else:
                pdf.drawString(x, y, item.text)
        else:
            raise TypeError(f"unknown scene item: {item!r}")
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def scene_to_pdf(scene: Scene, path: str | os.PathLike[str]) -> Path:
    """Write the scene as a one-page PDF to `path` (temporary file + rename)."""
    return write_atomic(path, scene_to_pdf_bytes(scene))
