"""Text fitting (wrap, shrink, never clip), the shipped font, and the new scene items."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from pypdf import PdfReader

from tower_print.render.fonts import metrics, text_width
from tower_print.render.pdf import scenes_to_pdf_bytes
from tower_print.render.scene import Group, Rect, Scene, Text, group_in_box
from tower_print.render.svg import scene_to_svg
from tower_print.render.text import Box, TextDoesNotFit, fit_text, wrap

SVG = "{http://www.w3.org/2000/svg}"
LONG = ("Every purple brick stands upright, and no upright brick may touch the table, "
        "so both of them rest on something else.")


def extent(lines: tuple[Text, ...]) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of the glyph boxes of laid-out lines."""
    face = metrics(lines[0].bold)
    lefts, rights = [], []
    for line in lines:
        width = text_width(line.text, line.size, line.bold)
        assert line.length == pytest.approx(width, abs=1e-3)
        left = {"start": line.x, "middle": line.x - width / 2, "end": line.x - width}[line.anchor]
        lefts.append(left)
        rights.append(left + width)
    top = lines[0].y - lines[0].size * face.ascent
    bottom = lines[-1].y + lines[-1].size * face.descent
    return min(lefts), top, max(rights), bottom


@pytest.mark.parametrize("align", ["left", "center", "right"])
@pytest.mark.parametrize("valign", ["top", "middle", "bottom"])
def test_text_stays_inside_its_box(align: str, valign: str) -> None:
    box = Box(5, 10, 40, 30)
    lines = fit_text(LONG, box, 4.0, 2.0, align=align, valign=valign)  # type: ignore[arg-type]
    assert len(lines) > 1
    left, top, right, bottom = extent(lines)
    assert left >= box.x - 1e-6 and right <= box.x + box.w + 1e-6
    assert top >= box.y - 1e-6 and bottom <= box.y + box.h + 1e-6
    assert " ".join(line.text for line in lines) == LONG


def test_text_keeps_its_size_when_it_fits_and_shrinks_only_as_needed() -> None:
    roomy = fit_text("Short text.", Box(0, 0, 50, 20), 4.0, 2.0)
    assert [line.size for line in roomy] == [4.0]
    tight = fit_text(LONG, Box(0, 0, 40, 14), 4.0, 1.5)
    size = tight[0].size
    assert 1.5 <= size < 4.0
    # a little larger no longer fits: the search found (close to) the largest size
    with pytest.raises(TextDoesNotFit):
        fit_text(LONG, Box(0, 0, 40, 14), size + 0.05, size + 0.05)


def test_text_that_cannot_fit_is_an_error_not_a_clipped_card() -> None:
    with pytest.raises(TextDoesNotFit, match="does not fit"):
        fit_text(LONG, Box(0, 0, 20, 5), 4.0, 3.0)
    with pytest.raises(TextDoesNotFit):
        fit_text("Incomprehensibilities", Box(0, 0, 10, 50), 4.0, 3.0)  # one word too wide


def test_wrap_honours_newlines_and_never_splits_words() -> None:
    assert wrap("one two\nthree", 1000, 3.0) == ["one two", "three"]
    lines = wrap(LONG, 30, 3.0)
    assert lines is not None and " ".join(lines) == LONG
    assert all(text_width(line, 3.0) <= 30 for line in lines)
    assert wrap("Incomprehensibilities", 5, 3.0) is None


def test_max_lines_forces_a_single_line() -> None:
    (line,) = fit_text(LONG, Box(0, 0, 100, 50), 4.0, 1.0, max_lines=1)
    assert line.text == LONG and text_width(LONG, line.size) <= 100


def test_group_in_box_keeps_proportions_and_centres() -> None:
    group = group_in_box(Scene(20, 10, ()), 0, 0, 40, 40)
    assert group.scale == 2 and (group.dx, group.dy) == (0, 10)


def groups_scene() -> Scene:
    card = (Rect(0, 0, 30, 40, "#2E8B57", "#000000", 0.3, radius=3, dash=(1, 0.5)),
            Text(15, 20, 'a < b & "c"', 3.0, "middle", "#FFFFFF", True, 12.0))
    return Scene(100, 60, (Group(card, 10, 5, 1.0, clip=(0, 0, 30, 40)),
                           Group(card, 50, 5, 0.5)))


def test_svg_groups_rects_and_bold_text() -> None:
    root = ET.fromstring(scene_to_svg(groups_scene()).encode("utf-8"))
    groups = [g for g in root.iter(f"{SVG}g") if g.get("transform")]
    assert [g.get("transform") for g in groups] == ["translate(10 5)", "translate(50 5) scale(0.5)"]
    clips = list(root.iter(f"{SVG}clipPath"))
    assert [c.get("id") for c in clips] == ["clip1"]
    rects = [r for r in root.iter(f"{SVG}rect") if r.get("fill") == "#2E8B57"]
    assert rects[0].get("rx") == "3" and rects[0].get("stroke-dasharray") == "1,0.5"
    texts = list(root.iter(f"{SVG}text"))
    assert texts[0].text == 'a < b & "c"' and texts[0].get("font-weight") == "bold"
    assert texts[0].get("textLength") == "12"


def test_pdf_pages_embed_the_shipped_font() -> None:
    pages = [groups_scene(), Scene(50, 50, (Text(5, 20, "second page", 4.0),))]
    reader = PdfReader(__import__("io").BytesIO(scenes_to_pdf_bytes(pages, "t")))
    assert len(reader.pages) == 2
    fonts = {}
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            fonts[str(font["/BaseFont"])] = font
    assert any("DejaVuSansCondensed-Bold" in name for name in fonts)
    assert any(name.endswith("DejaVuSansCondensed") for name in fonts)
    for font in fonts.values():
        descriptor = font["/FontDescriptor"].get_object()
        assert "/FontFile2" in descriptor  # the TrueType program itself is in the file
    text = reader.pages[0].extract_text()
    assert 'a < b & "c"' in text
