"""The one font family every output uses: DejaVu Sans Condensed, shipped in `fonts/` (an open
licence, see fonts/LICENSE-DejaVu.txt) and embedded as a subset in every PDF.

Text is measured here with the very font the PDF embeds, so a line that fits on screen fits on
paper. The condensed cut holds more words on a 63.5 mm card than the regular one.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = "DejaVuSansCondensed"
BOLD = "DejaVuSansCondensed-Bold"
#: What SVG viewers are asked for, best first (the SVG backend cannot embed the font).
SVG_FAMILY = "DejaVu Sans Condensed, DejaVu Sans, Verdana, sans-serif"


@dataclass(frozen=True)
class FontMetrics:
    """Vertical extent of the face as shares of the font size (from its `hhea` table)."""

    ascent: float
    descent: float  # positive: how far glyphs reach below the baseline


def _hhea(path: Path) -> FontMetrics:
    """Ascender and descender from the TrueType `head` and `hhea` tables."""
    data = path.read_bytes()
    (count,) = struct.unpack(">H", data[4:6])
    tables: dict[bytes, int] = {}
    for k in range(count):
        tag, _, offset, _ = struct.unpack(">4sIII", data[12 + 16 * k: 28 + 16 * k])
        tables[tag] = offset
    (units,) = struct.unpack(">H", data[tables[b"head"] + 18: tables[b"head"] + 20])
    ascender, descender = struct.unpack(">hh", data[tables[b"hhea"] + 4: tables[b"hhea"] + 8])
    return FontMetrics(ascender / units, -descender / units)


@cache
def font_name(bold: bool = False) -> str:
    """The reportlab name of the (registered) regular or bold face."""
    name = BOLD if bold else REGULAR
    pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / f"{name}.ttf")))
    return name


@cache
def metrics(bold: bool = False) -> FontMetrics:
    return _hhea(FONT_DIR / f"{BOLD if bold else REGULAR}.ttf")


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Width in mm of `text` set at `size` mm (em height) in the shipped font."""
    return pdfmetrics.stringWidth(text, font_name(bold), size)
