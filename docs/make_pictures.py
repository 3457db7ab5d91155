"""Render the README's pictures with the project's own code: `python docs/make_pictures.py`.

Every picture is drawn by the same functions the commands use (the PDF pages that get printed,
the card PNGs for print shops, the witness tower of `brix verify`), rasterised with pypdfium2
like `tower_print/render/raster.py` does, scaled to a few hundred pixels and reduced to a
palette so that each file stays small. Same code and content, same bytes: nothing depends on
the clock and no metadata is written. Takes about half a minute.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

DOCS = Path(__file__).resolve().parent
GAP = 16  # px between pictures set side by side
COLORS = 128  # palette size: small files, no visible banding on flat print artwork


def page_image(pdf: bytes, index: int, width_px: int) -> Image.Image:
    """Page `index` of `pdf` as an RGB image `width_px` wide."""
    document = pdfium.PdfDocument(pdf)
    try:
        page = document[index]
        page_w, _ = page.get_size()
        image = page.render(scale=width_px / page_w * (1 - 1e-7)).to_pil().convert("RGB")
        page.close()
        return image
    finally:
        document.close()


def side_by_side(images: list[Image.Image], height_px: int) -> Image.Image:
    """`images` scaled to one height and set in a row on white, GAP px apart."""
    scaled = [im.resize((round(im.width * height_px / im.height), height_px),
                        Image.Resampling.LANCZOS) for im in images]
    out = Image.new("RGB", (sum(im.width for im in scaled) + GAP * (len(scaled) - 1), height_px),
                    "white")
    x = 0
    for im in scaled:
        out.paste(im, (x, 0))
        x += im.width + GAP
    return out


def save(image: Image.Image, name: str) -> None:
    """A palette PNG under docs/, without metadata (deterministic bytes)."""
    small = image.quantize(colors=COLORS, method=Image.Quantize.MEDIANCUT,
                           dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    small.save(buffer, format="PNG", optimize=True)
    path = DOCS / name
    path.write_bytes(buffer.getvalue())
    print(f"{path.relative_to(DOCS.parent)}: {image.width} x {image.height} px, "
          f"{len(buffer.getvalue()) // 1024} KB")


def towerbrix_pictures() -> None:
    """A green card's front and back, a sheet of card fronts, the tower of the README's first
    command."""
    from tower_print.brix.printables import PrintJob, build_outputs

    files = build_outputs(PrintJob(("green",), "a4", png=True))
    # The print-shop PNGs carry 1/8 inch (37.5 px at 300 dpi) of bleed: show the trimmed card.
    trim = 38
    cards = []
    for name in ("png/green/G05.png", "png/green/back-3.png"):
        im = Image.open(io.BytesIO(files[name])).convert("RGB")
        cards.append(im.crop((trim, trim, im.width - trim, im.height - trim)))
    save(side_by_side(cards, 380), "brix-card.png")
    save(page_image(files["towerbrix-green-cards.pdf"], 0, 560), "brix-sheet.png")

    from tower_print.brix.challenges import decide, default_challenges
    from tower_print.brix.sketch import tower_scene
    from tower_print.brix.verify import conditions_to_check, open_deck, verify_solver
    from tower_print.render.pdf import scene_to_pdf_bytes

    deck = open_deck("green")
    items = conditions_to_check(deck, ["G01", "G05", "G17"], [])
    decided = decide(verify_solver(deck, seed=0), items,
                     default_challenges(deck.bricks.color_names).pick([]), 60.0)
    tower = decided.verdict.tower
    if tower is None:
        sys.exit(f"brix verify G01 G05 G17 found no tower ({decided.status})")
    scene = tower_scene(tower, deck.bricks.colors, deck.bricks.unit_mm)
    save(page_image(scene_to_pdf_bytes(scene), 0, 420), "brix-tower.png")


def towerup_pictures() -> None:
    """The front board side on one page, and the first sheet of it tiled over A4."""
    from tower_print.towerup.printables import PrintJob, build_outputs

    files = build_outputs(PrintJob("a4", side="front"))
    save(page_image(files["towerup-board-front-large.pdf"], 0, 600), "towerup-board.png")
    save(page_image(files["towerup-board-front.pdf"], 0, 480), "towerup-tile.png")


def uptower_pictures() -> None:
    """The first sheet of a pad, and the answer key of the seed-7 solo puzzle."""
    from tower_print.uptower.pieces import default_rules
    from tower_print.uptower.printables import pad_pdf, puzzle_pdf
    from tower_print.uptower.puzzle import make_puzzle

    rules = default_rules()
    sheet = page_image(pad_pdf(rules, 1, "a4", 1), 0, 1000)
    key = page_image(puzzle_pdf(rules, [make_puzzle(rules, 7, None, None)], "a4"), 1, 1000)
    save(side_by_side([sheet, key], 480), "uptower-pad.png")


def main() -> None:
    towerbrix_pictures()
    towerup_pictures()
    uptower_pictures()


if __name__ == "__main__":
    main()
