"""Imposition: cards with bleed laid out on A4 or Letter sheets, backs mirrored for duplex.

Knows no game. A card is a `Scene` of (card + 2 x bleed) mm whose trim starts at (bleed, bleed).
Cards sit in a grid with `gutter` mm between trims: with the default 0 neighbours share their cut
lines (one guillotine cut serves both cards) and only the outer edges of the block keep their
full bleed; with a gutter of two bleeds every card keeps its own. Each card is clipped to its
trim plus the bleed it may use, so no card paints over its neighbour.

Crop marks sit outside the block, in line with every trim edge, never inside any card's bleed.
The grid and orientation are chosen to fit the most cards on the paper inside a margin (room for
the marks and for a printer's unprintable edge) and a band at the bottom for the legend line
(kept at the top too when the backs mirror top to bottom: the block is then centred on the page).

Backs: the page after each sheet of fronts holds the same cards' backs at mirrored places, so that
a card's back lands behind its front when the sheet is printed double-sided and turned over its
long edge (`long`) or short edge (`short`). For a portrait page turning over the long edge mirrors
left-right; for a landscape page it mirrors top-bottom. `none` puts the backs on their own page at
the fronts' places, for printing single-sided and gluing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import jinja2

from tower_print.render.layout import render_layout
from tower_print.render.pdf import check_color, scenes_to_pdf_bytes
from tower_print.render.scene import Group, Item, Line, Rect, Scene
from tower_print.render.svg import scene_to_svg

DUPLEX_LEGEND = {
    "long": "print double-sided, flip on the long edge",
    "short": "print double-sided, flip on the short edge",
    "none": "print single-sided, glue each back to its front",
}

DUPLEX_MODES = ("long", "short", "none")
EPS = 1e-6
SEAM = 0.15  # mm a card may paint past a cut line it shares with a neighbour

TrimBox = tuple[float, float, float, float]  # x, y, w, h on the page, mm


@dataclass(frozen=True)
class SheetStyle:
    """How marks and guides look (read from the sheet template)."""

    mark_length: float = 4.0
    mark_offset: float = 1.0  # gap between the outer bleed edge and a mark
    mark_color: str = "#000000"
    mark_width: float = 0.2
    guide_radius: float = 3.0
    guide_color: str = "#7F7F7F"
    guide_width: float = 0.15
    guide_dash: tuple[float, ...] = (1.0, 1.0)


@dataclass(frozen=True)
class SheetSpec:
    paper_w: float  # portrait: the short side
    paper_h: float
    card_w: float
    card_h: float
    bleed: float = 3.0
    gutter: float = 0.0
    margin: float = 5.0  # paper edge to the outer bleed edge, at least
    legend_band: float = 6.0  # kept free at the bottom of the page for the legend line
    duplex: str = "long"
    cut_guides: bool = False


@dataclass(frozen=True)
class Grid:
    page_w: float
    page_h: float
    cols: int
    rows: int
    x0: float  # trim corner of the top left card
    y0: float
    pitch_x: float
    pitch_y: float

    @property
    def landscape(self) -> bool:
        return self.page_w > self.page_h

    @property
    def per_page(self) -> int:
        return self.cols * self.rows


def mirrors_top_bottom(duplex: str, landscape: bool) -> bool:
    """Does turning the sheet over swap its top and bottom (as seen on the page)?"""
    return duplex != "none" and (duplex == "long") == landscape


def _fit(spec: SheetSpec, page_w: float, page_h: float) -> Grid | None:
    pitch_x, pitch_y = spec.card_w + spec.gutter, spec.card_h + spec.gutter
    room_w = page_w - 2 * spec.margin - 2 * spec.bleed
    # The legend band is at the bottom. When the backs are mirrored top to bottom the block
    # must be centred on the page to land on itself, so the band's room is kept at the top too.
    centred = mirrors_top_bottom(spec.duplex, page_w > page_h)
    bands = 2 if centred else 1
    room_h = page_h - 2 * (spec.margin + spec.bleed) - bands * spec.legend_band
    cols = int((room_w + spec.gutter + EPS) // pitch_x)
    rows = int((room_h + spec.gutter + EPS) // pitch_y)
    if cols < 1 or rows < 1:
        return None
    block_w = cols * pitch_x - spec.gutter
    block_h = rows * pitch_y - spec.gutter
    x0 = (page_w - block_w) / 2
    y0 = (page_h - block_h) / 2 if centred else (page_h - spec.legend_band - block_h) / 2
    return Grid(page_w, page_h, cols, rows, round(x0, 4), round(y0, 4), pitch_x, pitch_y)


def choose_grid(spec: SheetSpec) -> Grid:
    """Portrait or landscape, whichever holds more cards (portrait on a tie)."""
    if spec.duplex not in DUPLEX_MODES:
        raise ValueError(f"duplex must be one of {DUPLEX_MODES}, got {spec.duplex!r}")
    short, long = sorted((spec.paper_w, spec.paper_h))
    options = [g for g in (_fit(spec, short, long), _fit(spec, long, short)) if g is not None]
    if not options:
        raise ValueError(
            f"a {spec.card_w:g} x {spec.card_h:g} mm card with {spec.bleed:g} mm bleed does not "
            f"fit on {short:g} x {long:g} mm paper inside a {spec.margin:g} mm margin"
        )
    return max(options, key=lambda g: (g.per_page, not g.landscape))


def front_boxes(grid: Grid, count: int, spec: SheetSpec) -> list[TrimBox]:
    """Trim boxes of the first `count` cards of a sheet, row by row from the top left."""
    boxes = []
    for k in range(count):
        row, col = divmod(k, grid.cols)
        x = round(grid.x0 + col * grid.pitch_x, 4)
        y = round(grid.y0 + row * grid.pitch_y, 4)
        boxes.append((x, y, spec.card_w, spec.card_h))
    return boxes


def mirror(box: TrimBox, grid: Grid, duplex: str) -> TrimBox:
    """Where the back of a card whose front has trim `box` goes on the next page."""
    x, y, w, h = box
    if duplex == "none":
        return box
    if mirrors_top_bottom(duplex, grid.landscape):
        return x, round(grid.page_h - y - h, 4), w, h
    return round(grid.page_w - x - w, 4), y, w, h


def _clip(box: TrimBox, others: Sequence[TrimBox], bleed: float, gutter: float) -> TrimBox:
    """The part of a card's scene (in its own coordinates) it may paint: its trim plus bleed,
    cut back to half the gutter on every side where another card is next to it."""
    x, y, w, h = box
    # Half the gutter, plus a hairline so no paper shows between cards that share a cut line
    # (renderers anti-alias two clip edges that only meet into a faint light seam).
    share = min(bleed, gutter / 2 + SEAM)

    def near(dx: int, dy: int) -> bool:
        """Is another card next to this one on the side (dx, dy) points to?"""
        for ox, oy, ow, oh in others:
            if dx:
                gap = ox - (x + w) if dx > 0 else x - (ox + ow)
                beside = min(oy + oh, y + h) - max(oy, y) > 0
            else:
                gap = oy - (y + h) if dy > 0 else y - (oy + oh)
                beside = min(ox + ow, x + w) - max(ox, x) > 0
            if beside and abs(gap - gutter) < 0.01:
                return True
        return False

    left = share if near(-1, 0) else bleed
    right = share if near(1, 0) else bleed
    top = share if near(0, -1) else bleed
    bottom = share if near(0, 1) else bleed
    return bleed - left, bleed - top, w + left + right, h + top + bottom


def _crop_marks(
    boxes: Sequence[TrimBox], spec: SheetSpec, style: SheetStyle, page_h: float,
) -> list[Item]:
    """Marks outside the block in line with every trim edge. Marks below the block stop where
    the footer band begins (and are left out when too little of them is left): the marks above
    the block show the same cut lines."""
    left = min(b[0] for b in boxes) - spec.bleed - style.mark_offset
    right = max(b[0] + b[2] for b in boxes) + spec.bleed + style.mark_offset
    top = min(b[1] for b in boxes) - spec.bleed - style.mark_offset
    bottom = max(b[1] + b[3] for b in boxes) + spec.bleed + style.mark_offset
    footer = page_h - spec.margin - spec.legend_band
    bottom_end = min(bottom + style.mark_length, footer)
    xs = sorted({round(v, 4) for b in boxes for v in (b[0], b[0] + b[2])})
    ys = sorted({round(v, 4) for b in boxes for v in (b[1], b[1] + b[3])})
    length, color, width = style.mark_length, style.mark_color, style.mark_width
    marks: list[Item] = []
    for x in xs:
        marks.append(Line(x, top - length, x, top, color, width))
        if bottom_end - bottom >= min(1.5, length):
            marks.append(Line(x, bottom, x, round(bottom_end, 4), color, width))
    for y in ys:
        marks.append(Line(left - length, y, left, y, color, width))
        marks.append(Line(right, y, right + length, y, color, width))
    return marks


def _sheet(
    cards: Sequence[Scene], boxes: Sequence[TrimBox], grid: Grid, spec: SheetSpec,
    style: SheetStyle,
) -> Scene:
    items: list[Item] = []
    for card, box in zip(cards, boxes, strict=True):
        expected = (spec.card_w + 2 * spec.bleed, spec.card_h + 2 * spec.bleed)
        if abs(card.width - expected[0]) > 0.01 or abs(card.height - expected[1]) > 0.01:
            raise ValueError(f"card scene is {card.width} x {card.height} mm, expected {expected}")
        x, y, _, _ = box
        items.append(Group(card.items, round(x - spec.bleed, 4), round(y - spec.bleed, 4),
                           clip=_clip(box, boxes, spec.bleed, spec.gutter)))
    if spec.cut_guides:
        for x, y, w, h in boxes:
            items.append(Rect(x, y, w, h, stroke=style.guide_color, stroke_width=style.guide_width,
                              radius=style.guide_radius, dash=style.guide_dash))
    items.extend(_crop_marks(boxes, spec, style, grid.page_h))
    return Scene(grid.page_w, grid.page_h, tuple(items))


@dataclass(frozen=True)
class Sheet:
    """One page of an imposed document, with what the legend should say about it."""

    scene: Scene
    side: str  # "fronts" or "backs"
    number: int  # 1-based sheet of cards
    boxes: tuple[TrimBox, ...]  # trim boxes, in the order of the cards given


def impose(
    faces: Sequence[Scene], backs: Sequence[Scene] | None, spec: SheetSpec,
    style: SheetStyle | None = None,
) -> list[Sheet]:
    """Pages of fronts, each followed by its page of backs (when `backs` is given)."""
    style = style or SheetStyle()
    if backs is not None and len(backs) != len(faces):
        raise ValueError(f"{len(faces)} faces but {len(backs)} backs")
    grid = choose_grid(spec)
    sheets: list[Sheet] = []
    for number, start in enumerate(range(0, len(faces), grid.per_page), start=1):
        chunk = faces[start:start + grid.per_page]
        boxes = front_boxes(grid, len(chunk), spec)
        sheets.append(Sheet(_sheet(chunk, boxes, grid, spec, style), "fronts", number,
                            tuple(boxes)))
        if backs is not None:
            back_boxes = [mirror(b, grid, spec.duplex) for b in boxes]
            sheets.append(Sheet(
                _sheet(backs[start:start + grid.per_page], back_boxes, grid, spec, style),
                "backs", number, tuple(back_boxes),
            ))
    return sheets


# --- the sheet templates: how marks look, and the footer line on every page ---------------------


def sheet_style(env: jinja2.Environment) -> SheetStyle:
    """Crop mark and cut guide looks from `templates/sheet-marks.yaml.j2`."""
    layout = render_layout(env, "sheet-marks.yaml.j2", {}, what="sheet marks",
                           extra_keys=("marks", "guides"))
    marks, guides = layout.root["marks"], layout.root["guides"]
    marks.only_keys("length", "offset", "color", "width")
    guides.only_keys("radius", "color", "width", "dash")
    for node in (marks["color"], guides["color"]):
        try:
            check_color(node.str())
        except ValueError:
            raise node.error(f"not a colour: {node.value!r}") from None
    return SheetStyle(
        mark_length=marks["length"].number(0, 20), mark_offset=marks["offset"].number(0, 20),
        mark_color=marks["color"].str(), mark_width=marks["width"].number(0.01, 2),
        guide_radius=guides["radius"].number(0, 20), guide_color=guides["color"].str(),
        guide_width=guides["width"].number(0.01, 2),
        guide_dash=tuple(d.number(0, 20) for d in guides["dash"].items()),
    )


def with_footers(
    env: jinja2.Environment, pages: Sequence[tuple[Scene, str]], margin: float, band: float,
) -> list[Scene]:
    """Each page with its footer from `templates/sheet-footer.yaml.j2`: the legend line and
    "page N of M" (numbered within the document)."""
    out = []
    for number, (scene, legend) in enumerate(pages, start=1):
        layout = render_layout(
            env, "sheet-footer.yaml.j2",
            {"page": {"w": scene.width, "h": scene.height, "number": number,
                      "count": len(pages), "margin": margin, "band": band},
             "legend": legend},
            what=f"page {number}",
        )
        out.append(Scene(scene.width, scene.height, scene.items + layout.items))
    return out


def card_pages(faces: Sequence[Scene], backs: Sequence[Scene], spec: SheetSpec,
               env: jinja2.Environment, what: str) -> list[tuple[Scene, str]]:
    """Card faces and backs imposed on sheets, each with the legend its footer prints: which
    side, which sheet, and how to print and cut it."""
    sheets = impose(faces, backs, spec, sheet_style(env))
    total = max(s.number for s in sheets)
    return [(s.scene, f"{what}: {s.side}, sheet {s.number} of {total} · "
             f"{DUPLEX_LEGEND[spec.duplex]} · print at 100 % · cut on the crop marks")
            for s in sheets]


def document_files(name: str, pages: Sequence[Scene], title: str) -> dict[str, bytes]:
    """A printed document as files: `NAME.pdf` and one `svg/NAME-pNN.svg` per page."""
    out = {f"{name}.pdf": scenes_to_pdf_bytes(pages, title)}
    for k, page in enumerate(pages, start=1):
        out[f"svg/{name}-p{k:02d}.svg"] = scene_to_svg(page).encode("utf-8")
    return out
