"""Fitting text into a box: wrap at spaces, shrink when needed, never clip.

`fit_text` turns a string and a box into `Text` lines. It keeps the wanted size when the text fits,
otherwise finds the largest size down to `min_size` at which the wrapped lines fit, and raises
`TextDoesNotFit` when even that is too big: a caller reports which card and template it was,
instead of printing a card with text running off it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tower_print.content import UserError
from tower_print.render.fonts import metrics, text_width
from tower_print.render.scene import Anchor, Text

Align = Literal["left", "center", "right"]
VAlign = Literal["top", "middle", "bottom"]

_ANCHOR: dict[str, Anchor] = {"left": "start", "center": "middle", "right": "end"}
_STEPS = 12  # bisection steps between min_size and size: about size / 4096 resolution


class TextDoesNotFit(UserError):
    """No size between `min_size` and `size` makes the text fit its box."""


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float


def wrap(text: str, width: float, size: float, bold: bool = False) -> list[str] | None:
    """Greedy line breaking at spaces; explicit newlines start a new line.

    None when a single word is wider than `width` at this size (words are never split)."""
    lines: list[str] = []
    space = text_width(" ", size, bold)
    for paragraph in text.split("\n"):
        words = paragraph.split()
        if not words:
            lines.append("")
            continue
        line, line_width = "", 0.0
        for word in words:
            word_width = text_width(word, size, bold)
            if word_width > width:
                return None
            if line and line_width + space + word_width <= width:
                line, line_width = f"{line} {word}", line_width + space + word_width
            elif line:
                lines.append(line)
                line, line_width = word, word_width
            else:
                line, line_width = word, word_width
        lines.append(line)
    return lines


def block_height(lines: int, size: float, line_height: float, bold: bool = False) -> float:
    """From the top of the first line's tallest glyph to the bottom of the last line's."""
    face = metrics(bold)
    return size * (face.ascent + face.descent) + (lines - 1) * size * line_height


def _fits(
    text: str, box: Box, size: float, line_height: float, bold: bool, max_lines: int | None
) -> list[str] | None:
    lines = wrap(text, box.w, size, bold)
    if lines is None or (max_lines is not None and len(lines) > max_lines):
        return None
    if block_height(len(lines), size, line_height, bold) > box.h:
        return None
    return lines


def fit_text(
    text: str, box: Box, size: float, min_size: float | None = None, *,
    bold: bool = False, align: Align = "left", valign: VAlign = "top",
    line_height: float = 1.2, fill: str = "#000000", max_lines: int | None = None,
) -> tuple[Text, ...]:
    """`text` as lines inside `box`, at `size` mm or the largest smaller size that fits."""
    min_size = size if min_size is None else min(min_size, size)
    if box.w <= 0 or box.h <= 0:
        raise TextDoesNotFit(f"the box for {text[:30]!r} has no room ({box.w} x {box.h} mm)")
    chosen = size
    lines = _fits(text, box, size, line_height, bold, max_lines)
    if lines is None:
        low, high = min_size, size
        best = _fits(text, box, low, line_height, bold, max_lines)
        if best is None:
            raise TextDoesNotFit(
                f"text {text[:40]!r} does not fit {box.w:g} x {box.h:g} mm even at "
                f"{min_size:g} mm; shorten it or give it a larger box in the template"
            )
        lines, chosen = best, low
        for _ in range(_STEPS):
            middle = (low + high) / 2
            attempt = _fits(text, box, middle, line_height, bold, max_lines)
            if attempt is None:
                high = middle
            else:
                lines, chosen, low = attempt, middle, middle
    chosen = round(chosen, 4)
    face = metrics(bold)
    height = block_height(len(lines), chosen, line_height, bold)
    top = box.y
    if valign == "middle":
        top = box.y + (box.h - height) / 2
    elif valign == "bottom":
        top = box.y + box.h - height
    x = {"left": box.x, "center": box.x + box.w / 2, "right": box.x + box.w}[align]
    out: list[Text] = []
    for k, line in enumerate(lines):
        if not line:
            continue
        baseline = top + chosen * face.ascent + k * chosen * line_height
        out.append(Text(
            round(x, 4), round(baseline, 4), line, chosen, _ANCHOR[align], fill, bold,
            round(text_width(line, chosen, bold), 4),
        ))
    return tuple(out)
