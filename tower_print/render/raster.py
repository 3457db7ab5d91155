"""Pictures of PDF pages: one PNG per card for print shops, deck sheets for Tabletop Simulator.

The PNGs are rasterised from the very PDF pages that are printed (pdfium through pypdfium2), so
a print shop's file and a home print cannot differ in anything but resolution. PNG bytes are
deterministic: no timestamps or other metadata are written.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import pypdfium2 as pdfium
from PIL import Image

MM_PER_INCH = 25.4
PT_PER_MM = 72 / MM_PER_INCH


def _exact(image: Image.Image, width: int, height: int) -> Image.Image:
    """pdfium rounds the bitmap size; make it exactly `width` x `height` (at most a pixel off)."""
    if image.size == (width, height):
        return image
    if image.width >= width and image.height >= height:
        return image.crop((0, 0, width, height))
    return image.resize((width, height), Image.Resampling.LANCZOS)


def rasterise(
    pdf: bytes, width_px: int, height_px: int, crop_mm: float = 0.0
) -> Iterator[Image.Image]:
    """Every page of `pdf` as an RGB image of exactly `width_px` x `height_px`, after cutting
    `crop_mm` off every side (to drop the bleed)."""
    document = pdfium.PdfDocument(pdf)
    try:
        for index in range(len(document)):
            page = document[index]
            page_w, _ = page.get_size()
            crop = crop_mm * PT_PER_MM
            scale = width_px / (page_w - 2 * crop) * (1 - 1e-7)
            bitmap = page.render(scale=scale, crop=(crop, crop, crop, crop))
            image = bitmap.to_pil().convert("RGB")
            page.close()
            yield _exact(image, width_px, height_px)
    finally:
        document.close()


def first_page(pdf: bytes, width_px: int) -> Image.Image:
    """The first page of `pdf` as an RGB image `width_px` wide, height by the page's aspect
    (a preview, e.g. the kit index's thumbnails)."""
    document = pdfium.PdfDocument(pdf)
    try:
        page = document[0]
        page_w, page_h = page.get_size()
        image = page.render(scale=width_px / page_w * (1 - 1e-7)).to_pil().convert("RGB")
        page.close()
        return _exact(image, width_px, round(width_px * page_h / page_w))
    finally:
        document.close()


def pixels(length_mm: float, dpi: int) -> int:
    return round(length_mm / MM_PER_INCH * dpi)


def png_bytes(image: Image.Image, dpi: int | None = None) -> bytes:
    """PNG bytes; with `dpi` the file says its resolution (shops read it to check size)."""
    buffer = io.BytesIO()
    extra = {"dpi": (dpi, dpi)} if dpi else {}
    image.save(buffer, format="PNG", compress_level=6, **extra)
    return buffer.getvalue()


@dataclass(frozen=True)
class SheetGrid:
    """A Tabletop Simulator deck sheet: `columns` x `rows` cells of `cell_w` x `cell_h` px."""

    columns: int
    rows: int
    cell_w: int
    cell_h: int

    @property
    def size(self) -> tuple[int, int]:
        return self.columns * self.cell_w, self.rows * self.cell_h

    @property
    def capacity(self) -> int:
        """Cards one sheet holds: every slot but the last, which is the hidden card."""
        return self.columns * self.rows - 1


def tts_grid(cards: int, aspect: float, columns: int, rows: int, max_px: int) -> SheetGrid:
    """The grid for `cards` cards of `aspect` = height / width on one sheet: as many columns as
    allowed (fewer if the cards are few), rows as needed, cells as large as `max_px` allows."""
    cols = max(2, min(columns, cards + 1))
    needed = math.ceil((cards + 1) / cols)
    if needed > rows:
        raise ValueError(f"{cards} cards need more than one {columns} x {rows} sheet")
    cell_w = min(max_px // cols, math.floor(max_px / needed / aspect))
    return SheetGrid(cols, needed, cell_w, round(cell_w * aspect))


def tts_sheet(cards: Sequence[Image.Image], hidden: Image.Image, grid: SheetGrid) -> Image.Image:
    """Cards row by row from the top left, the hidden card in the last slot, the rest white."""
    if len(cards) > grid.capacity:
        raise ValueError(f"{len(cards)} cards do not fit a sheet of {grid.capacity}")
    sheet = Image.new("RGB", grid.size, (255, 255, 255))
    slots = [*cards]
    for k, image in enumerate(slots):
        row, col = divmod(k, grid.columns)
        sheet.paste(_exact(image, grid.cell_w, grid.cell_h), (col * grid.cell_w, row * grid.cell_h))
    last = grid.columns * grid.rows - 1
    row, col = divmod(last, grid.columns)
    sheet.paste(_exact(hidden, grid.cell_w, grid.cell_h), (col * grid.cell_w, row * grid.cell_h))
    return sheet
